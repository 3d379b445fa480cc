import { expect, test, type Page } from '@playwright/test';
import appointmentEn from '../../i18n/en/appointment.json' with { type: 'json' };
import appointmentSc from '../../i18n/sc/appointment.json' with { type: 'json' };
import appointmentTc from '../../i18n/tc/appointment.json' with { type: 'json' };
import type { Language } from '../../machines/rules/language';
import { APPOINTMENT_CASES, CONTACT_APS } from './fixtures-appointments';
import { testApplicant } from './fixtures';
import { axeViolations, pageReady, seedSession } from './support';

/**
 * An AP changes their own email (docs/flows/appointee-contact.md): logged in by their one-time password,
 * from their case page, typing as a person does; the messages and focus in each language, and the next
 * login's code going to the new email only.
 */
const T = { en: appointmentEn, sc: appointmentSc, tc: appointmentTc };
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '');

interface Message {
  id: number;
  to: string;
  body: string;
}
const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

async function messagesTo(page: Page, address: string): Promise<Message[]> {
  const answer = await page.request.get('/api/dev/outbox');
  const all = ((await answer.json()) as { data: Message[] }).data;
  return all.filter((m) => sameAddress(m.to, address));
}

/** The newest message's id to an address (0 when none): what a later code must come after. */
async function lastIdTo(page: Page, address: string): Promise<number> {
  return (await messagesTo(page, address))[0]?.id ?? 0;
}

/** The code of the first message to an address newer than `after`, waiting for it to arrive. */
async function codeAfter(page: Page, address: string, after: number): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const newer = (await messagesTo(page, address)).filter((m) => m.id > after);
        code = /(?<![-\d])(\d{6})(?![-\d])/.exec(newer.at(-1)?.body ?? '')?.[1];
        return code;
      },
      { message: `a new code sent to ${address}`, timeout: 10_000 },
    )
    .toBeTruthy();
  return code ?? '';
}

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** The AP/RSE login by keyboard, then the case: the case page where the link is. Answers when the code was sent. */
async function logIn(
  page: Page,
  lang: Language,
  ap: { registrationNumber: string; n: number },
  email: string,
): Promise<number> {
  const login = T[lang].login;
  await page.goto('/appointee-login');
  await pageReady(page);
  await page.getByLabel(login.registration).focus();
  await page.keyboard.type(ap.registrationNumber);
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  const before = await lastIdTo(page, email);
  await page.keyboard.press('Enter');
  const sentAt = Date.now();
  const code = page.getByLabel(login.code);
  await expect(code).toBeVisible();
  await code.focus();
  await page.keyboard.type(await codeAfter(page, email, before));
  await page.keyboard.press('Enter');
  const applicationNo = testApplicant(ap.n).applicationNo;
  const open = page.getByRole('button', { name: fill(login.open, { applicationNo }) });
  await expect(open).toBeVisible();
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/case-history$/);
  await pageReady(page);
  return sentAt;
}

/** From the case page to the change of contact, by keyboard. */
async function openContactChange(page: Page, lang: Language) {
  const link = page.getByRole('link', { name: T[lang].contact.link });
  await expect(link).toBeVisible();
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/appointee-contact$/);
  await expect(page.getByRole('heading', { level: 1, name: T[lang].contact.title })).toBeVisible();
}

