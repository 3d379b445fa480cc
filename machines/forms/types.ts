/**
 * The form catalogue's format: a form is data. From one definition come the zod schema (browser and
 * API), the screens, the preview, the application PDF and the wizard's steps (apply.machine.ts).
 * Labels, hints, options and messages are i18n keys (namespace `forms`), never text.
 */

import type { ApplicationType } from '../rules/history';
import type { CatalogueKey } from './catalogue-index';

export type { ApplicationType };

/** A condition on another field's answer: the field applies only when it holds. */
export type Condition =
  | { field: string; equals: string | boolean }
  | { field: string; oneOf: readonly string[] }
  | { field: string; notEquals: string | boolean }
  /** The answer of a `checkboxes` field has this value among those chosen. */
  | { field: string; includes: string };

interface FieldBase {
  /** Unique within the form; the key of the answer in the draft's `answers` object. */
  id: string;
  /**
   * i18n key of the label (namespace `forms`, or the one the key names: the console's forms use
   * `console:fields.<id>`). The hint is `<labelKey>Hint` when `hint` is true.
   */
  labelKey: string;
  hint?: boolean;
  required?: boolean;
  /**
   * The message (`forms` key) when this required field is left empty, instead of `errors.required`
   * with the label: the agreement tick boxes say 'Please agree with the Terms' (`errors.agreeTerms`).
   */
  requiredKey?: string;
  /** The field is shown, validated and printed only when this holds. */
  when?: Condition;
  /** Half-width on large screens (layout only). */
  half?: boolean;
}

export interface Option {
  value: string;
  labelKey: string;
}

export type Field =
  | (FieldBase & {
      kind: 'text';
      maxLength?: number;
      multiline?: boolean;
      script?: 'en' | 'zh';
      /** A format of its own (machines/rules), normalised and checked on submit: see TextFormat. */
      format?: TextFormat;
      /**
       * With `format: 'registrationNumber'`: the radio answering 'ap' or 'rse' whose register the number
       * must be on (machines/rules/registration.ts).
       */
      identityField?: string;
      /** Shown as a text area of this many rows (the console's notes); a one-line input otherwise. */
      rows?: number;
    })
  | (FieldBase & { kind: 'email' })
  /** Hong Kong mobile: 8 digits starting 4, 5, 6, 7, 8 or 9 (machines/rules/phone.ts). */
  | (FieldBase & { kind: 'mobile' })
  /**
   * Hong Kong fixed or mobile telephone / fax: 8 digits starting 2, 3, 4, 5, 6, 7, 8 or 9; with
   * `fixedLine`, a fixed line only (starting 2 or 3), as a fax number is.
   */
  | (FieldBase & { kind: 'phone'; fixedLine?: boolean })
  | (FieldBase & { kind: 'hkic' })
  /**
   * `notFuture`: not after today in Hong Kong (the date of a letter); `notPast`: not before it (the expiry
   * of a registration). `rangeKey` is the message (`forms` key) when the rule fails.
   */
  | (FieldBase & { kind: 'date'; notFuture?: boolean; notPast?: boolean; rangeKey?: string })
  /** `integer`: whole numbers only (a count of students). */
  | (FieldBase & { kind: 'number'; min?: number; max?: number; integer?: boolean })
  | (FieldBase & { kind: 'select'; options: readonly Option[] })
  | (FieldBase & { kind: 'radio'; options: readonly Option[] })
  /** A single tick box (an agreement); required means it must be ticked. */
  | (FieldBase & { kind: 'checkbox' })
  /** A premises address in English and Chinese with floor(s), unit/room/shop and lot number; filled by the address search. */
  | (FieldBase & { kind: 'address' })
  /**
   * A table whose rows are added, edited and removed (the minor works table and the Category 1 / 2 items of
   * a Letter of Requirements, machines/forms/letter-of-requirements.ts). `rowLabelKey` names one row for
   * screen readers ("Minor works item {{n}} of {{total}}"); at most `maxRows` rows (TABLE_MAX_ROWS).
   */
  | (FieldBase & {
      kind: 'table';
      columns: readonly TableColumn[];
      minRows?: number;
      maxRows?: number;
      rowLabelKey?: string;
      /**
       * The wording of the add and remove buttons (`{{n}}` the row) and of an empty table, as i18n keys,
       * when not the wizard's (`table.addRowTo`, `table.removeRow`, `table.noRows`); without `emptyKey`
       * an empty table says nothing. The console's minor works rows have their own.
       */
      wording?: { addRowKey: string; removeRowKey: string; emptyKey?: string };
    })
  /**
   * A list typed one item a line in a text area (the requirements of a letter the console issues, the
   * document types it asks for): the answer is the list of its lines that are not blank, trimmed.
   */
  | (FieldBase & { kind: 'lines'; maxLength?: number })
  /**
   * A multi-choice of tick boxes (one group, react-aria's CheckboxGroup): the answer is the values
   * chosen, one a line, in the order of the options. The options are the definition's, or, when it has
   * none, those the API gives with the case (the document types the console may request, its
   * `requestableDocuments`: docs/console.md).
   */
  | (FieldBase & { kind: 'checkboxes'; options: readonly Option[] })
  /**
   * A member of the department's staff, chosen by name from those the API lists with the case (the
   * console's officer pickers): the options come from the API, not the definition; the answer is the
   * staff id.
   */
  | (FieldBase & { kind: 'officer' })
  /**
   * One of the case's open information requests, chosen from those the API lists with the case (the
   * console's extension and withdrawal of a request): the answer is the request's id.
   */
  | (FieldBase & { kind: 'openRequest' });

