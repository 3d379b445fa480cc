import type { ApiMessageKey } from './i18n';
import type { Language } from '../../machines/rules/language';
import type { ErrorCode } from './envelope';

/**
 * An error the API answers on purpose. Services throw these (or subclasses per domain); the one error
 * middleware turns them into a status and an envelope. Anything else becomes a 500.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly messageKey: ApiMessageKey,
    readonly data: unknown = null,
    /** `{{name}}` values of the message, and response headers (such as Retry-After). */
    readonly extra: {
      params?: Readonly<Record<string, string | number>>;
      headers?: Readonly<Record<string, string>>;
      /** `data` in the caller's language, for an error raised where that language is not known. */
      dataIn?: (language: Language) => unknown;
    } = {},
  ) {
    super(messageKey);
    this.name = new.target.name;
  }
}

export class BadRequestError extends ApiError {
  constructor(messageKey: ApiMessageKey = 'status.badRequest', data: unknown = null) {
    super(400, 'BAD_REQUEST', messageKey, data);
  }
}

export class NotFoundError extends ApiError {
  constructor(messageKey: ApiMessageKey = 'status.notFound') {
    super(404, 'NOT_FOUND', messageKey);
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor() {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', 'status.unsupportedMediaType');
  }
}

export class ServiceUnavailableError extends ApiError {
  constructor(messageKey: ApiMessageKey = 'status.serviceUnavailable', data: unknown = null) {
    super(503, 'SERVICE_UNAVAILABLE', messageKey, data);
  }
}

/** 401: no token, or a token that is unknown, revoked, or past its idle or absolute limit. */
export class UnauthorizedError extends ApiError {
  constructor(messageKey: ApiMessageKey = 'auth.sessionEnded') {
    super(401, 'UNAUTHORIZED', messageKey);
  }
}

/** 403: the caller is logged in, but the thing asked for is not theirs. */
export class ForbiddenError extends ApiError {
  constructor(messageKey: ApiMessageKey = 'status.forbidden') {
    super(403, 'FORBIDDEN', messageKey);
  }
}

export type RateLimitCode = 'OTP_RESEND_TOO_SOON' | 'OTP_RATE_LIMITED' | 'OTP_LOCKED';

const RATE_LIMIT_MESSAGES = {
  OTP_RESEND_TOO_SOON: { one: 'auth.otp.resendTooSoon.one', other: 'auth.otp.resendTooSoon.other' },
  OTP_RATE_LIMITED: { one: 'auth.otp.rateLimited.one', other: 'auth.otp.rateLimited.other' },
  OTP_LOCKED: { one: 'auth.otp.locked.one', other: 'auth.otp.locked.other' },
} as const satisfies Record<RateLimitCode, { one: ApiMessageKey; other: ApiMessageKey }>;

/**
 * 429 with `Retry-After: <seconds>` and `data: { retryAfterSeconds }`. The message says when to try
 * again: in seconds for a resend that came too soon (at most a minute), in whole minutes otherwise.
 */
export class TooManyRequestsError extends ApiError {
  constructor(code: RateLimitCode, retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    const minutes = Math.ceil(seconds / 60);
    const count = code === 'OTP_RESEND_TOO_SOON' ? seconds : minutes;
    const key = RATE_LIMIT_MESSAGES[code][count === 1 ? 'one' : 'other'];
    super(
      429,
      code,
      key,
      { retryAfterSeconds: seconds },
      {
        params: { seconds, minutes },
        headers: { 'Retry-After': String(seconds) },
      },
    );
  }
}

/** 422: the code is not the one sent; `data.attemptsLeft` tries remain before it is burnt. */
export class OtpWrongError extends ApiError {
  constructor(attemptsLeft: number) {
    super(
      422,
      'OTP_WRONG',
      attemptsLeft === 1 ? 'auth.otp.wrong.one' : 'auth.otp.wrong.other',
      { attemptsLeft },
      { params: { attemptsLeft } },
    );
  }
}

/** 422: this wrong try was the last one allowed; the code cannot be used any more. */
export class OtpBurntError extends ApiError {
  constructor() {
    super(422, 'OTP_BURNT', 'auth.otp.burnt', { attemptsLeft: 0 });
  }
}

/** 410: no live code for this application and contact (expired, used, burnt, replaced or never sent). */
export class OtpExpiredError extends ApiError {
  constructor() {
    super(410, 'OTP_EXPIRED', 'auth.otp.expired');
  }
}

/** 409: the save names a version older than the stored one; nothing was overwritten. */
export class DraftStaleError extends ApiError {
  constructor(data: { currentVersion: number; updatedAt: string }) {
    super(409, 'DRAFT_STALE', 'drafts.stale', data);
  }
}

/** 409: the application was submitted; its draft can no longer be saved. */
export class DraftSubmittedError extends ApiError {
  constructor() {
    super(409, 'DRAFT_SUBMITTED', 'drafts.submitted');
  }
}

/** 410: the draft's validity (DRAFT_VALIDITY_DAYS after its last save) is over. */
export class DraftExpiredError extends ApiError {
  constructor(validityDays: number) {
    super(410, 'DRAFT_EXPIRED', 'drafts.expired', null, { params: { days: validityDays } });
  }
}
