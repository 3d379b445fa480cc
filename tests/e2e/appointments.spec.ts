import { expect, test, type Page } from '@playwright/test';
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import appointmentEn from '../../i18n/en/appointment.json' with { type: 'json' };
import appointmentSc from '../../i18n/sc/appointment.json' with { type: 'json' };
import appointmentTc from '../../i18n/tc/appointment.json' with { type: 'json' };
import { APPOINTMENT } from '../../machines/forms/follow-up/appointment';
import type { Language } from '../../machines/rules/language';
import { addDays } from '../../machines/rules/working-days';
import { INSPECTION } from '../../machines/forms/follow-up/inspection';
import { answerField } from './flows/fill-form';
import { answerOnPhone, identificationCode } from './flows/submit-flow';
import { inspectionWorkingDays } from './calendar';
import { testApplicant } from './fixtures';
import { APPOINTMENT_CASES, INVITATION_TOKENS, SEEDED_AP } from './fixtures-appointments';
import { codeSentTo } from './outbox';
import { axeViolations, pageReady, seedSession } from './support';
import { landscapeA4 } from '../support/pdf-corpus';

const T = { en: appointmentEn, sc: appointmentSc, tc: appointmentTc };
const inspectionStep = INSPECTION.steps[0];
const inspectionFields =
  inspectionStep?.kind === 'fill' ? inspectionStep.sections.flatMap((s) => s.fields) : [];

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** The invitation token in the newest message to `address` (its link's fragment). */
async function invitationTo(page: Page, address: string): Promise<string> {
  let token = '';
  await expect
    .poll(async () => {
      const answer = await page.request.get('/api/dev/outbox');
      const messages = ((await answer.json()) as { data: { to: string; body: string }[] }).data;
      const body =
        messages.find((m) => m.to === address && m.body.includes('appointment-accept#'))?.body ?? '';
      token = /appointment-accept#([A-Za-z0-9_-]{43})/.exec(body)?.[1] ?? '';
      return token;
    })
    .toBeTruthy();
  return token;
}

/** The Find my case login the follow-up page shows first. */
async function applicantLogsIn(page: Page, n: number) {
  const a = testApplicant(n);
  const f = authEn.findMyCase;
  await page.getByLabel(f.applicationNo.label).fill(a.applicationNo);
  await page.getByLabel(f.contact.label).fill(a.email);
  await page.getByRole('button', { name: f.send }).click();
  await page.getByLabel(f.code.label).fill(await codeSentTo(page, a.email));
  await page.getByRole('button', { name: f.submit, exact: true }).click();
}

test.describe('Appointment of AP and RSE', () => {
  test('the applicant appoints an AP, who accepts in another browser, acts on the case and loses access when revoked', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await seedSession(page, { language: 'en' });
    const { n } = APPOINTMENT_CASES.journey;
    const no = testApplicant(n).applicationNo;
    const ap = {
      identity: 'ap',
      nameEn: 'CHAN TAI MAN',
      registrationNumber: 'AP(A) 6101',
      expiryDate: addDays(new Date().toISOString().slice(0, 10), 400),
      email: 'e2e-ap-6101@example.hk',
      mobile: '91006101',
    };

    // The applicant: the appointment form, its preview, submitted.
    await page.goto('/form-appointment-step1');
    await applicantLogsIn(page, n);
    await expect(page.getByRole('heading', { level: 1, name: 'Appointment of AP and RSE' })).toBeVisible();
    await expectNoAxeViolations(page);
    const step = APPOINTMENT.steps[0];
    if (step?.kind !== 'fill') throw new Error('no fill step');
    for (const field of step.sections.flatMap((s) => s.fields)) {
      const value = (ap as Record<string, string>)[field.id];
      if (value) await answerField(page, field, value);
    }
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('AP(A) 6101')).toBeVisible();
    await page.getByRole('button', { name: 'Submit the appointment' }).click();
    await expect(page.getByText(`Your appointment for application ${no} has been received`)).toBeVisible();
    await expectNoAxeViolations(page);

    // The AP, in a browser of their own: the invitation link, a code to their email, iAM Smart.
    const apContext = await browser.newContext();
    const apPage = await apContext.newPage();
    await seedSession(apPage, { language: 'en' });
    const token = await invitationTo(page, ap.email);
    await apPage.goto(`/appointment-accept#${token}`);
    await pageReady(apPage);
    await expect(
      apPage.getByText(`has appointed you as Authorized Person (AP) for application ${no}`),
    ).toBeVisible();
    await expectNoAxeViolations(apPage);
    await apPage.getByRole('button', { name: T.en.accept.send }).click();
    const acceptCode = await codeSentTo(page, ap.email);
    await apPage.getByLabel(T.en.accept.code).fill(acceptCode);
    await apPage.getByRole('button', { name: T.en.accept.verify }).click();
    await expect(apPage.getByRole('heading', { name: T.en.accept.declarationTitle })).toBeVisible();
    await apPage.getByLabel(T.en.accept.hkic).fill('A123456(3)');
    await expectNoAxeViolations(apPage);
    await apPage
      .getByRole('button', { name: /iAM Smart/ })
      .first()
      .click();
    await answerOnPhone(apPage, await identificationCode(apPage), 'approve');
    await expect(apPage.getByRole('heading', { level: 1, name: T.en.accept.acceptedTitle })).toBeVisible({
      timeout: 15_000,
    });

    // The AP logs in with the registration number and acts on the case: a compliance inspection.
    await apPage.getByRole('link', { name: T.en.accept.toLogin }).click();
    await apPage.getByLabel(T.en.login.registration).fill('ap(a)6101');
    await apPage.getByLabel(T.en.login.contact).fill(ap.email);
    await apPage.getByRole('button', { name: T.en.login.send }).click();
    // A new code, not the one of the acceptance (the outbox answers the newest message first).
    let loginCode = '';
    await expect
      .poll(async () => (loginCode = await codeSentTo(page, ap.email)), { timeout: 10_000 })
      .not.toBe(acceptCode);
    await apPage.getByLabel(T.en.login.code).fill(loginCode);
    await apPage.getByRole('button', { name: T.en.login.verify, exact: true }).click();
    await expect(apPage.getByRole('heading', { level: 1, name: T.en.login.casesTitle })).toBeVisible();
    await expectNoAxeViolations(apPage);
    await apPage.getByRole('button', { name: `Open ${no}` }).click();
    await expect(apPage).toHaveURL(/\/case-history$/);
    await apPage.goto('/request-for-inspection');
    await expect(
      apPage.getByRole('heading', { level: 1, name: 'Request for Compliance Inspection' }),
    ).toBeVisible();
    await apPage.getByLabel('Name of the requesting person').fill('CHAN TAI MAN');
    await apPage.locator('label:has(input[value="ap"])').first().click();
    const [d1, d2] = inspectionWorkingDays(2);
    for (const field of inspectionFields) {
      if (field.id === 'preferredDate1') await answerField(apPage, field, d1);
      if (field.id === 'preferredDate2') await answerField(apPage, field, d2);
      if (field.id === 'inspectionContactTelephone') await answerField(apPage, field, '21234567');
    }
    await apPage.getByRole('button', { name: 'Continue' }).click();
    await apPage.getByRole('button', { name: 'Send the request' }).click();
    await expect(apPage.getByText(/Reference:/)).toBeVisible();

    // And a supporting document, signed by the AP with iAM Smart (their own HKIC).
    await apPage.goto('/form-submit-doc-step1');
    await apPage.getByRole('button', { name: /Type of document/ }).click();
    await apPage.getByRole('option', { name: 'Other', exact: true }).click();
    await apPage.getByLabel('Describe the document').fill('Structural calculations');
    await apPage.getByRole('button', { name: 'Continue' }).click();
    const chooser = apPage.waitForEvent('filechooser');
    await apPage.locator('#choose-file').click();
    await (
      await chooser
    ).setFiles({
      name: 'calculations.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(await landscapeA4()),
    });
    await expect(apPage.locator('.documents__file')).toContainText('calculations.pdf');
    await apPage.getByRole('button', { name: 'Continue' }).click();
    await apPage.getByRole('button', { name: 'Sign and submit' }).click();
    await apPage.getByLabel(T.en.accept.hkic).fill('A123456(3)');
    await expectNoAxeViolations(apPage);
    await apPage.getByRole('button', { name: 'Signing with iAM Smart' }).click();
    await answerOnPhone(apPage, await identificationCode(apPage), 'approve');
    await expect(apPage.getByRole('heading', { level: 1, name: 'Upload Success' })).toBeVisible({
      timeout: 20_000,
    });
    await expect(apPage.getByRole('button', { name: /calculations\.pdf/ })).toBeVisible();

    // The applicant revokes; the AP's next request is refused with the reason, and the session ends.
    await page.goto('/form-appointment-step2');
    await expect(page.getByRole('heading', { level: 1, name: T.en.manage.title })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: T.en.manage.revoke }).click();
    await page.getByLabel(T.en.manage.reason).fill('We changed architect.');
    await page.getByRole('button', { name: T.en.manage.confirmRevoke, exact: true }).click();
    await expect(page.getByText(T.en.manage.statuses.REVOKED)).toBeVisible();

    await apPage.goto('/case-history');
    await expect(apPage.getByText(/Your appointment to this application has ended/)).toBeVisible();
    await expect(apPage).toHaveURL(/\/$/);
    await apContext.close();
  });

  for (const lang of ['sc', 'tc'] as Language[]) {
    test(`the invitation and the AP/RSE login in ${lang}, with axe`, async ({ page }) => {
      await seedSession(page, { language: lang });
      await page.goto(`/appointment-accept#${INVITATION_TOKENS.invited}`);
      await pageReady(page);
      await expect(page.getByRole('heading', { level: 1, name: T[lang].accept.title })).toBeVisible();
      await expect(page.getByRole('button', { name: T[lang].accept.send })).toBeVisible();
      await expectNoAxeViolations(page);
      await page.goto('/appointee-login');
      await pageReady(page);
      await expect(page.getByRole('heading', { level: 1, name: T[lang].login.title })).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }

  test('an unknown invitation link says so, in English', async ({ page }) => {
    await seedSession(page, { language: 'en' });
    await page.goto(`/appointment-accept#${'x'.repeat(43)}`);
    await expect(page.getByRole('heading', { level: 1, name: T.en.accept.refusedTitle })).toBeVisible();
    await expect(page.getByText(/This invitation link is not valid/)).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('an AP logs in and opens their case by keyboard alone', async ({ page }) => {
    await seedSession(page, { language: 'en' });
    const no = testApplicant(APPOINTMENT_CASES.withAp.n).applicationNo;
    await page.goto('/appointee-login');
    await pageReady(page);
    await page.getByLabel(T.en.login.registration).focus();
    await page.keyboard.type(SEEDED_AP.registrationNumber);
    await page.keyboard.press('Tab');
    await page.keyboard.type(SEEDED_AP.email);
    await page.keyboard.press('Enter');
    const code = page.getByLabel(T.en.login.code);
    await expect(code).toBeVisible();
    await code.focus();
    await page.keyboard.type(await codeSentTo(page, SEEDED_AP.email));
    await page.keyboard.press('Enter');
    const open = page.getByRole('button', { name: `Open ${no}` });
    await expect(open).toBeVisible();
    await open.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/case-history$/);
  });
});
