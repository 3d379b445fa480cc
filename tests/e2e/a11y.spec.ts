import { expect, test } from '@playwright/test';
import { BARE_PAGES, FLOW_PAGES, INFO_PAGES, MENU_PAGES, type RouteDef } from '../../machines/routes';
import { axeViolations, LANGS, pageReady, seedSession } from './support';

/** One route of each step kind and every form's first step: the flow pages share one component. */
function flowSample(): RouteDef[] {
  const kinds = new Set<string>();
  return FLOW_PAGES.filter((r) => {
    const first = r.flow?.step === 1;
    const newKind = !kinds.has(r.flow?.kind ?? '');
    kinds.add(r.flow?.kind ?? '');
    return first || newKind;
  });
}

test.describe('axe finds no WCAG 2.2 AA violation', () => {
  for (const route of [...MENU_PAGES, ...INFO_PAGES]) {
    // Every language in the normal theme; the dark theme in English (its colours do not change with the
    // language, and tests/unit/contrast.test.ts computes every colour pair of every theme and mode).
    test(`on ${route.path} in en, sc and tc, and dark in en`, async ({ context }) => {
      for (const dark of [false, true]) {
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

  test('on a sample of flow steps and the layout-free pages in en, sc and tc', async ({ page }) => {
    test.setTimeout(300_000);
    for (const lang of LANGS) {
      const p = await page.context().newPage();
      await seedSession(p, { language: lang });
      for (const route of [...flowSample(), ...BARE_PAGES]) {
        await p.goto(route.path);
        await pageReady(p);
        expect(await axeViolations(p), `${route.path} ${lang}`).toEqual([]);
      }
      await p.close();
    }
  });
});
