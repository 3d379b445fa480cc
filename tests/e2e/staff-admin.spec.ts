import * as OTPAuth from 'otpauth';
import { expect, test, type Browser, type Page } from '@playwright/test';
import apiEn from '../../i18n/en/api.json' with { type: 'json' };
import en from '../../i18n/en/console.json' with { type: 'json' };
import sc from '../../i18n/sc/console.json' with { type: 'json' };
import tc from '../../i18n/tc/console.json' with { type: 'json' };
import { CONSOLE_STAFF } from './fixtures-console';
import { totp } from './console-totp';
import { axeViolations, seedSession } from './support';

/**
 * Staff administration (docs/console.md, "Staff administration"; docs/decisions/036-staff-administration.md):
 * the admin disables an officer (who then cannot sign in), re-enables them (who then can), unlocks an
 * officer locked out by failed sign-ins, resets an officer's authenticator (who enrols a new one at the
 * next sign-in), and hands an officer's open cases to a colleague; confirmations in dialogs, focus on the
 * status after each action; axe clean in English, Simplified and Traditional Chinese.
 */
const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`{{${k}}}`, String(v)), text);

async function noAxe(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

async function signIn(page: Page, who: { username: string; password: string }, code: string) {
  await page.goto('/console/sign-in');
  await page.getByLabel(en.signIn.username).pressSequentially(who.username);
  await page.getByLabel(en.signIn.password).pressSequentially(who.password);
  await page.getByLabel(en.signIn.code).pressSequentially(code);
  await page.getByRole('button', { name: en.signIn.submit }).click();
}

/** A second browser, as the officer at another desk. */
async function officerPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await seedSession(page, { language: 'en' });
  return page;
}

const row = (page: Page, username: string) => page.locator(`tr[data-username="${username}"]`);

