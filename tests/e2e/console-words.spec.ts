import { expect, test, type Locator, type Page } from '@playwright/test';
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import authSc from '../../i18n/sc/auth.json' with { type: 'json' };
import authTc from '../../i18n/tc/auth.json' with { type: 'json' };
import en from '../../i18n/en/console.json' with { type: 'json' };
import sc from '../../i18n/sc/console.json' with { type: 'json' };
import tc from '../../i18n/tc/console.json' with { type: 'json' };
import { formatDate } from '../../ui/components/format';
import { CONSOLE_STAFF } from './fixtures-console';
import { testApplicant } from './fixtures';
import { WORDS_CASE as W } from './fixtures-words';
import { totp } from './console-totp';
import { axeViolations, seedSession } from './support';

/**
 * What the applicant or AP wrote, on the officer's case page (docs/decisions/037-applicant-words-in-console.md):
 * the officer opens the case and reads each text next to the document or action it came with, under a
 * heading per follow-up, in a description list, with `lang` on the words whose language is not the page's;
 * the document by its type, the file name second; the case's language and the applicant's mobile in the
 * summary. Axe clean in English, Traditional and Simplified Chinese.
 */
const no = testApplicant(W.n).applicationNo;

async function noAxe(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** The definition (dd) right after the term `term` in `scope`. */
const definition = (scope: Locator, term: string) =>
  scope
    .locator('dt')
    .filter({ hasText: new RegExp(`^${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
    .locator('xpath=following-sibling::dd[1]');

const heading = (
  m: typeof en,
  auth: typeof authEn,
  type: keyof typeof authEn.history.documentTypes,
  ref: string,
) => m.case.words.heading.replace('{{type}}', auth.history.documentTypes[type]).replace('{{reference}}', ref);

test('the officer reads what the applicant and the AP wrote, next to each document and action; axe in en, tc, sc', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await seedSession(page, { language: 'en' });
  await page.goto('/console/sign-in');
  await page.getByLabel(en.signIn.username).fill(CONSOLE_STAFF.words.username);
  await page.getByLabel(en.signIn.password).fill(CONSOLE_STAFF.words.password);
  await page.getByLabel(en.signIn.code).fill(totp());
  await page.getByRole('button', { name: en.signIn.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: en.queue.title })).toBeVisible();

  await page.goto(`/console/cases/${no}`);
  await expect(page.getByRole('heading', { level: 1, name: no })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: en.case.words.title })).toBeVisible();

  // The summary: the case's language (messages go in it) and the applicant's mobile.
  const summary = page.locator('dl').first();
  await expect(definition(summary, en.case.language)).toHaveText(en.holdersPage.languages.tc);
  await expect(definition(summary, en.case.mobile)).toHaveText(testApplicant(W.n).mobile);

  // The supporting document: its description (the document's name) and note, by whom and when, in Chinese
  // marked as such on the English page; the document by that name, the file name second.
  const doc = page.getByRole('region', { name: heading(en, authEn, 'SUPPORTING_DOCUMENT', `SD-${no}-1`) });
  await expect(definition(doc, en.case.words.by)).toHaveText(authEn.history.submittedBy.APPLICANT);
  const description = definition(doc, en.case.words.fields.description);
  await expect(description).toHaveText(W.description);
  await expect(description).toHaveAttribute('lang', 'zh-Hant');
  const note = definition(doc, en.case.words.fields.note);
  await expect(note).toHaveText(W.note);
  await expect(note).not.toHaveAttribute('lang', /./);
  await expect(doc.getByRole('heading', { level: 4, name: en.case.words.documents })).toBeVisible();
  const file = doc.getByRole('listitem');
  await expect(file.locator('strong')).toHaveText(W.description);
  await expect(file.locator('strong [lang="zh-Hant"]')).toHaveCount(1);
  await expect(file).toContainText(W.fileName);
  await expect(file.getByRole('link', { name: en.case.view.replace('{{name}}', W.fileName) })).toBeVisible();

  // The inspection request: the preferred dates, the site contact and the access notes.
  const ins = page.getByRole('region', { name: heading(en, authEn, 'INSPECTION_REQUEST', `INS-${no}-1`) });
  await expect(definition(ins, en.case.words.fields.preferredDate1)).toHaveText(
    formatDate(W.preferredDates[0], 'en'),
  );
  await expect(definition(ins, en.case.words.fields.preferredDate3)).toHaveText(
    formatDate(W.preferredDates[2], 'en'),
  );
  await expect(definition(ins, en.case.words.fields.inspectionContactName)).toHaveText(W.contactName);
  await expect(definition(ins, en.case.words.fields.inspectionContactTelephone)).toHaveText(
    W.contactTelephone,
  );
  const access = definition(ins, en.case.words.fields.accessNotes);
  await expect(access).toHaveText(W.accessNotes);
  await expect(access).toHaveAttribute('lang', 'zh-Hant');

  // The inspection facts above the actions mark the same notes.
  const facts = page.getByRole('region', { name: en.case.inspection.title });
  await expect(definition(facts, en.case.inspection.access)).toHaveAttribute('lang', 'zh-Hant');

  // The withdrawal's reason.
  const wd = page.getByRole('region', { name: heading(en, authEn, 'WITHDRAWAL', `WD-${no}-1`) });
  await expect(definition(wd, en.case.words.fields.reason)).toHaveText(W.reason);

  // The messages, the applicant's in Chinese marked so, the AP's as the AP's.
  const messages = page
    .getByRole('heading', { level: 2, name: en.case.messages })
    .locator('xpath=following-sibling::ul[1]');
  await expect(messages.locator('li', { hasText: W.message }).locator('[lang="zh-Hant"]')).toHaveText(
    W.message,
  );
  await expect(messages.locator('li', { hasText: W.apMessage })).toContainText(authEn.history.submittedBy.AP);
  await noAxe(page);

  // In Traditional Chinese the Chinese words are the page's language; the English ones are marked.
  await page.getByRole('button', { name: '繁體中文' }).click();
  await expect(page.getByRole('heading', { level: 2, name: tc.case.words.title })).toBeVisible();
  const docTc = page.getByRole('region', { name: heading(tc, authTc, 'SUPPORTING_DOCUMENT', `SD-${no}-1`) });
  await expect(definition(docTc, tc.case.words.fields.description)).not.toHaveAttribute('lang', /./);
  await expect(definition(docTc, tc.case.words.fields.note)).toHaveAttribute('lang', 'en');
  await noAxe(page);

  // In Simplified Chinese the Traditional words keep their own tag.
  await page.getByRole('button', { name: '简体中文' }).click();
  await expect(page.getByRole('heading', { level: 2, name: sc.case.words.title })).toBeVisible();
  const insSc = page.getByRole('region', { name: heading(sc, authSc, 'INSPECTION_REQUEST', `INS-${no}-1`) });
  await expect(definition(insSc, sc.case.words.fields.accessNotes)).toHaveAttribute('lang', 'zh-Hant');
  await expect(definition(insSc, sc.case.words.fields.accessNotes)).toHaveText(W.accessNotes);
  await noAxe(page);
});
