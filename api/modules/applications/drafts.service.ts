import { readVariable } from '../../config';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../drizzle/db';
import {
  type ContactChannel,
  type ContactCodeSentData,
  type ContactSendRequest,
  type ContactVerifiedData,
  type ContactVerifyRequest,
  DEFAULT_DRAFT_VALIDITY_DAYS,
  type DraftAnswers,
  type DraftCreateRequest,
  type DraftCreatedData,
  type DraftData,
  type DraftResumedData,
  type DraftSaveRequest,
  type DraftSavedData,
} from '../../../machines/rules/drafts';
import type { Language } from '../../../machines/rules/language';
import {
  type OtpSendRequest,
  type OtpSentData,
  type OtpVerifyRequest,
  normaliseApplicationNo,
} from '../../../machines/rules/otp';
import { type Clock, HOUR_MS, addMs } from '../../clock';
import {
  DraftExpiredError,
  DraftStaleError,
  DraftSubmittedError,
  ForbiddenError,
  UnauthorizedError,
} from '../../http/errors';
import {
  type DraftContent,
  type DraftHead,
  deleteExpiredDrafts,
  draftOfToken,
  findDraftContact,
  insertDraft,
  insertDraftToken,
  prepareSaveIfCurrent,
  readDraft,
  recordVerifiedContact,
} from './drafts.repo';
import { hashToken, type OtpService, type OtpPurpose } from '../auth';
import { contactFor, contactOf, kindOf, partyOf, verifiedContactsOf } from '../../../machines/rules/contacts';
import { fieldError } from '../../http/field-errors';
import {
  ContactMissingError,
  draftFormCode,
  hongKongYear,
  maskContact,
  validateDraftAnswers,
} from './drafts.rules';

// ===================================================================================================

export const DAY_MS = 24 * HOUR_MS;

/** DRAFT_VALIDITY_DAYS: a whole number of days from 1 to 365; unset means 14 (api/config.ts). */
export function draftValidityDaysFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return readVariable('DRAFT_VALIDITY_DAYS', env);
}

/** 32 random bytes in base64url, as session tokens. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const newToken = () => randomBytes(32).toString('base64url');

/**
 * The applicant's and the contact person's confirmations are codes of their own purposes, so that
 * confirming the one does not make the other wait the minute between two codes.
 */
const contactPurpose = (channel: ContactChannel): OtpPurpose =>
  partyOf(channel) === 'applicant' ? 'contact' : 'contactPerson';

/** The draft a request's token opens (res.locals.draft): its head, and the token's hash. */
export interface DraftAccess extends DraftHead {
  tokenHash: string;
}

/**
 * What a token opens, kept in memory for a while so that a save is one statement. Only what never
 * changes for a token (the draft's id, number and form) is trusted from here; everything else is checked
 * again by the save's conditional UPDATE (version, validity, submission, and that the token still opens
 * the draft). The cached validity is only a hint: it only ever grows, so when the cache says "still
 * valid" it is; when it says "expired", the database is asked (another process may have saved since).
 */
class TokenCache {
  private readonly entries = new Map<string, { access: DraftAccess; at: number }>();

  constructor(
    private readonly maxEntries = 10_000,
    private readonly ttlMs = 5 * 60_000,
  ) {}

  get(tokenHash: string): DraftAccess | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (performance.now() - entry.at > this.ttlMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.access;
  }

