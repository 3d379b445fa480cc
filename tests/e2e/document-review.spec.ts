import { expect, test, type Browser, type Page } from '@playwright/test';
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import authSc from '../../i18n/sc/auth.json' with { type: 'json' };
import authTc from '../../i18n/tc/auth.json' with { type: 'json' };
import caseEn from '../../i18n/en/case.json' with { type: 'json' };
import caseSc from '../../i18n/sc/case.json' with { type: 'json' };
import caseTc from '../../i18n/tc/case.json' with { type: 'json' };
import en from '../../i18n/en/console.json' with { type: 'json' };
import sc from '../../i18n/sc/console.json' with { type: 'json' };
import tc from '../../i18n/tc/console.json' with { type: 'json' };
import formsEn from '../../i18n/en/forms.json' with { type: 'json' };
import formsSc from '../../i18n/sc/forms.json' with { type: 'json' };
import formsTc from '../../i18n/tc/forms.json' with { type: 'json' };
import type { Language } from '../../machines/rules/language';
import { CONSOLE_STAFF } from './fixtures-console';
import { testApplicant } from './fixtures';
import { REVIEW_CASES, REVIEW_FILE } from './fixtures-review';
import { logInToCase } from './case-login';
import { totp } from './console-totp';
import { axeViolations, pageReady, seedSession } from './support';

/**
 * The review of a document, both sides (docs/decisions/043-document-review.md): the officer opens the
 * case, sees the location plan by its type with who uploaded it, when and its size, marks it "needs
 * replacement" (the reason typed key by key; without one the form says so), confirms, and the record
 * takes the focus; the applicant logs in to Find my case and reads the reason next to the document, with
 * the link to submit a replacement of that type. Axe clean in en, sc and tc on both sides.
 */
const CONSOLE = { en, sc, tc };
const AUTH = { en: authEn, sc: authSc, tc: authTc };
const CASE = { en: caseEn, sc: caseSc, tc: caseTc };
const FORMS = { en: formsEn, sc: formsSc, tc: formsTc };
const SWITCH: Record<Language, string> = { en: 'English', tc: '繁體中文', sc: '简体中文' };

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '');

async function noAxe(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

async function personIn(browser: Browser, lang: Language): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await seedSession(page, { language: lang });
  return page;
}

/** The officer marks the case's location plan "needs replacement" in `lang`, typing `reason`. */
async function officerAsksForReplacement(
  page: Page,
  lang: Language,
  no: string,
  reason: string,
  staff: (typeof CONSOLE_STAFF)['review'],
) {
  const m = CONSOLE[lang];
  await page.goto('/console/sign-in');
  await page.getByLabel(m.signIn.username).fill(staff.username);
  await page.getByLabel(m.signIn.password).fill(staff.password);
  await page.getByLabel(m.signIn.code).fill(totp());
  await page.getByRole('button', { name: m.signIn.submit }).click();
  // The password's hash takes a while on a loaded machine.
  await expect(page.getByRole('heading', { level: 1, name: m.queue.title })).toBeVisible({ timeout: 30_000 });
  await page.goto(`/console/cases/${no}`);
  await expect(page.getByRole('heading', { level: 1, name: no })).toBeVisible();

  // The document by its type, the file second; who uploaded it, when, its size; not reviewed yet.
  const type = FORMS[lang].documents.locationPlan;
  const name = `${type} (${REVIEW_FILE})`;
  const item = page.getByRole('listitem').filter({ hasText: REVIEW_FILE });
  await expect(item.locator('strong').first()).toHaveText(type);
  await expect(item).toContainText(AUTH[lang].history.submittedBy.APPLICANT);
  await expect(item).toContainText(fill(m.case.review.size, { size: '200' }));
  await expect(item).toContainText(m.case.review.statuses.notReviewed);

  const open = page.getByRole('button', { name: fill(m.case.review.open, { name }) });
  await open.click();
  await expect(open).toHaveAttribute('aria-expanded', 'true');
  const form = page.getByRole('form', { name: fill(m.case.review.title, { name }) });
  await form.getByLabel(m.case.review.statuses.needsReplacement).check();
  // Without a reason the form says so at the field.
  await form.getByRole('button', { name: m.case.continue }).click();
  const reasonBox = form.getByLabel(m.case.review.reason);
  await expect(reasonBox).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toContainText(m.case.review.reasonRequired);
  await noAxe(page);

  await reasonBox.focus();
  await reasonBox.pressSequentially(reason);
  await form.getByRole('button', { name: m.case.continue }).click();
  // The confirmation takes the focus and says who reads the reason.
  const confirm = page.getByRole('heading', { name: fill(m.case.review.confirm.needsReplacement, { name }) });
  await expect(confirm).toBeFocused();
  await expect(page.getByRole('note')).toHaveText(m.case.review.warning);
  await page.getByRole('button', { name: fill(m.case.review.save, { name }) }).click();

  // The record takes the focus; the status names the officer and the reason as typed.
  const saved = page.getByRole('status').filter({
    hasText: fill(m.case.review.saved, { name, status: m.case.review.statuses.needsReplacement }),
  });
  await expect(saved).toBeFocused();
  await expect(item).toContainText(lang === 'en' ? staff.nameEn : staff.nameZh);
  await expect(item.locator('.console__written')).toHaveText(reason);
  await noAxe(page);
}

