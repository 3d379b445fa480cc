import { randomBytes } from 'node:crypto';
import type { Language } from '../../../machines/rules/language';
import { IAM_SMART_CODES, sha256Hex, type IamSmartSigning } from '../../adapters/iamsmart';
import { type Clock, addMs } from '../../clock';
import { ApiError, NotFoundError, ServiceUnavailableError } from '../../http/errors';
import type { ApiMessageKey } from '../../http/i18n';
import { verifyEcertSignature } from './ecert';
import {
  ECERT_WINDOW_MS,
  EcertRejectedError,
  type IamSmartStarted,
  type SigningStatusData,
} from './signing.types';
import type { EcertTrust } from './ecert-trust';

/**
 * Signing a digest someone has been shown (the SHA-256 hex of a declaration or a manifest), by iAM Smart
 * (the adapter, a sandbox here) or by e-Cert (a detached CMS signature over the digest text, checked by
 * api/modules/signing/ecert.ts). One core for the signings that are not a draft's: the declaration of
 * appointment (api/modules/appointments/appointment-signing.ts) and a follow-up on a case
 * (api/modules/cases/case-signing.ts). Each keeps its rows in its own table, given here as a small store.
 */

/** A signing request as the core needs it (a row of `appointment_signings`, `case_signings` ...). */
export interface DigestSigningRow {
  id: number;
  requestId: string;
  externalId: string | null;
  digest: string;
  status: string;
  code: string | null;
  expiresAt: Date;
}

