import { expect, test, type Page } from '@playwright/test';
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import caseEn from '../../i18n/en/case.json' with { type: 'json' };
import caseSc from '../../i18n/sc/case.json' with { type: 'json' };
import caseTc from '../../i18n/tc/case.json' with { type: 'json' };
import flowsEn from '../../i18n/en/flows.json' with { type: 'json' };
import flowsTc from '../../i18n/tc/flows.json' with { type: 'json' };
import formsEn from '../../i18n/en/forms.json' with { type: 'json' };
import formsSc from '../../i18n/sc/forms.json' with { type: 'json' };
import formsTc from '../../i18n/tc/forms.json' with { type: 'json' };
import type { Language } from '../../machines/rules/language';
import { testApplicant } from './fixtures';
import { FOLLOW_UP_APPLICANTS } from './fixtures-followups';
import { logInToCase } from './case-login';
import { axeViolations, pageReady, seedSession } from './support';

/**
 * Update Application and School / Centre Information (issue 11): a school case in English end to end, a
 * child care centre case in Traditional Chinese, and Simplified Chinese by keyboard alone; axe on every
 * screen. The cases are seeded with their information as submitted (fixtures-followups.ts).
 */
const FORMS = { en: formsEn, sc: formsSc, tc: formsTc };

/** A `forms` message by its dotted key. */
const label = (lang: Language, key: string): string =>
  key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], FORMS[lang]) as string;

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

test.describe('Update Application and School / Centre Information', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('a school case: prefilled, nothing changed refused, before → after, Update Success, history', async ({
    page,
  }) => {
    await seedSession(page, { language: 'en' });
    const { n } = FOLLOW_UP_APPLICANTS.usiSchoolEn;
    const no = testApplicant(n).applicationNo;
    await page.goto('/form-usi-step1');
    await logInToCase(page, 'en', n);

    const title = flowsEn.forms.updateInformation.title;
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const school = page.getByLabel(label('en', 'fields.school.proposedNameEn'));
    await expect(school).toHaveValue('Harbour Tutorial Centre');
    await expectNoAxeViolations(page);

    // Ticked but nothing changed: refused on the form, with the reason.
    await page.getByText(formsEn.followUp.update.confirmSchool).click();
    await page.getByRole('button', { name: caseEn.continue }).click();
    await expect(page.getByRole('alert').getByText(formsEn.followUp.update.errors.noChanges)).toBeVisible();
    await expectNoAxeViolations(page);

    await school.fill('Harbour Learning Centre');
    await page.getByRole('button', { name: caseEn.continue }).click();
    await expect(page.getByRole('heading', { level: 1, name: caseEn.screens.preview })).toBeVisible();
    const change = page.locator('[data-field="schoolNameEn"]');
    await expect(change.locator('del')).toHaveText('Harbour Tutorial Centre');
    await expect(change.locator('ins')).toHaveText('Harbour Learning Centre');
    await expect(page.locator('.update-changes [data-field]')).toHaveCount(1);
    await expectNoAxeViolations(page);

    await page.getByRole('button', { name: caseEn.submit.updateInformation }).click();
    await expect(page).toHaveURL(/\/form-usi-step2$/);
    await expect(page.getByRole('heading', { level: 1, name: caseEn.update.successTitle })).toBeVisible();
    await expect(page.getByText(`USI-${no}-1`)).toBeVisible();
    await expect(page.locator('[data-field="schoolNameEn"] ins')).toHaveText('Harbour Learning Centre');
    await expectNoAxeViolations(page);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: caseEn.update.downloadPdf }).click();
    expect((await download).suggestedFilename()).toBe(`${no}.pdf`);

    await page.getByRole('link', { name: caseEn.toCase }).click();
    await expect(page).toHaveURL(/\/case-history$/);
    await pageReady(page);
    const docText = authEn.history.documentTypes.INFORMATION_UPDATE;
    await expect(page.getByRole('table').getByRole('row').nth(1)).toContainText(docText);
  });

  test('a child care centre case in Traditional Chinese: sent on from the school’s form to the centre’s own', async ({
    page,
  }) => {
    await seedSession(page, { language: 'tc' });
    const { n } = FOLLOW_UP_APPLICANTS.usiCentreTc;
    // From the menu's school form: not for a centre, and the way on is the centre's own form.
    await page.goto('/form-usi-step1');
    await logInToCase(page, 'tc', n);
    await expect(page.getByRole('heading', { level: 1, name: caseTc.screens.notAllowed })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: caseTc.update.elsewhere }).click();
    await expect(page).toHaveURL(/\/form-usi-cccaic2-step1$/);

    const title = flowsTc.forms.updateInformationCccaic2.title;
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const count = page.getByLabel(label('tc', 'fields.centre.childCount'));
    await expect(count).toHaveValue('40');
    await count.fill('45');
    await page.getByText(formsTc.followUp.update.confirmCentre).click();
    await page.getByRole('button', { name: caseTc.continue }).click();
    await expect(page.locator('[data-field="childCount"] ins')).toHaveText('45');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: caseTc.submit.updateInformationCccaic2 }).click();
    await expect(page).toHaveURL(/\/form-usi-cccaic2-step2$/);
    await expect(page.getByRole('heading', { level: 1, name: caseTc.update.successTitle })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('in Simplified Chinese, by keyboard alone', async ({ page }) => {
    await seedSession(page, { language: 'sc' });
    const { n } = FOLLOW_UP_APPLICANTS.usiSchoolSc;
    await page.goto('/form-usi-step1');
    await logInToCase(page, 'sc', n, { keyboard: true });

    const count = page.getByLabel(label('sc', 'fields.school.studentCount'));
    await expect(count).toHaveValue('120');
    await expectNoAxeViolations(page);
    await count.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('150');
    const tick = page.getByLabel(formsSc.followUp.update.confirmSchool);
    await tick.focus();
    await page.keyboard.press('Space');
    await expect(tick).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: caseSc.continue })).toBeFocused();
    await page.keyboard.press('Enter');

    await expect(page.getByRole('heading', { level: 1, name: caseSc.screens.preview })).toBeFocused();
    await expect(page.locator('[data-field="studentCount"] ins')).toHaveText('150');
    await expectNoAxeViolations(page);
    const confirm = page.getByRole('button', { name: caseSc.submit.updateInformation });
    for (let i = 0; i < 10 && !(await confirm.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(confirm).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: caseSc.update.successTitle })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
