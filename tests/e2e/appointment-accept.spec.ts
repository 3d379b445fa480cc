import { expect, test, type Page } from '@playwright/test';
import appointmentEn from '../../i18n/en/appointment.json' with { type: 'json' };
import appointmentSc from '../../i18n/sc/appointment.json' with { type: 'json' };
import appointmentTc from '../../i18n/tc/appointment.json' with { type: 'json' };
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import authSc from '../../i18n/sc/auth.json' with { type: 'json' };
import authTc from '../../i18n/tc/auth.json' with { type: 'json' };
import signingEn from '../../i18n/en/signing.json' with { type: 'json' };
import signingSc from '../../i18n/sc/signing.json' with { type: 'json' };
import signingTc from '../../i18n/tc/signing.json' with { type: 'json' };
import { formatCalendarDate } from '../../machines/rules/dates';
import type { Language } from '../../machines/rules/language';
import { APPOINTMENT_CASES, INVITATION_TOKENS, SEEDED_EXPIRY_DATE } from './fixtures-appointments';
import { answerOnPhone, identificationCode } from './flows/submit-flow';
import { codeSentTo } from './outbox';
import { axeViolations, pageReady, seedSession } from './support';

/**
 * The AP's or RSE's acceptance page (/appointment-accept#<token>, docs/flows/appointment-acceptance.md):
 * the case status in words and the registration's expiry date as Hong Kong writes it in the person's
 * language, the declaration as text under its heading, signing worded for the AP's own acceptance with
 * their own HKIC, and an HKIC whose check digit is wrong refused at the field.
 */

const T = {
  en: { accept: appointmentEn.accept, auth: authEn, signing: signingEn },
  sc: { accept: appointmentSc.accept, auth: authSc, signing: signingSc },
  tc: { accept: appointmentTc.accept, auth: authTc, signing: signingTc },
};
const CASES = {
  en: { token: INVITATION_TOKENS.acceptEn, n: APPOINTMENT_CASES.acceptEn.n },
  sc: { token: INVITATION_TOKENS.acceptSc, n: APPOINTMENT_CASES.acceptSc.n },
  tc: { token: INVITATION_TOKENS.acceptTc, n: APPOINTMENT_CASES.acceptTc.n },
};
const emailOf = (n: number) => `e2e-appointee-${n}@example.hk`;

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** What the declaration says in each language (the signed text: machines/rules/appointment.ts). */
const ACCEPTS: Record<Language, string> = {
  en: 'accept my appointment by the applicant of application',
  tc: '接受申請編號',
  sc: '接受申请编号',
};

/** Opens the invitation in `lang`, checks the case as the page shows it, and confirms the email by a code typed key by key. */
async function toSigning(page: Page, lang: Language) {
  const t = T[lang];
  await seedSession(page, { language: lang });
  await page.goto(`/appointment-accept#${CASES[lang].token}`);
  await pageReady(page);
  await expect(page.getByRole('heading', { level: 1, name: t.accept.title })).toBeVisible();

  // The status in words and the date as Hong Kong writes it, never the codes of the database.
  const status = page.locator('dt', { hasText: t.accept.status }).locator('xpath=following-sibling::dd[1]');
  await expect(status).toHaveText(t.auth.history.statuses.SUBMITTED);
  const expiry = page.locator('dt', { hasText: t.accept.expiry }).locator('xpath=following-sibling::dd[1]');
  await expect(expiry).toHaveText(formatCalendarDate(SEEDED_EXPIRY_DATE, lang));
  await expect(page.locator('main')).not.toContainText('SUBMITTED');
  await expect(page.locator('main')).not.toContainText(SEEDED_EXPIRY_DATE);
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: t.accept.send }).click();
  const code = page.getByLabel(t.accept.code);
  await expect(code).toBeVisible();
  await code.pressSequentially(await codeSentTo(page, emailOf(CASES[lang].n)));
  await expect(code).toHaveValue(/^\d{6}$/);
  await page.getByRole('button', { name: t.accept.verify }).click();

  // The declaration: its heading, then the statement as text (no monospace block, no appointment id).
  await expect(
    page.getByRole('heading', { level: 2, name: t.accept.declarationTitle, exact: true }),
  ).toBeVisible();
  const declaration = page.locator('.declaration');
  // In the page's language, its date as a person reads it: what is signed is this text.
  await expect(declaration).toContainText(ACCEPTS[lang]);
  await expect(declaration).toContainText(formatCalendarDate(SEEDED_EXPIRY_DATE, lang));
  await expect(page.locator('pre')).toHaveCount(0);
  await expect(page.locator('main')).not.toContainText(/Declaration of appointment \d|委任[聲声]明 \d/);
  expect(await declaration.evaluate((el) => getComputedStyle(el).fontFamily)).not.toMatch(/mono/i);

  // Signing speaks of the AP's own acceptance and HKIC, never of the application or the applicant's HKIC.
  await expect(page.getByRole('heading', { level: 2, name: t.signing.appointment.title })).toBeVisible();
  await expect(page.getByText(t.signing.appointment.choose.intro)).toBeVisible();
  await expect(page.getByRole('heading', { name: t.signing.title, exact: true })).toHaveCount(0);
  await expect(page.getByText(t.signing.choose.enterHkic)).toHaveCount(0);
  await expect(page.getByText(t.signing.appointment.choose.hkicNeeded)).toBeVisible();
  await expectNoAxeViolations(page);
}

