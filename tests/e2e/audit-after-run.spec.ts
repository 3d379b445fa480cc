import { expect, test } from '@playwright/test';

/**
 * The audit log after the whole browser run (docs/operations.md, "The audit log"): every sign-in, code,
 * upload, signing, submission, download and officer's action the other browser tests made went through
 * the one server, and its hash chain still checks from the first row to the last. This project runs
 * after every other one (playwright.config.ts, `dependencies`).
 */
test('the audit chain of the whole run verifies, row by row', async ({ request }) => {
  const response = await request.get('/api/dev/audit-chain');
  expect(response.status()).toBe(200);
  const { data } = (await response.json()) as {
    data: { ok: boolean; rows: number; head?: string; brokenAt?: number; events: Record<string, number> };
  };
  const kinds = Object.keys(data.events).length;
  console.log(
    `audit chain after the browser run: ${data.ok ? 'verified' : `BROKEN at row ${data.brokenAt}`}, ` +
      `${data.rows} rows of ${kinds} kinds: ${JSON.stringify(data.events)}`,
  );
  expect(data.ok).toBe(true);
  // The run wrote the log, not only the seed: sign-ins, uploads, submissions and case actions are in it.
  for (const kind of [
    'auth.login',
    'otp.send',
    'document.upload',
    'signing.complete',
    'application.submit',
    'staff.signIn',
  ]) {
    expect.soft(data.events[kind] ?? 0, kind).toBeGreaterThan(0);
  }
  expect(data.rows).toBe(Object.values(data.events).reduce((a, b) => a + b, 0));
});
