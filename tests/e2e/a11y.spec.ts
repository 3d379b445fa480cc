import { expect, test } from '@playwright/test';
import { BARE_PAGES, FLOW_PAGES, INFO_PAGES, MENU_PAGES } from '../../machines/routes';
import { axeViolations, LANGS, pageReady, seedSession } from './support';
import type { RouteDef } from '../../machines/route-types';

/**
 * The flow pages share one component: one route of each step kind, and (with `everyForm`) every form's
 * first step too.
 */
function flowSample(everyForm: boolean): RouteDef[] {
  const kinds = new Set<string>();
  return FLOW_PAGES.filter((r) => {
    const first = everyForm && r.flow?.step === 1;
    const newKind = !kinds.has(r.flow?.kind ?? '');
    kinds.add(r.flow?.kind ?? '');
    return first || newKind;
  });
}

/** The dark theme is scanned on the menu pages in English: its colours do not change with the page or
 * the language, and tests/unit/contrast.test.ts computes every colour pair of every theme and mode. */
const DARK_SCANNED = new Set(MENU_PAGES.map((r) => r.path));

test.describe('axe finds no WCAG 2.2 AA violation', () => {
  for (const route of [...MENU_PAGES, ...INFO_PAGES]) {
    const themes = DARK_SCANNED.has(route.path) ? [false, true] : [false];
    test(`on ${route.path} in en, sc and tc${themes.length > 1 ? ', and dark in en' : ''}`, async ({
      context,
    }) => {
      for (const dark of themes) {
        for (const lang of dark ? (['en'] as const) : LANGS) {
          const fresh = await context.newPage();
          await seedSession(fresh, { language: lang, dark });
          await fresh.goto(route.path);
          await pageReady(fresh);
          await expect(fresh.locator('html')).toHaveAttribute('data-theme', dark ? 'dark' : 'light');
          expect(await axeViolations(fresh), `${route.path} ${lang} ${dark ? 'dark' : 'normal'}`).toEqual([]);
          await fresh.close();
        }
      }
    });
  }

  // One test a language, so that the runners share the work.
  for (const lang of LANGS) {
    test(`on a sample of flow steps and the layout-free pages in ${lang}`, async ({ page }) => {
      test.setTimeout(300_000);
      await seedSession(page, { language: lang });
      // Every form's first step in English; one step of each kind in Chinese (the same page, translated).
      for (const route of [...flowSample(lang === 'en'), ...BARE_PAGES]) {
        await page.goto(route.path);
        await pageReady(page);
        expect(await axeViolations(page), `${route.path} ${lang}`).toEqual([]);
      }
    });
  }
});
