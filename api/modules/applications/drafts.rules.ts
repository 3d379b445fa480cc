import { draftSchemaFor, formByKey } from '../../../machines/forms';
import type { ContactChannel, DraftAnswers } from '../../../machines/rules/drafts';
import { kindOf } from '../../../machines/rules/contacts';
import { HOUR_MS } from '../../clock';
import { ApiError } from '../../http/errors';
import { fieldError, underAnswers } from '../../http/field-errors';

/** The rules of a draft that need no database: its form's checks, its number's year, masked contacts. */

/** The code printed on the form (the application number's prefix), or undefined for a form not in the catalogue. */
export function draftFormCode(formKey: string): string | undefined {
  return formByKey(formKey)?.code;
}

/**
 * The form's own check of unfinished answers, with the same definition the browser uses
 * (machines/forms/schema.ts `draftSchemaFor`: nothing is required yet, but what is there must fit its
 * field: types, lengths, options). Unknown answers are dropped. Throws a ZodError with paths under
 * `answers` (400 with field errors in the caller's language). The generic size limits run before, in the
 * request schema (machines/rules/drafts.ts). Only forms of the catalogue have drafts: the wizard runs
 * for them alone.
 */
export function validateDraftAnswers(formKey: string, answers: DraftAnswers): DraftAnswers {
  const definition = formByKey(formKey);
  if (!definition) throw fieldError(['formKey'], 'validation.formKey.unknown');
  const result = draftSchemaFor(definition).safeParse(answers);
  if (!result.success) throw underAnswers(result.error);
  return result.data as DraftAnswers;
}

/** The year of `date` in Hong Kong (UTC+8, no summer time): the year in a new application number. */
export const hongKongYear = (date: Date) => new Date(date.getTime() + 8 * HOUR_MS).getUTCFullYear();

/**
 * An address as shown back to the draft's owner: `c***@example.hk` (the first character of the local
 * part, then the domain), `****4567` (the last four digits of the mobile).
 */
export function maskContact(channel: ContactChannel, value: string): string {
  if (kindOf(channel) === 'mobile') return `****${value.slice(-4)}`;
  const at = value.lastIndexOf('@');
  return `${value.slice(0, 1)}***${value.slice(at)}`;
}

/** 400: the draft has no (valid) email or mobile for the channel asked for (the applicant's or the contact person's). */
export class ContactMissingError extends ApiError {
  constructor(channel: ContactChannel) {
    super(400, 'CONTACT_MISSING', 'drafts.contact.missing', { channel });
  }
}
