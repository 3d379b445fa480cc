import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import caseEn from '../../i18n/en/case.json' with { type: 'json' };
import en from '../../i18n/en/console.json' with { type: 'json' };
import sc from '../../i18n/sc/console.json' with { type: 'json' };
import tc from '../../i18n/tc/console.json' with { type: 'json' };
import { SESSION_STORAGE_KEY } from '../../machines/rules/session-state';
import { createCalendarService } from '../../api/modules/shared/calendar';
import { addWorkingDays } from '../../machines/rules/working-days';
import { CONSOLE_CASES, CONSOLE_STAFF, E2E_TOTP_SECRET } from './fixtures-console';
import { testApplicant } from './fixtures';
import { codeSentTo } from './outbox';
import { axeViolations, pageReady, seedSession } from './support';

/** The TOTP code now, computed with the same library the server checks it with. */
const totp = () =>
  new OTPAuth.TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(E2E_TOTP_SECRET),
  }).generate();

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

  test('submitted to certificate: the officer moves the case, the applicant sees each step and downloads the certificate', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const a = testApplicant(CONSOLE_CASES.loop.n);
    await seedSession(page, { language: 'en' });
    await signIn(page, 'officer');
    // The queue pages its cases (50 a page, by due date): the officer finds this one by its number.
    await page.getByLabel(en.queue.applicationNo).fill(a.applicationNo.toLowerCase());
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
      await page.getByLabel(en.fields.bdReference).fill('BD 2/9123/26');
      await page.getByLabel(en.fields.category1).fill('Provide a second means of escape.');
      await page.getByRole('button', { name: en.fields.addRow }).click();
      await page.getByLabel(en.fields.item).fill('3.5');
      await page.getByLabel(en.fields.description).fill('Erection of a canopy');
      await page.getByLabel(en.fields.submissionNo).fill('MW01234567');
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
    await act(page, en.events.inspectionSchedule, 'Inspection scheduled', async () => {
      await page.getByLabel(en.fields.date).fill(d1);
    });
    await act(page, en.events.inspectionRecord, 'Inspected');
    await act(page, en.events.certificateIssue, 'Certificate issued');

    // The applicant downloads the certificate from the case page: a real PDF, read by poppler.
    await applicant.reload();
    await pageReady(applicant);
    const button = applicant.getByRole('button', { name: /Certificate CRT-/ });
    await expect(button).toBeVisible();
    const [download] = await Promise.all([applicant.waitForEvent('download'), button.click()]);
    const file = await download.path();
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Certificate of Building Safety');
    expect(text).toContain('樓宇安全證明書');
    expect(text).toContain(a.applicationNo);
    await applicantContext.close();
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
    await page.getByLabel(en.signIn.username).fill(CONSOLE_STAFF.senior.username);
    await page.getByLabel(en.signIn.password).fill(CONSOLE_STAFF.senior.password);
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
      await page.getByLabel(m.queue.applicationNo).fill(no);
      await page.getByRole('button', { name: m.queue.apply }).click();
      await expect(page.getByRole('link', { name: no })).toBeVisible();
      await noAxe(page);
      await page.getByRole('link', { name: no }).click();
      await expect(page.getByRole('heading', { level: 2, name: m.case.actions })).toBeVisible();
      await page.getByRole('button', { name: m.events.caseAssign }).click();
      await noAxe(page);
      await page.getByRole('link', { name: m.nav.audit }).click();
      await page.getByLabel(m.auditPage.applicationNo).fill('E2E');
      await page.getByRole('button', { name: m.auditPage.submit }).click();
      await expect(page.getByRole('heading', { level: 1, name: m.auditPage.title })).toBeVisible();
      await noAxe(page);
    }
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
