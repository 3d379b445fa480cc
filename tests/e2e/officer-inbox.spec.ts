import { expect, test, type Page } from '@playwright/test';
import api from '../../i18n/tc/api.json' with { type: 'json' };
import en from '../../i18n/en/console.json' with { type: 'json' };
import sc from '../../i18n/sc/console.json' with { type: 'json' };
import tc from '../../i18n/tc/console.json' with { type: 'json' };
import { CONSOLE_STAFF } from './fixtures-console';
import { INBOX_CASE } from './fixtures-inbox';
import { testApplicant } from './fixtures';
import { totp } from './console-totp';
import { codeSentTo } from './outbox';
import { axeViolations, seedSession } from './support';

/**
 * The officer's inbox (docs/decisions/039-officer-inbox.md), both sides: the applicant sends a message on
 * their case (through the API, as the login does), the assigned officer's inbox marks the case "New
 * activity: Message" in words and counts a new notice in the header; opening the case clears the marker;
 * the digest email reaches the officer in Traditional Chinese. Axe in en, tc and sc on the inbox.
 */
const who = testApplicant(INBOX_CASE.n);
const officer = CONSOLE_STAFF.inbox;

async function applicantSends(page: Page, body: string) {
  const sent = await page.request.post('/api/auth/otp/send', {
    data: { applicationNo: who.applicationNo, contact: who.email },
  });
  expect(sent.status()).toBe(200);
  const code = await codeSentTo(page, who.email);
  const login = await page.request.post('/api/auth/otp/verify', {
    data: { applicationNo: who.applicationNo, contact: who.email, code },
  });
  expect(login.status()).toBe(200);
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const message = await page.request.post('/api/cases/current/messages', {
    data: { body },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(message.status()).toBe(200);
}

const rowOf = (page: Page) => page.getByRole('row').filter({ hasText: who.applicationNo });

test('the applicant acts, the officer sees New activity in the inbox, opening the case clears it, the digest arrives; axe in en, tc, sc', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await seedSession(page, { language: 'en' });
  await page.goto('/console/sign-in');
  await page.getByLabel(en.signIn.username).pressSequentially(officer.username);
  await page.getByLabel(en.signIn.password).pressSequentially(officer.password);
  await page.getByLabel(en.signIn.code).pressSequentially(totp());
  await page.getByRole('button', { name: en.signIn.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: en.queue.title })).toBeVisible();

  // The tabs are links, reached by keyboard; the one shown is the current page.
  const tabs = page.getByRole('navigation', { name: en.inbox.tabs });
  const handle = tabs.getByRole('link', { name: en.inbox.tab.handle });
  await handle.focus();
  await expect(handle).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: en.inbox.tab.handle })).toBeVisible();
  await expect(handle).toHaveAttribute('aria-current', 'page');
  await expect(rowOf(page)).toBeVisible();
  await expect(rowOf(page)).not.toContainText(en.inbox.newActivity.replace('{{what}}', ''));

  await applicantSends(page, 'When will the inspection be arranged?');

  await page.reload();
  const marker = en.inbox.newActivity.replace('{{what}}', en.inbox.kinds.message);
  await expect(rowOf(page)).toContainText(marker);
  // The header counts the new notice; the notices list names the case and what happened.
  const notices = page.getByRole('region', { name: en.inbox.notices });
  await expect(notices.getByRole('listitem').filter({ hasText: who.applicationNo })).toContainText(
    en.inbox.kinds.message,
  );
  expect(await axeViolations(page)).toEqual([]);

  for (const [label, m] of [
    ['繁體中文', tc],
    ['简体中文', sc],
  ] as const) {
    await page.getByRole('button', { name: label }).click();
    await expect(page.getByRole('heading', { level: 1, name: m.inbox.tab.handle })).toBeVisible();
    await expect(rowOf(page)).toContainText(m.inbox.newActivity.replace('{{what}}', m.inbox.kinds.message));
    expect(await axeViolations(page)).toEqual([]);
  }
  await page.getByRole('button', { name: 'English' }).click();

  // Seen on the inbox, the notice is read: the header's count goes to none new.
  await expect(
    page.getByRole('link', { name: en.inbox.count_other.replace('{{count}}', '0') }),
  ).toBeVisible();

  // Opening the case clears the marker (for this officer).
  await rowOf(page).getByRole('link', { name: who.applicationNo }).click();
  await expect(page.getByRole('heading', { level: 1, name: who.applicationNo })).toBeVisible();
  // Opened once the case itself is shown (the heading above is the address's).
  await expect(page.getByRole('heading', { level: 2, name: en.case.summary })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: en.inbox.tab.handle })).toBeVisible();
  await expect(rowOf(page)).toBeVisible();
  await expect(rowOf(page)).not.toContainText(marker);

  // The digest email, in the officer's language (Traditional Chinese), within the scheduled job's minute.
  const subject = api.inbox.digest.subject.replace('{{count}}', '1');
  await expect
    .poll(
      async () => {
        const answer = await page.request.get('/api/dev/outbox');
        const rows = (
          (await answer.json()) as { data: { to: string; subject: string | null; body: string }[] }
        ).data;
        return (
          rows.find((r) => r.to === `${officer.username}@bd.gov.hk` && r.subject === subject)?.body ?? ''
        );
      },
      { message: 'the digest email to the officer', timeout: 150_000, intervals: [2_000] },
    )
    .toContain(`申請 ${who.applicationNo}：${api.inbox.kinds.message}`);
});
