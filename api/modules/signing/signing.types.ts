import { ApiError } from '../../http/errors';

/** What every signing answers (applications, follow-ups, appointments): docs/flows/signing.md. */

/** The largest e-Cert signature file accepted (a CMS signature with its certificate chain is a few kB). */
export const SIGNATURE_MAX_BYTES = 64 * 1024;

export type SigningStatus = 'pending' | 'signed' | 'failed' | 'expired' | 'cancelled';

export interface IamSmartStarted {
  requestId: string;
  identificationCode: string;
  qrText: string;
  expiresAt: string;
  digest: string;
}

export interface SigningStatusData {
  status: SigningStatus;
  code?: string;
  reference?: string;
}

/** How long an e-Cert signing stays open for the signature to be uploaded. */
export const ECERT_WINDOW_MS = 24 * 3_600_000;

/** 422 ECERT_REJECTED: the uploaded signature failed a check; `data.reason` names it. */
export class EcertRejectedError extends ApiError {
  constructor(reason: string) {
    super(422, 'ECERT_REJECTED', `signing.ecert.${reason}` as never, { reason });
  }
}

/** 409 SIGNING_OUTDATED: the answers or documents changed since this signing started. */
export class SigningOutdatedError extends ApiError {
  constructor(messageKey: 'signing.outdated' | 'case.signingOutdated' = 'signing.outdated') {
    super(409, 'SIGNING_OUTDATED', messageKey);
  }
}
