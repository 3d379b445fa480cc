import { expect, test } from '@playwright/test';
import { pageReady } from './support';

const DETECTION: [string, string, RegExp][] = [
  ['zh-HK', 'zh-Hant', /主頁/],
  ['zh-TW', 'zh-Hant', /主頁/],
  ['zh-CN', 'zh-Hans', /主页/],
  ['en-GB', 'en', /Home/],
  ['fr-FR', 'en', /Home/],
];

test.describe('language', () => {
  for (const [locale, htmlLang, homeTab] of DETECTION) {
    test(`with nothing stored, a browser in ${locale} gets ${htmlLang}`, async ({ browser }) => {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      await page.goto('/');
      await pageReady(page);
      await expect(page.locator('html')).toHaveAttribute('lang', htmlLang);
      await expect(page.getByRole('navigation', { name: /Pages opened|已開啟|已开启/ })).toContainText(
        homeTab,
      );
      await context.close();
    });
  }

  test('the chosen language survives a reload and beats the browser language', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto('/about');
    await pageReady(page);
    await page.getByRole('button', { name: 'Language: English' }).click();
    await page.getByRole('menuitemradio', { name: '简体中文' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
    await expect(page).toHaveTitle(/屋宇署/);
    await page.reload();
    await pageReady(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(/About/);
    await context.close();
  });

  test('a corrupt stored session is ignored, not a crash', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('redux-state', '{"version":1,"language":'));
    await page.goto('/faq');
    await pageReady(page);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});
