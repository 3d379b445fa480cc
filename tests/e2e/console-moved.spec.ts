import { expect, test, type Page } from '@playwright/test';
import apiEn from '../../i18n/en/api.json' with { type: 'json' };
import en from '../../i18n/en/console.json' with { type: 'json' };
import { CONSOLE_STAFF, MOVED_CASES } from './fixtures-console';
import { testApplicant } from './fixtures';
import { totp } from './console-totp';
import { approvedBy } from './four-eyes';
import { axeViolations, seedSession } from './support';

/**
 * An officer's action refused because the case moved meanwhile (docs/console.md, "When the case moved"):
 * the server's words say who changed it and what it is now, read out and focused; what the officer typed
 * is kept, in the form opened again when the action is still possible, else shown to copy.
 */

async function signIn(page: Page) {
  await seedSession(page, { language: 'en' });
  await page.goto('/console/sign-in');
  await page.getByLabel(en.signIn.username).pressSequentially(CONSOLE_STAFF.moved.username);
  await page.getByLabel(en.signIn.password).pressSequentially(CONSOLE_STAFF.moved.password);
  await page.getByLabel(en.signIn.code).pressSequentially(totp());
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: en.queue.title })).toBeVisible();
}

async function open(page: Page, n: number) {
  const no = testApplicant(n).applicationNo;
  await page.goto(`/console/cases/${no}`);
  await expect(page.getByRole('heading', { level: 1, name: no })).toBeVisible();
  return no;
}

/** Another request of the department moves the case meanwhile (the same account, from the API). */
async function meanwhile(
  page: Page,
  no: string,
  event: string,
  expectedStatus: string,
  answers = {},
  kind: 'actions' | 'proposals' = 'actions',
) {
  const res = await page.request.post(`/api/staff/cases/${no}/${kind}/${event}`, {
    data: { expectedStatus, answers },
  });
  expect(res.status(), await res.text()).toBe(200);
}

const notice = (page: Page) => page.locator('.console__moved');

test.describe('an action refused because the case moved', () => {
  test('the form opens again with what was typed when the action is still possible; else what was typed is shown', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page);

    // Still possible: a message, the case examined meanwhile.
    const first = await open(page, MOVED_CASES.stillAllowed.n);
    await page.getByRole('button', { name: en.events.messageSend, exact: true }).click();
    const body = page.getByRole('textbox', { name: en.fields.body, exact: true });
    await body.pressSequentially('Please call us on Monday about the fire exit.');
    await page.getByRole('button', { name: en.case.continue }).click();
    await meanwhile(page, first, 'case.examine', 'ACKNOWLEDGED');
    await page.getByRole('button', { name: en.case.confirmButton }).click();
    await expect(notice(page)).toBeFocused();
    await expect(notice(page)).toContainText(
      apiEn.staff.changed
        .replace('{{who}}', apiEn.staff.who.seniorOfficer)
        .replace('{{status}}', 'Under examination'),
    );
    await expect(notice(page)).toContainText(
      en.case.moved.again.replace('{{action}}', en.events.messageSend),
    );
    await expect(body).toHaveValue('Please call us on Monday about the fire exit.');
    expect(await axeViolations(page)).toEqual([]);

    // No longer possible: a rejection, the case rejected meanwhile.
    const second = await open(page, MOVED_CASES.noLonger.n);
    // A rejection is proposed, and made on another senior officer's approval (decision 040).
    await page
      .getByRole('button', {
        name: en.proposals.propose.replace('{{action}}', en.events.caseReject),
        exact: true,
      })
      .click();
    await page
      .getByRole('textbox', { name: en.fields.reason, exact: true })
      .pressSequentially('The premises are not the ones the form names.');
    await page.getByRole('button', { name: en.case.continue }).click();
    await meanwhile(
      page,
      second,
      'case.reject',
      'UNDER_EXAMINATION',
      { reason: 'Withdrawn by phone.' },
      'proposals',
    );
    await approvedBy(browser, 'foureyesApprover2', second);
    await page.getByRole('button', { name: en.case.confirmButton }).click();
    await expect(notice(page)).toBeFocused();
    await expect(notice(page)).toContainText(
      en.case.moved.notAllowed.replace('{{action}}', en.events.caseReject),
    );
    await expect(notice(page).getByRole('definition')).toHaveText(
      'The premises are not the ones the form names.',
    );
    await expect(page.getByRole('textbox', { name: en.fields.reason, exact: true })).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);
  });
});
