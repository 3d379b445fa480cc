import { expect, test, type Page } from '@playwright/test';
import apiEn from '../../i18n/en/api.json' with { type: 'json' };
import en from '../../i18n/en/console.json' with { type: 'json' };
import sc from '../../i18n/sc/console.json' with { type: 'json' };
import tc from '../../i18n/tc/console.json' with { type: 'json' };
import { CONSOLE_STAFF, HOLDER_FIXTURES } from './fixtures-console';
import { testApplicant } from './fixtures';
import { totp } from './console-totp';
import { axeViolations, seedSession } from './support';

/**
 * The registered AP/RSE page of the console (docs/console.md, "Registered AP/RSE";
 * docs/decisions/025-registration-holders.md): a senior officer looks a number up as people type it, reads
 * its holder, and resets it with a reason and a warning confirm step, in English and in Traditional
 * Chinese; the page passes axe in English, Simplified and Traditional Chinese.
 */
async function noAxe(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`{{${k}}}`, String(v)), text);

/** Looks up `typed` key by key, as an officer types it, and submits with Enter. */
async function lookUp(page: Page, m: typeof en, typed: string) {
  const field = page.getByRole('textbox', { name: m.holdersPage.number });
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.press('Delete');
  await field.pressSequentially(typed);
  await field.press('Enter');
}

/** Resets the holder shown with `reason`: the reason is required, the confirm step warns and takes focus. */
async function reset(page: Page, m: typeof en, number: string, name: string, reason: string) {
  const form = page.getByRole('form', { name: m.holdersPage.reset.title });
  await form.getByRole('button', { name: m.case.continue }).click();
  await expect(form.getByText(m.holdersPage.reset.reasonRequired)).toBeVisible();
  const field = page.getByRole('textbox', { name: m.holdersPage.reset.reason });
  await field.pressSequentially(reason);
  await form.getByRole('button', { name: m.case.continue }).click();
  const confirmTitle = fill(m.holdersPage.reset.confirmTitle, { number });
  await expect(page.getByRole('heading', { level: 3, name: confirmTitle })).toBeFocused();
  await expect(page.getByRole('note')).toContainText(name);
  await expect(field).toBeDisabled();
  // Change goes back to the reason, still typed; Continue comes back to the confirmation.
  await page.getByRole('button', { name: m.case.backButton }).click();
  await expect(field).toHaveValue(reason);
  await page.getByRole('button', { name: m.case.continue }).click();
  await expect(page.getByRole('heading', { level: 3, name: confirmTitle })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: m.holdersPage.reset.confirmButton })).toBeFocused();
  await page.keyboard.press('Enter');
  const done = page.getByRole('status').filter({ hasText: fill(m.holdersPage.reset.done, { number }) });
  await expect(done).toBeFocused();
  await expect(page.getByText(fill(m.holdersPage.noHolder, { number }))).toBeVisible();
  await expect(page.getByRole('cell', { name: reason })).toBeVisible();
}

test('a senior officer resets a registration holder in English and Traditional Chinese; axe clean in en, sc and tc', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await seedSession(page, { language: 'en' });
  await page.goto('/console/sign-in');
  await expect(page.getByRole('heading', { level: 1, name: en.signIn.title })).toBeVisible();
  const who = CONSOLE_STAFF.registry;
  await page.getByLabel(en.signIn.username).pressSequentially(who.username);
  await page.getByLabel(en.signIn.password).pressSequentially(who.password);
  await page.getByLabel(en.signIn.code).pressSequentially(totp());
  await page.getByRole('button', { name: en.signIn.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: en.queue.title })).toBeVisible();

  // From the console's navigation.
  await page.getByRole('link', { name: en.nav.holders }).click();
  await expect(page.getByRole('heading', { level: 1, name: en.holdersPage.title })).toBeVisible();
  await noAxe(page);

  // Not a registration number: the API's message at the field, read first.
  await lookUp(page, en, 'AP(Q) 12');
  await expect(page.getByRole('alert')).toBeFocused();
  await expect(page.getByRole('alert')).toContainText(apiEn.validation.registrationNumber.invalid);

  // English: typed in lower case without brackets or space, as people do.
  const first = HOLDER_FIXTURES.en;
  await lookUp(page, en, 'aps9700');
  const heading = page.getByRole('heading', {
    level: 2,
    name: fill(en.holdersPage.holderOf, { number: first.registrationNumber }),
  });
  await expect(heading).toBeFocused();
  await expect(page.getByText(first.nameEn, { exact: true })).toBeVisible();
  // The contacts masked, never in full.
  await expect(page.getByText(`e***@example.hk`)).toBeVisible();
  await expect(page.getByText(`e2e-holder-${first.n}@example.hk`)).toHaveCount(0);
  await expect(page.getByRole('link', { name: testApplicant(first.n).applicationNo })).toBeVisible();
  await noAxe(page);
  await reset(
    page,
    en,
    first.registrationNumber,
    first.nameEn,
    'Established by someone who does not hold it.',
  );
  await noAxe(page);

  // Traditional Chinese: the page, the lookup and the reset in the language chosen.
  await page.getByRole('button', { name: '繁體中文' }).click();
  await expect(page.getByRole('heading', { level: 1, name: tc.holdersPage.title })).toBeVisible();
  const second = HOLDER_FIXTURES.tc;
  await lookUp(page, tc, 'ｒｓｅ　９８００');
  await expect(
    page.getByRole('heading', {
      level: 2,
      name: fill(tc.holdersPage.holderOf, { number: second.registrationNumber }),
    }),
  ).toBeFocused();
  // Seeded without a signature on record.
  await expect(page.getByText(tc.holdersPage.signers.none, { exact: true })).toBeVisible();
  await noAxe(page);
  await reset(
    page,
    tc,
    second.registrationNumber,
    `${second.nameZh} ${second.nameEn}`,
    '該編號已由另一人持有。',
  );
  await noAxe(page);

  // Simplified Chinese: the same page, axe clean.
  await page.getByRole('button', { name: '简体中文' }).click();
  await expect(page.getByRole('heading', { level: 1, name: sc.holdersPage.title })).toBeVisible();
  await expect(
    page.getByText(fill(sc.holdersPage.noHolder, { number: second.registrationNumber })),
  ).toBeVisible();
  await noAxe(page);
});
