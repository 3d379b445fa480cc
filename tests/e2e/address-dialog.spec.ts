import { expect, test, type Page } from '@playwright/test';
import { FORM_CATALOGUE } from '../../machines/forms';
import { firstStepPath } from '../../machines/routes';
import { pageReady, seedSession } from './support';
import { fillStep } from './flows/fill-form';

const A2 = FORM_CATALOGUE.a2;
const premises = (page: Page) => page.locator('#field-premisesAddress');

async function openSearch(page: Page) {
  await premises(page).getByRole('button', { name: 'Search for the address' }).click();
  const dialog = page.getByRole('dialog', { name: 'Address search' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Building name' }).fill('Central Plaza');
  return dialog;
}

test.describe('the address search dialog', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await seedSession(page, { language: 'en' });
    await page.goto(firstStepPath('a2'));
    await pageReady(page);
  });

  test('Search on an empty form searches and does not submit the application form', async ({ page }) => {
    const dialog = await openSearch(page);
    await dialog.getByRole('button', { name: 'Search', exact: true }).click();

    await expect(dialog.getByRole('status')).toContainText('Addresses found');
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.locator('.field__error')).toHaveCount(0);
    await expect(page).toHaveURL(/\/form-a2-step1$/);
  });

  test('Enter in the search field searches and does not submit the application form', async ({ page }) => {
    const dialog = await openSearch(page);
    await dialog.getByRole('textbox', { name: 'Building name' }).press('Enter');

    await expect(dialog.getByRole('status')).toContainText('Addresses found');
    await expect(page.locator('.field__error')).toHaveCount(0);
  });

  test('on a completed form, Search stays in the dialog and the chosen address fills both lines', async ({
    page,
  }) => {
    await fillStep(page, A2, 0, A2.example);
    const dialog = await openSearch(page);
    await dialog.getByRole('textbox', { name: 'Building name' }).press('Enter');
    await dialog
      .getByRole('button', { name: /Use this address: .*CENTRAL PLAZA/i })
      .first()
      .click();

    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/form-a2-step1$/);
    await expect(page.locator('#field-premisesAddress-en')).toHaveValue(/CENTRAL PLAZA/i);
    await expect(page.locator('#field-premisesAddress-zh')).toHaveValue(/中環廣場|中央廣場/);
  });

  test('an empty address shows each part’s own message once, at that part', async ({ page }) => {
    await page.getByRole('button', { name: 'Save and go to preview' }).click();

    await expect(premises(page).locator('.field__error')).toHaveText([
      'English Address is required',
      'Chinese Address is required',
    ]);
    await expect(premises(page).getByLabel('Chinese Address')).toHaveAccessibleDescription(
      /Chinese Address is required/,
    );
  });
});
