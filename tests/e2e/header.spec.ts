import { expect, test, type Page } from '@playwright/test';
import { SESSION_STORAGE_KEY } from '../../machines/rules/session-state';
import { pageReady, seedSession } from './support';

/** Press Tab until the element with this accessible role and name has focus. */
async function tabTo(page: Page, role: 'button' | 'link', name: string | RegExp, max = 60): Promise<void> {
  const target = page.getByRole(role, { name }).filter({ visible: true }).first();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`could not reach ${role} "${String(name)}" with Tab`);
}

test.describe('header, menus and tools by keyboard alone', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await seedSession(page, { language: 'en' });
  });

  test('the skip link moves to the main content', async ({ page }) => {
    await page.goto('/about');
    await pageReady(page);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#main$/);
  });

  test('a main menu group opens with Enter and its entry is followed with the arrow keys', async ({
    page,
  }) => {
    await page.goto('/');
    await pageReady(page);
    await tabTo(page, 'button', 'Apply');
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Apply' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'New School Registration' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Extension of School Premises' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/extension-of-school-premises$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  });

  test('Escape closes a menu and returns focus to its button', async ({ page }) => {
    await page.goto('/');
    await pageReady(page);
    await tabTo(page, 'button', 'Information');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menu', { name: 'Information' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Information' })).toBeFocused();
  });

  test('the language menu works by keyboard', async ({ page }) => {
    await page.goto('/faq');
    await pageReady(page);
    await tabTo(page, 'button', 'Language: English');
    await page.keyboard.press('Enter');
    // The menu opens on the current choice; Home goes to the first, Traditional Chinese.
    await expect(page.getByRole('menuitemradio', { name: 'English' })).toBeFocused();
    await expect(page.getByRole('menuitemradio', { name: 'English' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await page.keyboard.press('Home');
    await expect(page.getByRole('menuitemradio', { name: '繁體中文' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
    await expect(page.getByRole('button', { name: '語言：繁體中文' })).toBeVisible();
  });

  test('dark mode, theme mode and full screen are switches operated with Space and Enter', async ({
    page,
  }) => {
    await page.goto('/');
    await pageReady(page);
    await tabTo(page, 'button', /^Theme/);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitemradio', { name: 'Normal colours' })).toBeFocused();
    await page.keyboard.press('End');
    await expect(page.getByRole('menuitemradio', { name: 'Greyscale' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('html')).toHaveAttribute('data-mode', 'gray');
    await expect(page.getByRole('button', { name: 'Theme: Greyscale' })).toBeFocused();
    await tabTo(page, 'button', 'Dark mode');
    await page.keyboard.press('Space');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('button', { name: 'Dark mode' })).toHaveAttribute('aria-pressed', 'true');
    await tabTo(page, 'button', 'Full screen');
    await expect(page.getByRole('button', { name: 'Full screen' })).toHaveAttribute('aria-pressed', 'false');
    const stored = await page.evaluate((k) => localStorage.getItem(k), SESSION_STORAGE_KEY);
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ theme: { dark: true, mode: 'gray' } });
  });

  test('on a small screen the menu toggle opens the accordion of the four groups', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await pageReady(page);
    await tabTo(page, 'button', 'Menu');
    await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Enter');
    const panel = page.getByRole('navigation', { name: 'Main menu' }).filter({ visible: true });
    for (const group of ['Apply', 'My application', 'Information', 'Help']) {
      await expect(panel.getByRole('button', { name: group })).toHaveAttribute('aria-expanded', 'false');
    }
    await tabTo(page, 'button', 'Help');
    await page.keyboard.press('Enter');
    await expect(panel.getByRole('button', { name: 'Help' })).toHaveAttribute('aria-expanded', 'true');
    await tabTo(page, 'link', 'Contact us');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/contact-us$/);
  });

  test('the menu of a logged-in applicant offers the history; no main menu while logged in', async ({
    page,
  }) => {
    await page.addInitScript((key) => {
      const s = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
      localStorage.setItem(
        key,
        JSON.stringify({ ...s, isLogin: true, token: 'demo-token', applicationNo: 'A2-2026-000123' }),
      );
    }, SESSION_STORAGE_KEY);
    await page.goto('/');
    await pageReady(page);
    await expect(page.getByRole('button', { name: 'Apply' })).toHaveCount(0);
    await tabTo(page, 'button', /Application A2-2026-000123/);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Application history' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeFocused();
  });
});

test.describe('tabs of the pages opened in this visit', () => {
  test('each tab closes, and so do all others and all', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await seedSession(page, { language: 'en' });
    await page.goto('/');
    await pageReady(page);
    for (const path of ['/about', '/faq', '/sitemap']) {
      await page.goto(path);
      await pageReady(page);
    }
    const strip = page.getByRole('navigation', { name: 'Pages opened in this visit' });
    await expect(strip.getByRole('link')).toHaveCount(4);
    await expect(strip.getByRole('link', { name: 'Sitemap' })).toHaveAttribute('aria-current', 'page');
    await strip.getByRole('button', { name: 'Close Sitemap' }).press('Enter');
    await expect(page).toHaveURL(/\/faq$/);
    await expect(strip.getByRole('link')).toHaveCount(3);
    await strip.getByRole('button', { name: 'Tab options' }).press('Enter');
    await page.getByRole('menuitem', { name: 'Close all other tabs' }).press('Enter');
    await expect(strip.getByRole('link')).toHaveCount(1);
    await strip.getByRole('button', { name: 'Tab options' }).press('Enter');
    await page.getByRole('menuitem', { name: 'Close all tabs' }).press('Enter');
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await expect(strip.getByRole('link')).toHaveCount(1);
    await expect(strip.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  });
});

test.describe('text size and status pages', () => {
  test('the text size chosen on /textsize applies to the whole site and survives a reload', async ({
    page,
  }) => {
    await seedSession(page, { language: 'en' });
    await page.goto('/textsize');
    await pageReady(page);
    const large = page.getByRole('radio', { name: /Large/ });
    await page.getByRole('radio', { name: /Standard/ }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(large).toBeChecked();
    await expect(page.locator('html')).toHaveAttribute('data-text-size', 'large');
    await expect(page.getByRole('status').filter({ hasText: /Large/ })).toBeAttached();
    await page.goto('/about');
    await pageReady(page);
    await expect(page.locator('html')).toHaveAttribute('data-text-size', 'large');
    const size = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
    expect(size).toBe('20px');
  });

  test('the health page shows that the API and the database answer', async ({ page }) => {
    await seedSession(page, { language: 'en' });
    await page.goto('/health');
    await pageReady(page);
    await expect(page.locator('dd[data-state="up"]')).toHaveCount(2);
  });
});
