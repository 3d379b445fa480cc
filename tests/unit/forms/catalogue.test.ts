import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ADDRESS_PARTS, addressPartKey } from '../../../machines/forms/composite';
import { ERRORS, qualify, toFormIssues, type FormIssue } from '../../../machines/forms/errors';
import { fieldsOf } from '../../../machines/forms/fields';
import { CATALOGUE_KEYS, FORM_CATALOGUE, formByKey, formBySlug } from '../../../machines/forms/index';
import { schemaFor } from '../../../machines/forms/schema';
import { TEST_SELF_CERT } from './fixtures/test-self-cert';
import type { Field, FormDefinition } from '../../../machines/forms/types';
import { LANGUAGES } from '../../../machines/rules/language';
import { FORM_SPECS } from '../../../machines/forms/catalogue-index';

const issuesOf = (definition: FormDefinition, answers: unknown): FormIssue[] => {
  const result = schemaFor(definition).safeParse(answers);
  return result.success ? [] : toFormIssues(result.error);
};
const without = (answers: Record<string, unknown>, id: string) =>
  Object.fromEntries(Object.entries(answers).filter(([k]) => k !== id));

/** What a required field left empty says: its own message, or "<label> is required". */
const requiredIssue = (field: Field) =>
  field.requiredKey
    ? { message: qualify(field.requiredKey), params: {} }
    : { message: ERRORS.required, params: { field: qualify(field.labelKey) } };

const INVALID: Partial<Record<Field['kind'], { value: string; message: string }>> = {
  email: { value: 'chan.taiman@example', message: ERRORS.invalidEmail },
  mobile: { value: '2123 4567', message: ERRORS.invalidMobile },
  hkic: { value: 'A1234564', message: ERRORS.invalidHkic },
};

function keysOf(definition: FormDefinition): string[] {
  const fieldKeys = (f: Field): string[] => [
    f.labelKey,
    ...(f.hint ? [`${f.labelKey}Hint`] : []),
    ...(f.requiredKey ? [f.requiredKey] : []),
    ...('options' in f ? f.options.map((o) => o.labelKey) : []),
    ...(f.kind === 'address' ? ADDRESS_PARTS.map(addressPartKey) : []),
    ...(f.kind === 'table'
      ? f.columns.flatMap((c) => [c.labelKey, ...(c.options ?? []).map((o) => o.labelKey)])
      : []),
  ];
  return [
    ...definition.steps.flatMap((s) =>
      s.kind === 'fill'
        ? [
            s.titleKey,
            ...s.sections.flatMap((x) => [
              x.titleKey,
              ...(x.introKey ? [x.introKey] : []),
              ...x.fields.flatMap(fieldKeys),
            ]),
          ]
        : [],
    ),
    ...definition.documents.map((d) => d.labelKey),
  ];
}

const dir = fileURLToPath(new URL('../../../i18n', import.meta.url));
function flatten(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    flatten(v, prefix ? `${prefix}.${k}` : k),
  );
}
const messages = Object.fromEntries(
  LANGUAGES.map((lang) => [
    lang,
    new Set(flatten(JSON.parse(readFileSync(`${dir}/${lang}/forms.json`, 'utf8')))),
  ]),
);

const TYPES = {
  a2: 'NEWSCH',
  b2: 'EXTSCH',
  c2: 'NLHE',
  e2: 'EXTSCH',
  f2: 'NEWCCC',
  g2: 'NLHE',
  cccaiC2: 'NEWCCC',
  edbJokc02: 'NEWJOKC',
  cccaiMh3: 'NEWMUT',
  scs1: 'NEWSCH',
  scs2: 'EXTSCH',
  scc1: 'NEWCCC',
  scc2: 'NEWCCC',
  scn1: 'NLHE',
} as const;

