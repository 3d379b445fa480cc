import { z } from 'zod';
import { isValidHkic, normaliseHkic } from '../rules/hkic';
import { EMAIL_MAX_LENGTH, normaliseEmail } from '../rules/otp';
import { PHONE_INPUT_MAX, normaliseHkFixedLine, normaliseHkMobile, normaliseHkPhone } from '../rules/phone';
import { checkAddress, checkTable, isBlankAddress, isBlankTable } from './composite';
import { CJK, assertNever, fail, isBlank, isRecord, linesOf, ok, type Check, type Mode } from './check';
import { charLabel, firstUnprintable } from '../rules/printable';
import { ERRORS, qualify } from './errors';
import {
  DATE_INPUT_MAX,
  HKIC_INPUT_MAX,
  MULTILINE_MAX,
  NUMBER_INPUT_MAX,
  NUMBER_MAX,
  TEXT_MAX,
} from './limits';
import { parseRegistrationNumber } from '../rules/registration';
import { parseBdReference } from '../rules/bd-reference';
import { APPLICATION_NO_PATTERN } from '../rules/otp';
import { hongKongToday } from '../rules/hk-date';
import type { Field, TextFormat } from './types';

/**
 * The first character the application PDF cannot print (machines/rules/printable.ts) in a text answer,
 * or in a part of an address or a cell of a table, with its path below the field.
 */
function unprintableIn(value: unknown): { char: string; path: (string | number)[] } | undefined {
  if (typeof value === 'string') {
    const char = firstUnprintable(value);
    return char === undefined ? undefined : { char, path: [] };
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = isRecord(item) || typeof item === 'string' ? unprintableIn(item) : undefined;
      if (found) return { char: found.char, path: [i, ...found.path] };
    }
    return undefined;
  }
  if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== 'string') continue;
      const char = firstUnprintable(item);
      if (char !== undefined) return { char, path: [key] };
    }
  }
  return undefined;
}

/** One answer checked by its field's kind: the rules of spec §5 per kind (machines/forms/schema.ts). */

const emailFormat = z.email();
const ISO_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

/** The longest answer a field's input takes (its `maxLength`), by kind. */
export function maxLengthOf(field: Field): number | undefined {
  switch (field.kind) {
    case 'text':
      return field.maxLength ?? (field.multiline ? MULTILINE_MAX : TEXT_MAX);
    case 'lines':
      return field.maxLength ?? MULTILINE_MAX;
    case 'email':
      return EMAIL_MAX_LENGTH;
    case 'mobile':
    case 'phone':
      return PHONE_INPUT_MAX;
    case 'hkic':
      return HKIC_INPUT_MAX;
    case 'date':
      return DATE_INPUT_MAX;
    case 'number':
      return NUMBER_INPUT_MAX;
    case 'select':
    case 'radio':
    case 'checkbox':
    case 'address':
    case 'table':
    case 'officer':
    case 'checkboxes':
    case 'openRequest':
      return undefined;
    default:
      return assertNever(field);
  }
}

/** True when the applicant has not answered: blank text, an unticked box, an empty address or table. */
export function isEmptyAnswer(field: Field, value: unknown): boolean {
  switch (field.kind) {
    case 'checkbox':
      return value === undefined || value === null || value === false;
    case 'address':
      return isBlankAddress(value);
    case 'table':
      return isBlankTable(value);
    case 'text':
    case 'email':
    case 'mobile':
    case 'phone':
    case 'hkic':
    case 'date':
    case 'number':
    case 'select':
    case 'radio':
    case 'lines':
    case 'checkboxes':
    case 'officer':
    case 'openRequest':
      return isBlank(value);
    default:
      return assertNever(field);
  }
}

function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function checkNumber(field: Extract<Field, { kind: 'number' }>, raw: number | string): Check {
  const label = qualify(field.labelKey);
  const text = typeof raw === 'number' ? String(raw) : raw.normalize('NFKC').trim().replace(/,/g, '');
  const n = /^-?[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(n)) return fail(ERRORS.invalidNumber, { field: label });
  if (field.integer && !Number.isInteger(n)) return fail(ERRORS.notWholeNumber, { field: label });
  if (field.min !== undefined && n < field.min)
    return fail(ERRORS.numberTooSmall, { field: label, min: field.min });
  const max = field.max ?? NUMBER_MAX;
  if (n > max) return fail(ERRORS.numberTooLarge, { field: label, max });
  return ok(n);
}

function checkText(field: Extract<Field, { kind: 'text' }>, value: string, mode: Mode): Check {
  const label = qualify(field.labelKey);
  const text = mode === 'submit' ? value.trim() : value;
  const max = maxLengthOf(field) ?? TEXT_MAX;
  if (text.length > max) return fail(ERRORS.tooLong, { field: label, max });
  if (mode === 'submit' && field.script === 'en' && CJK.test(text))
    return fail(ERRORS.englishOnly, { field: label });
  if (mode === 'submit' && field.script === 'zh' && !CJK.test(text))
    return fail(ERRORS.needsChinese, { field: label });
  if (mode === 'submit' && field.format) {
    const read = readFormat(field.format, text);
    return read === undefined ? fail(FORMAT_MESSAGE[field.format], { field: label }) : ok(read);
  }
  return ok(text);
}

const FORMAT_MESSAGE: Readonly<Record<TextFormat, string>> = {
  registrationNumber: ERRORS.registrationNumber,
  bdReference: ERRORS.bdReference,
  applicationNo: ERRORS.applicationNo,
};

