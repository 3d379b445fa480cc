import { expect, type Browser } from '@playwright/test';
import type { ConsoleCaseData } from '../../machines/rules/staff';
import { CONSOLE_STAFF } from './fixtures-console';
import { totp } from './console-totp';

/**
 * A second senior officer, in a browser context of their own, approves the pending proposal of case `no`
 * (docs/decisions/040-four-eyes-decisions.md): for the specs whose officer proposes a decision.
 */
export async function approvedBy(
  browser: Browser,
  who: 'foureyesApprover1' | 'foureyesApprover2',
  no: string,
): Promise<void> {
  const context = await browser.newContext();
  try {
    const signIn = await context.request.post('/api/staff/session', {
      data: { username: CONSOLE_STAFF[who].username, password: CONSOLE_STAFF[who].password, code: totp() },
    });
    expect(signIn.status(), await signIn.text()).toBe(200);
    const view = (await (await context.request.get(`/api/staff/cases/${no}`)).json()) as {
      data: ConsoleCaseData;
    };
    const pending = view.data.proposals.find((p) => p.state === 'pending');
    expect(pending).toBeDefined();
    const approved = await context.request.post(`/api/staff/cases/${no}/proposals/${pending!.id}/approve`, {
      data: {},
    });
    expect(approved.status(), await approved.text()).toBe(200);
  } finally {
    await context.close();
  }
}
