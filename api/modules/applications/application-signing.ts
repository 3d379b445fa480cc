import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { signingRequests, type SigningRequestRow } from '../../../drizzle/schema';
import type { Language } from '../../../machines/rules/language';
import type { DocumentStorage } from '../../adapters/storage';
import { newStorageKey } from '../../adapters/storage';
import { IAM_SMART_CODES, type IamSmartSigning } from '../../adapters/iamsmart';
import { ApiError, NotFoundError, ServiceUnavailableError } from '../../http/errors';
import { addMs, type Clock } from '../../clock';
import { appendAudit, renderApplicationPdf } from '../shared';
import {
  verifyEcertSignature,
  answersHash,
  manifestDigest,
  sha256Hex,
  ECERT_WINDOW_MS,
  EcertRejectedError,
  SigningOutdatedError,
  type IamSmartStarted,
  type SigningStatus,
  type SigningStatusData,
  type EcertTrust,
} from '../signing';
import { type ReadyApplication, readyApplication } from './readiness';
import type { DocumentService } from './documents.service';
import type { DraftAccess } from './drafts.service';
import { isSignatureCurrent } from './submission-rules';

/**
 * Signing an application (spec §1, §4; docs/flows/signing.md). Starting a signing freezes what is signed
 * (api/modules/signing/signing-manifest.ts): the application PDF is rendered and stored, and the digest of the
 * manifest of it and the documents is what the applicant signs, by iAM Smart (the adapter, a sandbox
 * here) or by their Hongkong Post e-Cert (a detached CMS signature checked by api/modules/signing/ecert.ts).
 * Every request is a row of `signing_requests`, so a submission can name the signature it rests on.
 */

const HKIC_LANGUAGE: Record<Language, 'en' | 'zh-HK' | 'zh-CN'> = { en: 'en', tc: 'zh-HK', sc: 'zh-CN' };

export interface SigningService {
  startIamSmart(access: DraftAccess, language: Language): Promise<IamSmartStarted>;
  iamSmartStatus(access: DraftAccess, requestId: string): Promise<SigningStatusData>;
  cancelIamSmart(access: DraftAccess, requestId: string): Promise<void>;
  prepareEcert(access: DraftAccess, language: Language): Promise<{ digest: string; content: string }>;
  verifyEcert(access: DraftAccess, signature: Uint8Array): Promise<{ reference: string }>;
}

