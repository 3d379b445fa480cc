/**
 * The prerendered pages (issue 15): the first response already holds the page in the visitor's language,
 * readable with JavaScript off (the wizards' first step and Find my case too); the app then hydrates it (the same DOM nodes, no console error, no CSP
 * violation), and a visitor whose stored language differs still gets the page in that language.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { LANGUAGE_COOKIE, type Language } from '../../machines/rules/language';
import {
  axeViolations,
  cspViolations,
  HTML_LANGS,
  LANGS,
  pageReady,
  recordCspViolations,
  seedSession,
} from './support';

type Messages = Record<string, { title: string }>;
const messages = (lang: Language, ns: string) =>
  JSON.parse(readFileSync(`i18n/${lang}/${ns}.json`, 'utf8')) as Messages;

/** As React writes text into HTML. */
const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');

/** A browser language that gives each portal language on a first visit (spec §9). */
const LOCALE: Record<Language, string> = { en: 'en-GB', sc: 'zh-CN', tc: 'zh-HK' };

/** Prerendered routes and where their h1 comes from. */
const PAGES: { path: string; ns: string; key: string }[] = [
  { path: '/', ns: 'pages', key: 'home' },
  { path: '/faq', ns: 'pages', key: 'faq' },
  { path: '/about', ns: 'pages', key: 'about' },
  { path: '/privacy-policy', ns: 'pages', key: 'privacy' },
  { path: '/contact-us', ns: 'pages', key: 'contactUs' },
  { path: '/registration-school', ns: 'entry', key: 'registrationSchool' },
  { path: '/opt-nlhp-description', ns: 'entry', key: 'optNlhpDescription' },
  {
    path: '/alteration-of-registered-school?title=child-care-centre',
    ns: 'entry',
    key: 'alterationOfRegisteredChildCareCentre',
  },
];

/** Console errors and warnings of a page (hydration mismatches are reported there). */
function recordConsole(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') messages.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
  return messages;
}

test.describe('prerendered pages', () => {
  for (const lang of LANGS) {
    test(`the first response holds each page's heading in ${lang}, by Accept-Language`, async ({
      request,
    }) => {
      for (const { path, ns, key } of PAGES) {
        const res = await request.get(path, { headers: { 'accept-language': `${LOCALE[lang]},en;q=0.5` } });
        expect(res.status()).toBe(200);
        expect(res.headers().vary).toMatch(/accept-language/i);
        const html = await res.text();
        expect(html, path).toContain(`<html lang="${HTML_LANGS[lang]}">`);
        expect(html, path).toContain(`data-prerendered="${lang}"`);
        const h1 = /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
        expect(h1, path).toBe(escapeHtml(messages(lang, ns)[key]?.title ?? ''));
        // Nothing inline: the CSP allows no inline script.
        expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
      }
    });

    test(`with JavaScript off, a browser in ${LOCALE[lang]} reads the FAQ in ${lang}`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled: false, locale: LOCALE[lang] });
      const page = await context.newPage();
      await page.goto('/faq');
      await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANGS[lang]);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        messages(lang, 'pages').faq?.title ?? '',
      );
      await expect(page.getByRole('contentinfo')).toBeVisible();
      await context.close();
    });
  }

  test('a language remembered in the cookie beats the browser language', async ({ request }) => {
    const res = await request.get('/about', {
      headers: { 'accept-language': 'zh-HK', cookie: `${LANGUAGE_COOKIE}=en` },
    });
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain(`>${messages('en', 'pages').about?.title}</h1>`);
  });

  for (const lang of LANGS) {
    test(`the app hydrates the prerendered home page in ${lang}: same nodes, no error`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ locale: LOCALE[lang] });
      const page = await context.newPage();
      const logged = recordConsole(page);
      await recordCspViolations(page);
      // The h1 of the HTML as parsed, before any script ran.
      await page.addInitScript(() => {
        document.addEventListener('readystatechange', () => {
          if (document.readyState === 'interactive')
            (window as unknown as { __h1: Element | null }).__h1 = document.querySelector('h1');
        });
      });
      await page.goto('/');
      await pageReady(page);
      const sameNode = await page.evaluate(
        () => (window as unknown as { __h1: Element | null }).__h1 === document.querySelector('h1'),
      );
      expect(sameNode).toBe(true);
      // Live: the language menu opens.
      await page.getByRole('button', { name: /Language|語言|语言/ }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await page.keyboard.press('Escape');
      expect(logged).toEqual([]);
      expect(await cspViolations(page)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    });
  }

  test('a stored language other than the prerendered one shows the page in the stored language', async ({
    browser,
  }) => {
    const context = await browser.newContext({ locale: 'zh-HK' });
    const page = await context.newPage();
    const logged = recordConsole(page);
    await seedSession(page, { language: 'en' });
    await page.goto('/faq');
    await pageReady(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      messages('en', 'pages').faq?.title ?? '',
    );
    expect(logged).toEqual([]);
    // The choice now reaches the server too: the next page comes prerendered in English.
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === LANGUAGE_COOKIE)?.value).toBe('en');
    await context.close();
  });

  for (const path of ['/form-a2-step1', '/find-my-case']) {
    test(`${path} comes prerendered and hydrates without an error or a CSP violation`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ locale: 'zh-HK' });
      const page = await context.newPage();
      const logged = recordConsole(page);
      await recordCspViolations(page);
      const res = await page.request.get(path, { headers: { 'accept-language': 'zh-HK' } });
      expect(await res.text()).toMatch(/data-prerendered="tc"><.*<h1[^>]*>[^<]+<\/h1>/s);
      await page.goto(path);
      await pageReady(page);
      // Live: a text field takes what is typed.
      const field = page.getByRole('textbox').first();
      await field.fill('陳大文');
      await expect(field).toHaveValue('陳大文');
      expect(logged).toEqual([]);
      expect(await cspViolations(page)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    });
  }
});
