/**
 * Minor works under the Building (Minor Works) Regulation (Cap 123N): three classes, I (the most
 * complex, needing an AP/RSE and a registered contractor) to III, each with numbered items written
 * "<class number>.<item>" (item 3.5 is the fifth item of Class III). A minor works submission has its own
 * reference number. The Letter of Requirements and the self-certification forms record each minor works
 * item carried out as one row: number, item (class and item), description, submission number.
 *
 * The number of items in each class is master data of the department (Schedule 1 of Cap 123N, amended
 * from time to time); the counts here are the portal's current list and are checked by the forms and the
 * API alike. An item outside them is "unknown". docs/decisions/018-registration-numbers.md.
 */

import { z } from 'zod';

export const MINOR_WORKS_CLASSES = ['I', 'II', 'III'] as const;
export type MinorWorksClass = (typeof MINOR_WORKS_CLASSES)[number];

/** The highest item number of each class in the current list. */
export const MINOR_WORKS_ITEM_COUNTS: Readonly<Record<MinorWorksClass, number>> = {
  I: 50,
  II: 50,
  III: 45,
};

const CLASS_NUMBER: Readonly<Record<MinorWorksClass, number>> = { I: 1, II: 2, III: 3 };

/** At most this many rows in a minor works table (one submission rarely lists more than a few). */
export const MINOR_WORKS_MAX_ROWS = 50;

/** A minor works submission number as BD prints it: "MW" then digits, e.g. MW01234567 (5 to 10 digits). */
export const MINOR_WORKS_SUBMISSION_PATTERN = /^MW[0-9]{5,10}$/;

export interface MinorWorksItem {
  class: MinorWorksClass;
  item: number;
  /** "3.5" */
  code: string;
}

/**
 * Parses an item as typed: "3.5", "III 3.5", "Class III 3.5" or "III-5" (full-width folded, case and
 * spacing ignored). Undefined when the class or item is not in the list.
 */
export function parseMinorWorksItem(input: string): MinorWorksItem | undefined {
  const compact = input
    .normalize('NFKC')
    .toUpperCase()
    .replace(/CLASS|ITEM|\s+/g, '');
  const dotted = /^(?:(I{1,3})[-,]?)?([123])\.([0-9]{1,2})$/.exec(compact);
  const classItem = /^(I{1,3})-([0-9]{1,2})$/.exec(compact);
  let klass: MinorWorksClass | undefined;
  let item: number;
  if (dotted) {
    const [, roman, digit = '', n = ''] = dotted;
    klass = MINOR_WORKS_CLASSES[Number(digit) - 1];
    if (roman && roman !== klass) return undefined;
    item = Number(n);
  } else if (classItem) {
    const [, roman = '', n = ''] = classItem;
    klass = MINOR_WORKS_CLASSES.find((c) => c === roman);
    item = Number(n);
  } else {
    return undefined;
  }
  if (!klass || item < 1 || item > MINOR_WORKS_ITEM_COUNTS[klass]) return undefined;
  return { class: klass, item, code: `${CLASS_NUMBER[klass]}.${item}` };
}

/** The stored form of an item ("3.5"), or the input trimmed when it is not one. */
export function normaliseMinorWorksItem(input: string): string {
  return parseMinorWorksItem(input)?.code ?? input.trim();
}

/** The stored form of a submission number (upper case, no spaces), or undefined when it is not one. */
export function parseMinorWorksSubmissionNo(input: string): string | undefined {
  const compact = input
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\-/]+/g, '');
  return MINOR_WORKS_SUBMISSION_PATTERN.test(compact) ? compact : undefined;
}

/** The longest description of a minor works row, in characters. */
export const MINOR_WORKS_DESCRIPTION_MAX = 500;

const invalid = { error: 'staff.invalid' } as const;

/**
 * A minor works row (item, description, submission number): the one shape of the Letter of Requirements'
 * rows, wherever one is written. This is the API's check of the rows the console sends with a letter
 * (messages `staff.*` of api.json); the self-certification forms' table takes the same columns after its
 * row number (machines/forms/letter-of-requirements.ts) and checks its cells with the catalogue's rules.
 */
export const minorWorksRowSchema = z.object({
  item: z
    .string(invalid)
    .trim()
    .refine((v) => parseMinorWorksItem(v) !== undefined, invalid),
  description: z
    .string(invalid)
    .trim()
    .min(1, { error: 'staff.required' })
    .max(MINOR_WORKS_DESCRIPTION_MAX, invalid),
  submissionNo: z
    .string(invalid)
    .refine((v) => parseMinorWorksSubmissionNo(v) !== undefined, invalid)
    .transform((v) => parseMinorWorksSubmissionNo(v) ?? v),
});

/** A minor works row: the type of every copy, from its schema. */
export type MinorWorksRow = z.infer<typeof minorWorksRowSchema>;

/** The cells of a row, in order: `item`, `description`, `submissionNo`. */
export const MINOR_WORKS_ROW_KEYS = minorWorksRowSchema.keyof().options;
