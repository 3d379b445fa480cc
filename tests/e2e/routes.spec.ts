import { expect, test } from '@playwright/test';
import { ROUTES } from '../../machines/routes';
import { formByKey } from '../../machines/forms';
import { BD, cspViolations, HTML_LANGS, LANGS, pageReady, recordCspViolations, seedSession } from './support';
import type { Layout } from '../../machines/route-types';
import { FOLLOW_UP_ENTRY_LIST } from '../../machines/forms/follow-up/entries';

/** A follow-up's own last screen (Update Success) opened on its own lands on the form's first step. */
const FOLLOW_UP_FIRST_STEP = new Map(
  FOLLOW_UP_ENTRY_LIST.flatMap((d) => (d.doneRoute ? [[d.doneRoute, d.route] as const] : [])),
);

const LAYOUTS: Layout[] = ['menu', 'noMenu', 'none'];

test.describe('every route of the route table', () => {
  for (const lang of LANGS) {
    for (const layout of LAYOUTS) {
      test(`renders each ${layout}-layout route with its layout in ${lang}`, async ({ page }) => {
        // English visits every later step of every form too: three times the time of one test.
        test.slow(lang === 'en', 'every route, later wizard steps included');
        await page.setViewportSize({ width: 1280, height: 900 });
        await seedSession(page, { language: lang });
        await recordCspViolations(page);
        // Every route in English; in Chinese every route but the later steps of the forms, which share the
        // first step's page and land on it (the English run checks each of them lands there).
        const routes = ROUTES.filter(
          (r) => r.layout === layout && (lang === 'en' || !r.flow || r.flow.step <= 1),
        );
        for (const route of routes) {
          await page.goto(route.path);
          await pageReady(page);
          expect(await cspViolations(page), route.path).toEqual([]);
          // A wizard step the machine cannot reach yet (nothing answered) lands on the form's first step,
          // and so does a self-certification's `-upload` page (step 0: it asks for the upload step).
          const form = route.flow ? formByKey(route.flow.form) : undefined;
          // A follow-up's success page without a finished follow-up lands on that form's first step.
          const expected =
            form && route.flow && route.flow.step !== 1
              ? `/form-${form.slug}-step1`
              : (FOLLOW_UP_FIRST_STEP.get(route.path) ?? route.path);
          await expect(page, route.path).toHaveURL(
            (url) => url.pathname === new URL(expected, 'http://x').pathname,
          );
          await expect(page.locator('html'), route.path).toHaveAttribute('lang', HTML_LANGS[lang]);
          await expect(page, route.path).toHaveTitle(new RegExp(BD[lang]));
          const mainMenu = page.getByRole('navigation', {
            name: lang === 'en' ? 'Main menu' : /主選單|主菜单/,
          });
          if (layout === 'none') {
            await expect(page.getByRole('banner'), route.path).toHaveCount(0);
            await expect(page.getByRole('contentinfo'), route.path).toHaveCount(0);
          } else {
            await expect(page.getByRole('banner'), route.path).toBeVisible();
            await expect(page.getByRole('contentinfo'), route.path).toBeVisible();
            // The desktop main menu shows on menu-layout pages only; the accordion toggle replaces it elsewhere.
            if (layout === 'menu') await expect(mainMenu.first(), route.path).toBeVisible();
            else await expect(mainMenu.filter({ visible: true }), route.path).toHaveCount(0);
          }
        }
      });
    }
  }

  test('an unknown path redirects to the home page', async ({ page }) => {
    await seedSession(page, { language: 'en' });
    await page.goto('/no-such-page/at-all');
    await pageReady(page);
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('the child care variant of the alteration page shows its own content', async ({ page }) => {
    await seedSession(page, { language: 'en' });
    await page.goto('/alteration-of-registered-school');
    await pageReady(page);
    const school = await page.getByRole('heading', { level: 1 }).innerText();
    await page.goto('/alteration-of-registered-school?title=child-care-centre');
    await pageReady(page);
    const childCare = await page.getByRole('heading', { level: 1 }).innerText();
    expect(childCare).not.toBe(school);
    await expect(page.getByRole('link', { name: 'Start F2 online' })).toHaveAttribute(
      'href',
      '/form-f2-step1',
    );
  });

  test('a self-certification step typed before the form is filled opens the first step (issue 16)', async ({
    page,
  }) => {
    await seedSession(page, { language: 'tc' });
    await page.goto('/form-scc-2-step5');
    await expect(page).toHaveURL(/\/form-scc-2-step1$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('甲部');
  });
});