/**
 * Formats of text answers with a rule in machines/rules: an AP/RSE registration number (registration.ts),
 * a BD file reference (bd-reference.ts), a portal application number (otp.ts).
 */
export type TextFormat = 'registrationNumber' | 'bdReference' | 'applicationNo';

/** Formats of table cells: a minor works item "3.5" and a minor works submission number (minor-works.ts). */
export type CellFormat = 'minorWorksItem' | 'minorWorksSubmission';

export interface TableColumn {
  id: string;
  labelKey: string;
  kind: 'text' | 'number' | 'select';
  required?: boolean;
  /** Required only when another cell of the row has this value (a remark when "not applicable"). */
  requiredWhen?: { column: string; equals: string };
  /** No two rows may have the same value here (the row number of the minor works table). */
  unique?: boolean;
  /** A number column: whole numbers from 1 only. */
  integer?: boolean;
  format?: CellFormat;
  options?: readonly Option[];
  maxLength?: number;
  /** A wide cell shown as a multi-line input (a description). */
  multiline?: boolean;
}

export type FieldKind = Field['kind'];

export interface Section {
  id: string;
  titleKey: string;
  /** An optional lead paragraph under the title (`forms` key). */
  introKey?: string;
  when?: Condition;
  fields: readonly Field[];
}

/**
 * The steps of a wizard, one per route `/form-<slug>-step<n>` in this order (machines/routes.ts):
 * fill steps carry sections (Part A, Part B, Letter of Requirements ...); the others are the fixed
 * screens of every form. Signing and submitting happen on the upload step's route (the document signing
 * page), as sub-states of the wizard's upload state.
 */
export type WizardStep =
  | {
      kind: 'fill';
      id: string;
      titleKey: string;
      sections: readonly Section[];
      /**
       * Leaving the step asks the API about its answers before moving on (the case a self-certification
       * names, and its certifier: docs/flows/apply.md); a refusal shows at its field.
       */
      serverCheck?: boolean;
    }
  | { kind: 'preview' }
  | { kind: 'upload' }
  | { kind: 'success' };

export interface RequiredDocument {
  id: string;
  labelKey: string;
  required: boolean;
  /** Offered only when this holds (as a field's `when`): a letter of authorisation for an organisation. */
  when?: Condition;
}

/** What walking a form's fields needs: its code (for messages) and its steps. Follow-up forms have these too. */
export interface FormSteps {
  code: string;
  steps: readonly (WizardStep | { kind: 'done' } | { kind: 'sign' })[];
}

export interface FormDefinition {
  /** The form code printed on the form: 'A2', 'CCCAI-C2', 'SCS-1' ... */
  code: string;
  /** The route slug: `/form-<slug>-step<n>`, from the catalogue index (machines/forms/catalogue-index.ts). */
  slug: string;
  /** The key of the form in i18n `flows:forms.<key>` and in FORM_SPECS (e.g. 'a2', 'cccaiC2'), from the catalogue index. */
  key: CatalogueKey;
  applicationType: ApplicationType;
  /** Self-certification forms have Part A / Part B fill steps and a Letter of Requirements. */
  selfCertification: boolean;
  steps: readonly WizardStep[];
  documents: readonly RequiredDocument[];
  /** The answers a complete, valid example application has (tests, demo, PDF preview). */
  example: Readonly<Record<string, unknown>>;
}

/**
 * Answer values by field kind, as the screens store them in `answers[field.id]`:
 * text, email, mobile, phone, hkic, date (YYYY-MM-DD), number (the digits as typed), select, radio,
 * lines (the text as typed), checkboxes (the values chosen, one a line), officer (the staff id as text) → string; checkbox → boolean; address →
 * AddressAnswer; table → TableRow[]. An empty string means "not answered".
 */
export type AnswerValue = string | boolean | AddressAnswer | TableRow[];

/** An answer to an address field. */
export interface AddressAnswer {
  en: string;
  zh: string;
  floor?: string;
  unit?: string;
  lot?: string;
}

/** A row of a table field. */
export type TableRow = Record<string, string>;
