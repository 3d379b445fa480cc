import { expect, test, type Page } from '@playwright/test';
import en from '../../i18n/en/console.json' with { type: 'json' };
import sc from '../../i18n/sc/console.json' with { type: 'json' };
import tc from '../../i18n/tc/console.json' with { type: 'json' };
import { demoMonthShift } from '../../drizzle/demo-performance';
import { CONSOLE_STAFF } from './fixtures-console';
import { totp } from './console-totp';
import { axeViolations, seedSession } from './support';

/**
 * The performance pledges' page (docs/decisions/044-pledges.md): a senior officer signs in, reaches it by
 * keyboard from the console's navigation (after reading a case's pledge in the work queue), reads a figure in the table (the demo's first certificate, four months
 * before this one, drizzle/demo-performance.ts: 1 of 1 within the pledge), and the page is axe clean in en, tc and sc.
 */
const S = CONSOLE_STAFF.pledgesSenior;

/** The month of the demo's first certificate (July 2026 as written, moved on with the demo), as the page names it. */
function firstCertificateMonth(locale: string, month: 'short' | 'long'): string {
  const shift = demoMonthShift(new Date());
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month, timeZone: 'UTC' }).format(
    new Date(Date.UTC(2026, 6 + shift, 15)),
  );
}

async function noAxe(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** The table cell of the row headed `row` in the column headed `column`. */
async function cell(page: Page, caption: string, row: string, column: string) {
  const table = page.getByRole('table', { name: caption });
  const headers = await table.getByRole('columnheader').allTextContents();
  const index = headers.indexOf(column);
  expect(index, `${column} among ${headers.join(', ')}`).toBeGreaterThan(0);
  return table
    .getByRole('row', { name: new RegExp(`^${row}`) })
    .getByRole('cell')
    .nth(index - 1);
}

test('a senior officer opens the performance page by keyboard and reads the pledges met; axe in en, tc, sc', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await seedSession(page, { language: 'en' });
  await page.goto('/console/sign-in');
  await page.getByLabel(en.signIn.username).pressSequentially(S.username);
  await page.getByLabel(en.signIn.password).pressSequentially(S.password);
  await page.getByLabel(en.signIn.code).pressSequentially(totp());
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: en.queue.title })).toBeVisible();

  // The queue's pledge column, in words: the demo case submitted on 2 November 2026 is still Submitted,
  // its contact details were due 2 working days later (drizzle/demo.ts).
  await page.getByLabel(en.queue.search).pressSequentially('SCS-1-2026-000012');
  await page.keyboard.press('Enter');
  const queue = page.getByRole('table', { name: en.queue.caption });
  await expect(queue.getByRole('columnheader', { name: en.pledges.column })).toBeVisible();
  await expect(queue.getByRole('row', { name: /SCS-1-2026-000012/ })).toContainText(
    /Contact details: overdue by \d+ working days? \(due 4 Nov 2026\)/,
  );

  // From the navigation by the Tab key.
  const link = page
    .getByRole('navigation', { name: en.nav.label })
    .getByRole('link', { name: en.nav.performance });
  for (let i = 0; i < 30 && !(await link.evaluate((el) => el === document.activeElement)); i += 1)
    await page.keyboard.press('Tab');
  await expect(link).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: en.performance.title })).toBeVisible();
  await expect(page).toHaveURL(/\/console\/performance$/);

  // The chart is an image named by its title; the figures are in the table with header cells.
  await expect(page.getByRole('img', { name: new RegExp(en.performance.chartTitle) })).toBeVisible();
  const july = await cell(
    page,
    en.performance.pledgesCaption,
    en.pledges.names.certificate,
    firstCertificateMonth('en-GB', 'short'),
  );
  await expect(july).toHaveText('1 of 1');
  await expect(
    page.getByRole('table', { name: en.performance.stagesCaption }).getByRole('rowheader').first(),
  ).toBeVisible();
  await noAxe(page);

  await page.getByRole('button', { name: '繁體中文' }).click();
  await expect(page.getByRole('heading', { level: 1, name: tc.performance.title })).toBeVisible();
  const julyTc = await cell(
    page,
    tc.performance.pledgesCaption,
    tc.pledges.names.certificate,
    firstCertificateMonth('zh-HK', 'long'),
  );
  await expect(julyTc).toHaveText('1 個中 1 個');
  await noAxe(page);

  await page.getByRole('button', { name: '简体中文' }).click();
  await expect(page.getByRole('heading', { level: 1, name: sc.performance.title })).toBeVisible();
  await expect(page.getByRole('img', { name: new RegExp(sc.performance.chartTitle) })).toBeVisible();
  await noAxe(page);
});
