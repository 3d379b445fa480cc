import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { appointments, caseSignings } from '../../../drizzle/schema';
import { followUpByKey, followUpForCase } from '../../../machines/forms/follow-up';
import type { FollowUpDefinition } from '../../../machines/forms/follow-up/types';
import { isCaseStatus, transitionOf, type CaseActor } from '../../../machines/rules/case-lifecycle';
import type { Language } from '../../../machines/rules/language';
import type { IamSmartSigning } from '../../adapters/iamsmart';
import type { Clock } from '../../clock';
import { ApiError, BadRequestError, ForbiddenError, NotFoundError } from '../../http/errors';
import type { CalendarService } from '../shared';
import {
  createDigestSigning,
  SignerMismatchError,
  answersHash,
  followUpManifestText,
  sha256Hex,
  SigningOutdatedError,
  type DigestSigningStore,
  type IamSmartStarted,
  type SigningStatusData,
  type EcertTrust,
} from '../signing';
import type { AuthSession } from '../auth';
import { CaseActionNotAllowedError } from './cases.errors';
import { partyQuery, requireAllowed } from './case-facts';
import { hasSignStep, parseFollowUp } from './case-follow-up';
import { waitingUploads } from './case-uploads';
import { currentCaseVersion } from './case-versions';
import * as repo from './cases.repo';

/**
 * Signing a follow-up on a case before it is submitted (Submit Supporting Document;
 * docs/decisions/019-case-versions.md): the signer signs the digest of the follow-up's manifest (its
 * answers as its schema parses them, and the SHA-256 of its files in order, api/modules/signing/signing-manifest.ts)
 * by iAM Smart or e-Cert, through the core the declaration of appointment uses (api/modules/signing/digest-signing.ts);
 * requests are rows of `case_signings`. The follow-up then names its signing (`signature`) and
 * `requireFollowUpSignature`, in the follow-up's transaction, checks it covers exactly what is submitted.
 *
 * Who signs: the applicant (iAM Smart with the HKIC of the case's information; an e-Cert in the applicant's
 * English name), or the AP/RSE of the session (iAM Smart with the HKIC they give; an e-Cert in the name of
 * their active appointment).
 */

