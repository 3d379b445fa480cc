import { expect, test } from '@playwright/test';
import { FORM_CATALOGUE } from '../../machines/forms';
import { firstStepPath } from '../../machines/routes';
import { fillStep } from './flows/fill-form';
import { confirmContact, text } from './flows/submit-flow';
import { axeViolations, pageReady, seedSession } from './support';

/** Spec §4: the one-time code confirms the applicant's and the contact person's email or mobile. */
const definition = FORM_CATALOGUE.cccaiC2;

test('the contact person’s email is confirmed by a one-time password before going on', async ({ page }) => {
  test.setTimeout(90_000);
  const email = 'cp-applicant@example.hk';
  const person = 'cp-person@example.hk';
  await seedSession(page, { language: 'en' });
  await page.goto(firstStepPath('cccaiC2'));
  await pageReady(page);
  await fillStep(page, definition, 0, { ...definition.example, applicantEmail: email, contactEmail: person });
  await page.getByRole('button', { name: 'Save and go to preview' }).click();
  const box = page.getByRole('region', {
    name: "Confirm the contact person's email address or mobile number",
  });
  await expect(box).toBeVisible();

  await confirmContact(page, 'email', email);
  await page.getByRole('button', { name: text('en', 'wizard', 'preview.confirm') }).click();
  await expect(box.getByRole('alert')).toHaveText(text('en', 'wizard', 'preview.contactPersonRequired'));
  expect(await axeViolations(page)).toEqual([]);

  await confirmContact(page, 'email', person, 'en', 'contactPerson');
  await page.getByRole('button', { name: text('en', 'wizard', 'preview.confirm') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('en', 'flows', 'steps.upload.title'));
});
