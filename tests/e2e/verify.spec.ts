import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import en from '../../i18n/en/pages.json' with { type: 'json' };
import sc from '../../i18n/sc/pages.json' with { type: 'json' };
import tc from '../../i18n/tc/pages.json' with { type: 'json' };
import { CONSOLE_STAFF, VERIFY_CASE } from './fixtures-console';
import { testApplicant } from './fixtures';
import { totp } from './console-totp';
import { axeViolations, LANGS, pageReady, seedSession } from './support';

/**
 * /verify as a person uses it (docs/decisions/038-sealed-letters.md): a Letter of Requirements issued
 * through the console's API, its reference typed key by key, the result read where focus lands.
 */

const TEXT = { en: en.verify, sc: sc.verify, tc: tc.verify };

/** The senior officer signed in through the API (a code used a moment ago is refused: the next one). */
async function signInSenior(request: APIRequestContext): Promise<number> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const answer = await request.post('/api/staff/session', {
      data: {
        username: CONSOLE_STAFF.senior.username,
        password: CONSOLE_STAFF.senior.password,
        code: totp(),
      },
    });
    if (answer.ok()) return ((await answer.json()) as { data: { id: number } }).data.id;
    await new Promise((r) => setTimeout(r, 31_000));
  }
  throw new Error('the senior officer could not sign in');
}

async function issueLetter(request: APIRequestContext): Promise<string> {
  const id = await signInSenior(request);
  const no = testApplicant(VERIFY_CASE.n).applicationNo;
  const act = (event: string, expectedStatus: string, answers: Record<string, unknown>) =>
    request.post(`/api/staff/cases/${no}/actions/${event}`, { data: { expectedStatus, answers } });
  expect((await act('case.assign', 'UNDER_EXAMINATION', { staffId: id })).status()).toBe(200);
  const issued = await act('lor.issue', 'UNDER_EXAMINATION', {
    bdReference: 'BD 2/9123/26',
    date: '2026-01-05',
    category1: ['Provide a means of escape from the first floor.'],
    category2: [],
    minorWorks: [],
  });
  expect(issued.status()).toBe(200);
  const reference = ((await issued.json()) as { data: { reference: string } }).data.reference;
  // The letter as issued, as the officer downloads it from the case.
  const view = (await (await request.get(`/api/staff/cases/${no}`)).json()) as {
    data: { documents: { id: number; kind: string }[] };
  };
  const letter = view.data.documents.filter((d) => d.kind === 'letterOfRequirements').at(-1);
  if (!letter) throw new Error('the Letter of Requirements is not on the case');
  const pdf = await request.get(`/api/staff/cases/${no}/documents/${letter.id}`);
  expect(pdf.status()).toBe(200);
  issuedPdf = await pdf.body();
  return reference;
}

/** The issued letter's PDF (set by issueLetter). */
let issuedPdf: Buffer = Buffer.alloc(0);

/** Chooses `buffer` as the letter's file, as a person does: the button opens the file chooser. */
async function chooseFile(page: Page, label: string, name: string, buffer: Buffer) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: label }).click();
  await (await chooser).setFiles({ name, mimeType: 'application/pdf', buffer });
}

test.describe('Check a letter (/verify)', () => {
  test('the reference typed key by key: the result is read out, in en, sc and tc, axe-clean', async ({
    context,
    browser,
  }) => {
    test.setTimeout(120_000);
    const staff = await browser.newContext();
    const reference = await issueLetter(staff.request);
    await staff.close();

    for (const lang of LANGS) {
      const t = TEXT[lang];
      // A fresh page per language, as a person who chose it arrives.
      const page = await context.newPage();
      await seedSession(page, { language: lang });
      await page.goto('/verify');
      await pageReady(page);
      await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
      expect(await axeViolations(page), `/verify ${lang}`).toEqual([]);

      // Nothing typed: the field says what to do, and has focus.
      await page.getByRole('button', { name: t.check, exact: true }).click();
      await expect(page.getByText(t.referenceOrFile)).toBeVisible();
      await expect(page.getByLabel(t.reference)).toBeFocused();

      // The reference typed key by key, in lower case, and sent with Enter.
      await page.keyboard.type(reference.toLowerCase(), { delay: 10 });
      await page.keyboard.press('Enter');
      const heading = page.getByRole('heading', { level: 2, name: t.resultTitle });
      await expect(heading).toBeFocused();
      const result = page.locator('section.verify__result');
      await expect(result).toContainText(t.issued);
      await expect(result).toContainText(t.kind.LETTER_OF_REQUIREMENTS);
      await expect(result).toContainText(reference);
      await expect(result).toContainText(t.standing.STANDS);
      expect(await axeViolations(page), `/verify ${lang} with a result`).toEqual([]);

      // An unknown reference says so.
      // Typed over the reference checked before, as a person does: select it all, then type.
      const field = page.getByLabel(t.reference);
      await field.click();
      await field.press('ControlOrMeta+a');
      await field.pressSequentially('LOR-E2E-2026-999999-1');
      await page.getByRole('button', { name: t.check, exact: true }).press('Enter');
      await expect(heading).toBeFocused();
      await expect(result).toContainText(t.notIssuedText);

      // The file as issued, with its reference: the very letter. One byte changed: not the letter.
      await field.click();
      await field.press('ControlOrMeta+a');
      await field.pressSequentially(reference);
      await chooseFile(page, t.chooseFile, 'letter.pdf', issuedPdf);
      await expect(page.getByText(t.chosen.replace('{{name}}', 'letter.pdf'))).toBeVisible();
      await page.getByRole('button', { name: t.check, exact: true }).click();
      await expect(heading).toBeFocused();
      await expect(result).toContainText(t.fileMatches);
      await expect(result).toContainText(t.standing.STANDS);
      const tampered = Buffer.from(issuedPdf);
      const at = tampered.indexOf('Provide a means of escape');
      const i = at > 0 ? at : 200;
      tampered.writeUInt8(tampered.readUInt8(i) ^ 0x01, i);
      await page.getByRole('button', { name: t.removeFile }).click();
      await chooseFile(page, t.chooseFile, 'letter-changed.pdf', tampered);
      await page.getByRole('button', { name: t.check, exact: true }).click();
      await expect(heading).toBeFocused();
      await expect(result).toContainText(t.fileChanged);
      await expect(result).not.toContainText(t.fileMatches);
      expect(await axeViolations(page), `/verify ${lang} with a changed file`).toEqual([]);
      await page.close();
    }
  });

  test('a reference that is not one is refused at the field, in the page’s language', async ({ page }) => {
    await seedSession(page, { language: 'tc' });
    await page.goto('/verify');
    await pageReady(page);
    await page.getByLabel(tc.verify.reference).pressSequentially('hello');
    await page.keyboard.press('Enter');
    await expect(page.getByText('這不是函件的參考編號', { exact: false })).toBeVisible();
    await expect(page.getByLabel(tc.verify.reference)).toBeFocused();
  });
});
