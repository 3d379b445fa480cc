import { expect, test } from '@playwright/test';
import { FORM_CATALOGUE } from '../../machines/forms';
import { firstStepPath } from '../../machines/routes';
import { fillStep } from './flows/fill-form';
import { text } from './flows/submit-flow';
import { LANGS, pageReady, seedSession } from './support';

/** What a new user read in the application flow (issue 14, point 9): one wording, one date format. */

test.describe('dates and wording', () => {
  for (const lang of ['en', 'tc'] as const) {
    test(`${lang}: the preview prints a date as the rest of the portal does, not as typed`, async ({
      page,
    }) => {
      const a2 = FORM_CATALOGUE.a2;
      await seedSession(page, { language: lang });
      await page.goto(firstStepPath('a2'));
      await pageReady(page);
      await fillStep(page, a2, 0, a2.example);
      await page.getByRole('button', { name: text(lang, 'wizard', 'toPreview') }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(lang, 'wizard', 'preview.title'));

      const date = lang === 'en' ? '2 Mar 2026' : '2026年3月2日';
      await expect(page.locator('.preview__row', { hasText: date })).toHaveCount(1);
      await expect(page.getByText('2026-03-02')).toHaveCount(0);
      await expect(page.locator('main')).not.toContainText(/Part A|甲部/);
    });
  }

  for (const lang of LANGS) {
    test(`${lang}: the resume page's heading is its tab's and its document's title`, async ({ page }) => {
      await seedSession(page, { language: lang });
      await page.goto('/enter-application-number');
      await pageReady(page);
      const title = text(lang, 'flows', 'forms.enterApplicationNumber.title');

      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      await expect(page).toHaveTitle(new RegExp(`^${title} \\|`));
      await expect(page.locator('.tab--active')).toHaveText(new RegExp(title));
      // One wording for the button that sends a code, here and on the preview.
      await expect(page.getByRole('button', { name: text(lang, 'wizard', 'contact.send') })).toBeVisible();
    });
  }

  test('the update page of a child care centre does not speak of a school', async ({ page }) => {
    await seedSession(page, { language: 'en' });
    await page.goto('/form-usi-cccaic2-step1');
    await pageReady(page);

    // Logged out, the form asks for the Find my case login first, under the centre form's own name.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in to your case');
    await expect(page.locator('.flow-step__form')).toContainText('Centre Information');
    await expect(page.locator('main')).not.toContainText('School Information');
  });

  test.describe('in a browser set to US English', () => {
    test.use({ locale: 'en-US' });

    for (const [lang, order] of [
      ['en', ['day', 'month', 'year']],
      ['sc', ['year', 'month', 'day']],
    ] as const) {
      test(`${lang}: a date field shows its parts in the page language's order, not the browser's`, async ({
        page,
      }) => {
        await seedSession(page, { language: lang });
        await page.goto(firstStepPath('a2'));
        await pageReady(page);

        const types = await page
          .locator('#field-applicationDate [data-type]')
          .evaluateAll((els) =>
            els.map((e) => e.getAttribute('data-type')).filter((t) => t && t !== 'literal'),
          );
        expect(types).toEqual(order);
      });
    }
  });
});
