import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { Language } from '../../machines/rules/language';
import { DEFAULT_SESSION_STATE, SESSION_STORAGE_KEY } from '../../machines/rules/session-state';

export const LANGS: Language[] = ['en', 'sc', 'tc'];
export const HTML_LANGS: Record<Language, string> = { en: 'en', sc: 'zh-Hans', tc: 'zh-Hant' };
export const BD: Record<Language, string> = { en: 'Buildings Department', sc: '屋宇署', tc: '屋宇署' };

/** Start the visit with a stored session (language, theme ...) as if chosen on an earlier visit. */
export async function seedSession(
  page: Page,
  session: { language?: Language; dark?: boolean; mode?: 'normal' | 'weak' | 'gray' },
): Promise<void> {
  const state = {
    ...DEFAULT_SESSION_STATE,
    language: session.language ?? null,
    theme: { ...DEFAULT_SESSION_STATE.theme, dark: session.dark ?? false, mode: session.mode ?? 'normal' },
  };
  // Only on the first document of the test: later reloads must see what the portal itself stored.
  await page.addInitScript(
    ([key, value]) => {
      if (!sessionStorage.getItem('e2e-seeded')) {
        localStorage.setItem(key, value);
        sessionStorage.setItem('e2e-seeded', '1');
      }
    },
    [SESSION_STORAGE_KEY, JSON.stringify(state)] as const,
  );
}

/** Record every Content-Security-Policy violation of the page in `window.__cspViolations`. */
export async function recordCspViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__cspViolations.push(`${e.violatedDirective} ${e.sourceFile}:${e.lineNumber} ${e.sample}`);
    });
  });
}

export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);
}

/**
 * Wait until the page's h1 is shown (lazy page, messages and layout loaded) and, on a prerendered page
 * (shown before any script ran), until the app has hydrated it.
 */
export async function pageReady(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor({ state: 'visible' });
  await page.waitForFunction(() => !document.querySelector('.spinner'));
  await page.waitForFunction(
    () => !document.getElementById('root')?.dataset.prerendered || document.documentElement.dataset.ready,
  );
}

/** The WCAG 2.2 AA scan: no violation of any A or AA rule. */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact ?? ''}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
  );
}
