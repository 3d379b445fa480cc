import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Db } from '../../../drizzle/db';
import { isLanguage } from '../../../machines/rules/language';
import {
  BURNS_BEFORE_LOCK,
  type Contact,
  LOCK_MINUTES,
  MAX_ATTEMPTS,
  MAX_SENDS_PER_ADDRESS_PER_HOUR,
  MAX_SENDS_PER_HOUR,
  OTP_LENGTH,
  OTP_TTL_SECONDS,
  type OtpSentData,
  RESEND_AFTER_SECONDS,
  contactKey,
  normaliseEmail,
} from '../../../machines/rules/otp';
import { type Clock, HOUR_MS, MINUTE_MS, SECOND_MS, addMs } from '../../clock';
import { OtpBurntError, OtpExpiredError, OtpWrongError, TooManyRequestsError } from '../../http/errors';
import type { MessageService } from '../shared';
import {
  type ApplicationContact,
  type ContactLookup,
  type OtpPurpose,
  addRateEvents,
  burnsSince,
  consumeChallenge,
  findApplicationContact,
  findLiveChallenge,
  insertChallenge,
  newestChallengeAt,
  lockKey,
  pruneRateEvents,
  rateWindow,
  recordWrongAttempt,
  supersedeLive,
} from './otp.repo';
import { normaliseHkMobile } from '../../../machines/rules/phone';

/** What the applicant typed, already normalised by the shared schema (machines/rules/otp.ts). */
export interface OtpRequest {
  applicationNo: string;
  contact: Contact;
}

export interface OtpServiceOptions {
  db: Db;
  clock: Clock;
  /** HMAC key of every hash this service stores (env OTP_SECRET). */
  secret: string | Buffer;
  messages: MessageService;
  logger: Logger;
  /**
   * Every send answer (success or limit) takes at least this long in real time, so that its timing
   * does not tell whether the application exists or the contact matches. Default 300 ms.
   */
  minSendDurationMs?: number;
}

export interface OtpService {
  /**
   * Sends a code when the application exists and the contact is one of its own; answers the same either
   * way. `lookup` finds who is on file (default: the applications table; resume passes the drafts').
   */
  send(request: OtpRequest, purpose?: OtpPurpose, lookup?: ContactLookup): Promise<OtpSentData>;
  /**
   * Checks the code and uses it. On success runs `onVerified` inside the same transaction (to open the
   * session), so a code opens exactly one session however many requests race. `subjectId` is the id the
   * lookup found at send time: an application's, or a draft's for purpose 'resume'.
   */
  verify<T>(
    request: OtpRequest & { code: string },
    onVerified: (tx: Db, subjectId: number) => Promise<T>,
    purpose?: OtpPurpose,
  ): Promise<T>;
  /**
   * Checks several codes together (a change of contact: the old contact's and the new one's): all are used,
   * and `onVerified` runs, only when all are right; a wrong one counts against its own request and leaves
   * the others live. The error thrown carries `index`, the request it is about.
   */
  verifyAll<T>(
    requests: readonly (OtpRequest & { code: string })[],
    onVerified: (tx: Db, subjectIds: number[]) => Promise<T>,
    purpose?: OtpPurpose,
  ): Promise<T>;
}

export const DEFAULT_MIN_SEND_DURATION_MS = 300;

const SENT: OtpSentData = Object.freeze({
  resendAfterSeconds: RESEND_AFTER_SECONDS,
  expiresInSeconds: OTP_TTL_SECONDS,
});

/** A uniformly random code of OTP_LENGTH digits (leading zeros kept). */
export function generateCode(): string {
  return String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
}

/**
 * Where a code for the typed contact goes, or undefined when the contact is not the application's: its
 * email (case-insensitive) or mobile (digits only), whether confirmed at submission or only given on the
 * application (docs/decisions/005-one-time-codes.md, "Which contact"). The address on file, not the one typed.
 */
export function deliveryAddress(application: ApplicationContact, contact: Contact): string | undefined {
  const normalise = contact.kind === 'email' ? normaliseEmail : normaliseHkMobile;
  const candidates =
    contact.kind === 'email'
      ? [application.email, application.given?.email]
      : [application.mobile, application.given?.mobile];
  return candidates.find((c): c is string => !!c && normalise(c) === contact.value);
}

const secondsUntil = (later: Date, now: Date) => Math.ceil((later.getTime() - now.getTime()) / SECOND_MS);