/** A formatted text answer in its stored form ("AP(A) 1234", "BD 2/9041/26", "A2-2026-000123"), or undefined. */
function readFormat(format: TextFormat, text: string): string | undefined {
  switch (format) {
    case 'registrationNumber':
      return parseRegistrationNumber(text)?.value;
    case 'bdReference':
      return parseBdReference(text)?.value;
    case 'applicationNo': {
      const no = text.normalize('NFKC').toUpperCase().replace(/\s+/g, '');
      return APPLICATION_NO_PATTERN.test(no) ? no : undefined;
    }
  }
}

/** A date within its field's range: not after today (`notFuture`), not before today (`notPast`), in Hong Kong. */
function checkDateRange(field: Extract<Field, { kind: 'date' }>, date: string, label: string): Check {
  const today = hongKongToday();
  const custom = field.rangeKey ? qualify(field.rangeKey) : undefined;
  if (field.notFuture && date > today) return fail(custom ?? ERRORS.dateInFuture, { field: label });
  if (field.notPast && date < today) return fail(custom ?? ERRORS.dateInPast, { field: label });
  return ok(date);
}

/** A staff id as an officer field holds it: digits, not 0. */
const STAFF_ID = /^[1-9][0-9]{0,8}$/;

/** A string answer as typed, checked only against the input's length (drafts). */
function draftString(field: Field, value: string): Check {
  const max = maxLengthOf(field);
  return max !== undefined && value.length > max
    ? fail(ERRORS.tooLong, { field: qualify(field.labelKey), max })
    : ok(value);
}

/** On submit: a string normalised by `read`, or the kind's invalid message. */
function readString(
  value: string,
  read: (v: string) => string | undefined,
  message: string,
  label: string,
): Check {
  const read_ = read(value);
  return read_ === undefined ? fail(message, { field: label }) : ok(read_);
}

const readEmail = (v: string): string | undefined => {
  const email = normaliseEmail(v);
  return email.length <= EMAIL_MAX_LENGTH && emailFormat.safeParse(email).success ? email : undefined;
};
const readHkic = (v: string): string | undefined => {
  const hkic = normaliseHkic(v);
  return v.length <= HKIC_INPUT_MAX && isValidHkic(hkic) ? hkic : undefined;
};
const readDate = (v: string): string | undefined => (isIsoDate(v.trim()) ? v.trim() : undefined);

/**
 * Checks one answer that is not empty (`isEmptyAnswer` is false) against its field: in `submit`
 * mode every rule, answering the normalised value (8-digit phone numbers, an upper-case HKIC without
 * brackets, a lower-case email, a number, the items of a list, a staff id as a number); in `draft` mode
 * its type and length only, as typed.
 */
export function checkAnswer(field: Field, value: unknown, mode: Mode): Check {
  const label = qualify(field.labelKey);
  const unprintable = unprintableIn(value);
  if (unprintable)
    return fail(ERRORS.unprintable, { field: label, char: charLabel(unprintable.char) }, unprintable.path);
  const invalidType = () => fail(ERRORS.invalidType, { field: label });
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' ? checkText(field, value, mode) : invalidType();
    case 'email':
    case 'mobile':
    case 'phone':
    case 'hkic':
    case 'date': {
      if (typeof value !== 'string') return invalidType();
      if (mode === 'draft') return draftString(field, value);
      if (field.kind === 'email') return readString(value, readEmail, ERRORS.invalidEmail, label);
      if (field.kind === 'mobile') return readString(value, normaliseHkMobile, ERRORS.invalidMobile, label);
      if (field.kind === 'hkic') return readString(value, readHkic, ERRORS.invalidHkic, label);
      if (field.kind === 'date') {
        const date = readString(value, readDate, ERRORS.invalidDate, label);
        return date.ok ? checkDateRange(field, date.value as string, label) : date;
      }
      return field.fixedLine
        ? readString(value, normaliseHkFixedLine, ERRORS.invalidFixedLine, label)
        : readString(value, normaliseHkPhone, ERRORS.invalidPhone, label);
    }
    case 'number':
      if (typeof value === 'number')
        return mode === 'draft' && Number.isFinite(value) ? ok(value) : checkNumber(field, value);
      if (typeof value !== 'string') return invalidType();
      return mode === 'draft' ? draftString(field, value) : checkNumber(field, value);
    case 'select':
    case 'radio':
      return typeof value === 'string' && field.options.some((o) => o.value === value)
        ? ok(value)
        : fail(ERRORS.invalidOption, { field: label });
    case 'checkbox':
      return typeof value === 'boolean' ? ok(value) : invalidType();
    case 'lines': {
      if (typeof value !== 'string') return invalidType();
      const typed = draftString(field, value);
      return mode === 'draft' || !typed.ok ? typed : ok(linesOf(value));
    }
    case 'checkboxes': {
      if (typeof value !== 'string') return invalidType();
      const chosen = linesOf(value);
      if (!chosen.every((v) => field.options.some((o) => o.value === v)))
        return fail(ERRORS.invalidOption, { field: label });
      return ok(mode === 'draft' ? value : chosen);
    }
    case 'officer':
    case 'openRequest':
      return typeof value === 'string' && STAFF_ID.test(value)
        ? ok(mode === 'draft' ? value : Number(value))
        : fail(ERRORS.invalidOption, { field: label });
    case 'address':
      return checkAddress(field, value, mode);
    case 'table':
      return checkTable(field, value, mode);
    default:
      return assertNever(field);
  }
}
