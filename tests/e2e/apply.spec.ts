import { expect, test, type Page } from '@playwright/test';
import { FORM_CATALOGUE, CATALOGUE_KEYS } from '../../machines/forms';
import type { FormDefinition } from '../../machines/forms/types';
import { firstStepPath } from '../../machines/routes';
import { axeViolations, LANGS, pageReady, seedSession } from './support';
import { codeSentTo } from './outbox';
import { en, fillStep } from './flows/fill-form';
import { unzipSync } from 'fflate';
import {
  confirmContact,
  downloadOf,
  signWithIamSmart,
  submitApplication,
  uploadRequiredDocuments,
} from './flows/submit-flow';

/** The form's example answers with an email address of this test's own (the per-address code limit). */
/** A mobile number of this test's own too (8 digits from the tag, starting with 6). */
const mobileFor = (tag: string) =>
  `6${String([...tag].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 10_000_000, 7)).padStart(7, '0')}`;
const answersFor = (definition: FormDefinition, tag: string): Record<string, unknown> => ({
  ...definition.example,
  applicantEmail: `apply-${tag}@example.hk`,
  contactEmail: `person-${tag}@example.hk`,
  applicantMobile: mobileFor(tag),
});

async function fillFirstStepAndPreview(
  page: Page,
  definition: FormDefinition,
  answers: Record<string, unknown>,
) {
  await page.goto(firstStepPath(definition.key));
  await pageReady(page);
  await fillStep(page, definition, 0, answers);
  await page.getByRole('button', { name: 'Save and go to preview' }).click();
  await expect(page).toHaveURL(new RegExp(`/form-${definition.slug}-step2$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application Form Preview');
}

test.describe('the application wizard', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await seedSession(page, { language: 'en' });
  });

  // The self-certification forms have their own journeys (selfcert.spec.ts).
  for (const key of CATALOGUE_KEYS.filter((k) => !FORM_CATALOGUE[k].selfCertification)) {
    const definition = FORM_CATALOGUE[key];
    test(`${definition.code}: fill, preview, save, resume on another browser, then upload, sign, submit and download`, async ({
      page,
      browser,
    }) => {
      test.setTimeout(120_000);
      const answers = answersFor(definition, key);
      await fillFirstStepAndPreview(page, definition, answers);
      await expect(page.getByText(String(answers.applicantNameEn))).toBeVisible();
      await page.getByRole('button', { name: 'Back' }).click();
      await expect(page).toHaveURL(new RegExp(`/form-${definition.slug}-step1$`));
      await page.getByRole('button', { name: 'Save for later' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application Saved');
      const code = (await page.locator('.saved__code').innerText()).trim();
      expect(code).toMatch(new RegExp(`^${definition.code}-\\d{4}-\\d{6}$`));

      // Another browser: the retrieval code and a one-time code sent to the applicant's email.
      const other = await browser.newContext({ locale: 'en-GB' });
      const page2 = await other.newPage();
      await page2.goto('/enter-application-number');
      await pageReady(page2);
      await page2.getByLabel(/Retrieval code/).fill(code);
      await page2.getByLabel(/Mobile Number \/ Email Address/).fill(String(answers.applicantEmail));
      await page2.getByRole('button', { name: 'Send OTP Code' }).click();
      await page2
        .getByLabel('One-time password')
        .fill(await codeSentTo(page2, String(answers.applicantEmail)));
      await page2.getByRole('button', { name: 'Submit' }).click();
      // It opens on the step where it stopped, every answer in place.
      await expect(page2).toHaveURL(new RegExp(`/form-${definition.slug}-step1$`));
      await expect(page2.getByRole('heading', { level: 1 })).toHaveText('Fill in Application Form');
      await expect(page2.locator('#field-applicantNameEn')).toHaveValue(String(answers.applicantNameEn));
      await expect(page2.locator('#field-applicantEmail')).toHaveValue(String(answers.applicantEmail));
      await page2.getByRole('button', { name: 'Save and go to preview' }).click();
      await expect(page2.getByRole('heading', { level: 1 })).toHaveText('Application Form Preview');

      // Confirm the email, upload the required documents, sign with iAM Smart, submit.
      // By mobile this time (the email confirmation is tested on its own below).
      await confirmContact(page2, 'mobile', String(answers.applicantMobile));
      await confirmContact(page2, 'email', String(answers.contactEmail), 'en', 'contactPerson');
      await page2.getByRole('button', { name: 'Confirm and continue to documents' }).click();
      await expect(page2.getByRole('heading', { level: 1 })).toHaveText('Upload Documents and Sign');
      await uploadRequiredDocuments(page2, definition);
      await signWithIamSmart(page2);
      const downloads = await submitApplication(page2, code);
      const pdf = await downloadOf(page2, downloads.locator('a[data-file="application"]'));
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const zip = unzipSync(
        new Uint8Array(await downloadOf(page2, downloads.locator('a[data-file="archive"]'))),
      );
      expect(Object.keys(zip)).toHaveLength(1 + definition.documents.filter((d) => d.required).length);
      await other.close();
    });
  }

  test('a step with missing answers lists them in an error summary that links to each field', async ({
    page,
  }) => {
    const definition = FORM_CATALOGUE.a2;
    await page.goto(firstStepPath('a2'));
    await pageReady(page);
    await page.getByRole('button', { name: 'Save and go to preview' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await expect(summary).toBeFocused();
    await expect(summary.getByRole('link', { name: 'Email Address is required' })).toBeVisible();
    await expect(summary.getByRole('link', { name: 'Please agree with the Terms' })).toBeVisible();
    await summary.getByRole('link', { name: 'Email Address is required' }).click();
    await expect(page.locator('#field-applicantEmail')).toBeFocused();
    await page.locator('#field-applicantHkic').fill('A1234564');
    await page.getByRole('button', { name: 'Save and go to preview' }).click();
    await expect(summary.getByRole('link', { name: en('errors.invalidHkic') })).toBeVisible();
    expect(definition.code).toBe('A2');
  });

  test('a typed URL to a step not reachable yet lands on the furthest reachable step', async ({ page }) => {
    await page.goto('/form-b2-step3');
    await pageReady(page);
    await expect(page).toHaveURL(/\/form-b2-step1$/);
  });

  test('Change on the preview returns to the preview, and the browser back button goes back a step', async ({
    page,
  }) => {
    const definition = FORM_CATALOGUE.c2;
    await fillFirstStepAndPreview(page, definition, answersFor(definition, 'change'));
    await page
      .getByRole('button', { name: /^Change/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/form-c2-step1$/);
    const entries = await page.evaluate(() => window.history.length);
    await page.getByRole('button', { name: 'Save and go to preview' }).click();
    await expect(page).toHaveURL(/\/form-c2-step2$/);
    // One step, one history entry: a second entry for the same step (asked again while the router was still
    // on its way) made Back land on the preview again.
    await expect(page.locator('.save-indicator')).toContainText(/Saved/);
    expect(await page.evaluate(() => window.history.length)).toBe(entries + 1);
    // A person presses Back on the preview they see, not within the frame that navigated to it.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application Form Preview');
    await expect(page.locator('.save-indicator')).toContainText(/Saved/);
    await page.goBack();
    await expect(page).toHaveURL(/\/form-c2-step1$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fill in Application Form');
  });

  test('the preview shows the application form as a PDF that downloads', async ({ page }) => {
    const definition = FORM_CATALOGUE.f2;
    await fillFirstStepAndPreview(page, definition, answersFor(definition, 'pdf'));
    await expect(page.locator('.save-indicator')).toContainText(/Saved/);
    await page.getByRole('button', { name: 'View the application form (PDF)' }).click();
    const download = page.getByRole('link', { name: 'Download the application form (PDF)' });
    await expect(download).toHaveAttribute('href', /^blob:/);
    expect(await axeViolations(page)).toEqual([]);
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const stream = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).subarray(0, 5).toString()).toBe('%PDF-');
  });

  test('the applicant confirms the email address with a one-time password before submitting', async ({
    page,
  }) => {
    const definition = FORM_CATALOGUE.cccaiMh3;
    const answers = answersFor(definition, 'confirm');
    await fillFirstStepAndPreview(page, definition, answers);
    await expect(page.locator('.save-indicator')).toContainText(/Saved at/);
    const box = page.getByRole('region', { name: 'Confirm your email address or mobile number' });
    await expect(box).toBeVisible();
    const email = String(answers.applicantEmail);
    const byEmail = box.getByText(`Email ${email}`);
    if (await byEmail.isVisible()) await byEmail.click();
    await box.getByRole('button', { name: 'Send OTP Code' }).click();
    await box.getByLabel('One-time password').fill(await codeSentTo(page, email));
    await box.getByRole('button', { name: 'Submit' }).click();
    await expect(box).toContainText(`Confirmed: ${email}`);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('the address search dialog fills both address lines, by keyboard alone', async ({ page }) => {
    await page.goto(firstStepPath('cccaiC2'));
    await pageReady(page);
    await page.getByRole('button', { name: 'Search for the address' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Address search' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Building name' }).focus();
    await page.keyboard.type('Central Plaza');
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('status')).toContainText(/Addresses found/);
    await dialog
      .getByRole('button', { name: /Use this address: .*Central Plaza/i })
      .first()
      .focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.locator('#field-premisesAddress-en')).toHaveValue(/Central Plaza/i);
    await expect(page.locator('#field-premisesAddress-zh')).toHaveValue(/中央廣場/);
  });

  test('the address search says so when nothing is found', async ({ page }) => {
    await page.goto(firstStepPath('a2'));
    await pageReady(page);
    await page.getByRole('button', { name: 'Search for the address' }).click();
    const dialog = page.getByRole('dialog', { name: 'Address search' });
    await dialog.getByRole('textbox', { name: 'Building name' }).fill('Nowhere Tower Zzqx');
    await dialog.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(dialog.getByRole('status')).toContainText('No address found');
  });

  for (const lang of LANGS) {
    test(`every screen of one form passes axe in ${lang}`, async ({ page }) => {
      const definition = FORM_CATALOGUE.edbJokc02;
      await seedSession(page, { language: lang });
      await page.goto(firstStepPath('edbJokc02'));
      await pageReady(page);
      expect(await axeViolations(page), 'fill').toEqual([]);
      await page.locator('button[type="submit"]').click();
      await expect(page.getByRole('alert').first()).toBeVisible();
      expect(await axeViolations(page), 'fill with errors').toEqual([]);
      await fillStep(page, definition, 0, answersFor(definition, `axe-${lang}`));
      await page.locator('button[type="submit"]').click();
      await expect(page).toHaveURL(/step2$/);
      expect(await axeViolations(page), 'preview').toEqual([]);
    });
  }
});
