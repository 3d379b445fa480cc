import { describe, expect, it } from 'vitest';
import { followUpSchema } from '../../../machines/forms/follow-up';
import {
  documentTypesFor,
  SUBMIT_DOCUMENT,
  submitDocumentFor,
} from '../../../machines/forms/follow-up/submit-document';

const context = { today: '2026-11-24', holidays: new Set<string>() };
const typeOptions = (definition: typeof SUBMIT_DOCUMENT) =>
  definition.steps.flatMap((s) =>
    s.kind === 'fill'
      ? s.sections.flatMap((sec) =>
          sec.fields.flatMap((f) =>
            f.id === 'documentType' && 'options' in f ? f.options.map((o) => o.value) : [],
          ),
        )
      : [],
  );

describe('Submit Supporting Document', () => {
  it("offers the case's form's documents and Other", () => {
    const values = documentTypesFor('A2').map((o) => o.value);
    expect(values).toContain('layoutPlans');
    expect(values[values.length - 1]).toBe('other');
    expect(typeOptions(SUBMIT_DOCUMENT.forApplication!('A2')!)).toEqual(values);
    // A form not in the catalogue: Other only.
    expect(documentTypesFor('X9').map((o) => o.value)).toEqual(['other']);
  });

  it('starts from the requested documents when the department asked for some', () => {
    expect(typeOptions(submitDocumentFor('A2', ['layoutPlans']))).toEqual(['layoutPlans', 'other']);
    // A request for Other only (the officer's description): the applicant may still pick Other.
    expect(typeOptions(submitDocumentFor('A2', ['other']))).toEqual(['other']);
  });

  it('asks for a description only for Other, a revision only for layout plans, and has an upload step', () => {
    const schema = followUpSchema(SUBMIT_DOCUMENT.forApplication!('A2')!, context);
    expect(schema.safeParse({ documentType: 'locationPlan' }).success).toBe(true);
    expect(schema.safeParse({ documentType: 'layoutPlans' }).success).toBe(false);
    expect(schema.safeParse({ documentType: 'layoutPlans', revision: 'B' }).success).toBe(true);
    expect(schema.safeParse({ documentType: 'layoutPlans', revision: 'R'.repeat(21) }).success).toBe(false);
    expect(schema.safeParse({ documentType: 'other' }).success).toBe(false);
    expect(schema.safeParse({ documentType: 'other', description: 'Fire certificate' }).success).toBe(true);
    expect(schema.safeParse({ documentType: 'passport' }).success).toBe(false);
    expect(SUBMIT_DOCUMENT.steps.map((s) => s.kind)).toEqual(['fill', 'upload', 'preview', 'sign', 'done']);
  });

  it('makes a revised layout plan a LAYOUT_PLAN history row, any other document a SUPPORTING_DOCUMENT', () => {
    expect(SUBMIT_DOCUMENT.historyType?.({ documentType: 'layoutPlans', revision: 'B' })).toBe('LAYOUT_PLAN');
    expect(SUBMIT_DOCUMENT.historyType?.({ documentType: 'other' })).toBe('SUPPORTING_DOCUMENT');
  });
});
