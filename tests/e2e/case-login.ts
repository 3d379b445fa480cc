import { expect, type Page } from '@playwright/test';
import authEn from '../../i18n/en/auth.json' with { type: 'json' };
import authSc from '../../i18n/sc/auth.json' with { type: 'json' };
import authTc from '../../i18n/tc/auth.json' with { type: 'json' };
import caseEn from '../../i18n/en/case.json' with { type: 'json' };
import caseSc from '../../i18n/sc/case.json' with { type: 'json' };
import caseTc from '../../i18n/tc/case.json' with { type: 'json' };
import type { Language } from '../../machines/rules/language';
import { testApplicant } from './fixtures';
import { codeSentTo } from './outbox';

const AUTH = { en: authEn, sc: authSc, tc: authTc };
const CASE = { en: caseEn, sc: caseSc, tc: caseTc };

/**
 * The Find my case login inside a follow-up page, as a person uses it: with the mouse, or by keyboard alone
 * (type, Tab, Enter). `beforeFilling` runs on the login screen (an axe scan).
 */
export async function logInToCase(
  page: Page,
  lang: Language,
  n: number,
  options: { keyboard?: boolean; beforeFilling?: () => Promise<void> } = {},
): Promise<void> {
  const a = testApplicant(n);
  const f = AUTH[lang].findMyCase;
  await expect(page.getByRole('heading', { level: 1, name: CASE[lang].screens.login })).toBeVisible();
  await options.beforeFilling?.();
  if (options.keyboard) {
    await page.getByLabel(f.applicationNo.label).focus();
    await page.keyboard.type(a.applicationNo);
    await page.keyboard.press('Tab');
    await page.keyboard.type(a.email);
    await page.keyboard.press('Enter');
    const code = page.getByLabel(f.code.label);
    await expect(code).toBeVisible();
    await code.focus();
    await page.keyboard.type(await codeSentTo(page, a.email));
    await page.keyboard.press('Enter');
  } else {
    await page.getByLabel(f.applicationNo.label).fill(a.applicationNo);
    await page.getByLabel(f.contact.label).fill(a.email);
    await page.getByRole('button', { name: f.send }).click();
    await page.getByLabel(f.code.label).fill(await codeSentTo(page, a.email));
    await page.getByRole('button', { name: f.submit, exact: true }).click();
  }
  // Logged in once the page has left its login screen (the session is stored by then).
  await expect(page.getByRole('heading', { level: 1, name: CASE[lang].screens.login })).toBeHidden();
}
