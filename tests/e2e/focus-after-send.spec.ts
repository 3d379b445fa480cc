import { expect, test, type Locator, type Page } from '@playwright/test';
import { maskEmail, maskMobile } from '../../machines/rules/appointment';
import type { Language } from '../../machines/rules/language';
import { landscapeA4 } from '../support/pdf-corpus';
import { logInToCase } from './case-login';
import { testApplicant } from './fixtures';
import { FOCUS_CASES, focusAp, focusInvitationToken } from './fixtures-focus';
import { text } from './flows/submit-flow';
import { codeSentTo } from './outbox';
import { pageReady, seedSession } from './support';

/**
 * Where focus is after the steps that remove the button a person pressed (CONVENTIONS.md, "Testing as a
 * person"; docs/flows/one-time-code.md, "Focus"): Send OTP Code on Find my case, on the AP/RSE login and on
 * the acceptance of an appointment (the code field, described by where the code went, masked); after login
 * (the case page's heading, still there 1.5 s later); after an upload (Choose file, the result announced).
 * Keys pressed as a keyboard user presses them, in English and Traditional Chinese. Find my case logs in
 * with the mobile typed on a form whose email alone was confirmed (tests/e2e/fixtures-focus.ts).
 */

const LANGS = ['en', 'tc'] as const satisfies Language[];
/** A second after the step, and a half more: focus must still be where it was put. */
const SETTLE_MS = 1_500;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Presses `button` as a keyboard user does: Tab until it has focus (at most `tabs` presses), then Enter. */
async function tabToAndPress(page: Page, button: Locator, tabs = 6) {
  for (let i = 0; i < tabs && !(await button.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
}

/** Focus is on `target` now and still after SETTLE_MS. */
async function focusStaysOn(page: Page, target: Locator) {
  await expect(target).toBeFocused();
  await page.waitForTimeout(SETTLE_MS);
  await expect(target).toBeFocused();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
}

/** The case page after login: its h1 has focus and keeps it. */
async function casePageHeadingKeepsFocus(page: Page, lang: Language) {
  await expect(page).toHaveURL(/\/case-history$/);
  const heading = page.getByRole('heading', { level: 1, name: text(lang, 'auth', 'history.title') });
  await expect(page.getByRole('table')).toBeVisible();
  await focusStaysOn(page, heading);
}

test.describe('Focus after Send OTP Code, login and upload', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  for (const lang of LANGS) {
    test(`${lang}: Find my case with the mobile typed on a form confirmed by email: code field, then the case page's heading`, async ({
      page,
    }) => {
      await seedSession(page, { language: lang });
      const a = testApplicant(FOCUS_CASES.findMyCase[lang]);
      await page.goto('/find-my-case');
      await pageReady(page);
      await page.getByLabel(text(lang, 'auth', 'findMyCase.applicationNo.label')).focus();
      await page.keyboard.type(a.applicationNo);
      await page.keyboard.press('Tab');
      await page.keyboard.type(`${a.mobile.slice(0, 4)} ${a.mobile.slice(4)}`);
      await tabToAndPress(page, page.getByRole('button', { name: text(lang, 'auth', 'findMyCase.send') }));

      const code = page.getByLabel(text(lang, 'auth', 'findMyCase.code.label'));
      const sent = text(lang, 'auth', 'findMyCase.sent', { to: maskMobile(a.mobile) });
      await expect(code).toHaveAccessibleDescription(new RegExp(escape(sent)));
      await focusStaysOn(page, code);

      // The code went by SMS to the mobile the form gave, though only the email was confirmed.
      await page.keyboard.type(await codeSentTo(page, a.mobile));
      await page.keyboard.press('Enter');
      await casePageHeadingKeepsFocus(page, lang);
    });

    test(`${lang}: the AP/RSE login: code field, the list's heading, then the case page's heading`, async ({
      page,
    }) => {
      await seedSession(page, { language: lang });
      const n = FOCUS_CASES.appointee[lang];
      const ap = focusAp(n);
      await page.goto('/appointee-login');
      await pageReady(page);
      await page.getByLabel(text(lang, 'appointment', 'login.registration')).focus();
      await page.keyboard.type(ap.registrationNumber);
      await page.keyboard.press('Tab');
      await page.keyboard.type(ap.email);
      await tabToAndPress(page, page.getByRole('button', { name: text(lang, 'appointment', 'login.send') }));

      const code = page.getByLabel(text(lang, 'appointment', 'login.code'));
      const sent = text(lang, 'appointment', 'login.sent', { to: maskEmail(ap.email) });
      await expect(code).toHaveAccessibleDescription(new RegExp(escape(sent)));
      await focusStaysOn(page, code);

      await page.keyboard.type(await codeSentTo(page, ap.email));
      await page.keyboard.press('Enter');
      await expect(
        page.getByRole('heading', { level: 1, name: text(lang, 'appointment', 'login.casesTitle') }),
      ).toBeFocused();
      const no = testApplicant(n).applicationNo;
      await tabToAndPress(
        page,
        page.getByRole('button', { name: text(lang, 'appointment', 'login.open', { applicationNo: no }) }),
        40,
      );
      await casePageHeadingKeepsFocus(page, lang);
    });

    test(`${lang}: accepting an appointment: the code field, described by where the code went`, async ({
      page,
    }) => {
      await seedSession(page, { language: lang });
      const n = FOCUS_CASES.invitation[lang];
      await page.goto(`/appointment-accept#${focusInvitationToken(n)}`);
      await pageReady(page);
      const send = page.getByRole('button', { name: text(lang, 'appointment', 'accept.send') });
      await expect(send).toBeVisible();
      await send.focus();
      await page.keyboard.press('Enter');

      const code = page.getByLabel(text(lang, 'appointment', 'accept.code'));
      const email = `e2e-appointee-${n}@example.hk`;
      const sent = text(lang, 'appointment', 'accept.sent', { to: maskEmail(email) });
      await expect(code).toHaveAccessibleDescription(new RegExp(escape(sent)));
      await focusStaysOn(page, code);

      // A wrong code keeps the person in the field, the refusal said as an alert.
      await page.keyboard.type('000000');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('alert')).toBeVisible();
      await expect(code).toBeFocused();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type(await codeSentTo(page, email));
      await page.keyboard.press('Enter');
      await expect(
        page.getByRole('heading', { name: text(lang, 'appointment', 'accept.declarationTitle') }),
      ).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    });

    test(`${lang}: Submit Supporting Document: Choose file keeps focus through an upload, the result announced`, async ({
      page,
    }) => {
      await seedSession(page, { language: lang });
      const n = FOCUS_CASES.upload[lang];
      await page.goto('/form-submit-doc-step1');
      await logInToCase(page, lang, n, { keyboard: true });
      await expect(
        page.getByRole('heading', { level: 1, name: text(lang, 'flows', 'forms.submitDocument.title') }),
      ).toBeVisible();

      await page
        .getByRole('button', {
          name: new RegExp(escape(text(lang, 'forms', 'followUp.submitDocument.documentType'))),
        })
        .click();
      await page
        .getByRole('option', { name: text(lang, 'forms', 'followUp.submitDocument.other'), exact: true })
        .click();
      await page.getByLabel(text(lang, 'forms', 'followUp.submitDocument.description')).focus();
      await page.keyboard.type('Fire service certificate');
      await page.getByRole('button', { name: text(lang, 'case', 'continue') }).click();
      await expect(
        page.getByRole('heading', { level: 1, name: text(lang, 'case', 'screens.upload') }),
      ).toBeVisible();

      const choose = page.locator('#choose-file');
      await choose.focus();
      const chooser = page.waitForEvent('filechooser');
      await page.keyboard.press('Enter');
      await (
        await chooser
      ).setFiles({
        name: 'certificate.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(await landscapeA4()),
      });
      await expect(page.locator('.documents__file')).toHaveCount(1);
      await expect(page.getByRole('status').filter({ hasText: 'certificate.pdf' })).toBeAttached();
      await focusStaysOn(page, choose);

      // Removing the file: its Remove button goes with it, focus goes to the document type.
      await page
        .getByRole('button', { name: text(lang, 'case', 'uploads.removeLabel', { name: 'certificate.pdf' }) })
        .focus();
      await page.keyboard.press('Enter');
      await expect(page.locator('.documents__file')).toHaveCount(0);
      await focusStaysOn(
        page,
        page.getByRole('button', { name: new RegExp(escape(text(lang, 'wizard', 'upload.type'))) }),
      );
    });
  }
});
