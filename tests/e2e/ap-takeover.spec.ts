import { expect, test, type Browser, type Page } from '@playwright/test';
import appointmentEn from '../../i18n/en/appointment.json' with { type: 'json' };
import appointmentTc from '../../i18n/tc/appointment.json' with { type: 'json' };
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import authTc from '../../i18n/tc/auth.json' with { type: 'json' };
import caseEn from '../../i18n/en/case.json' with { type: 'json' };
import caseTc from '../../i18n/tc/case.json' with { type: 'json' };
import flowsEn from '../../i18n/en/flows.json' with { type: 'json' };
import flowsTc from '../../i18n/tc/flows.json' with { type: 'json' };
import formsEn from '../../i18n/en/forms.json' with { type: 'json' };
import { fieldDomId } from '../../machines/forms';
import { APPOINTMENT } from '../../machines/forms/follow-up/appointment';
import { maskEmail, maskMobile } from '../../machines/rules/appointment';
import { RESEND_AFTER_SECONDS } from '../../machines/rules/otp';
import { addDays } from '../../machines/rules/working-days';
import { answerOnPhone, identificationCode, text } from './flows/submit-flow';
import { testApplicant } from './fixtures';
import { PLAIN_APPOINTMENT_CASE, TAKEOVER, Z_APPLICANT_HKIC } from './fixtures-takeover';
import { axeViolations, pageReady, seedSession } from './support';

/**
 * The "AP takeover" of docs/decisions/025-registration-holders.md, as people do it in the browser: the
 * applicant of case Z appoints the registration number of case X's AP with Z's own email and mobile, then
 * tries to log in as that AP; the real AP (the number's holder) logs in, and sees Z only once they accept
 * Z's invitation, without Z's applicant's own data (docs/appointee-visibility.md). The API's side is
 * tests/api/registration-holders.test.ts.
 */
type Lang = 'en' | 'tc';
const T = { en: appointmentEn, tc: appointmentTc };
const AUTH = { en: authEn, tc: authTc };
const CASE = { en: caseEn, tc: caseTc };
/**
 * What the done screen is to say of every appointment (decision 025, "What the applicant sees"): the last
 * sentence of i18n flows:steps.appointmentSuccess.description.
 */
const REGISTERED_SENTENCE = {
  en: 'If the registration number is already registered with us, the invitation goes to the email and mobile number we hold for it.',
  tc: '如此註冊編號已在本署登記，邀請會發送到本署就此編號所記錄的電郵及手提電話號碼。',
};
for (const [lang, flows] of [
  ['en', flowsEn],
  ['tc', flowsTc],
] as const)
  if (!flows.steps.appointmentSuccess.description.endsWith(REGISTERED_SENTENCE[lang]))
    throw new Error(`i18n/${lang}/flows.json: the sentence of a registered number has changed`);

interface OutboxMessage {
  id: number;
  to: string;
  subject: string | null;
  body: string;
}

const sameAddress = (a: string, b: string) =>
  a
    .toLowerCase()
    .replace(/[\s+-]/g, '')
    .endsWith(b.toLowerCase().replace(/[\s+-]/g, ''));

/** The development outbox (every email and SMS the portal sent), newest first. */
async function outbox(page: Page): Promise<OutboxMessage[]> {
  const answer = await page.request.get('/api/dev/outbox');
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { data: OutboxMessage[] }).data;
}

const to = (messages: OutboxMessage[], address: string) => messages.filter((m) => sameAddress(m.to, address));
const newestId = async (page: Page) => (await outbox(page))[0]?.id ?? 0;

/** The code of the newest message to `address` sent after the message `after`. */
async function codeTo(page: Page, address: string, after: number): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const body = to(await outbox(page), address).find((m) => m.id > after)?.body ?? '';
        code = /(?<![-\d])(\d{6})(?![-\d])/.exec(body)?.[1] ?? '';
        return code;
      },
      { message: `a code sent to ${address}` },
    )
    .toBeTruthy();
  return code;
}

/** The token of the invitation to `email` for application `applicationNo`. */
async function invitationTo(page: Page, email: string, applicationNo: string): Promise<string> {
  let token = '';
  await expect
    .poll(async () => {
      const body =
        to(await outbox(page), email).find(
          (m) => m.body.includes('appointment-accept#') && m.body.includes(applicationNo),
        )?.body ?? '';
      token = /appointment-accept#([A-Za-z0-9_-]{43})/.exec(body)?.[1] ?? '';
      return token;
    })
    .toBeTruthy();
  return token;
}

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

async function personIn(browser: Browser, lang: Lang): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await seedSession(page, { language: lang });
  return page;
}

/**
 * Find my case inside the appointment form, by keyboard: application number, Tab, email, Enter; the code
 * from the applicant's email, Enter.
 */
