import {
  MINOR_WORKS_DESCRIPTION_MAX,
  MINOR_WORKS_MAX_ROWS,
  MINOR_WORKS_ROW_KEYS,
  type MinorWorksRow,
} from '../rules/minor-works';
import { COMPLIANCE_ITEM_OPTIONS, YES_NO_OPTIONS } from './options';
import type { Field, Section, TableColumn } from './types';

/**
 * The Letter of Requirements (spec §3, DOMAIN.md): BD reference number, date, Category 1 and Category 2
 * items each complied with or not applicable (with a remark then), and the minor works table (number,
 * item of Cap 123N, description, submission number). The structure the self-certification forms record
 * the letter they comply with in: `letterOfRequirementsSections()`, or the fields one by one. The console's
 * form that issues a letter (`lor.issue`, machines/forms/console-actions.ts) has its own fields and the
 * same minor works row. Rules: docs/decisions/021-self-certification.md.
 */

/** Field ids of the letter: the same in every form that records one. */
export const LOR_FIELDS = {
  reference: 'lorReference',
  date: 'lorDate',
  category1: 'lorCategory1',
  category2: 'lorCategory2',
  minorWorksCarriedOut: 'minorWorksCarriedOut',
  minorWorks: 'minorWorks',
} as const;

/** A requirement of Category 1 or 2: its text, complied or not applicable, and why when not applicable. */
const COMPLIANCE_COLUMNS: readonly TableColumn[] = [
  {
    id: 'item',
    labelKey: 'fields.lor.requirement',
    kind: 'text',
    required: true,
    multiline: true,
    maxLength: 500,
  },
  {
    id: 'status',
    labelKey: 'fields.lor.status',
    kind: 'select',
    required: true,
    options: COMPLIANCE_ITEM_OPTIONS,
  },
  {
    id: 'remark',
    labelKey: 'fields.lor.remark',
    kind: 'text',
    requiredWhen: { column: 'status', equals: 'notApplicable' },
    maxLength: 500,
  },
];

/** The items of one category; Category 1 has at least one, Category 2 may have none. */
export function complianceTableField(category: 1 | 2): Field {
  return {
    kind: 'table',
    id: category === 1 ? LOR_FIELDS.category1 : LOR_FIELDS.category2,
    labelKey: `fields.lor.category${category}`,
    hint: true,
    columns: COMPLIANCE_COLUMNS,
    rowLabelKey: 'fields.lor.requirementRow',
    maxRows: 30,
    ...(category === 1 ? { required: true, minRows: 1 } : {}),
  };
}

/**
 * The cells of a minor works row (`MinorWorksRow` of machines/rules/minor-works.ts, the one row type) as the
 * self-certification forms ask them, after the row's number.
 */
const MINOR_WORKS_CELLS: { readonly [K in keyof MinorWorksRow]: TableColumn & { id: K } } = {
  item: {
    id: 'item',
    labelKey: 'fields.lor.mwItem',
    kind: 'text',
    required: true,
    format: 'minorWorksItem',
    maxLength: 30,
  },
  description: {
    id: 'description',
    labelKey: 'fields.lor.mwDescription',
    kind: 'text',
    required: true,
    multiline: true,
    maxLength: MINOR_WORKS_DESCRIPTION_MAX,
  },
  submissionNo: {
    id: 'submissionNo',
    labelKey: 'fields.lor.mwSubmissionNo',
    kind: 'text',
    format: 'minorWorksSubmission',
    maxLength: 30,
  },
};

/** The minor works table: a row for each item carried out, numbered, at most MINOR_WORKS_MAX_ROWS. */
export function minorWorksTableField(): Field {
  return {
    kind: 'table',
    id: LOR_FIELDS.minorWorks,
    labelKey: 'fields.lor.minorWorks',
    hint: true,
    required: true,
    minRows: 1,
    maxRows: MINOR_WORKS_MAX_ROWS,
    rowLabelKey: 'fields.lor.minorWorksRow',
    when: { field: LOR_FIELDS.minorWorksCarriedOut, equals: 'yes' },
    columns: [
      { id: 'no', labelKey: 'fields.lor.mwNo', kind: 'number', required: true, integer: true, unique: true },
      ...MINOR_WORKS_ROW_KEYS.map((key) => MINOR_WORKS_CELLS[key]),
    ],
  };
}

/** Whether minor works were carried out, and then the table. */
export function minorWorksSection(): Section {
  return {
    id: 'minorWorks',
    titleKey: 'sections.minorWorks',
    fields: [
      {
        kind: 'radio',
        id: LOR_FIELDS.minorWorksCarriedOut,
        labelKey: 'fields.lor.minorWorksCarriedOut',
        options: YES_NO_OPTIONS,
        required: true,
      },
      minorWorksTableField(),
    ],
  };
}

/** The letter itself: its BD reference (validated format) and its date (not in the future). */
export function letterSection(): Section {
  return {
    id: 'letterOfRequirements',
    titleKey: 'sections.letterOfRequirements',
    introKey: 'sections.letterOfRequirementsIntro',
    fields: [
      {
        kind: 'text',
        id: LOR_FIELDS.reference,
        labelKey: 'fields.lor.reference',
        format: 'bdReference',
        required: true,
        hint: true,
        half: true,
      },
      {
        kind: 'date',
        id: LOR_FIELDS.date,
        labelKey: 'fields.lor.date',
        notFuture: true,
        required: true,
        half: true,
      },
    ],
  };
}

/** The whole Letter of Requirements: the letter, Category 1, Category 2, minor works. */
export function letterOfRequirementsSections(): Section[] {
  return [
    letterSection(),
    { id: 'lorCategory1', titleKey: 'sections.lorCategory1', fields: [complianceTableField(1)] },
    { id: 'lorCategory2', titleKey: 'sections.lorCategory2', fields: [complianceTableField(2)] },
    minorWorksSection(),
  ];
}

/** A complete, valid letter (examples, tests). */
export const LOR_EXAMPLE = {
  lorReference: 'BD 2/9041/26',
  lorDate: '2026-09-15',
  lorCategory1: [
    { item: 'Provide a second exit route from the classrooms on 5/F.', status: 'complied', remark: '' },
    {
      item: 'Fire resisting construction to the staircase enclosure.',
      status: 'notApplicable',
      remark: 'The premises use no staircase of their own.',
    },
  ],
  lorCategory2: [{ item: 'Handrails on both sides of the ramp.', status: 'complied', remark: '' }],
  minorWorksCarriedOut: 'yes',
  minorWorks: [
    {
      no: '1',
      item: '3.5',
      description: 'Erection of a supporting frame for an air-conditioning unit.',
      submissionNo: 'MW0123456',
    },
    {
      no: '2',
      item: '2.14',
      description: 'Alteration of an internal door opening.',
      submissionNo: 'MW0123457',
    },
  ],
} as const;