  set(access: DraftAccess): void {
    this.entries.delete(access.tokenHash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(access.tokenHash, { access, at: performance.now() });
  }

  delete(tokenHash: string): void {
    this.entries.delete(tokenHash);
  }
}

export interface DraftServiceOptions {
  db: Db;
  clock: Clock;
  otp: OtpService;
  /** Days a draft stays valid after its last save. Default 14 (env DRAFT_VALIDITY_DAYS via the app). */
  validityDays?: number;
}

export interface DraftService {
  readonly validityDays: number;
  /** Issues the application number and the first token. 400 for an unknown form. */
  create(request: DraftCreateRequest, language: Language): Promise<DraftCreatedData>;
  /**
   * The draft a bearer token opens, which must be the one named in the path: 401 without a token or with
   * one that opens nothing; 403 when it opens another draft (the same whether or not the number named
   * exists); 410 when the draft has expired.
   */
  authorise(
    token: string | undefined,
    applicationNo: string,
    options?: {
      /** Skip the validity check: the submission's own routes apply the download window instead. */
      anyValidity?: boolean;
    },
  ): Promise<DraftAccess>;
  read(access: DraftAccess): Promise<DraftData>;
  /** Saves over `request.version`: 409 DRAFT_STALE (nothing written) when that is no longer current. */
  save(access: DraftAccess, request: DraftSaveRequest, language: Language): Promise<DraftSavedData>;
  /** A one-time code to the draft's contact; the same answer whether or not the draft exists. */
  sendResumeCode(request: OtpSendRequest): Promise<OtpSentData>;
  /** Checks the code and issues a new token for the draft (earlier tokens keep working). */
  resume(request: OtpVerifyRequest): Promise<DraftResumedData>;
  /**
   * A one-time code (purpose 'contact') to the draft's applicant email or mobile as last saved: 400
   * CONTACT_MISSING without one; the OTP limits (429) as for the login and resume; 409 when submitted.
   */
  sendContactCode(access: DraftAccess, request: ContactSendRequest): Promise<ContactCodeSentData>;
  /**
   * Checks a code sent by `sendContactCode` for the same channel and current address and records the
   * contact as verified: 422 OTP_WRONG / OTP_BURNT, 410 OTP_EXPIRED, 429 OTP_LOCKED as the OTP service.
   */
  verifyContact(access: DraftAccess, request: ContactVerifyRequest): Promise<ContactVerifiedData>;
  /** Deletes the drafts expired at `now` (default: the clock's now). */
  purgeExpired(now?: Date): Promise<number>;
}

export function createDraftService({
  db,
  clock,
  otp,
  validityDays = DEFAULT_DRAFT_VALIDITY_DAYS,
}: DraftServiceOptions): DraftService {
  const validUntilFrom = (now: Date) => addMs(now, validityDays * DAY_MS);
  const saveIfCurrent = prepareSaveIfCurrent(db);
  const tokens = new TokenCache();
  const content = (answers: DraftAnswers, step: number | null, language: Language): DraftContent => ({
    answers,
    step,
    language,
    ...contactOf(answers),
  });

  /** The draft and its current answer for `channel`; 400 CONTACT_MISSING without one, 409 when submitted. */
  async function contactToConfirm(access: DraftAccess, channel: ContactChannel) {
    const draft = await readDraft(db, access.id);
    if (!draft) throw new UnauthorizedError('drafts.unauthorized');
    if (draft.submittedAt) throw new DraftSubmittedError();
    const value = contactFor(draft.answers, channel);
    if (value === null) throw new ContactMissingError(channel);
    return { draft, value };
  }

  return {
    validityDays,

    async create(request, language) {
      const formCode = draftFormCode(request.formKey);
      if (formCode === undefined) throw fieldError(['formKey'], 'validation.formKey.unknown');
      const answers = validateDraftAnswers(request.formKey, request.answers ?? {});
      const now = clock.now();
      const validUntil = validUntilFrom(now);
      const token = newToken();
      const applicationNo = await db.transaction(async (tx) => {
        const draft = await insertDraft(tx, {
          ...content(answers, request.step ?? null, language),
          formKey: request.formKey,
          formCode,
          year: hongKongYear(now),
          now,
          validUntil,
        });
        await insertDraftToken(tx, {
          tokenHash: hashToken(token),
          draftId: draft.id,
          issuedFor: 'create',
          createdAt: now,
        });
        return draft.applicationNo;
      });
      return { applicationNo, version: 1, validUntil: validUntil.toISOString(), token };
    },

    async authorise(token, applicationNo, options = {}) {
      if (!token || !TOKEN_PATTERN.test(token)) throw new UnauthorizedError('drafts.unauthorized');
      const tokenHash = hashToken(token);
      const now = clock.now();
      let access = tokens.get(tokenHash);
      if (!access || access.validUntil <= now || access.submittedAt) {
        const head = await draftOfToken(db, tokenHash);
        if (!head) {
          tokens.delete(tokenHash);
          throw new UnauthorizedError('drafts.unauthorized');
        }
        access = { ...head, tokenHash };
        tokens.set(access);
      }
      if (access.applicationNo !== normaliseApplicationNo(applicationNo))
        throw new ForbiddenError('drafts.forbidden');
      if (!options.anyValidity && access.validUntil <= now) throw new DraftExpiredError(validityDays);
      return access;
    },

    async read(access) {
      const draft = await readDraft(db, access.id);
      // Purged between the two queries: the token no longer opens anything.
      if (!draft) throw new UnauthorizedError('drafts.unauthorized');
      return {
        applicationNo: draft.applicationNo,
        formKey: draft.formKey,
        answers: draft.answers,
        step: draft.step,
        version: draft.version,
        validUntil: draft.validUntil.toISOString(),
        updatedAt: draft.updatedAt.toISOString(),
        verifiedContacts: verifiedContactsOf(draft.answers, draft.verifiedContacts),
        submittedAt: draft.submittedAt?.toISOString() ?? null,
      };
    },

    async save(access, request, language) {
      if (access.submittedAt) throw new DraftSubmittedError();
      const answers = validateDraftAnswers(access.formKey, request.answers);
      const now = clock.now();
      const saved = await saveIfCurrent({
        ...content(answers, request.step, language),
        id: access.id,
        tokenHash: access.tokenHash,
        version: request.version,
        now,
        validUntil: validUntilFrom(now),
      });
      if (saved) {
        tokens.set({ ...access, version: saved.version, updatedAt: now, validUntil: saved.validUntil });
        return { version: saved.version, validUntil: saved.validUntil.toISOString() };
      }

      // Nothing was written: say why, from the database as it is now (expiry and submission first).
      const state = await draftOfToken(db, access.tokenHash);
      if (!state) {
        tokens.delete(access.tokenHash);
        throw new UnauthorizedError('drafts.unauthorized');
      }
      tokens.set({ ...state, tokenHash: access.tokenHash });
      if (state.validUntil <= now) throw new DraftExpiredError(validityDays);
      if (state.submittedAt) throw new DraftSubmittedError();
      throw new DraftStaleError({ currentVersion: state.version, updatedAt: state.updatedAt.toISOString() });
    },

    sendResumeCode(request) {
      return otp.send(request, 'resume', findDraftContact);
    },

    async resume(request) {
      const now = clock.now();
      const token = newToken();
      // Runs in the transaction that uses the code up: the token exists only if the code was right.
      const outcome = await otp.verify(
        request,
        async (tx, draftId) => {
          const draft = await readDraft(tx, draftId);
          if (!draft || draft.submittedAt) return { kind: 'submitted' } as const;
          if (draft.validUntil <= now) return { kind: 'expired' } as const;
          await insertDraftToken(tx, {
            tokenHash: hashToken(token),
            draftId,
            issuedFor: 'resume',
            createdAt: now,
          });
          return { kind: 'resumed', draft } as const;
        },
        'resume',
      );
      // Thrown after the transaction, so that the right code is used up all the same.
      if (outcome.kind === 'expired') throw new DraftExpiredError(validityDays);
      if (outcome.kind === 'submitted') throw new DraftSubmittedError();
      const { draft } = outcome;
      return {
        token,
        applicationNo: draft.applicationNo,
        formKey: draft.formKey,
        step: draft.step,
        version: draft.version,
        validUntil: draft.validUntil.toISOString(),
      };
    },

    async sendContactCode(access, request) {
      const { draft, value } = await contactToConfirm(access, request.channel);
      const contact = { kind: kindOf(request.channel), value };
      // The code goes to the address on file for this channel, which is `value`: the drafts' lookup for
      // the applicant (as for resume), the answers for the contact person.
      const sent = await otp.send(
        { applicationNo: draft.applicationNo, contact },
        contactPurpose(request.channel),
        partyOf(request.channel) === 'applicant'
          ? findDraftContact
          : async (tx, applicationNo) => {
              const row = await findDraftContact(tx, applicationNo);
              return row && { ...row, email: value, mobile: value };
            },
      );
      return { ...sent, to: maskContact(request.channel, value) };
    },

    async verifyContact(access, request) {
      const { draft, value } = await contactToConfirm(access, request.channel);
      const now = clock.now();
      // The challenge is bound to the number, this channel's current address and its purpose: a code
      // for another channel, an earlier address, or another purpose finds no live code (410).
      const stored = await otp.verify(
        {
          applicationNo: draft.applicationNo,
          contact: { kind: kindOf(request.channel), value },
          code: request.code,
        },
        async (tx, draftId) => {
          if (draftId !== draft.id) return undefined;
          return recordVerifiedContact(tx, { id: draftId, channel: request.channel, value, at: now });
        },
        contactPurpose(request.channel),
      );
      // Purged between the two statements: the token no longer opens anything.
      if (!stored) throw new UnauthorizedError('drafts.unauthorized');
      return { verifiedContacts: verifiedContactsOf(stored.answers, stored.verifiedContacts) };
    },

    async purgeExpired(now = clock.now()) {
      return (await deleteExpiredDrafts(db, now)).count;
    },
  };
}
