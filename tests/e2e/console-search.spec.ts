import { expect, test, type Page } from '@playwright/test';
import en from '../../i18n/en/console.json' with { type: 'json' };
import sc from '../../i18n/sc/console.json' with { type: 'json' };
import { CONSOLE_STAFF, SEARCH_CASES } from './fixtures-console';
import { testApplicant } from './fixtures';
import { totp } from './console-totp';
import { axeViolations, seedSession } from './support';

/**
 * The work queue's search box in the browser (docs/console.md, "The work queue";
 * docs/decisions/034-console-search.md): an officer reading the console in Simplified Chinese types a
 * school's name in Simplified characters, key by key, and finds the case whose name was written in
 * Traditional characters; the officer filter names colleagues; the CSV link carries the search.
 */

async function noAxe(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** The queue's status line in Simplified Chinese: how many cases, on one page. */
const count = (n: number) =>
  (n === 1 ? sc.queue.count_one : sc.queue.count_other)
    .replace('{{count}}', String(n))
    .replace('{{page}}', '1')
    .replace('{{pages}}', '1');
const harbourfront = testApplicant(SEARCH_CASES.harbourfront.n).applicationNo;
const hillview = testApplicant(SEARCH_CASES.hillview.n).applicationNo;

test('an officer types a Simplified school name key by key and finds the case written in Traditional', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await seedSession(page, { language: 'en' });
  await page.goto('/console/sign-in');
  await expect(page.getByRole('heading', { level: 1, name: en.signIn.title })).toBeVisible();
  await page.getByLabel(en.signIn.username).pressSequentially(CONSOLE_STAFF.search.username);
  await page.getByLabel(en.signIn.password).pressSequentially(CONSOLE_STAFF.search.password);
  await page.getByLabel(en.signIn.code).pressSequentially(totp());
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: en.queue.title })).toBeVisible();
  await page.getByRole('button', { name: '简体中文' }).click();
  await expect(page.getByRole('heading', { level: 1, name: sc.queue.title })).toBeVisible();

  // The box says what it finds; the officer types the first two characters and asks.
  const search = page.getByLabel(sc.queue.search, { exact: true });
  await expect(search).toHaveAccessibleDescription(sc.queue.searchHint);
  await search.pressSequentially('启德');
  await expect(search).toHaveValue('启德');
  await page.getByRole('button', { name: sc.queue.apply }).click();
  await expect(page.getByRole('status').filter({ hasText: count(2) })).toBeVisible();
  await expect(page.getByRole('link', { name: harbourfront })).toBeVisible();
  await expect(page.getByRole('link', { name: hillview })).toBeVisible();
  await noAxe(page);

  // Two more characters, typed after what is there: one school is left.
  await search.press('End');
  await search.pressSequentially('海滨学校');
  await expect(search).toHaveValue('启德海滨学校');
  await search.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: count(1) })).toBeVisible();
  await expect(page.getByRole('link', { name: harbourfront })).toBeVisible();
  await expect(page.getByRole('link', { name: hillview })).toHaveCount(0);
  await noAxe(page);

  // The officer filter names the colleagues in the page's language.
  const officers = page.getByLabel(sc.queue.officer, { exact: true });
  await expect(officers.getByRole('option', { name: CONSOLE_STAFF.officer.nameZh })).toHaveCount(1);
  await expect(officers.getByRole('option', { name: CONSOLE_STAFF.admin.nameZh })).toHaveCount(0);

  // The CSV has the same search: the one case, in Simplified Chinese, with a byte order mark for Excel.
  const link = page.getByRole('link', { name: sc.queue.download });
  const href = await link.getAttribute('href');
  expect(href).toContain(`q=${encodeURIComponent('启德海滨学校')}`);
  const file = await page.request.get(href ?? '');
  expect(file.headers()['content-type']).toBe('text/csv; charset=utf-8');
  const bytes = await file.body();
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').split('\r\n').filter(Boolean);
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain('"申请编号"');
  expect(lines[1]).toContain(`"${harbourfront}"`);
});