/** The 429 that applies to this application number and contact now, if any. Runs in the send's transaction. */
async function limitFor(
  tx: Db,
  keys: { application: string; address: string },
  purpose: OtpPurpose,
  now: Date,
): Promise<TooManyRequestsError | undefined> {
  const hourAgo = addMs(now, -HOUR_MS);
  const locked = await lockedUntil(tx, keys.application, now);
  if (locked) return new TooManyRequestsError('OTP_LOCKED', secondsUntil(locked, now));

  // A new code for the same number and purpose (whatever the contact) waits a minute after the last one;
  // a code for another purpose (the resume code, then the contact confirmation) does not wait for it.
  const newest = await newestChallengeAt(tx, keys.application, purpose);
  if (newest) {
    const resendAt = addMs(newest, RESEND_AFTER_SECONDS * SECOND_MS);
    if (resendAt > now) return new TooManyRequestsError('OTP_RESEND_TOO_SOON', secondsUntil(resendAt, now));
  }
  const perApplication = await rateWindow(tx, keys.application, 'otp.send.application', hourAgo);
  if (perApplication.events >= MAX_SENDS_PER_HOUR && perApplication.oldest) {
    return new TooManyRequestsError(
      'OTP_RATE_LIMITED',
      secondsUntil(addMs(perApplication.oldest, HOUR_MS), now),
    );
  }
  const perAddress = await rateWindow(tx, keys.address, 'otp.send.address', hourAgo);
  if (perAddress.events >= MAX_SENDS_PER_ADDRESS_PER_HOUR && perAddress.oldest) {
    return new TooManyRequestsError('OTP_RATE_LIMITED', secondsUntil(addMs(perAddress.oldest, HOUR_MS), now));
  }
  return undefined;
}

/** BURNS_BEFORE_LOCK burnt codes within an hour lock the number for LOCK_MINUTES after the last burn. */
async function lockedUntil(tx: Db, applicationKeyHash: string, now: Date): Promise<Date | undefined> {
  const { burns, lastBurntAt } = await burnsSince(tx, applicationKeyHash, addMs(now, -HOUR_MS));
  if (burns < BURNS_BEFORE_LOCK || !lastBurntAt) return undefined;
  const until = addMs(lastBurntAt, LOCK_MINUTES * MINUTE_MS);
  return until > now ? until : undefined;
}

type VerifyFailure = OtpExpiredError | OtpWrongError | OtpBurntError | TooManyRequestsError;
/** `index`: which of the requests checked together the failure is about. */
type VerifyOutcome<T> = { ok: true; value: T } | { ok: false; error: VerifyFailure; index: number };

/**
 * The stored names of a request and its code: HMAC-SHA-256 under the secret, so that nothing in the
 * database (application numbers, addresses, codes) can be read back or tried offline without it.
 */
export function createOtpHasher(secret: string | Buffer) {
  const hmac = (domain: string, value: string) =>
    createHmac('sha256', secret).update(`${domain}\u0000${value}`).digest('hex');
  return {
    keysOf: (request: OtpRequest, purpose: OtpPurpose) => {
      const contact = contactKey(request.contact);
      return {
        /** The unit of the per-application limits and the lockout, known or not. */
        application: hmac('application', request.applicationNo),
        /** The unit of the per-address limit. */
        address: hmac('address', contact),
        /** What a code is bound to: this number, this contact, this purpose. */
        challenge: hmac(`challenge:${purpose}`, `${request.applicationNo}\u0000${contact}`),
      };
    },
    codeHash: (challengeKey: string, code: string) => hmac('code', `${challengeKey}\u0000${code}`),
  };
}

