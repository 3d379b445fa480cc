import { expect, test, type FileChooser, type Page } from '@playwright/test';
import { FORM_CATALOGUE } from '../../machines/forms';
import type { Language } from '../../machines/rules/language';
import { firstStepPath } from '../../machines/routes';
import { portraitA4 } from '../support/pdf-corpus';
import { fillStep } from './flows/fill-form';
import {
  answerOnPhone,
  chooseDocumentType,
  confirmContact,
  identificationCode,
  text,
  uploadRequiredDocuments,
} from './flows/submit-flow';
import { axeViolations, LANGS, pageReady, seedSession } from './support';
import { codeSentTo } from './outbox';
import { signAsApplicant } from './ecert-signer';

/**
 * The documents and signing screens in every language: the upload rules, a refused file, the iAM Smart
 * failures D70004 and D70005 with the spec's messages, the e-Cert screen, and a submission made by
 * keyboard alone. Every screen is scanned with axe.
 */
const definition = FORM_CATALOGUE.a2;

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** Fills Form A2 and arrives on Upload Documents with the email confirmed. */
async function toDocuments(page: Page, lang: Language, tag: string) {
  const email = `sign-${tag}@example.hk`;
  await seedSession(page, { language: lang });
  await page.goto(firstStepPath('a2'));
  await pageReady(page);
  const person = `sign-person-${tag}@example.hk`;
  await fillStep(page, definition, 0, { ...definition.example, applicantEmail: email, contactEmail: person });
  await page.getByRole('button', { name: text(lang, 'wizard', 'toPreview') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(lang, 'wizard', 'preview.title'));
  // Going on without a confirmed contact is refused with a message.
  await page.getByRole('button', { name: text(lang, 'wizard', 'preview.confirm') }).click();
  await expect(page.locator('#verify-contact-error')).toHaveText(
    text(lang, 'wizard', 'preview.contactRequired'),
  );
  await confirmContact(page, 'email', email, lang);
  await confirmContact(page, 'email', person, lang, 'contactPerson');
  await page.getByRole('button', { name: text(lang, 'wizard', 'preview.confirm') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(lang, 'flows', 'steps.upload.title'));
}

test.describe('documents and signing', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  for (const lang of LANGS) {
    test(`${lang}: a refused upload, then D70004 and D70005 explained in the page's language`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await toDocuments(page, lang, `fail-${lang}`);
      await expectNoAxeViolations(page);

      // The type comes first (spec §5): without one, the button asks for it and opens no file chooser;
      // a portrait page is refused with the file and the page named.
      let chooserOpened = false;
      page.on('filechooser', () => {
        chooserOpened = true;
      });
      await page.locator('#choose-file').click();
      await expect(page.getByText(text(lang, 'wizard', 'upload.typeFirst'))).toBeVisible();
      expect(chooserOpened).toBe(false);
      await chooseDocumentType(page, 'layoutPlans');
      await page.locator('input[type="file"]').setInputFiles({
        name: 'plan.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(await portraitA4()),
      });
      await expect(page.locator('.upload__error')).toHaveText(
        text(lang, 'api', 'documents.invalid.portrait', { name: 'plan.pdf', page: '1' }),
      );
      // Going on without the required documents lists them.
      await page.getByRole('button', { name: text(lang, 'wizard', 'upload.continue') }).click();
      await expect(
        page.getByRole('heading', { name: text(lang, 'wizard', 'upload.missingTitle') }),
      ).toBeVisible();
      await uploadRequiredDocuments(page, definition);
      await expectNoAxeViolations(page);

      // iAM Smart: an account without the signing function.
      await page.getByRole('button', { name: text(lang, 'wizard', 'upload.continue') }).click();
      await expect(
        page.getByRole('button', { name: text(lang, 'signing', 'choose.iamsmart') }),
      ).toBeVisible();
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: text(lang, 'signing', 'choose.iamsmart') }).click();
      const first = await identificationCode(page);
      await expectNoAxeViolations(page);
      await answerOnPhone(page, first, 'no-signing-function');
      await expect(page.getByRole('alert')).toContainText(text(lang, 'signing', 'failed.d70004'), {
        timeout: 15_000,
      });
      await expectNoAxeViolations(page);

      // Try again: a signer whose HKIC is not the applicant's.
      await page.getByRole('button', { name: text(lang, 'signing', 'failed.retry') }).click();
      const second = await identificationCode(page);
      expect(second).not.toBe('');
      await answerOnPhone(page, second, 'other-hkic');
      await expect(page.getByRole('alert')).toContainText(text(lang, 'signing', 'failed.d70005'), {
        timeout: 15_000,
      });

      // The other method: the e-Cert screen shows the text to sign.
      await page.getByRole('button', { name: text(lang, 'signing', 'failed.other') }).click();
      await page.getByRole('button', { name: text(lang, 'signing', 'choose.ecert') }).click();
      await expect(page.locator('.signing__text')).toHaveText(/^[0-9a-f]{64}$/);
      await expectNoAxeViolations(page);
    });
  }

  test('en: upload, sign and submit by keyboard alone, then the success page', async ({ page }) => {
    test.setTimeout(120_000);
    // Listening from the start turns on the interception of file choosers before any key is pressed.
    const choosers: FileChooser[] = [];
    page.on('filechooser', (chooser) => choosers.push(chooser));
    await toDocuments(page, 'en', 'keyboard');
    const pdf = Buffer.from(await (await import('../support/pdf-corpus')).landscapeA4());
    for (const d of definition.documents.filter((doc) => doc.required)) {
      // The select: focus, open with the keyboard, type to the option, choose.
      await page.locator('#document-type').focus();
      await page.keyboard.press('Enter');
      const option = page.locator(`[role="option"][data-key="${d.id}"]`);
      await expect(option).toBeVisible();
      while (!(await option.evaluate((el) => el === document.activeElement)))
        await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      // The list closes and gives focus back to the select; then the file button opens the system's
      // file chooser, answered as a person would.
      await expect(page.getByRole('listbox')).toHaveCount(0);
      await expect(page.locator('#document-type')).toBeFocused();
      await page.locator('#choose-file').focus();
      await expect(page.locator('#choose-file')).toBeFocused();
      const before = choosers.length;
      await page.keyboard.press('Enter');
      await expect.poll(() => choosers.length).toBe(before + 1);
      await choosers[before]?.setFiles({ name: `${d.id}.pdf`, mimeType: 'application/pdf', buffer: pdf });
      await expect(page.locator(`[data-document="${d.id}"] .documents__file`)).toContainText(`${d.id}.pdf`);
    }
    await page.getByRole('button', { name: 'Continue to signing' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Signing with iAM Smart' }).focus();
    await page.keyboard.press('Enter');
    await answerOnPhone(page, await identificationCode(page), 'approve');
    const submit = page.getByRole('button', { name: 'Submit application' });
    await expect(submit).toBeVisible({ timeout: 15_000 });
    await expectNoAxeViolations(page);
    await submit.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Submission Success', {
      timeout: 15_000,
    });
    await expect(page.getByRole('heading', { name: 'Application Details' })).toBeVisible();
    await expect(page.locator('a[data-file="archive"]')).toBeVisible();
    await expectNoAxeViolations(page);
    const applicationNo = (await page.locator('.preview__row dd').first().innerText()).trim();

    // Another day: Find my case, with the number and the confirmed email, offers the same downloads.
    await page.goto('/find-my-case');
    await pageReady(page);
    await page.getByLabel(/BD Application Number/).fill(applicationNo);
    await page.getByLabel(/Mobile Number \/ Email Address/).fill('sign-keyboard@example.hk');
    await page.getByRole('button', { name: 'Send OTP Code' }).click();
    await page.getByLabel('One-time password').fill(await codeSentTo(page, 'sign-keyboard@example.hk'));
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/case-history$/);
    await expect(page.getByRole('heading', { name: 'Download the submitted documents' })).toBeVisible();
    await expect(page.locator('a[data-file="archive"]')).toBeVisible();
    await expectNoAxeViolations(page);
  });

  for (const lang of LANGS) {
    test(`${lang}: back from iAM Smart with an error, the application shows the FormA2 message after 2 seconds`, async ({
      page,
    }) => {
      await seedSession(page, { language: lang });
      // The signing screen remembered the application's page before the phone took over.
      await page.addInitScript(() => {
        if (!sessionStorage.getItem('seeded')) {
          sessionStorage.setItem('seeded', '1');
          sessionStorage.setItem('iamsmart-return', '/form-a2-step1');
        }
      });
      await page.goto('/iamsmart?error_code=D70005&state=abc');
      await expect(page).toHaveURL(/\/form-a2-step1$/);
      const toast = page.locator('.toast--error');
      const shownAt = Date.now();
      await expect(toast).toContainText(text(lang, 'signing', 'FormA2.D70005'), { timeout: 6_000 });
      expect(Date.now() - shownAt).toBeGreaterThan(1_000);
      await expectNoAxeViolations(page);
    });
  }

  test('en: signs with an e-Cert signature file over the text shown, then submits', async ({ page }) => {
    test.setTimeout(120_000);
    await toDocuments(page, 'en', 'ecert');
    await uploadRequiredDocuments(page, definition);
    await page.getByRole('button', { name: 'Continue to signing' }).click();
    await page.getByRole('button', { name: 'Sign with e-Cert' }).click();
    const text = (await page.locator('.signing__text').innerText()).trim();
    expect(text).toMatch(/^[0-9a-f]{64}$/);
    // A signature over other text is refused with its reason; the applicant's signature of the text is accepted.
    await page.locator('input[type="file"]').setInputFiles({
      name: 'wrong.p7s',
      mimeType: 'application/pkcs7-signature',
      buffer: await signAsApplicant('another document'),
    });
    await page.getByRole('button', { name: 'Submit signature' }).click();
    await expect(
      page.getByText('The signature is not over this application.', { exact: false }).first(),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    await page.locator('input[type="file"]').setInputFiles({
      name: 'application.p7s',
      mimeType: 'application/pkcs7-signature',
      buffer: await signAsApplicant(text),
    });
    await page.getByRole('button', { name: 'Submit signature' }).click();
    await expect(page.getByRole('heading', { name: 'Submit the application' })).toBeVisible({
      timeout: 15_000,
    });
    await page.getByRole('button', { name: 'Submit application' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Submission Success', {
      timeout: 15_000,
    });
  });
});