/** Where a kind of signing keeps its requests; rows of one owner only (an appointment, a case). */
export interface DigestSigningStore {
  insert(row: {
    method: 'iamsmart' | 'ecert';
    requestId: string;
    externalId?: string;
    identificationCode?: string;
    digest: string;
    status: 'pending';
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void>;
  /** The owner's request, of that method when given; undefined when it is not the owner's. */
  find(requestId: string, method?: 'iamsmart' | 'ecert'): Promise<DigestSigningRow | undefined>;
  /** Ends a pending request (a request no longer pending is left as it is). */
  finish(id: number, status: string, extra: { code?: string; signer?: unknown }): Promise<void>;
}

/** 422 SIGNER_MISMATCH: the e-Cert holder is not the person who must sign; the message names them. */
export class SignerMismatchError extends ApiError {
  constructor(name: string, messageKey: ApiMessageKey = 'appointment.signerMismatch') {
    super(422, 'SIGNER_MISMATCH', messageKey, { reason: 'name-mismatch' }, { params: { name } });
  }
}

const HKIC_LANGUAGE: Record<Language, 'en' | 'zh-HK' | 'zh-CN'> = { en: 'en', tc: 'zh-HK', sc: 'zh-CN' };

/** The hash of an HKIC as iAM Smart compares it (upper case, no brackets). */
export const hkicHash = (hkic: string) => sha256Hex(hkic.toUpperCase().replace(/[()]/g, ''));

export function createDigestSigning({
  clock,
  iamSmart,
  ecertTrust,
}: {
  clock: Clock;
  iamSmart: IamSmartSigning;
  ecertTrust: EcertTrust;
}) {
  async function found(store: DigestSigningStore, requestId: string, method?: 'iamsmart' | 'ecert') {
    const row = await store.find(requestId, method);
    if (!row) throw new NotFoundError('signing.notFound');
    return row;
  }

  return {
    /** Asks iAM Smart to sign `digest` on the phone of the holder of `hkic`; 503 when it cannot be reached. */
    async startIamSmart(
      store: DigestSigningStore,
      digest: string,
      hkic: string,
      language: Language,
    ): Promise<IamSmartStarted> {
      const requestId = randomBytes(16).toString('hex');
      const answer = await iamSmart
        .requestSigning({
          hash: digest,
          hkicHash: hkicHash(hkic),
          language: HKIC_LANGUAGE[language],
          state: requestId,
        })
        .catch(() => undefined);
      if (!answer || answer.code !== IAM_SMART_CODES.success || !answer.content)
        throw new ServiceUnavailableError('signing.unavailable');
      const { txId, identificationCode, qrText, expiresAt } = answer.content;
      await store.insert({
        method: 'iamsmart',
        requestId,
        externalId: txId,
        identificationCode,
        digest,
        status: 'pending',
        createdAt: clock.now(),
        expiresAt: new Date(expiresAt),
      });
      return { requestId, identificationCode, qrText, expiresAt, digest };
    },

    /** The status of an iAM Smart request, asking the service while it is pending; 404 not the owner's. */
    async iamSmartStatus(store: DigestSigningStore, requestId: string): Promise<SigningStatusData> {
      const row = await found(store, requestId, 'iamsmart');
      if (row.status === 'pending') {
        if (clock.now() >= row.expiresAt) await store.finish(row.id, 'expired', {});
        else {
          const result = await iamSmart.getSigningResult(row.externalId ?? '').catch(() => undefined);
          if (!result || result.code === IAM_SMART_CODES.pending) return { status: 'pending' };
          if (result.code === IAM_SMART_CODES.success && result.content?.hash === row.digest)
            await store.finish(row.id, 'signed', {
              signer: {
                method: 'iamsmart',
                certificate: result.content.certificate,
                signedAt: result.content.signedAt,
              },
            });
          else if (result.code === IAM_SMART_CODES.expired) await store.finish(row.id, 'expired', {});
          else if (result.code === IAM_SMART_CODES.cancelled) await store.finish(row.id, 'cancelled', {});
          else await store.finish(row.id, 'failed', { code: result.code });
        }
      }
      const after = await found(store, requestId);
      return {
        status: after.status as SigningStatusData['status'],
        ...(after.code ? { code: after.code } : {}),
        ...(after.status === 'signed' ? { reference: after.requestId } : {}),
      };
    },

    /** Cancels a pending iAM Smart request (at the service too, as far as it answers); 404 not the owner's. */
    async cancelIamSmart(store: DigestSigningStore, requestId: string): Promise<void> {
      const row = await found(store, requestId, 'iamsmart');
      if (row.status !== 'pending') return;
      await iamSmart.cancelSigning(row.externalId ?? '').catch(() => undefined);
      await store.finish(row.id, 'cancelled', {});
    },

    /** Opens an e-Cert request over `digest`: the content to sign is the digest text. */
    async prepareEcert(store: DigestSigningStore, digest: string) {
      const requestId = randomBytes(16).toString('hex');
      await store.insert({
        method: 'ecert',
        requestId,
        digest,
        status: 'pending',
        createdAt: clock.now(),
        expiresAt: addMs(clock.now(), ECERT_WINDOW_MS),
      });
      return { requestId, digest, content: digest };
    },

    /**
     * Checks the uploaded CMS signature of an open e-Cert request: over its digest, by a trusted certificate
     * in `signer.name`'s name, else `signer.mismatch()` (422 SIGNER_MISMATCH) or 422 ECERT_REJECTED.
     */
    async verifyEcert(
      store: DigestSigningStore,
      requestId: string,
      signature: Uint8Array,
      signer: { name: string; mismatch: () => ApiError },
    ) {
      const row = await found(store, requestId, 'ecert');
      if (row.status !== 'pending' || clock.now() >= row.expiresAt)
        throw new NotFoundError('signing.notFound');
      const result = await verifyEcertSignature(
        signature,
        { content: new TextEncoder().encode(row.digest), signerName: signer.name },
        ecertTrust,
        clock.now(),
      );
      if (!result.ok && result.reason === 'name-mismatch') throw signer.mismatch();
      if (!result.ok) throw new EcertRejectedError(result.reason);
      await store.finish(row.id, 'signed', {
        signer: {
          method: 'ecert',
          subject: result.signer.subject,
          serialNumber: result.signer.serialNumber,
          issuer: result.signer.issuer,
        },
      });
      return { reference: requestId };
    },
  };
}

export type DigestSigning = ReturnType<typeof createDigestSigning>;
