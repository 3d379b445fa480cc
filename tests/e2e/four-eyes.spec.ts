import { expect, test, type Browser, type Page } from '@playwright/test';
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import en from '../../i18n/en/console.json' with { type: 'json' };
import sc from '../../i18n/sc/console.json' with { type: 'json' };
import tc from '../../i18n/tc/console.json' with { type: 'json' };
import { CONSOLE_STAFF, FOUR_EYES_CASE } from './fixtures-console';
import { testApplicant } from './fixtures';
import { totp } from './console-totp';
import { axeViolations, seedSession } from './support';

/**
 * Decisions by two people (docs/decisions/040-four-eyes-decisions.md), played by two people in two
 * browsers: the case officer proposes the certificate, the senior officer sends it back with a note, the
 * officer reads the note and proposes again, the senior officer approves; the case shows the certificate.
 * The focus goes to the result message after each step; axe clean in English, Traditional and Simplified.
 */
const no = testApplicant(FOUR_EYES_CASE.n).applicationNo;
const certificate = en.events.certificateIssue;

async function signedIn(browser: Browser, who: 'foureyesOfficer' | 'foureyesSenior'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await seedSession(page, { language: 'en' });
  await page.goto('/console/sign-in');
  await page.getByLabel(en.signIn.username).pressSequentially(CONSOLE_STAFF[who].username);
  await page.getByLabel(en.signIn.password).pressSequentially(CONSOLE_STAFF[who].password);
  await page.getByLabel(en.signIn.code).pressSequentially(totp());
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: en.queue.title })).toBeVisible();
  return page;
}

async function propose(page: Page) {
  await page.getByRole('button', { name: en.proposals.propose.replace('{{action}}', certificate) }).click();
  await page.getByRole('button', { name: en.case.continue }).click();
  await expect(
    page.getByRole('heading', { name: en.case.confirm.replace('{{action}}', certificate) }),
  ).toBeVisible();
  await page.getByRole('button', { name: en.case.confirmButton }).click();
  await expect(page.getByRole('status').filter({ hasText: /PRC-/ })).toBeVisible();
}

test('the case officer proposes a certificate, the senior officer sends it back, then approves it', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const officer = await signedIn(browser, 'foureyesOfficer');
  const senior = await signedIn(browser, 'foureyesSenior');

  await officer.goto(`/console/cases/${no}`);
  await expect(officer.getByRole('heading', { level: 1, name: no })).toBeVisible();
  // The certificate is not issued directly any more: it is proposed.
  await expect(officer.getByRole('button', { name: certificate, exact: true })).toHaveCount(0);
  await propose(officer);
  const panel = (p: Page) => p.getByRole('region', { name: en.proposals.title });
  await expect(panel(officer)).toContainText(en.proposals.pending.replace('{{decision}}', certificate));

  // The senior officer finds it under "Awaiting your approval" (the queue's filter) and sends it back.
  await senior.goto('/console');
  await senior.getByRole('link', { name: en.inbox.tab.approval }).click();
  await expect(senior.getByRole('heading', { level: 1, name: en.inbox.tab.approval })).toBeVisible();
  await expect(senior.getByRole('link', { name: en.inbox.tab.approval })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await senior.getByRole('link', { name: no }).click();
  await expect(panel(senior)).toContainText(en.proposals.awaitingYou);
  await panel(senior).getByRole('button', { name: en.proposals.sendBack, exact: true }).click();
  const note = 'Please add the remarks on the fire exits.';
  await senior.getByLabel(en.proposals.note).pressSequentially(note);
  await senior.getByRole('button', { name: en.proposals.sendBackButton }).click();
  const sentBack = senior.getByRole('status').filter({ hasText: en.proposals.done.sentBack.split(':')[0]! });
  await expect(sentBack).toBeVisible();
  await expect(sentBack).toBeFocused();

  // The officer reads the note and proposes again.
  await officer.reload();
  await expect(panel(officer)).toContainText(note);
  await propose(officer);

  // The senior officer approves: the certificate is issued.
  await senior.reload();
  for (const [lang, m] of [
    ['繁體中文', tc],
    ['简体中文', sc],
    ['English', en],
  ] as const) {
    await senior.getByRole('button', { name: lang }).click();
    await expect(senior.getByRole('heading', { level: 2, name: m.proposals.title })).toBeVisible();
    expect(await axeViolations(senior)).toEqual([]);
  }
  const approve = panel(senior).getByRole('button', { name: en.proposals.approve, exact: true });
  await approve.focus();
  await senior.keyboard.press('Enter');
  const approved = senior.getByRole('status').filter({ hasText: en.proposals.done.approve.split(':')[0]! });
  await expect(approved).toBeVisible();
  await expect(approved).toBeFocused();
  await expect(
    senior
      .getByRole('table', { name: en.case.history })
      .getByRole('cell', { name: authEn.history.documentTypes.CERTIFICATE, exact: true }),
  ).toBeVisible();
  await officer.reload();
  await expect(
    officer.locator('dd').filter({ hasText: authEn.history.statuses.CERTIFICATE_ISSUED }),
  ).toBeVisible();
  expect(await axeViolations(officer)).toEqual([]);
});
