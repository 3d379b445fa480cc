import { expect, test, type Page } from '@playwright/test';
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import apiEn from '../../i18n/en/api.json' with { type: 'json' };
import apiTc from '../../i18n/tc/api.json' with { type: 'json' };
import en from '../../i18n/en/console.json' with { type: 'json' };
import tc from '../../i18n/tc/console.json' with { type: 'json' };
import { formatCalendarDate, formatInstant } from '../../machines/rules/dates';
import { createCalendarService } from '../../api/modules/shared/calendar';
import { addDays, addWorkingDays, isWorkingDay } from '../../machines/rules/working-days';
import { CONSOLE_STAFF, CORRECTION_CASES } from './fixtures-console';
import { testApplicant } from './fixtures';
import { totp } from './console-totp';
import { approvedBy } from './four-eyes';
import { axeViolations, seedSession } from './support';

/**
 * The case officer's decisions and their corrections in the browser (docs/flows/case-lifecycle.md, the
 * case's rules; docs/console.md, "Actions"): a request for further information refused for its reply-by
 * date, made, extended and withdrawn; a rejection and its reopening; a Letter of Requirements, its
 * correction and its withdrawal. Each refusal is read at the field, in the summary that takes focus.
 */

async function noAxe(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

const statusName = (s: keyof typeof authEn.history.statuses) => authEn.history.statuses[s];
const docName = (d: keyof typeof authEn.history.documentTypes) => authEn.history.documentTypes[d];

/** Signs in as `who` (typed key by key) and opens the case of applicant `n`. */
async function signInAndOpen(page: Page, who: keyof typeof CONSOLE_STAFF, n: number) {
  await seedSession(page, { language: 'en' });
  await page.goto('/console/sign-in');
  await expect(page.getByRole('heading', { level: 1, name: en.signIn.title })).toBeVisible();
  await page.getByLabel(en.signIn.username).pressSequentially(CONSOLE_STAFF[who].username);
  await page.getByLabel(en.signIn.password).pressSequentially(CONSOLE_STAFF[who].password);
  await page.getByLabel(en.signIn.code).pressSequentially(totp());
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: en.queue.title })).toBeVisible();
  const no = testApplicant(n).applicationNo;
  await page.goto(`/console/cases/${no}`);
  await expect(page.getByRole('heading', { level: 1, name: no })).toBeVisible();
}

const actionButton = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const continueButton = (page: Page, m = en) => page.getByRole('button', { name: m.case.continue });
const confirmButton = (page: Page, m = en) => page.getByRole('button', { name: m.case.confirmButton });
/** The "Recorded: …" status line after an action, naming the case's status now. */
const recorded = (page: Page, status: string) => page.getByRole('status').filter({ hasText: `“${status}”` });
const summary = (page: Page) => page.locator('.error-summary');
const fieldError = (page: Page, text: string) => page.locator('.field__error').filter({ hasText: text });
const historyRows = (page: Page) => page.getByRole('table', { name: en.case.history }).getByRole('row');

/** Continue then confirm, as a person does, and expect a refusal read in the summary (focused) and at the field. */
async function refusedWith(page: Page, message: string, m = en) {
  await continueButton(page, m).click();
  await confirmButton(page, m).click();
  await expect(summary(page)).toContainText(message);
  await expect(summary(page)).toBeFocused();
  await expect(fieldError(page, message)).toBeVisible();
}

/** Clears a text field and types `value` key by key. */
async function retype(page: Page, label: string, value: string) {
  const field = page.getByLabel(label, { exact: true });
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.press('Backspace');
  await field.pressSequentially(value);
}

const calendar = () => {
  const { today, holidays } = createCalendarService({ now: () => new Date() }).window();
  return { today, holidays: new Set(holidays) };
};

