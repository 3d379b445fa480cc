import { expect, test, type Page } from '@playwright/test';
import { fieldDomId } from '../../machines/forms';
import type { Language } from '../../machines/rules/language';
import { axeViolations, pageReady, seedSession } from './support';
import { text } from './flows/submit-flow';
import { FOLLOW_UP_APPLICANTS } from './fixtures-followups';
import { logInToCase } from './case-login';

/**
 * Correcting an answer after "There is a problem" on the case's follow-up forms (docs/forms.md, "Errors
 * and focus"): the summary takes focus, the person clicks the field named and types the correction key by
 * key; every key stays in the field, focus stays there, the summary loses that line without taking focus
 * back. The application forms have the same test in error-focus.spec.ts. Then a reload keeps what was typed.
 */

const summaryOf = (page: Page) => page.locator('.error-summary');

async function correctKeyByKey(page: Page, fieldSelector: string, typed: string) {
  const summary = summaryOf(page);
  await expect(summary).toBeFocused();
  const before = await summary.locator('li').count();
  const field = page.locator(fieldSelector);
  await field.click();
  await page.keyboard.type(typed, { delay: 25 });
  await expect(field).toHaveValue(typed);
  await expect(field).toBeFocused();
  await expect(summary.locator('li')).toHaveCount(before - 1);
}

const continueButton = (page: Page, lang: Language) =>
  page.getByRole('button', { name: text(lang, 'case', 'continue'), exact: true });

test.describe('correcting an answer after an error on the follow-up forms', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('Update information in Traditional Chinese: a cleared school name, then typed again', async ({
    page,
  }) => {
    const lang = 'tc';
    await seedSession(page, { language: lang });
    await page.goto('/form-usi-step1');
    await logInToCase(page, lang, FOLLOW_UP_APPLICANTS.correctUpdateTc.n);
    const school = page.getByLabel(text(lang, 'forms', 'fields.school.proposedNameEn'));
    await expect(school).not.toHaveValue('');
    await school.clear();
    await page.getByText(text(lang, 'forms', 'followUp.update.confirmSchool')).click();
    await continueButton(page, lang).click();
    await correctKeyByKey(page, `#${await school.getAttribute('id')}`, 'Harbour Corrected Centre');
    expect(await axeViolations(page)).toEqual([]);

    await page.reload();
    await pageReady(page);
    await expect(school).toHaveValue('Harbour Corrected Centre');
  });

  test('Submit Supporting Document in English: "Other" without its description, then typed', async ({
    page,
  }) => {
    const lang = 'en';
    await seedSession(page, { language: lang });
    await page.goto('/form-submit-doc-step1');
    await logInToCase(page, lang, FOLLOW_UP_APPLICANTS.correctDocumentEn.n);
    await page
      .getByRole('button', { name: new RegExp(text(lang, 'forms', 'followUp.submitDocument.documentType')) })
      .click();
    await page
      .getByRole('option', { name: text(lang, 'forms', 'followUp.submitDocument.other'), exact: true })
      .click();
    await continueButton(page, lang).click();
    await correctKeyByKey(page, `#${fieldDomId(['description'])}`, 'Fire service certificate (FS 251)');
    expect(await axeViolations(page)).toEqual([]);

    await page.reload();
    await pageReady(page);
    await expect(page.locator(`#${fieldDomId(['description'])}`)).toHaveValue(
      'Fire service certificate (FS 251)',
    );
  });

  test('Appointment of AP and RSE in Simplified Chinese: nothing filled, then the English name typed', async ({
    page,
  }) => {
    const lang = 'sc';
    await seedSession(page, { language: lang });
    await page.goto('/form-appointment-step1');
    await logInToCase(page, lang, FOLLOW_UP_APPLICANTS.correctAppointmentSc.n);
    await continueButton(page, lang).click();
    await correctKeyByKey(page, `#${fieldDomId(['nameEn'])}`, 'WXYZ');
    expect(await axeViolations(page)).toEqual([]);

    await page.reload();
    await pageReady(page);
    await expect(page.locator(`#${fieldDomId(['nameEn'])}`)).toHaveValue('WXYZ');
  });
});