async function applicantLogsIn(page: Page, lang: Lang, n: number) {
  const a = testApplicant(n);
  const f = AUTH[lang].findMyCase;
  await expect(page.getByRole('heading', { level: 1, name: CASE[lang].screens.login })).toBeVisible();
  await expectNoAxeViolations(page);
  const before = await newestId(page);
  await page.getByLabel(f.applicationNo.label).focus();
  await page.keyboard.type(a.applicationNo);
  await page.keyboard.press('Tab');
  await page.keyboard.type(a.email);
  await page.keyboard.press('Enter');
  const code = page.getByLabel(f.code.label);
  await expect(code).toBeVisible();
  await code.pressSequentially(await codeTo(page, a.email, before));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: CASE[lang].screens.login })).toBeHidden();
}

/** The appointment form's fields, typed key by key (a date segment by segment, as the field takes it). */
async function typeAppointment(page: Page, answers: Record<string, string>) {
  const step = APPOINTMENT.steps[0];
  if (step?.kind !== 'fill') throw new Error('no fill step');
  for (const field of step.sections.flatMap((s) => s.fields)) {
    const value = answers[field.id];
    if (!value) continue;
    const id = `#${fieldDomId([field.id])}`;
    if (field.kind === 'radio') await page.locator(`${id} label:has(input[value="${value}"])`).click();
    else if (field.kind === 'date') {
      const [year = '', month = '', day = ''] = value.split('-');
      for (const [type, part] of [
        ['day', day],
        ['month', month],
        ['year', year],
      ] as const) {
        await page.locator(`${id} [data-type="${type}"]`).click();
        await page.keyboard.type(part);
      }
    } else await page.locator(id).pressSequentially(value);
  }
}

/** The applicant of case `n` logs in through Find my case and appoints, up to the done screen. */
async function appoint(page: Page, lang: Lang, n: number, answers: Record<string, string>) {
  const a = testApplicant(n);
  await page.goto('/form-appointment-step1');
  await pageReady(page);
  await applicantLogsIn(page, lang, n);
  await expectNoAxeViolations(page);
  await typeAppointment(page, answers);
  await page.getByRole('button', { name: CASE[lang].continue }).click();
  await expect(page.getByRole('heading', { level: 1, name: CASE[lang].screens.preview })).toBeVisible();
  // The preview shows what was typed.
  await expect(page.getByText(answers.email ?? '')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: CASE[lang].submit.appointment }).click();
  // The appointment is made, as for any number.
  await expect(page.getByRole('heading', { level: 1, name: CASE[lang].screens.done })).toBeVisible();
  const done = page.getByRole('status').filter({ hasText: a.applicationNo });
  await expect(done).toContainText(CASE[lang].done.appointment.split('{{applicationNo}}')[0] ?? '');
  await expectNoAxeViolations(page);
  return done;
}

const expiryDate = () => addDays(new Date().toISOString().slice(0, 10), 400);

/**
 * Z's applicant appoints the holder's number (with the holder's names, as the register shows them) and Z's
 * own email and mobile; the done screen, then the list of appointments.
 */
async function zAppointsTheHeldNumber(page: Page, lang: Lang, which: keyof typeof TAKEOVER) {
  const { z, holder } = TAKEOVER[which];
  const Z = testApplicant(z);
  await appoint(page, lang, z, {
    identity: 'ap',
    nameEn: holder.nameEn,
    nameZh: holder.nameZh,
    registrationNumber: holder.registrationNumber,
    expiryDate: expiryDate(),
    email: Z.email,
    mobile: Z.mobile,
  });

  // The list: the contacts the department holds, masked, with the sentence; never the ones Z typed.
  await page.getByRole('link', { name: T[lang].manage.title }).click();
  await expect(page.getByRole('heading', { level: 1, name: T[lang].manage.title })).toBeVisible();
  const card = page.locator('.appointment-card').filter({ hasText: holder.registrationNumber });
  await expect(card).toContainText(`${maskEmail(holder.email)} · ${maskMobile(holder.mobile)}`);
  await expect(card).toContainText(T[lang].manage.registeredContacts);
  await expect(card).toContainText(T[lang].manage.statuses.INVITED);
  await expect(card).not.toContainText(Z.email);
  await expect(card).not.toContainText(Z.mobile);
  await expect(card).not.toContainText(maskMobile(Z.mobile));
  await expect(card).not.toContainText(holder.email);
  await expectNoAxeViolations(page);
}

/** The invitation went to the holder's email and mobile; nothing with an invitation link to Z's. */
async function onlyTheHolderIsInvited(page: Page, which: keyof typeof TAKEOVER) {
  const { z, holder } = TAKEOVER[which];
  const Z = testApplicant(z);
  await invitationTo(page, holder.email, Z.applicationNo);
  const all = await outbox(page);
  expect(
    to(all, holder.mobile).some(
      (m) => m.body.includes('appointment-accept#') && m.body.includes(Z.applicationNo),
    ),
  ).toBe(true);
  for (const typed of [Z.email, Z.mobile])
    expect(to(all, typed).filter((m) => m.body.includes('appointment-accept#'))).toEqual([]);
}

