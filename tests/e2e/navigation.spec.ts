import { expect, test, type Page } from '@playwright/test';
import { FORM_CATALOGUE } from '../../machines/forms';
import { firstStepPath } from '../../machines/routes';
import { fillStep } from './flows/fill-form';
import { text } from './flows/submit-flow';
import { axeViolations, LANGS, pageReady, seedSession } from './support';

/** The sitemap's names, the tab strip of the visit and the focus on the page heading. */

const tabStrip = (page: Page) => page.getByRole('navigation', { name: 'Pages opened in this visit' });
const tabLinks = (page: Page) => tabStrip(page).locator('.tab__link');

test.describe('the sitemap', () => {
  for (const lang of LANGS) {
    test(`${lang}: names every page, none by its message key`, async ({ page }) => {
      await seedSession(page, { language: lang });
      await page.goto('/sitemap');
      await pageReady(page);

      const names = await page.locator('.sitemap a').allInnerTexts();
      expect(names.length).toBeGreaterThan(20);
      expect(names.filter((n) => /^[\w-]+(\.[\w-]+)+$/.test(n.trim()))).toEqual([]);
      await expect(page.locator('.sitemap')).toContainText(text(lang, 'auth', 'findMyCase.title'));
    });
  }
});

test.describe('the Help page', () => {
  for (const lang of LANGS) {
    test(`${lang}: is an information page, in the sitemap and on the home page`, async ({ page }) => {
      await seedSession(page, { language: lang });
      await page.goto('/sitemap');
      await pageReady(page);
      const name = text(lang, 'common', 'pages.help');
      await page.locator('.sitemap').getByRole('link', { name, exact: true }).click();

      await expect(page).toHaveURL(/\/help$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(lang, 'pages', 'help.title'));
      expect(await axeViolations(page)).toEqual([]);
      await page.goto('/');
      await pageReady(page);
      await expect(page.locator('main').getByRole('link', { name, exact: true })).toHaveAttribute(
        'href',
        '/help',
      );
    });
  }
});

test.describe('the tab strip', () => {
  test.beforeEach(async ({ page }) => {
    await seedSession(page, { language: 'en' });
  });

  test('the steps of one application form share one tab, which follows the step', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(firstStepPath('a2'));
    await pageReady(page);
    const a2 = FORM_CATALOGUE.a2;
    await fillStep(page, a2, 0, a2.example);
    await page.getByRole('button', { name: 'Save and go to preview' }).click();
    await expect(page).toHaveURL(/\/form-a2-step2$/);

    const title = text('en', 'flows', 'forms.a2.title');
    await expect(tabLinks(page).filter({ hasText: title })).toHaveCount(1);
    await expect(tabStrip(page).locator('[aria-current="page"]')).toHaveAttribute('href', '/form-a2-step2');
  });

  test('a development page opened beside the portal does not become a tab', async ({ page, context }) => {
    await page.goto('/about');
    await pageReady(page);
    const outbox = await context.newPage();
    await outbox.goto('/dev/outbox');
    await pageReady(outbox);
    await outbox.close();
    await page.goto('/faq');
    await pageReady(page);

    await expect(tabLinks(page)).toHaveText(['About the portal', 'Frequently asked questions']);
  });

  test('on a phone, the current tab is scrolled into view', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    for (const path of [
      '/about',
      '/faq',
      '/user-manual',
      '/important-notices',
      '/privacy-policy',
      '/sitemap',
    ]) {
      await page.goto(path);
      await pageReady(page);
    }
    const strip = await tabStrip(page).locator('.tab-strip__list').boundingBox();
    const current = await tabStrip(page).locator('.tab--active').boundingBox();
    expect(strip && current).toBeTruthy();
    if (!strip || !current) return;
    expect(current.x).toBeGreaterThanOrEqual(strip.x - 1);
    expect(current.x + current.width).toBeLessThanOrEqual(strip.x + strip.width + 1);
  });
});

test.describe('the page heading', () => {
  test('takes focus after a page change by keyboard, without a focus box around it', async ({ page }) => {
    await seedSession(page, { language: 'en' });
    await page.goto('/sitemap');
    await pageReady(page);
    const link = page.locator('.sitemap a[href="/about"]');
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/about$/);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toBeFocused();

    const style = await heading.evaluate((el) => {
      const s = getComputedStyle(el);
      return { outline: s.outlineStyle, shadow: s.boxShadow, focusVisible: el.matches(':focus-visible') };
    });
    expect(style.focusVisible).toBe(true);
    expect(style.outline).toBe('none');
    expect(style.shadow).toBe('none');
  });
});
