/**
 * The types and error helpers of the signing flow (machines/flows/signing.machine.ts): what its input,
 * context and events are, what each invoked actor receives, resolves with and rejects with.
 */

/** Milliseconds between two polls of a pending iAM Smart request (counted from the end of the last one). */
export const POLL_INTERVAL_MS = 2000;
/** Consecutive poll failures (no answer from the portal) after which the flow gives up with `network`. */
export const MAX_POLL_FAILURES = 3;
/** The local expiry when the request's `expiresAt` cannot be read: never wait longer than this. */
export const FALLBACK_EXPIRY_MS = 5 * 60_000;

/** What the `failed` screen shows. */
export const SIGNING_ERRORS = ['d70004', 'd70005', 'expired', 'cancelled', 'failed', 'network'] as const;
export type SigningError = (typeof SIGNING_ERRORS)[number];

/** Why the portal refused an e-Cert signature file (the API's 422 `meta.code`). */
export const ECERT_REJECTIONS = [
  'unreadable',
  'no-certificate',
  'bad-signature',
  'untrusted',
  'expired',
  'not-yet-valid',
  'key-usage',
  'revoked',
  'crl-unavailable',
  'name-mismatch',
] as const;
export type EcertRejection = (typeof ECERT_REJECTIONS)[number];
export const isEcertRejection = (value: unknown): value is EcertRejection =>
  typeof value === 'string' && (ECERT_REJECTIONS as readonly string[]).includes(value);

/**
 * What the actors reject with. `network`: no usable answer (offline, time-out, 5xx); `failed`: the portal
 * refused the request (a 4xx other than a rejected signature); `rejected`: the e-Cert file was refused.
 */
export type SigningFailure =
  | { kind: 'network' }
  /** `message`: the portal's reason in the page's language (no confirmed contact, a document missing ...). */
  | { kind: 'failed'; message?: string }
  | { kind: 'rejected'; reason: EcertRejection };

/** An `Error` carrying a SigningFailure's fields: `throw signingFailure({ kind: 'network' })`. */
export const signingFailure = (failure: SigningFailure): Error & SigningFailure =>
  Object.assign(new Error(failure.kind === 'rejected' ? failure.reason : failure.kind), failure);

/** Anything that is not a well-formed SigningFailure (a TypeError, an unknown reason) counts as `network`. */
export function toSigningFailure(error: unknown): SigningFailure {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  if (e.kind === 'failed')
    return typeof e.message === 'string' && e.message !== 'failed' && e.message !== ''
      ? { kind: 'failed', message: e.message }
      : { kind: 'failed' };
  if (e.kind === 'rejected' && isEcertRejection(e.reason)) return { kind: 'rejected', reason: e.reason };
  return { kind: 'network' };
}

export type SigningMethod = 'iamsmart' | 'ecert';

export interface SigningInput {
  applicationNo: string;
  /** The clock (ms epoch); required so that no wall clock hides in the machine. */
  now: () => number;
}

/** The machine's output when signed; `null` when the applicant left the step (`abandoned`). */
export interface SigningOutput {
  method: SigningMethod;
  reference: string;
}

export interface StartIamSmartInput {
  applicationNo: string;
}
/** POST /api/drafts/:applicationNo/signing/iamsmart */
export interface StartIamSmartOutput {
  requestId: string;
  /** The 4 digits the iAM Smart app must show too. */
  identificationCode: string;
  /** What the QR code encodes (the iAM Smart deep link). */
  qrText: string;
  /** ISO date-time. */
  expiresAt: string;
  /** Hex SHA-256 of what is signed. */
  digest: string;
}

export interface PollIamSmartInput {
  applicationNo: string;
  requestId: string;
}
export type IamSmartStatus = 'pending' | 'signed' | 'failed' | 'expired' | 'cancelled';
/** GET /api/drafts/:applicationNo/signing/iamsmart/:requestId */
export interface PollIamSmartOutput {
  status: IamSmartStatus;
  /** With `failed`: iAM Smart's code (D70004, D70005, ...). */
  code?: string;
  /** With `signed`: the portal's reference of the signature. */
  reference?: string;
}

export type CancelIamSmartInput = PollIamSmartInput;

export interface PrepareEcertInput {
  applicationNo: string;
}
/** GET /api/drafts/:applicationNo/signing/ecert */
export interface PrepareEcertOutput {
  /** Hex SHA-256 of `content`. */
  digest: string;
  /** The text the applicant signs with the e-Cert. */
  content: string;
}

export interface VerifyEcertInput {
  applicationNo: string;
  file: Blob;
}
/** POST /api/drafts/:applicationNo/signing/ecert (multipart `signature`) */
export interface VerifyEcertOutput {
  reference: string;
}

/** What the screen shows; every state's `meta.screen`. */
export type SigningScreen =
  | 'choose'
  | 'requesting'
  | 'pending'
  | 'cancelling'
  | 'preparing'
  | 'ecertReady'
  | 'verifying'
  | 'failed'
  | 'signed'
  | 'abandoned';

export interface SigningStateMeta {
  screen: SigningScreen;
  /** A request is in flight: the screen shows a status with a spinner. */
  busy?: boolean;
}

export interface SigningContext {
  applicationNo: string;
  now: () => number;
  /** The method chosen last (what `signing.retry` starts again). */
  method: SigningMethod | null;
  /** The iAM Smart request being waited for, and its expiry as ms epoch. */
  request: StartIamSmartOutput | null;
  expiresAt: number | null;
  /** Consecutive polls that got no answer. */
  pollFailures: number;
  /** The e-Cert text to sign and its hash. */
  ecert: PrepareEcertOutput | null;
  file: Blob | null;
  fileName: string | null;
  /** `ecert.submit` without a file: the field shows "choose a file". */
  showFileError: boolean;
  /** Why the last file was refused, or `network` when its upload got no answer. */
  /** Why the last signature file was not accepted: a check's reason, `failed` (refused, see `errorMessage`) or `network`. */
  ecertError: EcertRejection | 'failed' | 'network' | null;
  error: SigningError | null;
  /** With `failed`: iAM Smart's own code, when it gave one. */
  errorCode: string | null;
  /** The portal's own reason for refusing to start (shown instead of the general message), or null. */
  errorMessage: string | null;
  result: SigningOutput | null;
}

export type SigningEvent =
  | { type: 'signing.iamsmart' }
  | { type: 'signing.ecert' }
  | { type: 'signing.cancel' }
  | { type: 'signing.retry' }
  | { type: 'signing.other' }
  | { type: 'signing.back' }
  | { type: 'ecert.file'; file: Blob; name: string }
  | { type: 'ecert.submit' };
