import type { Language } from '../../../machines/rules/language';
import { ApiError } from '../../http/errors';
import { translate } from '../../http/i18n';

/** The refusals of the generic path for acting on a case (api/modules/cases/cases.service.ts), each in the envelope. */

/** 409 CASE_ACTION_NOT_ALLOWED: the lifecycle does not allow this now; the message names the status. */
export class CaseActionNotAllowedError extends ApiError {
  constructor(status: string, language: Language) {
    super(
      409,
      'CASE_ACTION_NOT_ALLOWED',
      'case.notAllowed',
      { status },
      { params: { status: translate(language, `case.statuses.${status}`) } },
    );
  }
}

/** 409 IDEMPOTENCY_KEY_REUSED: the key was used for another follow-up of this case. */
export class IdempotencyKeyReusedError extends ApiError {
  constructor() {
    super(409, 'IDEMPOTENCY_KEY_REUSED', 'case.keyReused');
  }
}

export class CaseRateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(
      429,
      'CASE_RATE_LIMITED',
      'case.rateLimited',
      { retryAfterSeconds: seconds },
      { params: { minutes: Math.ceil(seconds / 60) }, headers: { 'Retry-After': String(seconds) } },
    );
  }
}

/**
 * 409 CASE_STALE: the case's information changed since the update form was opened (another update was
 * made); `data` carries the information as it is now, so the form can show it with the person's changes.
 */
export class CaseStaleError extends ApiError {
  constructor(current: { version: number; answers: Record<string, unknown> }) {
    super(409, 'CASE_STALE', 'case.stale', current);
  }
}