test('the admin disables, re-enables, unlocks, resets an authenticator and reassigns cases; axe in en, sc, tc', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const admin = CONSOLE_STAFF.staffAdmin;
  const leaving = CONSOLE_STAFF.staffLeaving;
  const colleague = CONSOLE_STAFF.staffColleague;
  const locked = CONSOLE_STAFF.staffLocked;
  const reset = CONSOLE_STAFF.staffReset;

  // Five wrong passwords lock `locked` from this address (decision 030).
  for (let i = 0; i < 5; i += 1) {
    const answer = await page.request.post('/api/staff/session', {
      data: { username: locked.username, password: 'wrong password', code: '123456' },
    });
    expect(answer.status()).toBe(401);
  }

  await seedSession(page, { language: 'en' });
  await signIn(page, admin, totp());
  await expect(page.getByRole('heading', { level: 1, name: en.auditPage.title })).toBeVisible();
  await page.getByRole('link', { name: en.nav.admin }).click();
  await expect(page.getByRole('heading', { level: 2, name: en.staffAdmin.title })).toBeVisible();
  await expect(row(page, leaving.username)).toContainText(en.staffAdmin.state.active);
  await expect(row(page, locked.username)).toContainText(/locked until \d\d:\d\d Hong Kong time/);
  await noAxe(page);
  const status = page.getByTestId('staff-admin-status');

  // Disable, confirmed in a dialog, with the keyboard.
  await row(page, leaving.username)
    .getByRole('button', { name: `${en.staffAdmin.action.disable} ${leaving.nameEn}` })
    .click();
  const dialog = page.getByRole('alertdialog');
  await expect(
    dialog.getByRole('heading', { name: fill(en.staffAdmin.confirm.disableTitle, { name: leaving.nameEn }) }),
  ).toBeVisible();
  await noAxe(page);
  await dialog.getByRole('button', { name: en.staffAdmin.confirm.disableButton }).focus();
  await page.keyboard.press('Enter');
  await expect(status).toBeFocused();
  await expect(status).toContainText(fill(en.staffAdmin.done.disable, { name: leaving.nameEn }));
  await expect(row(page, leaving.username)).toContainText(en.staffAdmin.state.disabled);

  // The disabled officer cannot sign in.
  const officer = await officerPage(browser);
  await signIn(officer, leaving, totp());
  await expect(officer.getByRole('alert')).toContainText(apiEn.staff.signInFailed);

  // Re-enabled: the officer signs in.
  await row(page, leaving.username)
    .getByRole('button', { name: `${en.staffAdmin.action.enable} ${leaving.nameEn}` })
    .click();
  await expect(status).toBeFocused();
  await expect(status).toContainText(fill(en.staffAdmin.done.enable, { name: leaving.nameEn }));
  await signIn(officer, leaving, totp());
  await expect(officer.getByRole('heading', { level: 1, name: en.queue.title })).toBeVisible();
  await officer.context().close();

  // Unlock.
  await row(page, locked.username)
    .getByRole('button', { name: `${en.staffAdmin.action.unlock} ${locked.nameEn}` })
    .click();
  await expect(status).toBeFocused();
  await expect(status).toContainText(fill(en.staffAdmin.done.unlock, { name: locked.nameEn }));
  await expect(row(page, locked.username)).not.toContainText('locked until');

  // Reset the authenticator: the enrolment code, shown once; the officer enrols a new TOTP.
  await row(page, reset.username)
    .getByRole('button', { name: `${en.staffAdmin.action.totpReset} ${reset.nameEn}` })
    .click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: en.staffAdmin.confirm.totpResetButton })
    .click();
  await expect(status).toBeFocused();
  await expect(status).toContainText(fill(en.staffAdmin.done.totpReset, { name: reset.nameEn }));
  const enrolmentCode = (await page.getByTestId('staff-admin-code').textContent()) ?? '';
  expect(enrolmentCode).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
  const enrolling = await officerPage(browser);
  await signIn(enrolling, reset, enrolmentCode);
  await expect(enrolling.getByRole('heading', { level: 1, name: en.enrolment.title })).toBeFocused();
  const secret = (await enrolling.getByTestId('totp-secret').textContent()) ?? '';
  const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
  await enrolling.getByLabel(en.enrolment.code).pressSequentially(code);
  await enrolling.getByRole('button', { name: en.enrolment.submit }).click();
  await expect(enrolling.getByRole('heading', { level: 1, name: en.enrolment.doneTitle })).toBeFocused();
  await expect(enrolling.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await enrolling.getByRole('button', { name: en.enrolment.continue }).click();
  await expect(enrolling.getByRole('heading', { level: 1, name: en.queue.title })).toBeVisible();
  await enrolling.context().close();

  // Reassign the open cases of the officer who leaves: two move, the closed one stays.
  await expect(row(page, leaving.username).getByRole('cell').nth(5)).toHaveText('2');
  await row(page, leaving.username)
    .getByRole('button', { name: `${en.staffAdmin.action.reassign} ${leaving.nameEn}` })
    .click();
  const reassign = page.getByRole('alertdialog');
  await reassign
    .getByLabel(en.staffAdmin.confirm.reassignTo)
    .selectOption({ label: `${colleague.nameEn} (${en.roles.caseOfficer})` });
  await noAxe(page);
  await reassign.getByRole('button', { name: en.staffAdmin.confirm.reassignButton }).click();
  await expect(status).toBeFocused();
  await expect(status).toContainText(
    fill(en.staffAdmin.done.reassign, { name: leaving.nameEn, to: colleague.nameEn, count: 2, skipped: 0 }),
  );
  await expect(row(page, leaving.username).getByRole('cell').nth(5)).toHaveText('0');
  await expect(row(page, colleague.username).getByRole('cell').nth(5)).toHaveText('2');

  // Traditional and Simplified Chinese: the same screen, axe clean.
  await page.getByRole('button', { name: '繁體中文' }).click();
  await expect(page.getByRole('heading', { level: 2, name: tc.staffAdmin.title })).toBeVisible();
  await expect(row(page, leaving.username)).toContainText(tc.staffAdmin.state.active);
  await noAxe(page);
  await page.getByRole('button', { name: '简体中文' }).click();
  await expect(page.getByRole('heading', { level: 2, name: sc.staffAdmin.title })).toBeVisible();
  await noAxe(page);
});