/** The applicant reads the reason on their case page in `lang`, with the link to a replacement. */
async function applicantReadsTheReason(page: Page, lang: Language, n: number, reason: string) {
  await page.goto('/form-submit-doc-step1');
  await logInToCase(page, lang, n);
  await page.goto('/case-history');
  await pageReady(page);
  const c = CASE[lang].review;
  const notice = page.getByRole('group', { name: c.needsReplacement });
  await expect(notice).toContainText(reason);
  const link = notice.getByRole('link', { name: fill(c.replace, { name: REVIEW_FILE }) });
  await expect(link).toHaveAttribute('href', '/form-submit-doc-step1?type=locationPlan');
  await noAxe(page);
  // The link opens Submit Supporting Document.
  await link.click();
  await expect(page).toHaveURL(/\/form-submit-doc-step1\?type=locationPlan$/);
  await pageReady(page);
}

test.describe('the review of a document, by the officer and by the applicant', () => {
  test('en officer, tc applicant: the reason typed key by key reaches the applicant; axe en, tc, sc', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const { n } = REVIEW_CASES.tc;
    const no = testApplicant(n).applicationNo;
    const reason = 'The plan does not show the exits. Please mark them.';
    const officer = await personIn(browser, 'en');
    await officerAsksForReplacement(officer, 'en', no, reason, CONSOLE_STAFF.review);
    // The case page in the two other languages, with the review: axe clean.
    for (const lang of ['tc', 'sc'] as const) {
      await officer.getByRole('button', { name: SWITCH[lang] }).click();
      await expect(
        officer.getByRole('heading', { level: 2, name: CONSOLE[lang].case.words.title }),
      ).toBeVisible();
      await expect(officer.getByRole('listitem').filter({ hasText: REVIEW_FILE })).toContainText(
        CONSOLE[lang].case.review.statuses.needsReplacement,
      );
      await noAxe(officer);
    }
    await applicantReadsTheReason(await personIn(browser, 'tc'), 'tc', n, reason);
  });

  test('tc officer, en applicant: a Chinese reason, as written', async ({ browser }) => {
    test.setTimeout(180_000);
    const { n } = REVIEW_CASES.en;
    const no = testApplicant(n).applicationNo;
    const reason = '圖則未有顯示走火通道，請補上。';
    await officerAsksForReplacement(await personIn(browser, 'tc'), 'tc', no, reason, CONSOLE_STAFF.reviewTc);
    await applicantReadsTheReason(await personIn(browser, 'en'), 'en', n, reason);
  });
});