/** The AP/RSE login by keyboard up to the code: registration number, Tab, contact, Enter. */
async function appointeeAsksForCode(page: Page, lang: Lang, registrationNumber: string, contact: string) {
  await page.goto('/appointee-login');
  await pageReady(page);
  await expect(page.getByRole('heading', { level: 1, name: T[lang].login.title })).toBeVisible();
  await page.getByLabel(T[lang].login.registration).focus();
  await page.keyboard.type(registrationNumber);
  await page.keyboard.press('Tab');
  await page.keyboard.type(contact);
  await page.keyboard.press('Enter');
  await expectCodeFieldFocused(page, lang, contact);
}

/** After the code is sent: the code field has focus, and says where the code went (masked, as typed). */
async function expectCodeFieldFocused(page: Page, lang: Lang, contact: string) {
  const code = page.getByLabel(T[lang].login.code);
  await expect(code).toBeFocused();
  const to = contact.includes('@') ? maskEmail(contact) : maskMobile(contact);
  const sent = text(lang, 'appointment', 'login.sent', { to });
  await expect(code).toHaveAccessibleDescription(new RegExp(sent.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
}

/** The holder logs in by keyboard (code from their email): the list of the applications they accepted. */
async function holderLogsIn(page: Page, lang: Lang, which: keyof typeof TAKEOVER) {
  const { holder } = TAKEOVER[which];
  const before = await newestId(page);
  await appointeeAsksForCode(page, lang, holder.registrationNumber, holder.email);
  const code = page.getByLabel(T[lang].login.code);
  await code.pressSequentially(await codeTo(page, holder.email, before));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: T[lang].login.casesTitle })).toBeVisible();
  await expectNoAxeViolations(page);
}

const openButton = (page: Page, lang: Lang, applicationNo: string) =>
  page.getByRole('button', { name: T[lang].login.open.replace('{{applicationNo}}', applicationNo) });