/** What is to be signed: the follow-up's key, answers, files (and version, for an update form). */
export interface CaseSigningBody {
  followUp: string;
  answers: Record<string, unknown>;
  baseVersion?: number;
  uploads: number[];
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const actorOf = (session: AuthSession): CaseActor =>
  session.role === 'ap' || session.role === 'rse' ? session.role : 'applicant';

/**
 * The manifest and its digest for a follow-up of the case: its files must be the case's, waiting for their
 * follow-up (403 another case's; 400 unknown or taken).
 */
export async function followUpDigest(
  db: Db,
  application: { id: number; applicationNo: string },
  followUp: string,
  parsed: { answers: Record<string, unknown>; uploads: readonly number[] },
): Promise<{ manifest: string; digest: string }> {
  const files = await waitingUploads(db, application.id, parsed.uploads, {
    forType: typeof parsed.answers.documentType === 'string' ? parsed.answers.documentType : followUp,
  });
  const manifest = followUpManifestText({
    applicationNo: application.applicationNo,
    followUp,
    answersSha256: answersHash(parsed.answers),
    documents: files.map((f) => ({ documentType: f.documentType, sha256: f.sha256 })),
  });
  return { manifest, digest: sha256Hex(manifest) };
}

/**
 * In a follow-up's transaction, under the case's lock and before anything is written: a follow-up with a
 * sign step must name (`signature`) a signed signing of this case and follow-up, not used before, over
 * the digest of exactly the submitted answers and files. 409 SIGNATURE_REQUIRED when it names none (or one
 * not of this case, or used); 409 SIGNING_OUTDATED when the signing is not signed or covers something else.
 * Answers `record(actionId)`, which notes the follow-up on the signing (it serves that one only).
 */
export async function requireFollowUpSignature(
  tx: Db,
  application: { id: number; applicationNo: string },
  definition: FollowUpDefinition,
  parsed: { answers: Record<string, unknown>; uploads: readonly number[] },
  signature: string | undefined,
): Promise<{ requestId: string; record(actionId: number): Promise<void> } | undefined> {
  if (!hasSignStep(definition)) return undefined;
  const { digest } = await followUpDigest(tx, application, definition.key, parsed);
  const [row] = signature
    ? await tx
        .select()
        .from(caseSignings)
        .where(
          and(
            eq(caseSignings.applicationId, application.id),
            eq(caseSignings.followUp, definition.key),
            eq(caseSignings.requestId, signature),
          ),
        )
        .for('update')
    : [];
  if (!row || row.actionId !== null) throw new ApiError(409, 'SIGNATURE_REQUIRED', 'case.signatureRequired');
  if (row.status !== 'signed' || row.digest !== digest)
    throw new SigningOutdatedError('case.signingOutdated');
  return {
    requestId: row.requestId,
    async record(actionId) {
      await tx.update(caseSignings).set({ actionId }).where(eq(caseSignings.id, row.id));
    },
  };
}

export function createCaseSigning({
  db,
  clock,
  calendar,
  iamSmart,
  ecertTrust,
}: {
  db: Db;
  clock: Clock;
  calendar: CalendarService;
  iamSmart: IamSmartSigning;
  ecertTrust: EcertTrust;
}) {
  const core = createDigestSigning({ clock, iamSmart, ecertTrust });

  /** The case's requests in `case_signings`; a new one records who started it and what it signs. */
  const storeOf = (
    applicationId: number,
    started?: { sessionId: number; followUp: string; manifest: string },
  ): DigestSigningStore => ({
    async insert(row) {
      if (!started) throw new Error('a signing is started with what it signs');
      await db.insert(caseSignings).values({ applicationId, ...started, ...row });
    },
    async find(requestId, method) {
      const [row] = await db
        .select()
        .from(caseSignings)
        .where(
          and(
            eq(caseSignings.applicationId, applicationId),
            eq(caseSignings.requestId, requestId),
            ...(method ? [eq(caseSignings.method, method)] : []),
          ),
        );
      return row;
    },
    async finish(id, status, extra) {
      await db
        .update(caseSignings)
        .set({ status, code: extra.code ?? null, signer: extra.signer ?? null })
        .where(and(eq(caseSignings.id, id), eq(caseSignings.status, 'pending')));
    },
  });

  /**
   * What the session signs: a follow-up of the catalogue (404) its role sends (403), with a sign step
   * (400), allowed for the case now (409), its answers and files checked as the follow-up's (400, 403).
   */
  async function toSign(session: AuthSession, body: CaseSigningBody, language: Language) {
    const generic = followUpByKey(body.followUp);
    if (!generic) throw new NotFoundError('case.unknownAction');
    const actor = actorOf(session);
    if (!transitionOf(generic.event).by.includes(actor)) throw new ForbiddenError();
    const application = await repo.findApplication(db, session.applicationId);
    if (!application) throw new NotFoundError('case.notFound');
    const definition = followUpForCase(generic, application.formCode);
    const status = isCaseStatus(application.status) ? application.status : 'SUBMITTED';
    if (definition && !hasSignStep(definition)) throw new BadRequestError('case.notSigned');
    if (!definition) throw new CaseActionNotAllowedError(status, language);
    requireAllowed(status, generic.event, await partyQuery(db, application, session, clock.now()), language);
    const parsed = await parseFollowUp(db, calendar, definition, application.id, body);
    const { manifest, digest } = await followUpDigest(db, application, definition.key, parsed);
    const store = storeOf(application.id, { sessionId: session.id, followUp: definition.key, manifest });
    return { application, digest, store };
  }

  /** The case's information as it is now (the applicant's HKIC and English name). */
  const information = async (applicationId: number) => (await currentCaseVersion(db, applicationId)).answers;

  /** The HKIC iAM Smart checks: the applicant's on the case, else the one given (an AP's or RSE's own). */
  async function hkicOf(session: AuthSession, applicationId: number, given: string | undefined) {
    const onFile =
      actorOf(session) === 'applicant' ? str((await information(applicationId)).applicantHkic) : null;
    const hkic = onFile ?? given;
    if (!hkic) throw new ApiError(422, 'HKIC_REQUIRED', 'case.hkicRequired');
    return hkic;
  }

  /** Whose e-Cert it must be: the AP's or RSE's of the session, else the applicant's (English names). */
  async function signerNameOf(session: AuthSession): Promise<string> {
    if (actorOf(session) !== 'applicant') {
      const [appointment] = await db
        .select({ nameEn: appointments.nameEn })
        .from(appointments)
        .where(
          and(
            eq(appointments.applicationId, session.applicationId),
            eq(appointments.registrationNumber, session.registrationNumber ?? ''),
            eq(appointments.status, 'ACTIVE'),
          ),
        );
      return appointment?.nameEn ?? '';
    }
    const application = await repo.findApplication(db, session.applicationId);
    return (
      str((await information(session.applicationId)).applicantNameEn) ?? application?.applicantNameEn ?? ''
    );
  }

  return {
    /** Starts iAM Smart over the follow-up's digest (`hkic`: an AP's or RSE's own, 422 HKIC_REQUIRED). */
    async startIamSmart(
      session: AuthSession,
      body: CaseSigningBody & { hkic?: string },
      language: Language,
    ): Promise<IamSmartStarted> {
      const { application, digest, store } = await toSign(session, body, language);
      const hkic = await hkicOf(session, application.id, body.hkic);
      return core.startIamSmart(store, digest, hkic, language);
    },

    /** The status of one of the case's iAM Smart requests; 404 unknown or another case's. */
    iamSmartStatus(session: AuthSession, requestId: string): Promise<SigningStatusData> {
      return core.iamSmartStatus(storeOf(session.applicationId), requestId);
    },

    /** Cancels one of the case's iAM Smart requests while it is pending; 404 unknown or another case's. */
    cancelIamSmart(session: AuthSession, requestId: string): Promise<void> {
      return core.cancelIamSmart(storeOf(session.applicationId), requestId);
    },

    /** Opens an e-Cert request: the content to sign is the digest text. */
    async prepareEcert(session: AuthSession, body: CaseSigningBody, language: Language) {
      const { digest, store } = await toSign(session, body, language);
      return core.prepareEcert(store, digest);
    },

    /** Checks the uploaded signature of an open e-Cert request of the case (422 SIGNER_MISMATCH, ECERT_REJECTED). */
    async verifyEcert(session: AuthSession, requestId: string, signature: Uint8Array) {
      const name = await signerNameOf(session);
      return core.verifyEcert(storeOf(session.applicationId), requestId, signature, {
        name,
        mismatch: () => new SignerMismatchError(name, 'case.signerMismatch'),
      });
    },
  };
}

export type CaseSigning = ReturnType<typeof createCaseSigning>;
