import type { Option, RequiredDocument, Section } from '../types';
import type { FollowUpDefinition, FollowUpStep } from './types';
import { followUpEntry } from './entries';
import { formOfCase } from './update';
import { OTHER_DOCUMENT, OTHER_DOCUMENT_MAX } from '../../rules/staff';

/**
 * Submit Supporting Document (`/form-submit-doc-step1`, Upload Success on `-step2`; spec §2
 * "Supporting-document flow"): the document type from the case's form's list of documents or "Other" with
 * a short description, an optional note, then the files (the application's uploader and checks: landscape
 * A4/A3 PDF, the limits, ClamAV), a preview, the signature over the answers and files (iAM Smart or e-Cert,
 * api/modules/cases/case-signing.ts), and Upload Success listing the files, each downloadable for 7
 * days from the case's history. docs/decisions/019-case-versions.md.
 */

/**
 * The layout plans (the application's document type): chosen here, the submission is a revised layout plan
 * ("Submit Revised Layout Plan / Supporting Document", spec §2 "Applicant uploads layout plan"), with its
 * revision label, a history row of its own type (LAYOUT_PLAN), and the latest revision current on the case
 * page. docs/decisions/023-supporting-documents-and-layout-plans.md.
 */
export const LAYOUT_PLAN_DOCUMENT = 'layoutPlans';
export const REVISION_MAX = 20;
export const DOCUMENT_DESCRIPTION_MAX = OTHER_DOCUMENT_MAX;
export const DOCUMENT_NOTE_MAX = 1000;

/** The upload step's one type: every file of a submission is of the type chosen on the form. */
export const SUPPORTING_DOCUMENT: RequiredDocument = {
  id: 'supportingDocument',
  labelKey: 'followUp.submitDocument.files',
  required: true,
};

const otherOption: Option = { value: OTHER_DOCUMENT, labelKey: 'followUp.submitDocument.other' };

function steps(options: readonly Option[]): FollowUpStep[] {
  const section: Section = {
    id: 'document',
    titleKey: 'followUp.submitDocument.section',
    fields: [
      {
        id: 'documentType',
        kind: 'select',
        required: true,
        labelKey: 'followUp.submitDocument.documentType',
        options,
      },
      {
        id: 'description',
        kind: 'text',
        required: true,
        maxLength: DOCUMENT_DESCRIPTION_MAX,
        labelKey: 'followUp.submitDocument.description',
        when: { field: 'documentType', equals: OTHER_DOCUMENT },
      },
      {
        id: 'revision',
        kind: 'text',
        required: true,
        maxLength: REVISION_MAX,
        labelKey: 'followUp.submitDocument.revision',
        hint: true,
        when: { field: 'documentType', equals: LAYOUT_PLAN_DOCUMENT },
      },
      {
        id: 'note',
        kind: 'text',
        multiline: true,
        maxLength: DOCUMENT_NOTE_MAX,
        labelKey: 'followUp.submitDocument.note',
        hint: true,
      },
    ],
  };
  return [
    { kind: 'fill', id: 'fill', titleKey: 'followUp.submitDocument.stepTitle', sections: [section] },
    { kind: 'upload', documents: [SUPPORTING_DOCUMENT] },
    { kind: 'preview' },
    { kind: 'sign' },
    { kind: 'done' },
  ];
}

/**
 * The document types offered for a case of this application form (its printed code): the form's documents
 * and "Other"; `requested` (the department's request for further information) narrows the list to those.
 */
export function documentTypesFor(formCode: string, requested?: readonly string[]): Option[] {
  const documents = formOfCase(formCode)?.documents ?? [];
  const listed = documents
    .filter((d) => !requested || requested.includes(d.id))
    .map((d) => ({ value: d.id, labelKey: d.labelKey }));
  return [...listed, otherOption];
}

/**
 * The names of the documents a request for further information asks for, in the reader's language
 * (docs/console.md): each code by its label in the case's form's list (`forms` keys), "Other" by the
 * officer's description. `t(key, fallback)` translates a namespaced key; a code the list does not hold
 * (a request made before the list was the rule) falls back to the code.
 */
export function requestedDocumentNames(
  formCode: string,
  request: { documentTypes: readonly string[]; otherDocument: string | null },
  t: (key: string, fallback: string) => string,
): string[] {
  const labels = new Map(documentTypesFor(formCode).map((o) => [o.value, o.labelKey]));
  return request.documentTypes.map((code) => {
    if (code === OTHER_DOCUMENT && request.otherDocument) return request.otherDocument;
    const labelKey = labels.get(code);
    return labelKey ? t(`forms:${labelKey}`, code) : t(`forms:documents.${code}`, code);
  });
}

const concrete = new Map<string, FollowUpDefinition>();

export const SUBMIT_DOCUMENT: FollowUpDefinition = {
  kind: 'followUp',
  ...followUpEntry('submitDocument'),
  code: 'SD',
  documentType: 'SUPPORTING_DOCUMENT',
  historyType: (answers) =>
    answers.documentType === LAYOUT_PLAN_DOCUMENT ? 'LAYOUT_PLAN' : 'SUPPORTING_DOCUMENT',
  steps: steps([otherOption]),
  forApplication: (formCode) => {
    let made = concrete.get(formCode);
    if (!made) {
      made = { ...SUBMIT_DOCUMENT, steps: steps(documentTypesFor(formCode)), forApplication: undefined };
      concrete.set(formCode, made);
    }
    return made;
  },
};

/** The form for a case, its document types narrowed to those the department requested (`?request=`). */
export function submitDocumentFor(formCode: string, requested: readonly string[]): FollowUpDefinition {
  return {
    ...SUBMIT_DOCUMENT,
    steps: steps(documentTypesFor(formCode, requested)),
    forApplication: undefined,
  };
}
