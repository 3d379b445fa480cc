import { expect, test, type Locator, type Page } from '@playwright/test';
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import authSc from '../../i18n/sc/auth.json' with { type: 'json' };
import authTc from '../../i18n/tc/auth.json' with { type: 'json' };
import caseEn from '../../i18n/en/case.json' with { type: 'json' };
import caseSc from '../../i18n/sc/case.json' with { type: 'json' };
import caseTc from '../../i18n/tc/case.json' with { type: 'json' };
import formsEn from '../../i18n/en/forms.json' with { type: 'json' };
import formsSc from '../../i18n/sc/forms.json' with { type: 'json' };
import formsTc from '../../i18n/tc/forms.json' with { type: 'json' };
import { formatCalendarDate, formatHkDate } from '../../machines/rules/dates';
import type { Language } from '../../machines/rules/language';
import { inspectionWorkingDays } from './calendar';
import { CASE_APPLICANTS, testApplicant } from './fixtures';
import { logInToCase } from './case-login';
import { axeViolations, pageReady, seedSession } from './support';

const AUTH = { en: authEn, sc: authSc, tc: authTc };
const CASE = { en: caseEn, sc: caseSc, tc: caseTc };
const FORMS = { en: formsEn, sc: formsSc, tc: formsTc };

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** The Find my case login inside a follow-up page, as a person would use it (axe on its screen). */
async function logInHere(page: Page, lang: Language, n: number) {
  await logInToCase(page, lang, n, { beforeFilling: () => expectNoAxeViolations(page) });
}

/** Types into a field as a person does, key by key, over what it held. */
async function typeOver(field: Locator, value: string) {
  await field.clear();
  await field.pressSequentially(value);
}

async function expectCasePage(page: Page, lang: Language, status: string, documentType: string) {
  await page.getByRole('link', { name: CASE[lang].toCase }).click();
  await expect(page).toHaveURL(/\/case-history$/);
  await pageReady(page);
  const statusText = (AUTH[lang].history.statuses as Record<string, string>)[status]!;
  await expect(
    page.getByRole('heading', { name: CASE[lang].page.statusTitle.replace('{{status}}', statusText) }),
  ).toBeVisible();
  const docText = (AUTH[lang].history.documentTypes as Record<string, string>)[documentType]!;
  const newest = page.getByRole('table').getByRole('row').nth(1);
  await expect(newest).toContainText(docText);
  // The spec's history row: submission date, document type, status, submitted or issued by, date.
  const history = AUTH[lang].history.columns;
  await expect(page.getByRole('table').getByRole('columnheader')).toHaveText([
    history.submissionDate,
    history.documentType,
    history.status,
    history.submittedBy,
    history.date,
    CASE[lang].page.documents,
  ]);
  // The row of what was just sent is dated today in Hong Kong, as a person reads the date.
  await expect(newest.getByRole('cell').nth(4)).toHaveText(formatHkDate(new Date(), lang));
  await expectNoAxeViolations(page);
}

test.describe('Withdraw application', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('from the home page menu, logged out: log in, refuse without the tick, withdraw, see the case', async ({
    page,
  }) => {
    await seedSession(page, { language: 'en' });
    const { n } = CASE_APPLICANTS.withdrawEn;
    const no = testApplicant(n).applicationNo;
    await page.goto('/');
    await pageReady(page);
    await page.getByRole('button', { name: 'My application' }).click();
    await page.getByRole('menuitem', { name: 'Withdraw Application' }).click();
    await expect(page).toHaveURL(/\/withdraw-application$/);
    await logInHere(page, 'en', n);

    await expect(page.getByRole('heading', { level: 1, name: 'Withdraw Application' })).toBeVisible();
    await expect(page.getByText(no).first()).toBeVisible();
    await expectNoAxeViolations(page);
    await typeOver(page.getByLabel('Reason for withdrawing (optional)'), 'The school will open elsewhere.');
    await page.getByRole('button', { name: 'Withdraw application', exact: true }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'Tick the box' });
    await expect(summary).toBeVisible();
    await expectNoAxeViolations(page);
    // The tick box's visible label is what a person clicks.
    await page
      .getByText(`I confirm that I want to withdraw application ${no}; this cannot be undone`)
      .click();
    await page.getByRole('button', { name: 'Withdraw application', exact: true }).click();

    await expect(page.getByRole('heading', { level: 1, name: 'Request received' })).toBeVisible();
    await expect(page.getByText(`WD-${no}-1`)).toBeVisible();
    await expectNoAxeViolations(page);
    await expectCasePage(page, 'en', 'WITHDRAWN', 'WITHDRAWAL');
    await expect(page.getByText(CASE.en.page.noActions)).toBeVisible();

    // Every other action is closed now: the inspection page explains instead of offering a form.
    await page.goto('/request-for-inspection');
    await expect(page.getByRole('heading', { level: 1, name: CASE.en.screens.notAllowed })).toBeVisible();
    await expect(page.getByText(/because it is “Withdrawn”/)).toBeVisible();
  });

  test('in Simplified Chinese', async ({ page }) => {
    await seedSession(page, { language: 'sc' });
    const { n } = CASE_APPLICANTS.withdrawSc;
    const no = testApplicant(n).applicationNo;
    await page.goto('/withdraw-application');
    await logInHere(page, 'sc', n);
    await page.getByText(FORMS.sc.followUp.withdraw.confirm.replace('{{applicationNo}}', no)).click();
    await page.getByRole('button', { name: CASE.sc.submit.withdrawApplication, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: CASE.sc.screens.done })).toBeVisible();
    await expectNoAxeViolations(page);
    await expectCasePage(page, 'sc', 'WITHDRAWN', 'WITHDRAWAL');
  });

  test('in Traditional Chinese, by keyboard alone', async ({ page }) => {
    await seedSession(page, { language: 'tc' });
    const { n } = CASE_APPLICANTS.withdrawTc;
    const a = testApplicant(n);
    await page.goto('/withdraw-application');
    await logInToCase(page, 'tc', n, { keyboard: true });

    const reason = page.getByLabel(FORMS.tc.followUp.withdraw.reason);
    await expect(reason).toBeVisible();
    await reason.focus();
    await page.keyboard.type('不再需要');
    await page.keyboard.press('Tab');
    await expect(
      page.getByLabel(FORMS.tc.followUp.withdraw.confirm.replace('{{applicationNo}}', a.applicationNo)),
    ).toBeFocused();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await expect(
      page.getByRole('button', { name: CASE.tc.submit.withdrawApplication, exact: true }),
    ).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: CASE.tc.screens.done })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    await expectNoAxeViolations(page);
    await expectCasePage(page, 'tc', 'WITHDRAWN', 'WITHDRAWAL');
  });
});

