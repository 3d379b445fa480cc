import { expect, test, type Page } from '@playwright/test';
import { SESSION_STORAGE_KEY } from '../../machines/rules/session-state';
import { axeViolations, LANGS, pageReady, seedSession } from './support';
import { codeSentTo } from './outbox';
import { testApplicant } from './fixtures';

/** Each test logs in to an applicant of its own (fixtures.ts): the code limits are per application. */
const byEmail = (n: number) => ({
  applicationNo: testApplicant(n).applicationNo,
  contact: testApplicant(n).email,
});

async function requestCode(page: Page, who: { applicationNo: string; contact: string }) {
  await page.getByLabel(/BD Application Number/).fill(who.applicationNo);
  await page.getByLabel(/Mobile Number \/ Email Address/).fill(who.contact);
  await page.getByRole('button', { name: 'Send OTP Code' }).click();
  await expect(page.getByLabel('One-time password')).toBeVisible();
}

async function logIn(page: Page, who: { applicationNo: string; contact: string }): Promise<void> {
  await page.goto('/find-my-case');
  await pageReady(page);
  await requestCode(page, who);
  await page.getByLabel('One-time password').fill(await codeSentTo(page, who.contact));
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/case-history$/);
  await expect(page.getByRole('table')).toBeVisible();
}

test.describe('Find my case', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await seedSession(page, { language: 'en' });
  });

  test('logs in to a demo application with the code sent to the email on file and shows the history', async ({
    page,
  }) => {
    // The demo application of docs/demo.md, as a newcomer would log in to it.
    await logIn(page, { applicationNo: 'A2-2026-000123', contact: 'applicant.a2@example.hk' });
    await expect(page.getByRole('table', { name: 'History of application A2-2026-000123' })).toBeVisible();
    expect(await page.getByRole('row').count()).toBeGreaterThan(1);
    const stored = JSON.parse(
      (await page.evaluate((k) => localStorage.getItem(k), SESSION_STORAGE_KEY)) ?? '{}',
    ) as Record<string, unknown>;
    expect(stored).toMatchObject({ isLogin: true, applicationNo: 'A2-2026-000123', role: 'applicant' });
    // Logged in: no desktop main menu; the user menu carries the number, the history and logout.
    await page.goto('/');
    await pageReady(page);
    await expect(page.getByRole('button', { name: 'Apply' })).toHaveCount(0);
    await page.getByRole('button', { name: /Application A2-2026-000123/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await expect(page.getByRole('button', { name: 'Apply' })).toBeVisible();
    const after = JSON.parse(
      (await page.evaluate((k) => localStorage.getItem(k), SESSION_STORAGE_KEY)) ?? '{}',
    ) as Record<string, unknown>;
    expect(after).toMatchObject({ isLogin: false, token: '', applicationNo: '', role: '', userId: '' });
  });

  test('by keyboard alone, with the mobile on file and a code typed in full-width digits', async ({
    page,
  }) => {
    await page.goto('/find-my-case');
    await pageReady(page);
    const who = testApplicant(2);
    await page.getByLabel(/BD Application Number/).focus();
    await page.keyboard.type(who.applicationNo);
    await page.keyboard.press('Tab');
    await page.keyboard.type(`${who.mobile.slice(0, 4)} ${who.mobile.slice(4)}`);
    await page.keyboard.press('Enter');
    const codeField = page.getByLabel('One-time password');
    await expect(codeField).toBeVisible();
    await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(codeField).toHaveAttribute('inputmode', 'numeric');
    const code = await codeSentTo(page, who.mobile);
    await codeField.focus();
    await page.keyboard.type(code.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d))));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/case-history$/);
  });

  test('a wrong code says so with the tries left, and the resend waits for its countdown', async ({
    page,
  }) => {
    await page.goto('/find-my-case');
    await pageReady(page);
    const who = testApplicant(3);
    await requestCode(page, { applicationNo: who.applicationNo, contact: who.mobile });
    await expect(page.getByRole('button', { name: 'Resend OTP' })).toBeDisabled();
    await expect(page.getByText(/You can ask for a new code in \d+ seconds/)).toBeVisible();
    const right = await codeSentTo(page, who.mobile);
    const wrong = right === '111111' ? '222222' : '111111';
    await page.getByLabel('One-time password').fill(wrong);
    await page.getByRole('button', { name: 'Submit' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(summary).toContainText('Tries left: 4');
    await expect(summary).toBeFocused();
  });

  test('missing details are listed in an error summary that links to each field', async ({ page }) => {
    await page.goto('/find-my-case');
    await pageReady(page);
    await page.getByRole('button', { name: 'Send OTP Code' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(summary).toBeFocused();
    await summary.getByRole('link', { name: 'Enter your mobile number or email address.' }).click();
    await expect(page.getByLabel(/Mobile Number \/ Email Address/)).toBeFocused();
    await expect(page.getByLabel(/BD Application Number/)).toHaveAttribute('aria-invalid', 'true');
  });

  test('a 401 from the server ends the session in the browser and goes home', async ({ page }) => {
    await logIn(page, byEmail(4));
    const token = await page.evaluate(
      (k) => (JSON.parse(localStorage.getItem(k) ?? '{}') as { token: string }).token,
      SESSION_STORAGE_KEY,
    );
    // The session is revoked on the server (as after a logout elsewhere): the next call answers 401.
    const revoked = await page.request.post('/api/auth/logout', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(revoked.status()).toBe(200);
    await page.goto('/case-history');
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await expect(page.getByRole('button', { name: 'Apply' })).toBeVisible();
  });

  test('warns before the idle time-out, stays signed in on request, then logs out when it runs out', async ({
    page,
  }) => {
    await page.clock.install();
    await logIn(page, byEmail(5));
    // 30 minutes from master data; the warning comes 2 minutes before the end.
    await page.clock.fastForward('28:10');
    const dialog = page.getByRole('alertdialog', { name: 'You will be logged out soon' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(/1 min \d+ s/);
    await dialog.getByRole('button', { name: 'Stay logged in' }).click();
    await expect(dialog).toBeHidden();
    await page.clock.fastForward('10:00');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/case-history$/);
    await page.clock.fastForward('31:00');
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await expect(
      page.getByText('You have been logged out because the portal was not used for a while.'),
    ).toBeVisible();
    const stored = JSON.parse(
      (await page.evaluate((k) => localStorage.getItem(k), SESSION_STORAGE_KEY)) ?? '{}',
    ) as Record<string, unknown>;
    expect(stored).toMatchObject({ isLogin: false, token: '' });
  });

  for (const [i, lang] of LANGS.entries()) {
    test(`each login screen passes axe in ${lang}`, async ({ page }) => {
      const who = byEmail(10 + i);
      await seedSession(page, { language: lang });
      await page.goto('/find-my-case');
      await pageReady(page);
      expect(await axeViolations(page), 'details').toEqual([]);
      await page.locator('input[name="applicationNo"]').fill(who.applicationNo);
      await page.locator('input[name="contact"]').fill(who.contact);
      await page.locator('button[type="submit"]').click();
      await expect(page.locator('input[name="otp"]')).toBeVisible();
      expect(await axeViolations(page), 'code').toEqual([]);
      await page.locator('input[name="otp"]').fill(await codeSentTo(page, who.contact));
      await page.locator('button[type="submit"]').click();
      await expect(page.getByRole('table')).toBeVisible();
      expect(await axeViolations(page), 'history').toEqual([]);
    });
  }
});
