/**
 * What an e-Cert signature check answers: the failure reasons (in the order of the checks), the signer
 * and the result, and the helper that builds a failure. Shared by the CMS verification (ecert.ts) and
 * the certificate path and CRL checks (ecert-trust.ts).
 */
import { ECERT_REJECTIONS } from '../../../machines/flows/signing/types';

/** The reasons, in the order of the checks: one list with the signing flow's (the API's 422 `data.reason`). */
export const ECERT_FAILURE_REASONS = ECERT_REJECTIONS;
export type EcertFailureReason = (typeof ECERT_FAILURE_REASONS)[number];

export interface EcertSigner {
  /** Subject DN for display, RFC 4514 order (most specific first), e.g. `CN=CHAN TAI MAN, O=..., C=HK`. */
  subject: string;
  /** Certificate serial number, lowercase hex without leading zero bytes. */
  serialNumber: string;
  issuer: string;
  notBefore: Date;
  notAfter: Date;
}

export type EcertResult =
  | { ok: true; signer: EcertSigner; signedAt?: Date }
  | { ok: false; reason: EcertFailureReason; detail?: string };

/** A failed check: the first one decides the answer. */
export type Failure = Extract<EcertResult, { ok: false }>;
export const fail = (reason: EcertFailureReason, detail?: string): Failure =>
  detail === undefined ? { ok: false, reason } : { ok: false, reason, detail };