test.describe('an AP changes their own contact', () => {
  test('changes the email in Traditional Chinese, after one wrong code; the next login code goes to the new email', async ({
    page,
    browser,
  }) => {
    // The second login waits out the minute between two codes for the same number (docs/flows/appointee-login.md).
    test.setTimeout(200_000);
    const ap = { ...CONTACT_APS.tc, n: APPOINTMENT_CASES.contactTc.n };
    const c = T.tc.contact;
    const next = 'e2e-ap-6500-new@example.hk';
    await seedSession(page, { language: 'tc' });
    const firstLogin = await logIn(page, 'tc', ap, ap.email);
    await expectNoAxeViolations(page);
    await openContactChange(page, 'tc');
    await expectNoAxeViolations(page);

    // The new email, key by key; the email is the kind chosen at first.
    const field = page.getByLabel(c.newContact.email);
    await field.click();
    await field.pressSequentially(next);
    // A reload keeps what was typed (this tab only): the new email is still there.
    await page.reload();
    await pageReady(page);
    await expect(page.getByLabel(c.newContact.email)).toHaveValue(next);
    await page.getByLabel(c.newContact.email).focus();
    const [oldBefore, newBefore] = [await lastIdTo(page, ap.email), await lastIdTo(page, next)];
    await page.keyboard.press('Enter');

    // The codes are sent: focus is in the first code field, whose label names where it went.
    const names = { kind: c.names.email, contact: next };
    await expect(page.getByRole('heading', { level: 1, name: c.codesTitle })).toBeVisible();
    const oldCodeField = page.getByLabel(fill(c.oldCode, names));
    const newCodeField = page.getByLabel(fill(c.newCode, names));
    await expect(oldCodeField).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: fill(c.sent, names) })).toBeVisible();
    await expectNoAxeViolations(page);

    const oldCode = await codeAfter(page, ap.email, oldBefore);
    const newCode = await codeAfter(page, next, newBefore);
    const wrong = newCode.replace(/^./, (d) => String((Number(d) + 1) % 10));
    await page.keyboard.type(oldCode);
    await page.keyboard.press('Tab');
    await expect(newCodeField).toBeFocused();
    await page.keyboard.type(wrong);
    await page.keyboard.press('Enter');

    // The wrong one is named, in Traditional Chinese, at its field and in the summary, which takes focus.
    const message = fill(c.errors.wrongNew, names);
    const summary = page.locator('.error-summary');
    await expect(summary).toBeFocused();
    await expect(summary).toContainText(c.errorTitle);
    await expect(summary.getByRole('link', { name: message })).toBeVisible();
    await expect(newCodeField).toHaveAttribute('aria-invalid', 'true');
    await expect(newCodeField).toHaveAccessibleDescription(
      new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    );
    // Nothing typed is lost.
    await expect(oldCodeField).toHaveValue(oldCode);
    await expect(newCodeField).toHaveValue(wrong);
    await expectNoAxeViolations(page);

    // The correction, from the summary's link, key by key: focus stays in the field for every key.
    await summary.getByRole('link', { name: message }).click();
    await expect(newCodeField).toBeFocused();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Backspace');
    for (const [i, digit] of [...newCode].entries()) {
      await page.keyboard.press(digit);
      await expect(newCodeField).toBeFocused();
      await expect(newCodeField).toHaveValue(newCode.slice(0, i + 1));
    }
    await page.keyboard.press('Enter');

    // Done: the new email and what changes.
    await expect(page.getByRole('heading', { level: 1, name: c.doneTitle })).toBeFocused();
    await expect(page.getByText(fill(c.done, names))).toBeVisible();
    await expect(page.getByText(fill(c.doneWhat, names))).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: c.back }).click();
    await expect(page).toHaveURL(/\/case-history$/);

    // The next login, in a browser of its own: its code goes to the new email, and nothing to the old one.
    const other = await browser.newContext();
    const later = await other.newPage();
    await seedSession(later, { language: 'tc' });
    const oldLast = await lastIdTo(later, ap.email);
    const wait = firstLogin + 62_000 - Date.now();
    if (wait > 0) await later.waitForTimeout(wait);
    await logIn(later, 'tc', ap, next);
    expect(await lastIdTo(later, ap.email)).toBe(oldLast);
    await other.close();
  });

  for (const lang of ['en', 'sc'] as const) {
    test(`the screens and their messages in ${lang}, axe clean`, async ({ page }) => {
      const ap = { ...CONTACT_APS[lang], n: APPOINTMENT_CASES[CONTACT_APS[lang].key].n };
      const c = T[lang].contact;
      await seedSession(page, { language: lang });
      await logIn(page, lang, ap, ap.email);
      await openContactChange(page, lang);
      await expectNoAxeViolations(page);

      // A mobile chosen, an email typed: the field says what it wants, the summary takes focus.
      // By keyboard, as a radio group is used: the arrow moves to the mobile and chooses it.
      await page.getByRole('radio', { name: c.kinds.email }).focus();
      await page.keyboard.press('ArrowDown');
      await expect(page.getByRole('radio', { name: c.kinds.mobile })).toBeChecked();
      const field = page.getByLabel(c.newContact.mobile);
      await field.click();
      await field.pressSequentially('not-a-number');
      await page.keyboard.press('Enter');
      const summary = page.locator('.error-summary');
      await expect(summary).toBeFocused();
      await expect(summary.getByRole('link', { name: c.contactInvalid.mobile })).toBeVisible();
      await expectNoAxeViolations(page);

      // Its own number is refused as unchanged, kept as typed.
      await field.click();
      await page.keyboard.press('ControlOrMeta+a');
      await field.pressSequentially(ap.mobile);
      await expect(field).toBeFocused();
      await page.keyboard.press('Enter');
      const unchanged = fill(c.errors.unchanged, { kind: c.names.mobile });
      await expect(summary.getByRole('link', { name: unchanged })).toBeVisible();
      await expect(summary).toBeFocused();
      await expect(field).toHaveValue(ap.mobile);
      await expectNoAxeViolations(page);

      // A new number: both codes sent, focus in the first code field.
      await field.click();
      await page.keyboard.press('ControlOrMeta+a');
      await field.pressSequentially(`9${ap.mobile.slice(1, 7)}9`);
      await page.keyboard.press('Enter');
      await expect(page.getByLabel(fill(c.oldCode, { kind: c.names.mobile }))).toBeFocused();
      await expectNoAxeViolations(page);
    });
  }
});
