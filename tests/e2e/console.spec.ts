import { formatCalendarDate } from '../../machines/rules/dates';
import { expect, test, type Page } from '@playwright/test';
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import caseEn from '../../i18n/en/case.json' with { type: 'json' };
import en from '../../i18n/en/console.json' with { type: 'json' };
import sc from '../../i18n/sc/console.json' with { type: 'json' };
import tc from '../../i18n/tc/console.json' with { type: 'json' };
import { SESSION_STORAGE_KEY } from '../../machines/rules/session-state';
import { createCalendarService } from '../../api/modules/shared/calendar';
import { addDays, addWorkingDays } from '../../machines/rules/working-days';
import { CONSOLE_CASES, CONSOLE_STAFF } from './fixtures-console';
import { testApplicant } from './fixtures';
import { codeSentTo } from './outbox';
import { totp } from './console-totp';
import { axeViolations, pageReady, seedSession } from './support';

async function noAxe(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** Signs in from the sign-in page (read and scanned first, as a person sees it) and lands on `landing`. */
async function signIn(page: Page, who: keyof typeof CONSOLE_STAFF, landing: string = en.queue.title) {
  await page.goto('/console/sign-in');
  await expect(page.getByRole('heading', { level: 1, name: en.signIn.title })).toBeVisible();
  await noAxe(page);
  await page.getByLabel(en.signIn.username).fill(CONSOLE_STAFF[who].username);
  await page.getByLabel(en.signIn.password).fill(CONSOLE_STAFF[who].password);
  await page.getByLabel(en.signIn.code).fill(totp());
  await page.getByRole('button', { name: en.signIn.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: landing })).toBeVisible();
}

/** Opens an action of the case, fills it with `fill`, continues, confirms, and waits for the record. */
async function act(page: Page, action: string, status: string, fill: () => Promise<void> = async () => {}) {
  await page.getByRole('button', { name: action, exact: true }).click();
  await fill();
  await page.getByRole('button', { name: en.case.continue }).click();
  await expect(
    page.getByRole('heading', { name: en.case.confirm.replace('{{action}}', action) }),
  ).toBeVisible();
  await page.getByRole('button', { name: en.case.confirmButton }).click();
  await expect(page.getByRole('status').filter({ hasText: `“${status}”` })).toBeVisible();
}

