import { expect, type Page } from '@playwright/test';
import type { AnyEventObject } from 'xstate';
import type { EventAction, PersonContext, PersonMapping } from './person';

const en = {
  applicationNo: /BD Application Number/,
  contact: /Mobile Number \/ Email Address/,
  send: 'Send OTP Code',
};

async function fillDetails({ page, applicant }: PersonContext) {
  await page.getByLabel(en.applicationNo).fill(applicant.applicationNo);
  await page.getByLabel(en.contact).fill(applicant.email);
}

/** Answers to the browser's send request go slowly, so that the busy state can be seen. */
async function slowSend(page: Page) {
  await page.route('**/api/auth/otp/send', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
}

const errorKind = (event: AnyEventObject): string => {
  const e = (event as { error?: { kind?: string } }).error;
  return e?.kind ?? 'unknown';
};

/** Login by one-time code, as a person does it on /find-my-case. */
export const loginOtpPerson: PersonMapping = {
  flowId: 'loginOtp',
  start: '/find-my-case',
  action(event): EventAction | null {
    switch (event.type) {
      case 'xstate.init':
        return { act: async () => {} };
      case 'details.change':
        return { act: fillDetails };
      case 'otp.send':
        return { act: ({ page }) => page.getByRole('button', { name: en.send }).click() };
      case 'xstate.done.actor.sendCode':
        return { act: ({ page }) => expect(page.getByLabel('One-time password')).toBeVisible() };
      case 'xstate.error.actor.sendCode':
        switch (errorKind(event)) {
          case 'rateLimited':
            // The real limit: a code was sent to this application less than a minute ago.
            return {
              prepare: async ({ page, applicant }) => {
                const r = await page.request.post('/api/auth/otp/send', {
                  data: { applicationNo: applicant.applicationNo, contact: applicant.email },
                });
                expect(r.status()).toBe(200);
              },
              act: async () => {},
            };
          case 'network':
            return {
              prepare: async ({ page }) => {
                await page.route('**/api/auth/otp/send', (route) => route.abort('internetdisconnected'));
              },
              act: async () => {},
            };
          default:
            return null;
        }
      default:
        return null;
    }
  },
  sees: {
    'loginOtp.enterDetails': async ({ page }) => {
      await expect(page.getByRole('button', { name: en.send })).toBeEnabled();
    },
    'loginOtp.sending': async ({ page }) => {
      await expect(page.getByRole('button', { name: 'Please wait…' })).toBeDisabled();
    },
    'loginOtp.codeSent': async ({ page }) => {
      await expect(page.getByLabel('One-time password')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Resend OTP' })).toBeDisabled();
    },
    'loginOtp.rateLimited': async ({ page }) => {
      await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toContainText(
        'You have asked for codes too often',
      );
    },
    'loginOtp.networkError': async ({ page }) => {
      await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toContainText(
        'could not be reached',
      );
      await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    },
  },
  notReplayed: {
    'loginOtp.locked':
      'needs three burnt codes on one application (15 wrong tries with a minute between sends); the lockout is proven against the real API in tests/api/otp-limits.test.ts and the state by the path tests',
  },
};

/** Makes `sending` observable: used by the replay for paths that end there. */
export const prepareFor: Record<string, (page: Page) => Promise<void>> = { 'loginOtp.sending': slowSend };
