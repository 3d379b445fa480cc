import { expect, type Page } from '@playwright/test';
import type { AnyEventObject } from 'xstate';
import { codeSentTo } from '../outbox';
import type { EventAction, PersonContext, PersonMapping } from './person';

const en = {
  applicationNo: /BD Application Number/,
  contact: /Mobile Number \/ Email Address/,
  send: 'Send OTP Code',
  code: 'One-time password',
};

async function fillDetails({ page, applicant }: PersonContext) {
  await page.getByLabel(en.applicationNo).fill(applicant.applicationNo);
  await page.getByLabel(en.contact).fill(applicant.email);
}

/** What the person does to send a code: their details, then the button. The code step starts there. */
async function sendCode(ctx: PersonContext) {
  await fillDetails(ctx);
  await ctx.page.getByRole('button', { name: en.send }).click();
}

/** Answers to the browser's request go slowly, so that the busy state can be seen. */
const slow = (path: string) => async (page: Page) => {
  await page.route(path, async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
};

const errorKind = (event: AnyEventObject): string => {
  const e = (event as { error?: { kind?: string } }).error;
  return e?.kind ?? 'unknown';
};

/** Login by one-time code, as a person does it on /find-my-case: the details, then the code step. */
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
      default:
        // The code step's endings are the child's paths (oneTimeCodePerson).
        return null;
    }
  },
  sees: {
    'loginOtp.enterDetails': async ({ page }) => {
      await expect(page.getByRole('button', { name: en.send })).toBeEnabled();
    },
    'loginOtp.code': async ({ page }) => {
      await expect(page.getByLabel(en.code)).toBeVisible();
      await expect(page.getByLabel(en.applicationNo)).toHaveAttribute('readonly', '');
    },
  },
  notReplayed: {},
};

/**
 * The code step (the child `oneTimeCode` of the login) as a person meets it on /find-my-case: it starts when
 * they send their details, so its `xstate.init` is that.
 */
export const oneTimeCodePerson: PersonMapping = {
  flowId: 'oneTimeCode',
  start: '/find-my-case',
  firstApplicant: 34,
  action(event): EventAction | null {
    switch (event.type) {
      case 'xstate.init':
        return { act: sendCode };
      case 'xstate.done.actor.sendCode':
        return { act: ({ page }) => expect(page.getByLabel(en.code)).toBeVisible() };
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
      case 'code.change':
        // The code the person received (the registry's sample stands for the right code).
        return (event as unknown as { code: string }).code.length === 6
          ? {
              act: async ({ page, applicant }) =>
                page.getByLabel(en.code).fill(await codeSentTo(page, applicant.email)),
            }
          : null;
      case 'otp.submit':
        return { act: ({ page }) => page.getByRole('button', { name: 'Submit', exact: true }).click() };
      default:
        return null;
    }
  },
  sees: {
    // A busy button says so and keeps focus (not disabled, which would drop focus to the page: a second
    // press is ignored by the flow; docs/flows/one-time-code.md, "Focus").
    'oneTimeCode.sending': async ({ page }) => {
      await expect(page.getByRole('button', { name: 'Please wait…' })).toBeFocused();
    },
    'oneTimeCode.codeSent': async ({ page }) => {
      await expect(page.getByLabel(en.code)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Resend OTP' })).toBeDisabled();
    },
    'oneTimeCode.codeSent.code.verifying': async ({ page }) => {
      await expect(page.getByRole('button', { name: 'Please wait…' })).toBeFocused();
      await expect(page.getByLabel(en.code)).toBeVisible();
    },
    'oneTimeCode.rateLimited': async ({ page }) => {
      await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toContainText(
        'You have asked for codes too often',
      );
    },
    'oneTimeCode.networkError': async ({ page }) => {
      await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toContainText(
        'could not be reached',
      );
      await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    },
  },
  notReplayed: {
    'oneTimeCode.locked':
      'needs three burnt codes on one application (15 wrong tries with a minute between sends); the lockout is proven against the real API in tests/api/otp-limits.test.ts and the state by the path tests',
  },
};

/** Makes the busy states observable: used by the replay for paths that end there. */
export const prepareFor: Record<string, (page: Page) => Promise<void>> = {
  'oneTimeCode.sending': slow('**/api/auth/otp/send'),
  'oneTimeCode.codeSent.code.verifying': slow('**/api/auth/otp/verify'),
};
