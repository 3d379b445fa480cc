import { expect, test, type Page } from '@playwright/test';
import { FORM_CATALOGUE } from '../../machines/forms';
import { firstStepPath } from '../../machines/routes';
import { fillStep } from './flows/fill-form';
import { confirmContact, text, uploadRequiredDocuments } from './flows/submit-flow';
import { axeViolations, pageReady, seedSession } from './support';

/**
 * iAM Smart checks the signer against the applicant's HKIC, which step 1 leaves optional: step 1 says
 * so, and the choice of signing method says so when the form has none, with a way back to the field.
 */
const definition = FORM_CATALOGUE.a2;
const hkicInput = (page: Page) => page.locator('#field-applicantHkic');

async function toSigningWithoutHkic(page: Page) {
  const email = 'hkic-sign@example.hk';
  const person = 'hkic-sign-person@example.hk';
  await fillStep(page, definition, 0, {
    ...definition.example,
    applicantHkic: '',
    applicantEmail: email,
    contactEmail: person,
  });
  await page.getByRole('button', { name: 'Save and go to preview' }).click();
  await confirmContact(page, 'email', email);
  await confirmContact(page, 'email', person, 'en', 'contactPerson');
  await page.getByRole('button', { name: text('en', 'wizard', 'preview.confirm') }).click();
  await uploadRequiredDocuments(page, definition);
  await page.getByRole('button', { name: text('en', 'wizard', 'upload.continue') }).click();
  await expect(page.getByRole('heading', { name: 'Sign the application' })).toBeVisible();
}

test.describe('the HKIC that iAM Smart needs', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await seedSession(page, { language: 'en' });
    await page.goto(firstStepPath('a2'));
    await pageReady(page);
  });

  test('step 1 says that signing with iAM Smart needs the HKIC number', async ({ page }) => {
    await expect(hkicInput(page)).toHaveAccessibleDescription(/Needed to sign with iAM Smart/);
  });

  test('without an HKIC, the choice of method says so and leads back to the field; with it, it does not', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await toSigningWithoutHkic(page);
    const notice = page.getByText(text('en', 'signing', 'choose.hkicNeeded'));
    await expect(notice).toBeVisible();
    await expect(page.getByRole('button', { name: 'Signing with iAM Smart' })).toHaveAccessibleDescription(
      /the form has none yet/,
    );
    expect(await axeViolations(page)).toEqual([]);

    // Trying anyway: the portal refuses, and the way back is offered there too.
    await page.getByRole('button', { name: 'Signing with iAM Smart' }).click();
    await expect(page.getByRole('alert')).toContainText(text('en', 'api', 'signing.hkicRequired'));
    await page.getByRole('button', { name: "Enter the applicant's HKIC number" }).click();

    await expect(page).toHaveURL(/\/form-a2-step1$/);
    await expect(hkicInput(page)).toBeFocused();
    await hkicInput(page).fill('A1234563');
    await page.getByRole('button', { name: 'Save and go to preview' }).click();
    await page.getByRole('button', { name: text('en', 'wizard', 'preview.confirm') }).click();
    await page.getByRole('button', { name: text('en', 'wizard', 'upload.continue') }).click();
    await expect(page.getByRole('heading', { name: 'Sign the application' })).toBeVisible();
    await expect(notice).toHaveCount(0);
  });
});