test.describe('Accepting an appointment as AP or RSE', () => {
  test('in Traditional Chinese: a wrong HKIC check digit is refused at the field, corrected key by key, then signed', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const t = T.tc;
    await toSigning(page, 'tc');

    // A1234567: the right shape, the wrong check digit (A123456 takes 3).
    const hkic = page.getByLabel(t.accept.hkic);
    await hkic.focus();
    await page.keyboard.type('A1234567');
    await expect(hkic).toHaveValue('A1234567');
    const iamSmart = page.getByRole('button', { name: t.signing.choose.iamsmart });
    await iamSmart.click();

    // The error summary takes focus and names the problem; the field says it too, in tc.
    const summary = page.locator('.error-summary');
    await expect(summary).toBeFocused();
    await expect(summary).toContainText(t.accept.errorTitle);
    await expect(summary.getByRole('link', { name: t.accept.errors.hkicInvalid })).toBeVisible();
    await expect(hkic).toHaveAttribute('aria-invalid', 'true');
    await expect(hkic).toHaveAccessibleDescription(new RegExp(t.accept.errors.hkicInvalid));
    // Still the choice of method: iAM Smart was not asked.
    await expect(iamSmart).toBeVisible();
    await expect(page.locator('.signing__code-value')).toHaveCount(0);
    await expectNoAxeViolations(page);

    // The summary's link leads to the field; the correction is typed key by key and every key stays.
    await summary.getByRole('link', { name: t.accept.errors.hkicInvalid }).click();
    await expect(hkic).toBeFocused();
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await expect(hkic).toHaveValue('A123456');
    for (const [i, key] of [...'(3)'].entries()) {
      await page.keyboard.type(key);
      await expect(hkic).toHaveValue(`A123456${'(3)'.slice(0, i + 1)}`);
      await expect(hkic).toBeFocused();
    }
    await expect(hkic).toHaveValue('A123456(3)');
    await expect(hkic).not.toHaveAttribute('aria-invalid', 'true');
    await expect(summary).toHaveCount(0);

    // Now iAM Smart is asked, and the acceptance is signed.
    await iamSmart.click();
    await answerOnPhone(page, await identificationCode(page), 'approve');
    await expect(page.getByRole('heading', { level: 1, name: t.accept.acceptedTitle })).toBeVisible({
      timeout: 15_000,
    });
    await expectNoAxeViolations(page);
  });

  for (const lang of ['en', 'sc'] as const) {
    test(`in ${lang}: the status, the date, the declaration and the signing words, with an empty HKIC refused at the field`, async ({
      page,
    }) => {
      test.setTimeout(90_000);
      const t = T[lang];
      await toSigning(page, lang);
      // A reload keeps the confirmed contact: the declaration and its signing come back, not the code step.
      await page.reload();
      await pageReady(page);
      await expect(
        page.getByRole('heading', { level: 2, name: t.accept.declarationTitle, exact: true }),
      ).toBeVisible();
      await expect(page.getByLabel(t.accept.code)).toHaveCount(0);
      await page.getByRole('button', { name: t.signing.choose.iamsmart }).click();
      const summary = page.locator('.error-summary');
      await expect(summary).toBeFocused();
      await expect(summary.getByRole('link', { name: t.accept.errors.hkicRequired })).toBeVisible();
      await expect(page.getByLabel(t.accept.hkic)).toHaveAccessibleDescription(
        new RegExp(t.accept.errors.hkicRequired),
      );
      await expectNoAxeViolations(page);
    });
  }
});