export function createOtpService(options: OtpServiceOptions): OtpService {
  const { db, clock, messages } = options;
  const minSendDurationMs = options.minSendDurationMs ?? DEFAULT_MIN_SEND_DURATION_MS;
  const { keysOf, codeHash } = createOtpHasher(options.secret);

  async function padFrom(startedAt: number): Promise<void> {
    const left = minSendDurationMs - (performance.now() - startedAt);
    if (left > 0) await sleep(left);
  }

  /**
   * Checks every code in one transaction and uses them all only when all are right (a holder's change of
   * contact: the old contact's code and the new one's). A wrong code counts against its own request only,
   * and the right ones stay live for the next try. The error names the request it is about (`index`).
   */
  async function verifyAll<T>(
    requests: readonly (OtpRequest & { code: string })[],
    onVerified: (tx: Db, subjectIds: number[]) => Promise<T>,
    purpose: OtpPurpose = 'login',
  ): Promise<T> {
    const now = clock.now();
    const outcome = await db.transaction(async (tx): Promise<VerifyOutcome<T>> => {
      const checked = [];
      // Locked in the order given: the same order for every caller of the same pair.
      for (const [index, request] of requests.entries()) {
        const keys = keysOf(request, purpose);
        await lockKey(tx, keys.application);
        const locked = await lockedUntil(tx, keys.application, now);
        if (locked) {
          const error = new TooManyRequestsError('OTP_LOCKED', secondsUntil(locked, now));
          return { ok: false, error, index };
        }
        const challenge = await findLiveChallenge(tx, keys.challenge, purpose, now);
        // Hash a code even when there is nothing to compare with, so both paths do the same work.
        const expected = Buffer.from(challenge?.codeHash ?? randomBytes(32).toString('hex'), 'hex');
        const given = Buffer.from(codeHash(keys.challenge, request.code), 'hex');
        const right = expected.length === given.length && timingSafeEqual(expected, given);
        checked.push({ index, challenge, right });
      }
      let failure: VerifyOutcome<T> | undefined;
      for (const { index, challenge, right } of checked) {
        let error: VerifyFailure | undefined;
        if (!challenge) error = new OtpExpiredError();
        else if (!right || (challenge.applicationId ?? challenge.draftId) === null) {
          // A wrong code, or the never-sent code of a request that did not match: a wrong try either way.
          const attempts = await recordWrongAttempt(tx, challenge.id, now, MAX_ATTEMPTS);
          if (attempts === undefined) error = new OtpExpiredError();
          else if (attempts >= MAX_ATTEMPTS) error = new OtpBurntError();
          else error = new OtpWrongError(MAX_ATTEMPTS - attempts);
        }
        if (error && !failure) failure = { ok: false, error, index };
      }
      if (failure) return failure;
      const subjectIds: number[] = [];
      for (const { index, challenge } of checked) {
        if (!challenge || !(await consumeChallenge(tx, challenge.id, now)))
          return { ok: false, error: new OtpExpiredError(), index };
        subjectIds.push(challenge.applicationId ?? challenge.draftId ?? 0);
      }
      return { ok: true, value: await onVerified(tx, subjectIds) };
    });
    // Thrown only now: a wrong try must be committed, not rolled back with the transaction.
    if (!outcome.ok) throw Object.assign(outcome.error, { index: outcome.index });
    return outcome.value;
  }

  return {
    async send(request, purpose = 'login', lookup = findApplicationContact) {
      const startedAt = performance.now();
      try {
        const keys = keysOf(request, purpose);
        // The code is drawn and hashed whatever happens next: the same work for every request.
        const code = generateCode();
        const hashed = codeHash(keys.challenge, code);
        const now = clock.now();

        const outcome = await db.transaction(async (tx) => {
          await lockKey(tx, keys.application);
          const limited = await limitFor(tx, keys, purpose, now);
          if (limited) return { limited } as const;

          const application = await lookup(tx, request.applicationNo);
          const address = application && deliveryAddress(application, request.contact);
          const matches = application !== undefined && address !== undefined;
          const isDraft = application?.subject === 'draft';
          await supersedeLive(tx, keys.challenge, purpose, now);
          // A request that does not match stores a code all the same (never sent), so that verifying
          // answers "wrong code" for it exactly as for a real one.
          const challengeId = await insertChallenge(tx, {
            keyHash: keys.challenge,
            applicationKeyHash: keys.application,
            applicationId: matches && !isDraft ? application.id : null,
            draftId: matches && isDraft ? application.id : null,
            purpose,
            codeHash: hashed,
            createdAt: now,
            expiresAt: addMs(now, OTP_TTL_SECONDS * SECOND_MS),
          });
          await addRateEvents(tx, [
            { key: keys.application, kind: 'otp.send.application', at: now },
            { key: keys.address, kind: 'otp.send.address', at: now },
          ]);
          await pruneRateEvents(tx, [keys.application, keys.address], addMs(now, -HOUR_MS));
          const deliverTo = matches ? { application, address } : undefined;
          return { limited: undefined, challengeId, deliverTo } as const;
        });
        if (outcome.limited) throw outcome.limited;

        const { challengeId, deliverTo } = outcome;
        if (deliverTo) {
          // Queued (a durable job), not sent here: sending (SMTP can be slow) does not show in the
          // answer's timing, and the message survives a crash of this process.
          const { application } = deliverTo;
          await messages.sendOtp({
            channel: request.contact.kind === 'email' ? 'email' : 'sms',
            // The address on file, not the one typed.
            to: deliverTo.address,
            language: isLanguage(application.language) ? application.language : 'tc',
            applicationNo: application.applicationNo,
            code,
            purpose,
            challengeId,
          });
        }
        return SENT;
      } finally {
        await padFrom(startedAt);
      }
    },

    verify(request, onVerified, purpose = 'login') {
      return verifyAll([request], (tx, [subjectId]) => onVerified(tx, subjectId ?? 0), purpose);
    },
    verifyAll,
  };
}
