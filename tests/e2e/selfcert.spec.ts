import { expect, test, type Page } from '@playwright/test';
import { FORM_CATALOGUE } from '../../machines/forms';
import type { FormDefinition } from '../../machines/forms/types';
import type { Language } from '../../machines/rules/language';
import { axeViolations, LANGS, pageReady, seedSession } from './support';
import { fillStep } from './flows/fill-form';
import {
  confirmContact,
  downloadOf,
  signWithIamSmart,
  submitApplication,
  text,
  uploadRequiredDocuments,
} from './flows/submit-flow';
import type { SELF_CERT_CASES } from './fixtures-selfcert';
import { caseNoFor } from './fixtures-selfcert';

/**
 * Self-certification in the browser (issue 16). Lean on purpose: one full journey (SCS-1 in English: from
 * its entry page, fill, add and remove minor works rows, preview, save, upload, sign, submit, download),
 * the minor works table by keyboard alone (SCN-1 in Traditional Chinese), a smoke of every step of the
 * other forms in Simplified and Traditional Chinese and English, and axe on every step in en, sc and tc.
 * The four other forms are submitted end to end by tests/api/selfcert.test.ts.
 */

type Key = keyof typeof SELF_CERT_CASES;

const answersFor = (key: Key, tag: string): Record<string, unknown> => ({
  ...FORM_CATALOGUE[key].example,
  caseApplicationNo: caseNoFor(key),
  applicantEmail: `certifier-${tag}@example.hk`,
});

const t = (lang: Language, key: string, params?: Record<string, string>) => text(lang, 'wizard', key, params);

/** Fills the fill steps before `upTo` (a step index) and moves on; each step's own button. */
async function fillSteps(
  page: Page,
  definition: FormDefinition,
  answers: Record<string, unknown>,
  upTo: number,
  lang: Language,
) {
  for (let i = 0; i < upTo; i++) {
    await fillStep(page, definition, i, answers);
    const last = definition.steps[i + 1]?.kind !== 'fill';
    await page.getByRole('button', { name: t(lang, last ? 'toPreview' : 'next') }).click();
    await expect(page).toHaveURL(new RegExp(`/form-${definition.slug}-step${i + 2}$`));
  }
}

const row = (page: Page, i: number, col: string) => page.locator(`#field-minorWorks-${i}-${col}`);

