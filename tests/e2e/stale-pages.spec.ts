import { expect, test, type Page } from '@playwright/test';
import caseEn from '../../i18n/en/case.json' with { type: 'json' };
import caseTc from '../../i18n/tc/case.json' with { type: 'json' };
import flowsEn from '../../i18n/en/flows.json' with { type: 'json' };
import flowsTc from '../../i18n/tc/flows.json' with { type: 'json' };
import { FOLLOW_UP_APPLICANTS } from './fixtures-followups';
import { logInToCase } from './case-login';
import { axeViolations, pageReady, seedSession } from './support';

/**
 * Pages of the case's follow-ups that said something stale or contradictory
 * (docs/flows/case-action.md): a last step opened on its own, an update form of another kind of
 * application, the revised layout plan's own name. Nothing here changes a case.
 */
const CASE = { en: caseEn, tc: caseTc };
const FLOWS = { en: flowsEn, tc: flowsTc };

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

test.describe('stale or contradictory follow-up pages', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  for (const [lang, done, first, key] of [
    ['en', '/form-usi-step2', '/form-usi-step1', 'updateInformation'],
    ['tc', '/form-submit-doc-step2', '/form-submit-doc-step1', 'submitDocument'],
    ['tc', '/form-usi-step2', '/form-usi-step1', 'updateInformation'],
    ['en', '/form-submit-doc-step2', '/form-submit-doc-step1', 'submitDocument'],
  ] as const) {
    test(`${lang}: ${done} opened directly shows the form's first step, never a success`, async ({ page }) => {
      await seedSession(page, { language: lang });
      await page.goto(done);
      await pageReady(page);
      await expect(page).toHaveURL(new RegExp(`${first}$`));
      // No flow in this tab: the form starts, with the login to the case first.
      await expect(page.getByRole('heading', { level: 1, name: CASE[lang].screens.login })).toBeVisible();
      await expect(page.locator('.flow-step__form')).toHaveText(FLOWS[lang].forms[key].title);
      await expect(page.getByRole('heading', { name: CASE[lang].update.successTitle })).toHaveCount(0);
      await expect(page.getByRole('heading', { name: CASE[lang].upload.successTitle })).toHaveCount(0);
      await expect(page).not.toHaveTitle(new RegExp(CASE[lang].update.successTitle));
      await expectNoAxeViolations(page);
    });
  }

  for (const [lang, n] of [
    ['en', FOLLOW_UP_APPLICANTS.wrongKindEn.n],
    ['tc', FOLLOW_UP_APPLICANTS.wrongKindTc.n],
  ] as const) {
    test(`${lang}: the centre's update form on a school's case says it is the wrong kind, with the right form`, async ({
      page,
    }) => {
      await seedSession(page, { language: lang });
      await page.goto('/form-usi-cccaic2-step1');
      await logInToCase(page, lang, n);
      const t = CASE[lang];
      await expect(page.getByRole('heading', { level: 1, name: t.screens.notAllowed })).toBeVisible();
      const notice = page.getByRole('status').filter({ hasText: FLOWS[lang].forms.updateInformationCccaic2.title });
      // The reason is the kind of application, not its status.
      const type = FLOWS[lang].applicationTypes.NEWSCH;
      await expect(notice).toContainText(type);
      await expect(notice).not.toContainText(lang === 'en' ? 'cannot be updated with this form now' : '現時不能');
      await expect(notice).toContainText(FLOWS[lang].forms.updateInformation.title);
      await expectNoAxeViolations(page);
      // The way on is the school's form, by keyboard.
      const link = page.getByRole('link', { name: t.update.elsewhere });
      await link.focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/form-usi-step1$/);
      await expect(
        page.getByRole('heading', { level: 1, name: FLOWS[lang].forms.updateInformation.title }),
      ).toBeVisible();
    });
  }

  for (const lang of ['en', 'tc'] as const) {
    test(`${lang}: the revised layout plan page is named as such`, async ({ page }) => {
      await seedSession(page, { language: lang });
      await page.goto('/form-submit-doc-step1?type=layout-plan');
      await pageReady(page);
      const name = FLOWS[lang].forms.submitDocument.layoutPlanTitle;
      await expect(page.locator('.flow-step__form')).toHaveText(name);
      await expect(page).toHaveTitle(new RegExp(name));
      await expect(page.locator('main')).not.toContainText(FLOWS[lang].forms.submitDocument.title);
      await expectNoAxeViolations(page);
      // Without the menu's choice, the form keeps its own name.
      await page.goto('/form-submit-doc-step1');
      await pageReady(page);
      await expect(page.locator('.flow-step__form')).toHaveText(FLOWS[lang].forms.submitDocument.title);
    });
  }
});