export function createSigningService({
  db,
  clock,
  storage,
  documents,
  iamSmart,
  ecertTrust,
}: {
  db: Db;
  clock: Clock;
  storage: DocumentStorage;
  documents: DocumentService;
  iamSmart: IamSmartSigning;
  ecertTrust: EcertTrust;
}): SigningService {
  /**
   * The application PDF of an earlier signing of the draft over the same answers and documents, in the
   * same language: a signing start reuses it instead of storing a new one (a looping client cannot fill
   * the storage, and every start over unchanged answers signs the same PDF).
   */
  async function frozenPdfOf(ready: ReadyApplication, language: Language) {
    const earlier = await db
      .select()
      .from(signingRequests)
      .where(and(eq(signingRequests.draftId, ready.draft.id), eq(signingRequests.language, language)))
      .orderBy(desc(signingRequests.id))
      .limit(20);
    const same = earlier.find((row) => isSignatureCurrent(row, ready.draft.answers, ready.documents));
    return same ? { pdfStorageKey: same.pdfStorageKey, pdfSha256: same.pdfSha256 } : undefined;
  }

  /** Renders and stores the application PDF (or reuses the one frozen before) and records what is signed. */
  async function freeze(ready: ReadyApplication, method: 'iamsmart' | 'ecert', language: Language) {
    const { draft, definition } = ready;
    let pdf = await frozenPdfOf(ready, language);
    const reused = pdf !== undefined;
    if (!pdf) {
      const bytes = await renderApplicationPdf({
        definition,
        answers: draft.answers,
        applicationNo: draft.applicationNo,
        language,
        generatedAt: clock.now(),
      });
      pdf = { pdfStorageKey: newStorageKey(), pdfSha256: sha256Hex(bytes) };
      await storage.put(pdf.pdfStorageKey, bytes);
    }
    const { pdfStorageKey, pdfSha256 } = pdf;
    const signed = ready.documents.map((d) => ({
      id: d.id,
      documentType: d.documentType,
      sha256: d.sha256,
      storageKey: d.storageKey,
      fileName: d.originalName,
      bytes: d.bytes,
    }));
    return {
      reused,
      row: {
        draftId: draft.id,
        method,
        requestId: randomBytes(16).toString('hex'),
        digest: manifestDigest({
          applicationNo: draft.applicationNo,
          formCode: definition.code,
          pdfSha256,
          documents: signed,
        }),
        answersSha256: answersHash(draft.answers),
        pdfStorageKey,
        pdfSha256,
        language,
        documents: signed,
        createdAt: clock.now(),
      },
    };
  }

  /** The newest e-Cert signing of the draft still waiting for its signature file. */
  async function openEcertRequest(draftId: number) {
    const [open] = await db
      .select()
      .from(signingRequests)
      .where(
        and(
          eq(signingRequests.draftId, draftId),
          eq(signingRequests.method, 'ecert'),
          eq(signingRequests.status, 'pending'),
        ),
      )
      .orderBy(desc(signingRequests.id))
      .limit(1);
    return open;
  }

  async function requestOf(access: DraftAccess, requestId: string, method: string) {
    const [row] = await db
      .select()
      .from(signingRequests)
      .where(
        and(
          eq(signingRequests.requestId, requestId),
          eq(signingRequests.draftId, access.id),
          eq(signingRequests.method, method),
        ),
      );
    if (!row) throw new NotFoundError('signing.notFound');
    return row;
  }

  async function complete(
    row: SigningRequestRow,
    status: SigningStatus,
    extra: { code?: string; signer?: unknown },
  ) {
    await db
      .update(signingRequests)
      .set({ status, code: extra.code ?? null, signer: extra.signer ?? null, completedAt: clock.now() })
      .where(and(eq(signingRequests.id, row.id), eq(signingRequests.status, 'pending')));
  }

  const statusOf = (row: Pick<SigningRequestRow, 'status' | 'code' | 'requestId'>): SigningStatusData => ({
    status: row.status as SigningStatus,
    ...(row.code ? { code: row.code } : {}),
    ...(row.status === 'signed' ? { reference: row.requestId } : {}),
  });

  return {
    async startIamSmart(access, language) {
      const ready = await readyApplication(db, documents, access, clock.now());
      // iAM Smart checks that the signer is the applicant by their HKIC (D70005): without one there is
      // nothing to check against, so the applicant enters it in Part A or signs with an e-Cert.
      const hkic = typeof ready.answers.applicantHkic === 'string' ? ready.answers.applicantHkic.trim() : '';
      if (!hkic) throw new ApiError(422, 'HKIC_REQUIRED', 'signing.hkicRequired');
      const { row: frozen, reused } = await freeze(ready, 'iamsmart', language);
      // A PDF stored for this request only goes again when the request fails; a reused one stays.
      const dropPdf = () =>
        reused ? Promise.resolve() : storage.remove(frozen.pdfStorageKey).catch(() => undefined);
      let answer;
      try {
        answer = await iamSmart.requestSigning({
          hash: frozen.digest,
          hkicHash: sha256Hex(hkic.toUpperCase()),
          language: HKIC_LANGUAGE[language],
          state: frozen.requestId,
        });
      } catch {
        await dropPdf();
        throw new ServiceUnavailableError('signing.unavailable');
      }
      if (answer.code !== IAM_SMART_CODES.success || !answer.content) {
        await dropPdf();
        throw new ServiceUnavailableError('signing.unavailable', { code: answer.code });
      }
      const { txId, identificationCode, qrText, expiresAt } = answer.content;
      await db.insert(signingRequests).values({
        ...frozen,
        externalId: txId,
        identificationCode,
        status: 'pending',
        expiresAt: new Date(expiresAt),
      });
      return { requestId: frozen.requestId, identificationCode, qrText, expiresAt, digest: frozen.digest };
    },

    async iamSmartStatus(access, requestId) {
      const row = await requestOf(access, requestId, 'iamsmart');
      if (row.status !== 'pending') return statusOf(row);
      if (clock.now() >= row.expiresAt) {
        await complete(row, 'expired', {});
        return { status: 'expired' };
      }
      let result;
      try {
        result = await iamSmart.getSigningResult(row.externalId ?? '');
      } catch {
        // The service could not be asked this time: the screen asks again.
        return { status: 'pending' };
      }
      const outcome = outcomeOf(result.code);
      if (outcome === 'pending') return { status: 'pending' };
      if (outcome === 'signed') {
        await complete(row, 'signed', { signer: { method: 'iamsmart', ...(result.content ?? {}) } });
      } else {
        await complete(row, outcome, { code: outcome === 'failed' ? result.code : undefined });
      }
      // The poll that saw the end records it (later polls answer the stored status).
      await appendAudit(db, {
        at: clock.now(),
        actor: 'applicant',
        actorRef: `draft:${access.id}`,
        event: 'signing.complete',
        reference: access.applicationNo,
        after: { outcome: outcome === 'signed' ? 'ok' : 'refused', method: 'iamsmart', code: outcome },
      });
      const [after] = await db.select().from(signingRequests).where(eq(signingRequests.id, row.id));
      return statusOf(after ?? row);
    },

    async cancelIamSmart(access, requestId) {
      const row = await requestOf(access, requestId, 'iamsmart');
      if (row.status !== 'pending') return;
      await iamSmart.cancelSigning(row.externalId ?? '').catch(() => undefined);
      await complete(row, 'cancelled', {});
    },

    async prepareEcert(access, language) {
      const ready = await readyApplication(db, documents, access, clock.now());
      // The open e-Cert signing over the same answers and files is reused (the same hash to sign).
      const open = await openEcertRequest(access.id);
      if (
        open &&
        clock.now() < open.expiresAt &&
        isSignatureCurrent(open, ready.draft.answers, ready.documents)
      )
        return { digest: open.digest, content: open.digest };
      const { row: frozen } = await freeze(ready, 'ecert', language);
      await db.insert(signingRequests).values({
        ...frozen,
        status: 'pending',
        expiresAt: addMs(clock.now(), ECERT_WINDOW_MS),
      });
      return { digest: frozen.digest, content: frozen.digest };
    },

    async verifyEcert(access, signature) {
      const ready = await readyApplication(db, documents, access, clock.now());
      const open = await openEcertRequest(access.id);
      if (!open || clock.now() >= open.expiresAt) throw new NotFoundError('signing.notFound');
      if (!isSignatureCurrent(open, ready.draft.answers, ready.documents)) throw new SigningOutdatedError();
      const signerName =
        typeof ready.answers.applicantNameEn === 'string' ? ready.answers.applicantNameEn : '';
      const result = await verifyEcertSignature(
        signature,
        { content: new TextEncoder().encode(open.digest), signerName },
        ecertTrust,
        clock.now(),
      );
      if (!result.ok) throw new EcertRejectedError(result.reason);
      await complete(open, 'signed', {
        signer: {
          method: 'ecert',
          subject: result.signer.subject,
          serialNumber: result.signer.serialNumber,
          issuer: result.signer.issuer,
        },
      });
      return { reference: open.requestId };
    },
  };
}

/** The iAM Smart answer code as our status. */
function outcomeOf(code: string): SigningStatus | 'pending' {
  switch (code) {
    case IAM_SMART_CODES.success:
      return 'signed';
    case IAM_SMART_CODES.pending:
      return 'pending';
    case IAM_SMART_CODES.expired:
      return 'expired';
    case IAM_SMART_CODES.cancelled:
      return 'cancelled';
    default:
      return 'failed';
  }
}