test.describe('self-certification', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('SCS-1 from its entry page: fill, add and remove minor works rows, preview, save, upload, sign, submit, download', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await seedSession(page, { language: 'en' });
    const definition = FORM_CATALOGUE.scs1;
    const answers: Record<string, unknown> = { ...answersFor('scs1', 'journey'), minorWorks: undefined };
    // The -upload page asks for the upload step: with nothing filled in yet, the first step opens.
    await page.goto('/form-scs-1-upload');
    await expect(page).toHaveURL(/\/form-scs-1-step1(\?case=[^&]*)?$/);
    await page.goto('/opt-school-premises');
    await pageReady(page);
    await page.getByRole('link', { name: 'Start SCS-1 online' }).click();
    await expect(page).toHaveURL(/\/form-scs-1-step1(\?case=[^&]*)?$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fill in Application Form – Part A');
    await fillSteps(page, definition, answers, 2, 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Letter of Requirements');
    await fillStep(page, definition, 2, answers);

    // Three minor works rows added, the second removed: focus goes to the row that took its place.
    const table = page.locator('#field-minorWorks');
    const add = table.getByRole('button', { name: 'Add a row to Minor Works' });
    const rows = [
      ['3.5', 'Supporting frame for an air-conditioning unit', 'MW0123456'],
      ['2.14', 'A row to remove', ''],
      ['III 3.6', 'Drying rack', 'mw 0123 457'],
    ];
    for (const [i, [item = '', description = '', submission = '']] of rows.entries()) {
      await add.click();
      await expect(row(page, i, 'no')).toBeFocused();
      await expect(row(page, i, 'no')).toHaveValue(String(i + 1));
      await row(page, i, 'item').fill(item);
      await row(page, i, 'description').fill(description);
      await row(page, i, 'submissionNo').fill(submission);
    }
    await expect(table.getByRole('group', { name: 'Minor works item 2 of 3' })).toBeVisible();
    await table.getByRole('button', { name: /Remove row 2/ }).click();
    await expect(row(page, 1, 'no')).toBeFocused();
    await expect(row(page, 1, 'description')).toHaveValue('Drying rack');
    await expect(table.getByRole('status')).toHaveText('Row 2 removed. 2 rows left.');
    // The number left by the removed row is refused when repeated.
    await row(page, 1, 'no').fill('1');
    await page.getByRole('button', { name: t('en', 'toPreview') }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(
      summary.getByRole('link', { name: 'No. 1 in row 2 is already used in row 1' }),
    ).toBeVisible();
    await summary.getByRole('link', { name: 'No. 1 in row 2 is already used in row 1' }).click();
    await expect(row(page, 1, 'no')).toBeFocused();
    await row(page, 1, 'no').fill('2');

    // Save for later gives the application number; continue.
    await page.getByRole('button', { name: t('en', 'saveForLater') }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application Saved');
    const code = (await page.locator('.saved__code').innerText()).trim();
    expect(code).toMatch(/^SCS-1-\d{4}-\d{6}$/);
    await page.getByRole('button', { name: t('en', 'saved.continue') }).click();
    await expect(page).toHaveURL(/\/form-scs-1-step3$/);
    await expect(row(page, 1, 'description')).toHaveValue('Drying rack');

    await page.getByRole('button', { name: t('en', 'toPreview') }).click();

    // The preview prints the table as a table, items and numbers as stored.
    await expect(page).toHaveURL(/\/form-scs-1-step4$/);
    const printed = page.locator('table.preview__table').last();
    await expect(printed.getByRole('columnheader', { name: 'MW Item' })).toBeVisible();
    await expect(printed.getByRole('row')).toHaveCount(3);
    await expect(printed).toContainText('Drying rack');

    await confirmContact(page, 'email', String(answers.applicantEmail));
    await page.getByRole('button', { name: t('en', 'preview.confirm') }).click();
    await expect(page).toHaveURL(/\/form-scs-1-step5$/);
    await uploadRequiredDocuments(page, definition);
    expect(await axeViolations(page), 'upload').toEqual([]);
    await signWithIamSmart(page);
    const downloads = await submitApplication(page, code);
    const pdf = await downloadOf(page, downloads.locator('a[data-file="application"]'));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  test('the minor works table by keyboard alone, in Traditional Chinese (SCN-1)', async ({ page }) => {
    test.setTimeout(90_000);
    await seedSession(page, { language: 'tc' });
    const definition = FORM_CATALOGUE.scn1;
    const answers: Record<string, unknown> = { ...answersFor('scn1', 'keyboard'), minorWorks: undefined };
    await page.goto('/form-scn-1-step1');
    await pageReady(page);
    await fillSteps(page, definition, answers, 2, 'tc');
    await fillStep(page, definition, 2, answers);
    const table = page.locator('#field-minorWorks');
    const add = table.getByRole('button', { name: '在小型工程新增一列' });
    await add.focus();
    for (const [i, item] of ['3.5', '2.14'].entries()) {
      await page.keyboard.press('Enter');
      await expect(row(page, i, 'no')).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(row(page, i, 'item')).toBeFocused();
      await page.keyboard.type(item);
      await page.keyboard.press('Tab');
      await page.keyboard.type('工程說明');
      await page.keyboard.press('Tab');
      await page.keyboard.type(`MW012345${i}`);
      await page.keyboard.press('Tab');
      await expect(table.getByRole('button', { name: new RegExp(`刪除第${i + 1}列`) })).toBeFocused();
      if (i === 0) {
        await page.keyboard.press('Tab');
        await expect(add).toBeFocused();
      }
    }
    await expect(table.getByRole('group', { name: '第2項小型工程（共2項）' })).toBeVisible();
    // Remove row 2 by keyboard: focus goes back to row 1.
    await page.keyboard.press('Enter');
    await expect(row(page, 0, 'no')).toBeFocused();
    await expect(table.getByRole('status')).toHaveText('已刪除第2列，尚餘1列。');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/form-scn-1-step4$/);
    await expect(page.locator('table.preview__table').last()).toContainText('MW0123450');
  });

  const smoke: [Key, Language][] = [
    ['scs2', 'tc'],
    ['scc1', 'sc'],
    ['scc2', 'en'],
    ['scn1', 'sc'],
  ];
  for (const [key, lang] of smoke) {
    test(`${FORM_CATALOGUE[key].code}: every fill step to the preview in ${lang}`, async ({ page }) => {
      test.setTimeout(90_000);
      await seedSession(page, { language: lang });
      const definition = FORM_CATALOGUE[key];
      await page.goto(`/form-${definition.slug}-step1`);
      await pageReady(page);
      const fills = definition.steps.filter((s) => s.kind === 'fill').length;
      await fillSteps(page, definition, answersFor(key, `smoke-${key}`), fills, lang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(lang, 'preview.title'));
      await expect(page.locator('table.preview__table').last()).toContainText('MW');
    });
  }

  test('SCS-1 checks the case at its first step and the certifier at Part B, in Traditional Chinese', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await seedSession(page, { language: 'tc' });
    const definition = FORM_CATALOGUE.scs1;
    // From a case page's link: the case number filled from the address (no AP session here: nothing more).
    await page.goto(`/form-${definition.slug}-step1?case=${caseNoFor('scs1')}`);
    await pageReady(page);
    await expect(page.locator('#field-caseApplicationNo')).toHaveValue(caseNoFor('scs1'));
    await expect(page.getByRole('alert')).toHaveCount(0);
    // A case of another type (an E2 case for SCS-1): refused at the case number before anything else.
    await fillStep(page, definition, 0, {
      ...answersFor('scs1', 'check'),
      caseApplicationNo: caseNoFor('scs2'),
    });
    await page.getByRole('button', { name: t('tc', 'next') }).click();
    const field = page.locator('#field-caseApplicationNo');
    await expect(page.locator('.error-summary')).toBeFocused();
    await expect(page.locator('.error-summary')).toContainText(
      '此申請不可用本表格核證：請選用其類別的自行核證表格',
    );
    await expect(page).toHaveURL(/\/form-scs-1-step1(\?case=[^&]*)?$/);
    // Typed again key by key: every key stays in the field; the right case lets the person on.
    await field.click();
    await field.clear();
    await field.pressSequentially(caseNoFor('scs1'));
    await expect(field).toHaveValue(caseNoFor('scs1'));
    await expect(field).toBeFocused();
    await page.getByRole('button', { name: t('tc', 'next') }).click();
    await expect(page).toHaveURL(/\/form-scs-1-step2(\?.*)?$/);
    // Part B: an AP who is not appointed to the case is refused at the registration number.
    await fillStep(page, definition, 1, { ...answersFor('scs1', 'check'), certifierRegNo: 'AP(S) 7777' });
    await page.getByRole('button', { name: t('tc', 'next') }).click();
    await expect(page.locator('.error-summary')).toContainText(
      '核證人必須為本個案獲委任的認可人士或註冊結構工程師',
    );
    await expect(page).toHaveURL(/\/form-scs-1-step2(\?.*)?$/);
    expect(await axeViolations(page)).toEqual([]);
  });

  for (const lang of LANGS) {
    test(`every step of SCS-1 passes axe in ${lang}, with table rows and errors`, async ({ page }) => {
      test.setTimeout(90_000);
      await seedSession(page, { language: lang });
      const definition = FORM_CATALOGUE.scs1;
      const answers = answersFor('scs1', `axe-${lang}`);
      await page.goto('/form-scs-1-step1');
      await pageReady(page);
      expect(await axeViolations(page), 'step 1').toEqual([]);
      await page.locator('button[type="submit"]').click();
      await expect(page.getByRole('alert').first()).toBeVisible();
      expect(await axeViolations(page), 'step 1 with errors').toEqual([]);
      await fillSteps(page, definition, answers, 1, lang);
      expect(await axeViolations(page), 'step 2').toEqual([]);
      await fillStep(page, definition, 1, answers);
      await page.getByRole('button', { name: t(lang, 'next') }).click();
      await expect(page).toHaveURL(/\/form-scs-1-step3$/);
      await fillStep(page, definition, 2, {
        ...answers,
        minorWorks: [...(answers.minorWorks as object[]), {}],
      });
      await page.locator('button[type="submit"]').click();
      await expect(page.getByRole('alert').first()).toBeVisible();
      expect(await axeViolations(page), 'step 3 with rows and errors').toEqual([]);
      await page.locator('#field-minorWorks .table-field__remove').nth(2).click();
      await page.locator('button[type="submit"]').click();
      await expect(page).toHaveURL(/\/form-scs-1-step4$/);
      expect(await axeViolations(page), 'preview').toEqual([]);
    });
  }
});