/** The login's code is limited to one a minute per registration number, whoever asks (a person waits). */
async function waitForResend(since: number) {
  const wait = since + (RESEND_AFTER_SECONDS + 1) * 1000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

test.describe('the AP takeover, in the browser (docs/decisions/025-registration-holders.md)', () => {
  test('en: Z’s applicant appoints X’s AP with Z’s contacts; only the holder is invited, and sees Z only once accepted, without Z’s applicant’s data', async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const { x, z, holder } = TAKEOVER.en;
    const X = testApplicant(x);
    const Z = testApplicant(z);

    const zPage = await personIn(browser, 'en');
    await zAppointsTheHeldNumber(zPage, 'en', 'en');
    await onlyTheHolderIsInvited(zPage, 'en');

    // Z's applicant's own case page: the signed application form is theirs to download.
    await zPage.goto('/case-history');
    await pageReady(zPage);
    const download = (name: string) => CASE.en.page.download.replace('{{name}}', name);
    await expect(zPage.getByRole('button', { name: download(CASE.en.page.applicationForm) })).toBeVisible();

    // The holder logs in: the case they accepted (X), not Z, whose invitation they have not accepted.
    const apPage = await personIn(browser, 'en');
    await holderLogsIn(apPage, 'en', 'en');
    const firstLogin = Date.now();
    await expect(openButton(apPage, 'en', X.applicationNo)).toBeVisible();
    await expect(openButton(apPage, 'en', Z.applicationNo)).toHaveCount(0);

    // The holder accepts Z's invitation: the code goes to the holder's email, never to Z's.
    const token = await invitationTo(apPage, holder.email, Z.applicationNo);
    await apPage.goto(`/appointment-accept#${token}`);
    await pageReady(apPage);
    await expect(apPage.getByRole('heading', { level: 1, name: T.en.accept.title })).toBeVisible();
    await expect(apPage.getByText(Z.applicationNo).first()).toBeVisible();
    await expect(apPage.getByText(Z.email)).toHaveCount(0);
    await expectNoAxeViolations(apPage);
    const beforeAccept = await newestId(apPage);
    await apPage.getByRole('button', { name: T.en.accept.send }).click();
    const acceptCode = apPage.getByLabel(T.en.accept.code);
    await expect(acceptCode).toBeVisible();
    await acceptCode.pressSequentially(await codeTo(apPage, holder.email, beforeAccept));
    expect(to(await outbox(apPage), Z.email).filter((m) => m.id > beforeAccept)).toEqual([]);
    await apPage.keyboard.press('Enter');
    await expect(apPage.getByRole('heading', { name: T.en.accept.declarationTitle })).toBeVisible();
    await apPage.getByLabel(T.en.accept.hkic).pressSequentially('A123456(3)');
    await expectNoAxeViolations(apPage);
    await apPage
      .getByRole('button', { name: /iAM Smart/ })
      .first()
      .click();
    await answerOnPhone(apPage, await identificationCode(apPage), 'approve');
    await expect(apPage.getByRole('heading', { level: 1, name: T.en.accept.acceptedTitle })).toBeVisible({
      timeout: 15_000,
    });
    await expectNoAxeViolations(apPage);

    // Logged in again, the holder reaches Z, as its AP only.
    await waitForResend(firstLogin);
    await holderLogsIn(apPage, 'en', 'en');
    await expect(openButton(apPage, 'en', X.applicationNo)).toBeVisible();
    const current = apPage.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/cases/current' && r.request().method() === 'GET',
    );
    await openButton(apPage, 'en', Z.applicationNo).click();
    await expect(apPage).toHaveURL(/\/case-history$/);
    const answer = await (await current).text();
    await expect(apPage.getByRole('heading', { level: 1, name: AUTH.en.history.title })).toBeVisible();
    await expect(apPage.getByRole('button', { name: download(formsEn.documents.layoutPlans) })).toBeVisible();
    await expect(apPage.getByRole('button', { name: download(CASE.en.page.applicationForm) })).toHaveCount(0);
    const seen = await apPage.locator('main').innerText();
    for (const secret of [Z_APPLICANT_HKIC, Z.email, Z.mobile]) {
      expect(seen).not.toContain(secret);
      expect(answer).not.toContain(secret);
    }
    await expectNoAxeViolations(apPage);
  });

  test('tc: Z’s applicant appoints X’s AP with Z’s contacts, then cannot log in as the AP; the holder’s login lists only X', async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const { x, z, holder } = TAKEOVER.tc;
    const X = testApplicant(x);
    const Z = testApplicant(z);

    const zPage = await personIn(browser, 'tc');
    await zAppointsTheHeldNumber(zPage, 'tc', 'tc');
    await onlyTheHolderIsInvited(zPage, 'tc');

    // Z's applicant tries the AP login with the number and Z's email: the same answer, no code to Z.
    const before = await newestId(zPage);
    await appointeeAsksForCode(zPage, 'tc', holder.registrationNumber, Z.email);
    const zAsked = Date.now();
    await expectNoAxeViolations(zPage);
    expect(to(await outbox(zPage), Z.email).filter((m) => m.id > before)).toEqual([]);
    // A guess is refused as any wrong code is; the error summary takes focus.
    await zPage.getByLabel(T.tc.login.code).pressSequentially('000000');
    await zPage.keyboard.press('Enter');
    const summary = zPage.getByRole('alert').filter({ hasText: AUTH.tc.findMyCase.errorTitle });
    await expect(summary).toContainText(T.tc.login.errors.wrongCode);
    await expect(summary).toBeFocused();
    await expect(zPage.getByRole('heading', { level: 1, name: T.tc.login.casesTitle })).toHaveCount(0);
    await expectNoAxeViolations(zPage);

    // The holder, a minute later: the same answer, the code at the holder's email, only X listed.
    await waitForResend(zAsked);
    const apPage = await personIn(browser, 'tc');
    await holderLogsIn(apPage, 'tc', 'tc');
    await expect(openButton(apPage, 'tc', X.applicationNo)).toBeVisible();
    await expect(openButton(apPage, 'tc', Z.applicationNo)).toHaveCount(0);
  });

  /* What the screens say and where focus goes around the takeover (decision 025, docs/forms.md). */
  test('the done screen says a number registered with the department is written to at the contacts it holds', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const n = PLAIN_APPOINTMENT_CASE;
    const page = await personIn(browser, 'en');
    const done = await appoint(page, 'en', n, {
      identity: 'ap',
      nameEn: 'HO KA LOK',
      registrationNumber: 'AP(S) 8000',
      expiryDate: expiryDate(),
      email: 'ho.kl.8000@example.com',
      mobile: '91008000',
    });
    await expect(done).toContainText(REGISTERED_SENTENCE.en, { timeout: 2_000 });
  });

  test('after a code is sent, focus is on the code field (AP login)', async ({ browser }) => {
    const page = await personIn(browser, 'en');
    // A number without a holder: the same answer, no code sent to anyone.
    await page.goto('/appointee-login');
    await pageReady(page);
    await page.getByLabel(T.en.login.registration).focus();
    await page.keyboard.type('AP(S) 8001');
    await page.keyboard.press('Tab');
    await page.keyboard.type('nobody.8001@example.com');
    await page.keyboard.press('Enter');
    await expectCodeFieldFocused(page, 'en', 'nobody.8001@example.com');
  });
});
