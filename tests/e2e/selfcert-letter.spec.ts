import { expect, test, type Page } from '@playwright/test';
import appointmentEn from '../../i18n/en/appointment.json' with { type: 'json' };
import { FORM_CATALOGUE } from '../../machines/forms';
import type { Language } from '../../machines/rules/language';
import { ISSUED_LETTER_FIELDS } from '../../machines/rules/selfcert';
import { testApplicant } from './fixtures';
import { SELF_CERT_LETTER, SELF_CERT_LETTER_CASE } from './fixtures-selfcert';
import { fillStep } from './flows/fill-form';
import { text } from './flows/submit-flow';
import { codeSentTo } from './outbox';
import { axeViolations, pageReady, seedSession } from './support';

/**
 * "Self-certify this case" with the letter the department issued on record (docs/decisions/
 * 021-self-certification.md, "Certified against the letter issued"): the AP logs in to the case, opens the
 * form from the case page, and on the letter step finds the letter's reference, date and requirements as
 * text, not inputs, with no requirement to add or remove; each requirement names its compliance control,
 * answered here by keyboard; axe clean in en, sc and tc.
 */

const definition = FORM_CATALOGUE.scs1;
const caseNo = testApplicant(SELF_CERT_LETTER_CASE.n).applicationNo;
const t = (lang: Language, key: string) => text(lang, 'wizard', key);
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', sc: '简体中文', tc: '繁體中文' };

async function switchLanguage(page: Page, from: Language, to: Language) {
  await page.getByRole('button', { name: new RegExp(LANGUAGE_NAMES[from]) }).click();
  await page.getByRole('menuitemradio', { name: LANGUAGE_NAMES[to] }).click();
}

/** Chooses an option of a select by keyboard: Enter opens it, arrows move, Enter takes. */
async function chooseByKeyboard(page: Page, id: string, downs: number) {
  await page.locator(`#${id}`).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox')).toBeVisible();
  for (let i = 0; i < downs; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox')).toBeHidden();
}

test('the letter issued on the case is certified item by item: read only, compliance by keyboard, axe in en, sc and tc', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await seedSession(page, { language: 'en' });

  // The AP logs in by keyboard and opens the case.
  await page.goto('/appointee-login');
  await pageReady(page);
  await page.getByLabel(appointmentEn.login.registration, { exact: true }).focus();
  await page.keyboard.type('AP(A) 1234');
  await page.keyboard.press('Tab');
  await page.keyboard.type('e2e-ap-1234@example.hk');
  await page.keyboard.press('Enter');
  const code = page.getByLabel(appointmentEn.login.code, { exact: true });
  await expect(code).toBeVisible();
  await code.focus();
  await page.keyboard.type(await codeSentTo(page, 'e2e-ap-1234@example.hk'));
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: `Open ${caseNo}` }).click();
  await expect(page).toHaveURL(/\/case-history$/);
  await page.getByRole('link', { name: /Self-certify this case/ }).click();
  await expect(page).toHaveURL(/\/form-scs-1-step1\?case=/);
  await expect(page.locator('#field-caseApplicationNo')).toHaveValue(caseNo);

  const answers: Record<string, unknown> = {
    ...definition.example,
    caseApplicationNo: caseNo,
    applicantEmail: 'certifier-letter@example.hk',
  };
  for (const step of [0, 1]) {
    await fillStep(page, definition, step, answers);
    await page.getByRole('button', { name: t('en', 'next') }).click();
    await expect(page).toHaveURL(new RegExp(`/form-scs-1-step${step + 2}(\\?.*)?$`));
  }
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Letter of Requirements');

  // The letter as issued: text, not inputs; no requirement added or removed.
  await expect(page.getByText(t('en', 'letterIssued'))).toBeVisible();
  const reference = page.getByRole('group', { name: 'BD Reference Number' });
  await expect(reference).toContainText(SELF_CERT_LETTER.bdReference);
  await expect(page.getByRole('textbox', { name: /BD Reference Number/ })).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Date of Letter of Requirements' })).toContainText('2026');
  for (const category of ['lorCategory1', 'lorCategory2']) {
    const table = page.locator(`#field-${category}`);
    await expect(table.locator('[data-action="add-row"]')).toHaveCount(0);
    await expect(table.getByRole('button', { name: /Remove/ })).toHaveCount(0);
    await expect(table.getByRole('textbox', { name: 'Requirement' })).toHaveCount(0);
  }
  // Each requirement names its compliance control: the row's group is the requirement's position and text.
  const [first, second] = SELF_CERT_LETTER.category1;
  const row1 = page.getByRole('group', { name: `Requirement 1 of 2 ${first}` });
  const row2 = page.getByRole('group', { name: `Requirement 2 of 2 ${second}` });
  await expect(row1.getByRole('button', { name: /Compliance/ })).toBeVisible();

  // Compliance by keyboard: complied; not applicable with its reason typed; complied.
  await chooseByKeyboard(page, 'field-lorCategory1-0-status', 0);
  await expect(row1.getByRole('button', { name: /Compliance/ })).toContainText('Complied with');
  await chooseByKeyboard(page, 'field-lorCategory1-1-status', 1);
  await expect(row2.getByRole('button', { name: /Compliance/ })).toContainText('Not applicable');
  await page.keyboard.press('Tab');
  await expect(page.locator('#field-lorCategory1-1-remark')).toBeFocused();
  await page.keyboard.type('The premises use no staircase of their own.');
  await chooseByKeyboard(page, 'field-lorCategory2-0-status', 0);

  // The rest of the step is the certifier's as before (no minor works, the certification).
  const rest = Object.fromEntries(
    Object.entries(answers).filter(
      ([id]) => !(ISSUED_LETTER_FIELDS as readonly string[]).includes(id) && id !== 'minorWorks',
    ),
  );
  await fillStep(page, definition, 2, { ...rest, minorWorksCarriedOut: 'no' });
  expect(await axeViolations(page)).toEqual([]);
  await switchLanguage(page, 'en', 'sc');
  await expect(page.getByText(t('sc', 'letterIssued'))).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await switchLanguage(page, 'sc', 'tc');
  await expect(page.getByText(t('tc', 'letterIssued'))).toBeVisible();
  await expect(page.getByRole('group', { name: `第1項規定（共2項） ${first}` })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // Checked against the letter on leaving the step, then the preview lists the requirements certified.
  await page.getByRole('button', { name: t('tc', 'toPreview') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('tc', 'preview.title'));
  await expect(page.locator('main')).toContainText(first);
  await expect(page.locator('main')).toContainText(SELF_CERT_LETTER.category2[0]);
});
