import type { Language } from '../../../machines/rules/language';
import { formatDateParams } from '../../../machines/rules/dates';
import {
  earliestReplyBy,
  FORBIDDEN_REFUSALS,
  REFUSAL_FIELD,
  type LifecycleFacts,
  type CaseRuleRefusal,
} from '../../../machines/rules/case-rules';
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

/**
 * A rule of the case refuses the action (docs/flows/case-rules.md): 403 FORBIDDEN when the AP or RSE is
 * not appointed to the case, else 409 CASE_RULE naming the rule, and the field of the answers it is about
 * (a date), so a form can show the message beside it.
 */
export class CaseRuleError extends ApiError {
  /**
   * `language` undefined: the message at the field is put in the caller's language when answered (a rule
   * checked where the request's language is not at hand: the self-certification's readiness). `at`: the
   * field when the rule's depends on the answers (`lorRevised`: the first field of the letter that
   * differs), and more data (the letter as issued now, for the form to refresh its items).
   */
  constructor(
    rule: CaseRuleRefusal,
    facts: LifecycleFacts,
    language: Language | undefined,
    at: { field?: string; data?: Readonly<Record<string, unknown>> } = {},
  ) {
    const field = at.field ?? REFUSAL_FIELD[rule];
    // The dates as ISO days here, as a person reads them in each message's language (machines/rules/dates.ts).
    const iso = {
      earliest: earliestReplyBy(facts),
      days: facts.replyWorkingDays,
      today: facts.today,
      inspectionDate: facts.inspection?.date ?? '',
      first: [...facts.preferredDates].sort()[0] ?? '',
      last: [...facts.preferredDates].sort().at(-1) ?? '',
    };
    const paramsIn = (l: Language) => formatDateParams(iso, l);
    const params = language === undefined ? iso : paramsIn(language);
    const key = `case.rules.${rule}` as const;
    // The message also at the field it is about, as a form shows a field's error.
    const dataIn = (l: Language) => ({
      rule,
      errors: field ? [{ path: `answers.${field}`, message: translate(l, key, paramsIn(l)) }] : [],
      ...at.data,
    });
    if (FORBIDDEN_REFUSALS.includes(rule)) super(403, 'FORBIDDEN', key, { rule });
    else
      super(409, 'CASE_RULE', key, dataIn(language ?? 'en'), {
        params,
        ...(language === undefined ? { dataIn } : {}),
      });
  }
}
