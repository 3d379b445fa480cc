import { expect, test } from '@playwright/test';
import { firstStepPath } from '../../machines/routes';
import { LANGS, pageReady, seedSession } from './support';

/**
 * A character the application PDF cannot print (machines/rules/printable.ts) is a field error in the
 * browser too, naming the character, in the page's language: the same rule as the API's.
 */

const SAYS: Record<(typeof LANGS)[number], RegExp> = {
  en: /contains "😀" \(U\+1F600\), which cannot be printed on the application form/,
  sc: /包含 "😀" \(U\+1F600\)，此字符无法打印在申请表上/,
  tc: /包含 "😀" \(U\+1F600\)，此字元無法列印在申請表上/,
};

for (const lang of LANGS) {
  test(`${lang}: an emoji in the applicant's name is a field error naming it`, async ({ page }) => {
    await seedSession(page, { language: lang });
    await page.goto(firstStepPath('a2'));
    await pageReady(page);

    await page.locator('#field-applicantNameEn').fill('CHAN 😀 Tai Man');
    await page.locator('button[type="submit"]').click();

    const summary = page.getByRole('alert').first();
    await expect(summary.getByRole('link', { name: SAYS[lang] })).toBeVisible();
    await summary.getByRole('link', { name: SAYS[lang] }).click();
    await expect(page.locator('#field-applicantNameEn')).toBeFocused();
  });
}