test.describe('Decisions and corrections in the console', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('a request for further information: a past and a too-soon reply-by date refused (in English and Chinese), then made, extended and withdrawn', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signInAndOpen(page, 'corrRequest', CORRECTION_CASES.request.n);
    // A case officer acts on a case assigned to them: they take it first.
    await actionButton(page, en.events.caseAssign).click();
    await continueButton(page).click();
    await confirmButton(page).click();
    await expect(recorded(page, statusName('UNDER_EXAMINATION'))).toBeVisible();

    const { today, holidays } = calendar();
    let past = addDays(today, -1);
    while (!isWorkingDay(past, holidays)) past = addDays(past, -1);
    const earliest = addWorkingDays(today, 5, holidays);
    const soon = addWorkingDays(today, 2, holidays);
    const replyBy = addWorkingDays(today, 6, holidays);
    const later = addWorkingDays(today, 10, holidays);
    const tooSoon = (m: typeof apiEn, lang: 'en' | 'tc') =>
      m.case.rules.replyByTooSoon
        .replace('{{days}}', '5')
        .replace('{{earliest}}', formatCalendarDate(earliest, lang));

    await actionButton(page, en.events.informationRequest).click();
    await page.getByRole('checkbox', { name: 'Other', exact: true }).press('Space');
    await page.getByLabel(en.fields.otherDocument).pressSequentially('Fire Service Installation certificate');
    // A date in the past: refused at the reply-by field, what was typed kept.
    await page.getByLabel(en.fields.replyBy).pressSequentially(past);
    await refusedWith(page, tooSoon(apiEn, 'en'));
    await expect(page.getByLabel(en.fields.replyBy)).toHaveValue(past);
    await expect(page.getByLabel(en.fields.replyBy)).toHaveAttribute('aria-invalid', 'true');
    await noAxe(page);
    // Fewer than the 5 working days: refused too, in English, then in Traditional Chinese.
    await retype(page, en.fields.replyBy, soon);
    await refusedWith(page, tooSoon(apiEn, 'en'));
    await page.getByRole('button', { name: '繁體中文' }).click();
    await expect(page.getByRole('heading', { name: tc.events.informationRequest })).toBeVisible();
    await expect(page.getByLabel(tc.fields.replyBy)).toHaveValue(soon);
    await refusedWith(page, tooSoon(apiTc, 'tc'), tc);
    await noAxe(page);
    await page.getByRole('button', { name: 'English' }).click();
    await expect(page.getByRole('heading', { name: en.events.informationRequest })).toBeVisible();

    // A working day far enough ahead, with Other described in plain words: accepted.
    await retype(page, en.fields.replyBy, replyBy);
    await continueButton(page).click();
    await confirmButton(page).click();
    await expect(recorded(page, statusName('UNDER_EXAMINATION'))).toBeVisible();
    const requests = page
      .getByRole('heading', { name: en.case.requests })
      .locator('xpath=following-sibling::ul[1]');
    const request = requests.getByRole('listitem');
    await expect(request).toHaveCount(1);
    await expect(request).toContainText('Fire Service Installation certificate');
    await expect(request).toContainText(
      en.case.replyBy.replace('{{date}}', formatCalendarDate(replyBy, 'en')),
    );
    await expect(request).toContainText(en.case.open);
    await noAxe(page);

    // The reply-by date extended: the request shows the new date, the audit trail the extension.
    await actionButton(page, en.events.informationExtend).click();
    await retype(page, en.fields.replyBy, later);
    await page.getByLabel(en.fields.reason).pressSequentially('The applicant asked for more time.');
    await continueButton(page).click();
    await confirmButton(page).click();
    await expect(request).toContainText(en.case.replyBy.replace('{{date}}', formatCalendarDate(later, 'en')));
    const audit = page.getByRole('table', { name: en.case.audit });
    await expect(audit.getByRole('row').filter({ hasText: en.audit.events.informationExtend })).toBeVisible();

    // Then withdrawn: no longer open, and on the audit trail.
    await actionButton(page, en.events.informationWithdraw).click();
    await page.getByLabel(en.fields.reason).pressSequentially('The applicant sent the certificate by post.');
    await continueButton(page).click();
    await confirmButton(page).click();
    await expect(request).toContainText(
      en.case.withdrawnRequest.replace('{{date}}', formatInstant(new Date().toISOString(), 'en')),
    );
    await expect(request).not.toContainText(en.case.open);
    await expect(
      audit.getByRole('row').filter({ hasText: en.audit.events.informationWithdraw }),
    ).toBeVisible();
    // Nothing left to extend or withdraw.
    await expect(actionButton(page, en.events.informationWithdraw)).toHaveCount(0);
    await noAxe(page);
  });

  test('a rejection warns it cannot be undone and needs a reason; the letter and the reason are on record; a senior officer reopens', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const a = testApplicant(CORRECTION_CASES.reject.n);
    await signInAndOpen(page, 'corrReject', CORRECTION_CASES.reject.n);
    // Proposed, and made when another senior officer approves (docs/decisions/040-four-eyes-decisions.md).
    await actionButton(page, en.proposals.propose.replace('{{action}}', en.events.caseReject)).click();
    // Without a reason: refused at the reason field, the summary focused.
    await continueButton(page).click();
    await expect(page.getByText(en.case.confirmWarning.caseReject)).toBeVisible();
    await confirmButton(page).click();
    await expect(summary(page)).toBeFocused();
    await expect(fieldError(page, apiEn.staff.required)).toBeVisible();
    const reasonField = page.getByLabel(en.fields.reason);
    await expect(reasonField).toHaveAttribute('aria-invalid', 'true');
    await noAxe(page);

    const reason = 'The premises are not the ones named in the application.';
    await reasonField.pressSequentially(reason);
    await continueButton(page).click();
    // The confirmation warns that the applicant is told at once and only a senior officer can reopen.
    await expect(page.getByRole('note')).toHaveText(en.case.confirmWarning.caseReject);
    await noAxe(page);
    await confirmButton(page).click();
    await expect(page.getByRole('status').filter({ hasText: /PRR-/ })).toBeVisible();
    await approvedBy(browser, 'foureyesApprover1', a.applicationNo);
    await page.reload();
    await expect(page.locator('dl').first()).toContainText(statusName('REJECTED'));

    // The history has the rejection notice; the documents the rejection letter.
    await expect(historyRows(page).filter({ hasText: docName('REJECTION_NOTICE') })).toBeVisible();
    await expect(page.getByRole('link', { name: /^View Rejection letter REJ-/ })).toBeVisible();
    // The applicant is told the reason (their notice, in English).
    await expect
      .poll(async () => {
        const answer = await page.request.get('/api/dev/outbox');
        const messages = ((await answer.json()) as { data: { to: string; body: string }[] }).data;
        return messages.some(
          (m) =>
            m.to === a.email &&
            m.body.includes(`Application ${a.applicationNo} has been rejected: ${reason}`),
        );
      })
      .toBe(true);
    await noAxe(page);

    // A senior officer reopens it with a reason: Under examination again, with a letter.
    await actionButton(page, en.events.caseReopen).click();
    await page
      .getByLabel(en.fields.reason)
      .pressSequentially('The applicant showed the premises are the ones named.');
    await continueButton(page).click();
    await confirmButton(page).click();
    await expect(recorded(page, statusName('UNDER_EXAMINATION'))).toBeVisible();
    await expect(historyRows(page).filter({ hasText: docName('CASE_REOPENED') })).toBeVisible();
    await expect(historyRows(page).filter({ hasText: docName('REJECTION_NOTICE') })).toBeVisible();
    await expect(page.getByRole('link', { name: /^View Reopening of application / })).toBeVisible();
    await expect(page.locator('dl').first()).toContainText(statusName('UNDER_EXAMINATION'));
    await noAxe(page);
  });

  test('a Letter of Requirements corrected by a revision, the earlier kept, then withdrawn', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await signInAndOpen(page, 'corrLetter', CORRECTION_CASES.letter.n);
    const letterRows = historyRows(page).filter({
      has: page.getByRole('cell', { name: docName('LETTER_OF_REQUIREMENTS'), exact: true }),
    });
    await actionButton(page, en.events.lorIssue).click();
    await page.getByLabel(en.fields.bdReference).pressSequentially('BD 2/9133/26');
    await page.getByLabel(en.fields.category1).pressSequentially('Provide a second means of escape.');
    await continueButton(page).click();
    await confirmButton(page).click();
    await expect(recorded(page, statusName('LOR_ISSUED'))).toBeVisible();
    await expect(letterRows).toHaveCount(1);

    // A correction: a new letter while one stands is its revision; the earlier stays in the history.
    await actionButton(page, en.events.lorIssue).click();
    await page.getByLabel(en.fields.bdReference).pressSequentially('BD 2/9133/26');
    await page
      .getByLabel(en.fields.category1)
      .pressSequentially('Provide a second means of escape of 1050 mm.');
    await noAxe(page);
    await continueButton(page).click();
    await confirmButton(page).click();
    // The history lists the correction first, the earlier letter kept below it, each with its own PDF.
    // (The console marks no "Revision" on a letter: the references' last number tells them apart.)
    await expect(letterRows).toHaveCount(2);
    const first = (await letterRows.nth(1).getByRole('cell').last().textContent())!.trim();
    const second = (await letterRows.nth(0).getByRole('cell').last().textContent())!.trim();
    expect(first).toMatch(/^LOR-.*-1$/);
    expect(second).toBe(first.replace(/-1$/, '-2'));
    await expect(page.getByRole('link', { name: `View Letter of Requirements ${first}.pdf` })).toBeVisible();
    await expect(page.getByRole('link', { name: `View Letter of Requirements ${second}.pdf` })).toBeVisible();
    await noAxe(page);

    // Withdrawn: the confirmation warns, then the case is back under examination with a letter saying so.
    await actionButton(page, en.events.lorWithdraw).click();
    await page.getByLabel(en.fields.reason).pressSequentially('The letter named the wrong premises.');
    await continueButton(page).click();
    await expect(page.getByRole('note')).toHaveText(en.case.confirmWarning.lorWithdraw);
    await confirmButton(page).click();
    await expect(recorded(page, statusName('UNDER_EXAMINATION'))).toBeVisible();
    await expect(historyRows(page).filter({ hasText: docName('LOR_WITHDRAWAL') })).toBeVisible();
    await expect(letterRows).toHaveCount(2);
    await expect(
      page.getByRole('link', { name: /^View Withdrawal of Letter of Requirements / }),
    ).toBeVisible();
    await noAxe(page);
  });
});
