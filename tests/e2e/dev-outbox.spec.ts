import { expect, test, type Page } from '@playwright/test';
import type { Language } from '../../machines/rules/language';
import { testApplicant } from './fixtures';
import { axeViolations, pageReady, seedSession } from './support';

/** The development outbox shows each message with whether it has left (messages are queued jobs). */
async function sendAndOpen(page: Page, n: number, language: Language, refresh: string, status: string) {
  const who = testApplicant(n);
  const sent = await page.request.post('/api/auth/otp/send', {
    data: { applicationNo: who.applicationNo, contact: who.email },
  });
  expect(sent.status()).toBe(200);
  await seedSession(page, { language });
  await page.goto('/dev/outbox');
  await pageReady(page);
  const row = page.getByRole('row').filter({ hasText: who.email });
  await expect(async () => {
    await page.getByRole('button', { name: refresh }).click();
    await expect(row.getByRole('cell', { name: status, exact: true })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

test.describe('the development outbox', () => {
  test('shows a one-time code that left as Sent, in a Status column', async ({ page }) => {
    await sendAndOpen(page, 20, 'en', 'Refresh', 'Sent');

    expect(await page.getByRole('columnheader').allTextContents()).toContain('Status');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('says so in Traditional Chinese', async ({ page }) => {
    await sendAndOpen(page, 21, 'tc', '重新整理', '已發出');

    expect(await page.getByRole('columnheader').allTextContents()).toContain('狀態');
  });
});