test.describe('Request for compliance inspection', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  /**
   * The dates as a person types them into empty fields, segment by segment (day, month, year in whatever
   * order the language shows them), then the access notes.
   */
  const fillRequest = async (page: Page, lang: Language, dates: string[]) => {
    for (const [i, date] of dates.entries()) {
      const [year = '', month = '', day = ''] = date.split('-');
      for (const [type, part] of [
        ['day', day],
        ['month', month],
        ['year', year],
      ] as const) {
        await page.locator(`#field-preferredDate${i + 1} [data-type="${type}"]`).click();
        await page.keyboard.type(part);
      }
    }
    await typeOver(
      page.getByLabel(FORMS[lang].followUp.inspection.accessNotes),
      'Side entrance, ground floor.',
    );
  };

  for (const [lang, key] of [
    ['en', 'inspectEn'],
    ['sc', 'inspectSc'],
    ['tc', 'inspectTc'],
  ] as const) {
    test(`logged out to received, with the preview and the case page, in ${lang}`, async ({ page }) => {
      await seedSession(page, { language: lang });
      const { n } = CASE_APPLICANTS[key];
      const no = testApplicant(n).applicationNo;
      await page.goto('/request-for-inspection');
      await logInHere(page, lang, n);
      const l = FORMS[lang].followUp.inspection;
      // Prefilled from the case: the applicant as the requesting person.
      await expect(page.getByLabel(l.requesterName)).toHaveValue(`Test Applicant ${n}`);
      await typeOver(page.getByLabel(l.contactName), 'LEE Siu Ming');
      await typeOver(page.getByLabel(l.contactTelephone), '2123 4567');
      const [d1, d2, d3] = inspectionWorkingDays(3);
      // A Saturday is refused, with the field's message in the page's language.
      const saturday = (() => {
        const d = new Date(`${d1}T00:00:00Z`);
        while (d.getUTCDay() !== 6) d.setUTCDate(d.getUTCDate() + 1);
        return d.toISOString().slice(0, 10);
      })();
      await fillRequest(page, lang, [saturday, d2!]);
      await page.getByRole('button', { name: CASE[lang].continue }).click();
      await expect(
        page
          .getByRole('alert')
          .getByText(l.errors.notWorkingDay.replace('{{date}}', formatCalendarDate(saturday, lang))),
      ).toBeVisible();
      await expectNoAxeViolations(page);
      // A reload keeps the session, the prefill and what was typed (docs/decisions/027-draft-kept-on-reload.md);
      // then working days are given.
      await page.reload();
      await expect(page.getByLabel(l.requesterName)).toHaveValue(`Test Applicant ${n}`);
      await expect(page.getByLabel(l.contactName)).toHaveValue('LEE Siu Ming');
      await typeOver(page.getByLabel(l.contactName), 'LEE Siu Ming');
      await typeOver(page.getByLabel(l.contactTelephone), '2123 4567');
      await fillRequest(page, lang, [d1!, d2!, d3!]);
      await page.getByRole('button', { name: CASE[lang].continue }).click();

      await expect(page.getByRole('heading', { level: 1, name: CASE[lang].screens.preview })).toBeVisible();
      await expect(page.getByText('LEE Siu Ming')).toBeVisible();
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: CASE[lang].submit.requestForInspection }).click();

      await expect(page.getByRole('heading', { level: 1, name: CASE[lang].screens.done })).toBeVisible();
      await expect(page.getByText(`INS-${no}-1`)).toBeVisible();
      await expectNoAxeViolations(page);
      await expectCasePage(page, lang, 'INSPECTION_REQUESTED', 'INSPECTION_REQUEST');
    });
  }

  test('explains why an application that is not ready cannot ask for an inspection', async ({ page }) => {
    await seedSession(page, { language: 'en' });
    const { n } = CASE_APPLICANTS.notYetInspectable;
    await page.goto('/request-for-inspection');
    await logInHere(page, 'en', n);
    await expect(page.getByRole('heading', { level: 1, name: CASE.en.screens.notAllowed })).toBeVisible();
    await expect(page.getByText(/once a Letter of Requirements has been issued/)).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: CASE.en.toCase }).click();
    await pageReady(page);
    await expect(page.getByRole('link', { name: 'Withdraw Application' })).toBeVisible();
  });
});