test.describe('The case officer console (issue 17)', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('submitted to a scheduled inspection: the officer moves the case, the applicant sees each step; the result waits for the inspection day', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const a = testApplicant(CONSOLE_CASES.loop.n);
    await seedSession(page, { language: 'en' });
    await signIn(page, 'officer');
    // The queue pages its cases (50 a page, by due date): the officer finds this one by its number.
    await page.getByLabel(en.queue.search).pressSequentially(a.applicationNo.toLowerCase());
    await page.getByRole('button', { name: en.queue.apply }).click();
    await expect(page.getByRole('status').filter({ hasText: /^1 case\./ })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: a.applicationNo });
    await expect(row).toContainText('Submitted');
    await noAxe(page);
    await row.getByRole('link', { name: a.applicationNo }).click();
    await expect(page.getByRole('heading', { level: 1, name: a.applicationNo })).toBeVisible();
    await noAxe(page);
    await act(page, en.events.caseAssign, 'Submitted');
    await act(page, en.events.caseAcknowledge, 'Acknowledged');

    // The notice with the officer's contact details reaches the applicant (email, in English) ...
    await expect
      .poll(async () => {
        const answer = await page.request.get('/api/dev/outbox');
        const messages = ((await answer.json()) as { data: { to: string; body: string }[] }).data;
        return messages.some((m) => m.to === a.email && m.body.includes(CONSOLE_STAFF.officer.nameEn));
      })
      .toBe(true);
    // ... who logs in with Find my case and sees them on the case page.
    const applicantContext = await browser.newContext({ acceptDownloads: true });
    const applicant = await applicantContext.newPage();
    await seedSession(applicant, { language: 'en' });
    await applicant.goto('/find-my-case');
    await pageReady(applicant);
    const f = authEn.findMyCase;
    await applicant.getByLabel(f.applicationNo.label).fill(a.applicationNo);
    await applicant.getByLabel(f.contact.label).fill(a.email);
    await applicant.getByRole('button', { name: f.send }).click();
    await applicant.getByLabel(f.code.label).fill(await codeSentTo(applicant, a.email));
    await applicant.getByRole('button', { name: f.submit, exact: true }).click();
    await expect(applicant).toHaveURL(/\/case-history$/);
    await pageReady(applicant);
    await expect(applicant.getByRole('heading', { name: caseEn.department.officerTitle })).toBeVisible();
    await expect(applicant.getByText(CONSOLE_STAFF.officer.nameEn)).toBeVisible();
    await expect(applicant.getByText('2626 1919')).toBeVisible();
    await noAxe(applicant);

    // Examination and the Letter of Requirements, with a minor works row.
    await act(page, en.events.caseExamine, 'Under examination');
    await act(page, en.events.lorIssue, 'Letter of Requirements issued', async () => {
      await page.getByLabel(en.fields.bdReference).pressSequentially('BD 2/9123/26');
      await page.getByLabel(en.fields.category1).pressSequentially('Provide a second means of escape.');
      await page.getByRole('button', { name: en.fields.addRow }).click();
      await page.getByLabel(en.fields.item).pressSequentially('3.5');
      await page.getByLabel(en.fields.description).pressSequentially('Erection of a canopy');
      await page.getByLabel(en.fields.submissionNo).pressSequentially('MW01234567');
      await noAxe(page);
    });

    // The applicant asks for an inspection (the follow-up of issue 10, here through its API).
    const token = await applicant.evaluate(
      (key) => (JSON.parse(localStorage.getItem(key) ?? '{}') as { token: string }).token,
      SESSION_STORAGE_KEY,
    );
    const { today, holidays } = createCalendarService({ now: () => new Date() }).window();
    const set = new Set(holidays);
    const d1 = addWorkingDays(today, 3, set);
    const d2 = addWorkingDays(d1, 1, set);
    const d3 = addWorkingDays(d2, 1, set);
    const asked = await applicant.request.post('/api/cases/current/actions/requestForInspection', {
      headers: {
        authorization: `Bearer ${token}`,
        'Idempotency-Key': `e2e-console-inspection-${Date.now()}`,
      },
      data: {
        answers: {
          requesterName: `Test Applicant ${CONSOLE_CASES.loop.n}`,
          requesterRole: 'applicant',
          inspectionContactName: 'LEE Siu Ming',
          inspectionContactTelephone: '21234567',
          preferredDate1: d1,
          preferredDate2: d2,
          preferredDate3: d3,
          accessNotes: 'Side entrance.',
        },
      },
    });
    expect(asked.status()).toBe(200);

    await page.reload();
    await expect(page.getByText('Inspection requested').first()).toBeVisible();
    // A Sunday is refused at the date field, the form open with what was typed; then a working day.
    let sunday = addWorkingDays(today, 1, set);
    while (new Date(`${sunday}T00:00:00Z`).getUTCDay() !== 0) sunday = addDays(sunday, 1);
    await page.getByRole('button', { name: en.events.inspectionSchedule, exact: true }).click();
    const date = page.getByLabel(en.fields.date);
    await date.clear();
    await date.pressSequentially(sunday);
    await page.getByRole('button', { name: en.case.continue }).click();
    await page.getByRole('button', { name: en.case.confirmButton }).click();
    const notWorkingDay =
      'The inspection date must be a working day: not a Saturday, a Sunday or a public holiday.';
    await expect(page.locator('.field__error').filter({ hasText: notWorkingDay })).toBeVisible();
    await expect(date).toHaveValue(sunday);
    await noAxe(page);
    await date.clear();
    await date.pressSequentially(d1);
    await page.getByRole('button', { name: en.case.continue }).click();
    await page.getByRole('button', { name: en.case.confirmButton }).click();
    await expect(page.getByRole('status').filter({ hasText: '“Inspection scheduled”' })).toBeVisible();
    // The result cannot be recorded before the inspection's date: the form stays open with the reason
    // (docs/flows/case-lifecycle.md), what was chosen kept.
    await expect(page.getByRole('button', { name: en.events.inspectionRecord, exact: true })).toHaveCount(0);
    await expect(
      page.getByText(en.case.inspection.recordFrom.replace('{{date}}', formatCalendarDate(d1, 'en'))),
    ).toBeVisible();
    await noAxe(page);
    // The applicant's case page shows the inspection's date.
    await applicant.reload();
    await pageReady(applicant);
    await expect(
      applicant.getByRole('heading', { name: caseEn.department.inspectionTitle, exact: true }),
    ).toBeVisible();
    await expect(applicant.getByText(formatCalendarDate(d1, 'en'), { exact: false }).first()).toBeVisible();
    await applicantContext.close();
  });

  test('a certificate only after a passed inspection: not offered after "Did not pass", proposed after a pass', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await seedSession(page, { language: 'en' });
    await signIn(page, 'senior');
    const open = async (n: number) => {
      await page.goto(`/console/cases/${testApplicant(n).applicationNo}`);
      await expect(
        page.getByRole('heading', { level: 1, name: testApplicant(n).applicationNo }),
      ).toBeVisible();
    };
    await open(CONSOLE_CASES.failed.n);
    await expect(page.getByRole('heading', { name: en.case.inspection.title })).toBeVisible();
    await expect(page.getByText(en.fields.FAIL, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: en.events.certificateIssue, exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: en.events.lorIssue, exact: true })).toBeVisible();
    await noAxe(page);
    await open(CONSOLE_CASES.passed.n);
    // A decision of two people (docs/decisions/040-four-eyes-decisions.md): the senior officer proposes it,
    // and it waits for another senior officer (tests/e2e/four-eyes.spec.ts plays the approval).
    await expect(page.getByRole('button', { name: en.events.certificateIssue, exact: true })).toHaveCount(0);
    await page
      .getByRole('button', { name: en.proposals.propose.replace('{{action}}', en.events.certificateIssue) })
      .click();
    await page.getByRole('button', { name: en.case.continue }).click();
    await page.getByRole('button', { name: en.case.confirmButton }).click();
    await expect(page.getByRole('status').filter({ hasText: /PRC-/ })).toBeVisible();
    const proposals = page.getByRole('region', { name: en.proposals.title });
    await expect(proposals).toContainText(
      en.proposals.pending.replace('{{decision}}', en.events.certificateIssue),
    );
    await expect(proposals.getByRole('button', { name: en.proposals.approve, exact: true })).toHaveCount(0);
    await expect(proposals.getByRole('button', { name: en.proposals.withdraw, exact: true })).toBeVisible();
    await noAxe(page);
  });

  test('the console in Traditional and Simplified Chinese: sign-in, queue, case and audit pages pass axe', async ({
    page,
  }) => {
    await seedSession(page, { language: 'en' });
    await page.goto('/console/sign-in');
    for (const [lang, m] of [
      ['繁體中文', tc],
      ['简体中文', sc],
    ] as const) {
      await page.getByRole('button', { name: lang }).click();
      await expect(page.getByRole('heading', { level: 1, name: m.signIn.title })).toBeVisible();
      await noAxe(page);
    }
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByLabel(en.signIn.username).fill(CONSOLE_STAFF.languages.username);
    await page.getByLabel(en.signIn.password).fill(CONSOLE_STAFF.languages.password);
    await page.getByLabel(en.signIn.code).fill(totp());
    await page.getByRole('button', { name: en.signIn.submit }).click();
    await expect(page.getByRole('heading', { level: 1, name: en.queue.title })).toBeVisible();
    const no = testApplicant(CONSOLE_CASES.languages.n).applicationNo;
    for (const [lang, m] of [
      ['繁體中文', tc],
      ['简体中文', sc],
      ['English', en],
    ] as const) {
      await page.getByRole('button', { name: lang }).click();
      await page.getByRole('link', { name: m.nav.queue }).click();
      await expect(page.getByRole('heading', { level: 1, name: m.queue.title })).toBeVisible();
      await page.getByLabel(m.queue.search).pressSequentially(no);
      await page.getByRole('button', { name: m.queue.apply }).click();
      await expect(page.getByRole('link', { name: no })).toBeVisible();
      await noAxe(page);
      await page.getByRole('link', { name: no }).click();
      await expect(page.getByRole('heading', { level: 2, name: m.case.actions })).toBeVisible();
      await page.getByRole('button', { name: m.events.caseAssign }).click();
      await noAxe(page);
      await page.getByRole('link', { name: m.nav.audit }).click();
      await page.getByLabel(m.auditPage.applicationNo).pressSequentially('E2E');
      await page.getByRole('button', { name: m.auditPage.submit }).click();
      await expect(page.getByRole('heading', { level: 1, name: m.auditPage.title })).toBeVisible();
      await noAxe(page);
    }
    // The console remembers its language over a page load, and names the zone of every time it shows.
    await page.getByRole('button', { name: '繁體中文' }).click();
    await page.goto(`/console/cases/${no}`);
    await expect(page.getByRole('heading', { level: 2, name: tc.case.actions })).toBeVisible();
    await page.getByRole('button', { name: tc.events.caseAssign }).click();
    await page.getByRole('button', { name: tc.case.continue }).click();
    await page.getByRole('button', { name: tc.case.confirmButton }).click();
    await expect(page.getByRole('status').first()).toBeVisible();
    await page.goto('/console/audit');
    await expect(page.getByRole('heading', { level: 1, name: tc.auditPage.title })).toBeVisible();
    await page.getByLabel(tc.auditPage.applicationNo).pressSequentially(no);
    await page.getByRole('button', { name: tc.auditPage.submit }).click();
    const when = page.getByRole('table').getByRole('row').nth(1).getByRole('cell').first();
    await expect(when).toContainText('（香港時間）');
    await expect(when).not.toContainText(/\d{4}-\d{2}-\d{2}/);
    // The action searched by its name, and shown in words: who by name and role, the action, the officer
    // assigned by name; no codes, no JSON.
    await page.getByLabel(tc.auditPage.event).selectOption({ label: tc.audit.events.caseAssign });
    await page.getByRole('button', { name: tc.auditPage.submit }).click();
    const assigned = page.getByRole('table').getByRole('row').nth(1);
    const officer = CONSOLE_STAFF.languages;
    await expect(assigned.getByRole('cell').nth(2)).toContainText(tc.audit.events.caseAssign);
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);
    const who = assigned.getByRole('cell').nth(1);
    await expect(who).toContainText(officer.nameZh);
    await expect(who).toContainText(tc.audit.actors.seniorOfficer);
    await expect(
      assigned.getByRole('cell').nth(4).getByRole('listitem').filter({ hasText: tc.audit.fields.assignedTo }),
    ).toHaveText(`${tc.audit.fields.assignedTo}：${tc.audit.none} →${tc.audit.changedTo} ${officer.nameZh}`);
    await expect(assigned).not.toContainText('{');
    await expect(assigned).not.toContainText('case.assign');
    await noAxe(page);
  });

  test('warns before the staff idle time-out with a countdown, stays signed in on request, then signs out', async ({
    page,
  }) => {
    await page.clock.install();
    await seedSession(page, { language: 'en' });
    await signIn(page, 'idle');
    const me = (await (await page.request.get('/api/staff/session')).json()) as {
      data: { idleMinutes: number };
    };
    const minutes = me.data.idleMinutes;
    // The warning comes 2 minutes before the end.
    await page.clock.fastForward((minutes - 2) * 60_000 + 10_000);
    const dialog = page.getByRole('alertdialog', { name: 'You will be logged out soon' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(/1 min \d+ s/);
    await noAxe(page);
    await dialog.getByRole('button', { name: 'Stay logged in' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: en.queue.title })).toBeVisible();
    await page.clock.fastForward((minutes + 1) * 60_000);
    await expect(page).toHaveURL(/\/console\/sign-in$/);
    await expect(page.getByRole('status').filter({ hasText: en.signIn.idle })).toBeVisible();
    await noAxe(page);
  });

  test('the admin keeps the staff idle timeout; the admin page passes axe in en, tc and sc', async ({
    page,
  }) => {
    await seedSession(page, { language: 'en' });
    await signIn(page, 'admin', en.auditPage.title);
    await page.getByRole('link', { name: en.nav.admin }).click();
    await expect(page.getByLabel(en.adminPage.idle)).toHaveValue('15');
    await page.getByLabel(en.adminPage.idle).fill('20');
    await page.getByRole('button', { name: en.adminPage.save }).click();
    await expect(page.getByRole('status').filter({ hasText: en.adminPage.saved })).toBeVisible();
    await expect(page.getByRole('cell', { name: CONSOLE_STAFF.officer.username })).toBeVisible();
    for (const [lang, m] of [
      ['English', en],
      ['繁體中文', tc],
      ['简体中文', sc],
    ] as const) {
      await page.getByRole('button', { name: lang }).click();
      await expect(page.getByRole('heading', { level: 1, name: m.adminPage.title })).toBeVisible();
      await noAxe(page);
    }
  });
});
