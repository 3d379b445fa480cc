import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type { CaseData } from '../../machines/rules/case';
import { CaseFromDepartment } from '../../ui/flows/case/CaseFromDepartment';
import caseEn from '../../i18n/en/case.json';
import formsEn from '../../i18n/en/forms.json';
import caseTc from '../../i18n/tc/case.json';
import formsTc from '../../i18n/tc/forms.json';

/**
 * The applicant's to-do for a request of the department (docs/console.md): the documents by their names
 * in the reader's language, "Other" by the officer's description, never their codes.
 */

const data = {
  applicationNo: 'A2-2026-000001',
  formCode: 'A2',
  status: 'ACKNOWLEDGED',
  officer: null,
  messages: [],
  requests: [
    {
      id: 1,
      documentTypes: ['layoutPlans', 'other'],
      otherDocument: 'Fire Service Installation certificate',
      note: null,
      replyBy: '2026-12-31',
      createdAt: '2026-10-05T01:00:00.000Z',
      answeredAt: null,
      overdue: false,
    },
  ],
} as unknown as CaseData;

async function render(lng: 'en' | 'tc') {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    resources: { en: { case: caseEn, forms: formsEn }, tc: { case: caseTc, forms: formsTc } },
    interpolation: { escapeValue: false },
  });
  return renderToStaticMarkup(
    createElement(
      MemoryRouter,
      null,
      createElement(I18nextProvider, { i18n }, createElement(CaseFromDepartment, { data })),
    ),
  );
}

describe("the applicant's to-do for a request of the department", () => {
  it.each([
    ['en', formsEn.documents.layoutPlans],
    ['tc', formsTc.documents.layoutPlans],
  ] as const)('names the documents in the reader’s language (%s)', async (lng, layoutPlans) => {
    const html = await render(lng);
    expect(html).toContain(layoutPlans);
    expect(html).toContain('Fire Service Installation certificate');
    expect(html).not.toMatch(/layoutPlans|documents\.|\bother\b|FS251/);
    expect(html).toContain('/form-submit-doc-step1?request=1');
  });
});