describe('the form catalogue', () => {
  it('holds the nine application forms and five self-certifications of FORM_SPECS, found by key and by slug', () => {
    const apply = FORM_SPECS.filter((s) => s.group === 'apply' || s.group === 'selfCert');
    expect(CATALOGUE_KEYS.sort()).toEqual(apply.map((s) => s.form).sort());
    for (const spec of apply) {
      expect(formByKey(spec.form)?.slug).toBe(spec.slug);
      expect(formBySlug(spec.slug)?.key).toBe(spec.form);
    }
    expect(formByKey('updateInformation')).toBeUndefined();
    expect(formByKey('toString')).toBeUndefined();
    expect(formBySlug('usi')).toBeUndefined();
  });

  it('gives each form its application type', () => {
    for (const key of CATALOGUE_KEYS) expect(FORM_CATALOGUE[key].applicationType, key).toBe(TYPES[key]);
  });
});

describe.each(
  [...CATALOGUE_KEYS.map((k) => FORM_CATALOGUE[k]), TEST_SELF_CERT].map((d) => [d.code, d] as const),
)('form %s', (_code, definition) => {
  const example = definition.example as Record<string, unknown>;

  it('has the steps of its FORM_SPECS entry, in order', () => {
    const spec = FORM_SPECS.find((s) => s.form === definition.key);
    expect(definition.steps.map((s) => (s.kind === 'fill' ? s.id : s.kind))).toEqual(spec?.steps);
  });

  it('has unique field ids', () => {
    const ids = fieldsOf(definition).map((p) => p.field.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('accepts its example', () => {
    expect(issuesOf(definition, example)).toEqual([]);
  });

  it('has every label, hint, option, title and document key in en, sc and tc', () => {
    for (const lang of LANGUAGES)
      for (const key of keysOf(definition)) expect(messages[lang]?.has(key), `${lang} ${key}`).toBe(true);
  });

  for (const { field } of fieldsOf(definition).filter((p) => p.field.required)) {
    if (field.when) continue;
    it(`fails with the required message when ${field.id} is missing`, () => {
      const issues = issuesOf(definition, without(example, field.id));
      if (field.kind === 'address') {
        expect(issues.map((i) => i.path)).toEqual([
          [field.id, 'en'],
          [field.id, 'zh'],
        ]);
        expect(issues.map((i) => i.params.field)).toEqual([qualify('address.en'), qualify('address.zh')]);
      } else {
        expect(issues).toEqual([{ path: [field.id], fieldId: field.id, ...requiredIssue(field) }]);
      }
    });
  }

  for (const { field } of fieldsOf(definition)) {
    const invalid = INVALID[field.kind];
    if (!invalid) continue;
    it(`fails with its invalid message when ${field.id} is ${invalid.value}`, () => {
      const issues = issuesOf(definition, { ...example, [field.id]: invalid.value });
      expect(issues).toEqual([
        {
          path: [field.id],
          fieldId: field.id,
          message: invalid.message,
          params: { field: qualify(field.labelKey) },
        },
      ]);
    });
  }

  it.runIf(fieldsOf(definition).some((p) => p.field.id === 'applyingAs'))(
    'does not require the organisation of an individual applicant, nor keep it',
    () => {
      const answers = { ...without(example, 'orgNameEn'), applyingAs: 'individual', orgNameZh: '不應保留' };
      const result = schemaFor(definition).parse(answers);
      expect(result).not.toHaveProperty('orgNameZh');
      expect(result).not.toHaveProperty('applicantPostTitle');
      expect(issuesOf(definition, { ...example, orgNameEn: '' })[0]?.fieldId).toBe('orgNameEn');
    },
  );

  if (fieldsOf(definition).some((p) => p.field.id === 'schoolType')) {
    it('requires the please-specify text when Other is chosen, and only then', () => {
      const other = { ...without(example, 'schoolTypeOther'), schoolType: 'other' };
      expect(issuesOf(definition, other)).toEqual([
        {
          path: ['schoolTypeOther'],
          fieldId: 'schoolTypeOther',
          message: ERRORS.required,
          params: { field: qualify('fields.school.typeOther') },
        },
      ]);
      const primary = { ...other, schoolType: 'primary', schoolTypeOther: 'ignored' };
      expect(schemaFor(definition).parse(primary)).not.toHaveProperty('schoolTypeOther');
    });
  }
});
