import { expect, test, type FileChooser, type Page } from '@playwright/test';
import type { Language } from '../../machines/rules/language';
import { SESSION_STORAGE_KEY } from '../../machines/rules/session-state';
import { landscapeA4, portraitA4, uniqueLandscapeA4 } from '../support/pdf-corpus';
import { logInToCase } from './case-login';
import { testApplicant } from './fixtures';
import { FOLLOW_UP_APPLICANTS } from './fixtures-followups';
import { answerOnPhone, identificationCode, text } from './flows/submit-flow';
import { signAsApplicant } from './ecert-signer';
import { axeViolations, pageReady, seedSession } from './support';

/**
 * Submit Revised Layout Plan / Supporting Document (issue 11): the form, its upload step (the
 * application's uploader and checks, several files, remove), the preview, the signing (iAM Smart sandbox,
 * the phone answered through its development API) and Upload Success with each document downloadable, in
 * English; a revised layout plan with its revision in Traditional Chinese, signed with the applicant's
 * e-Cert, current on the case page; the department's request for further information answered in
 * Simplified Chinese by keyboard alone; axe on every screen.
 */

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** Chooses `option` in the select labelled `label` (react-aria's Select: a button, then a listbox). */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('button', { name: new RegExp(label) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(page.getByRole('listbox')).toHaveCount(0);
}

/** Sends a file through the upload step's file button, as a person choosing it in the system's dialog. */
async function uploadFile(page: Page, name: string, bytes: Uint8Array) {
  const chooser = page.waitForEvent('filechooser');
  await page.locator('#choose-file').click();
  await (await chooser).setFiles({ name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) });
}

/** The sign step: iAM Smart, approved on the phone; then Upload Success on step 2. */
async function signWithIamSmart(page: Page, lang: Language) {
  await page.getByRole('button', { name: text(lang, 'signing', 'choose.iamsmart') }).click();
  await answerOnPhone(page, await identificationCode(page), 'approve');
  await expect(page).toHaveURL(/\/form-submit-doc-step2$/, { timeout: 20_000 });
  await expect(
    page.getByRole('heading', { level: 1, name: text(lang, 'case', 'upload.successTitle') }),
  ).toBeVisible();
}

test.describe('Submit Revised Layout Plan / Supporting Document', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('en: a supporting document of two files, a refused one, one removed; signed; Upload Success; history', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await seedSession(page, { language: 'en' });
    const { n } = FOLLOW_UP_APPLICANTS.documentsEn;
    const no = testApplicant(n).applicationNo;
    await page.goto('/form-submit-doc-step1');
    await logInToCase(page, 'en', n);

    // The form: the type is required; "Other" asks for a description.
    await expect(
      page.getByRole('heading', { level: 1, name: text('en', 'flows', 'forms.submitDocument.title') }),
    ).toBeVisible();
    await page.getByRole('button', { name: text('en', 'case', 'continue') }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expectNoAxeViolations(page);
    await choose(
      page,
      text('en', 'forms', 'followUp.submitDocument.documentType'),
      text('en', 'forms', 'followUp.submitDocument.other'),
    );
    await page
      .getByLabel(text('en', 'forms', 'followUp.submitDocument.description'))
      .fill('Fire service certificate');
    await page
      .getByLabel(text('en', 'forms', 'followUp.submitDocument.note'))
      .fill('The certificate of 2026.');
    await page.getByRole('button', { name: text('en', 'case', 'continue') }).click();

    // The upload step: nothing uploaded yet is refused; a portrait page is refused with the application's message.
    await expect(
      page.getByRole('heading', { level: 1, name: text('en', 'case', 'screens.upload') }),
    ).toBeVisible();
    await page.getByRole('button', { name: text('en', 'case', 'continue') }).click();
    await expect(page.getByText(text('en', 'case', 'uploads.none'))).toBeVisible();
    await expectNoAxeViolations(page);
    await uploadFile(page, 'portrait.pdf', await portraitA4());
    await expect(page.locator('.upload__error')).toHaveText(
      text('en', 'api', 'documents.invalid.portrait', { name: 'portrait.pdf', page: '1' }),
    );
    await uploadFile(page, 'certificate.pdf', await uniqueLandscapeA4());
    await expect(page.locator('.documents__file')).toHaveCount(1);
    const annexPdf = await uniqueLandscapeA4();
    await uploadFile(page, 'annex.pdf', annexPdf);
    await expect(page.locator('.documents__file')).toHaveCount(2);
    // The same file again (a reload, a second click) is refused, naming the file it repeats.
    await uploadFile(page, 'annex (1).pdf', annexPdf);
    await expect(page.locator('.upload__error')).toHaveText(
      text('en', 'api', 'documents.duplicate', { name: 'annex (1).pdf', earlier: 'annex.pdf' }),
    );
    await uploadFile(page, 'wrong.pdf', await uniqueLandscapeA4());
    await expect(page.locator('.documents__file')).toHaveCount(3);
    await page
      .getByRole('button', { name: text('en', 'case', 'uploads.removeLabel', { name: 'wrong.pdf' }) })
      .click();
    await expect(page.locator('.documents__file')).toHaveCount(2);
    await expect(page.getByRole('status').filter({ hasText: 'wrong.pdf' })).toBeAttached();
    await expectNoAxeViolations(page);

    // A reload (or a phone's return from the iAM Smart app) loses nothing: the upload step again, its
    // heading focused, the files listed; the answers are on the form behind it (decision 027).
    await page.reload();
    const uploadHeading = page.getByRole('heading', { level: 1, name: text('en', 'case', 'screens.upload') });
    await expect(uploadHeading).toBeVisible();
    await expect(uploadHeading).toBeFocused();
    await expect(page.locator('.documents__file')).toHaveCount(2);
    await page.getByRole('button', { name: text('en', 'wizard', 'back'), exact: true }).click();
    await expect(page.getByLabel(text('en', 'forms', 'followUp.submitDocument.description'))).toHaveValue(
      'Fire service certificate',
    );
    await page.getByRole('button', { name: text('en', 'case', 'continue') }).click();
    await expect(page.locator('.documents__file')).toHaveCount(2);
    await page.getByRole('button', { name: text('en', 'case', 'continue') }).click();

    // The preview lists the answers and the files; then signing.
    await expect(
      page.getByRole('heading', { level: 1, name: text('en', 'case', 'screens.preview') }),
    ).toBeVisible();
    await expect(page.getByText('Fire service certificate')).toBeVisible();
    await expect(page.locator('section.preview').getByText('annex.pdf')).toBeVisible();
    await expectNoAxeViolations(page);
    // A reload on the preview returns to it, with the answers and the files.
    await page.reload();
    const previewHeading = page.getByRole('heading', {
      level: 1,
      name: text('en', 'case', 'screens.preview'),
    });
    await expect(previewHeading).toBeVisible();
    await expect(previewHeading).toBeFocused();
    await expect(page.getByText('Fire service certificate')).toBeVisible();
    await expect(page.locator('section.preview').getByText('annex.pdf')).toBeVisible();
    await page.getByRole('button', { name: text('en', 'case', 'signAndSubmit') }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: text('en', 'case', 'screens.sign') }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    await signWithIamSmart(page, 'en');

    // Upload Success: the reference and each document, downloadable.
    await expect(page.getByText(`SD-${no}-1`)).toBeVisible();
    const annex = page.getByRole('button', { name: /annex\.pdf/ });
    await expect(annex).toBeVisible();
    await expect(page.getByRole('button', { name: /certificate\.pdf/ })).toBeVisible();
    await expectNoAxeViolations(page);
    const download = page.waitForEvent('download');
    await annex.click();
    expect((await download).suggestedFilename()).toBe(`${no} annex.pdf`);

    // The case's history has the row, with its two files.
    await page.getByRole('link', { name: text('en', 'case', 'toCase') }).click();
    await expect(page).toHaveURL(/\/case-history$/);
    await pageReady(page);
    const row = page.getByRole('row').filter({ hasText: `SD-${no}-1` });
    await expect(row).toContainText(text('en', 'auth', 'history.documentTypes.SUPPORTING_DOCUMENT'));
    await expect(row.getByRole('button')).toHaveCount(2);
  });

  test('en: a session ended elsewhere: the upload is refused and, as for any call, the login is cleared and the home page opens', async ({
    page,
  }) => {
    await seedSession(page, { language: 'en' });
    const { n } = FOLLOW_UP_APPLICANTS.sessionEndedEn;
    await page.goto('/form-submit-doc-step1?type=layout-plan');
    await logInToCase(page, 'en', n);
    await page.getByLabel(text('en', 'forms', 'followUp.submitDocument.revision')).pressSequentially('C');
    await page.getByRole('button', { name: text('en', 'case', 'continue') }).click();
    await expect(page.locator('#choose-file')).toBeVisible();
    // The session ends elsewhere (the person logged out in another tab): the token no longer works.
    const ended = await page.evaluate(async (key) => {
      const { token } = JSON.parse(localStorage.getItem(key) ?? '{}') as { token?: string };
      const res = await fetch('/api/auth/logout', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token ?? ''}` },
      });
      return res.status;
    }, SESSION_STORAGE_KEY);
    expect(ended).toBe(200);
    await uploadFile(page, 'plan-rev-c.pdf', await landscapeA4());
    // The upload's 401 is handled as the API client handles one: logged out, on the home page.
    await expect(page).toHaveURL(/\/$/);
    const stored = await page.evaluate((k) => localStorage.getItem(k), SESSION_STORAGE_KEY);
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ isLogin: false, token: '' });
  });

  test('tc: a revised layout plan from the menu, with its revision, signed by e-Cert, current on the case page', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await seedSession(page, { language: 'tc' });
    const { n } = FOLLOW_UP_APPLICANTS.layoutPlanTc;
    const no = testApplicant(n).applicationNo;
    await page.goto('/form-submit-doc-step1?type=layout-plan');
    await logInToCase(page, 'tc', n);

    // The menu chose the layout plans: the revision is asked for, and required.
    const revision = page.getByLabel(text('tc', 'forms', 'followUp.submitDocument.revision'));
    await expect(revision).toBeVisible();
    await page.getByRole('button', { name: text('tc', 'case', 'continue') }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expectNoAxeViolations(page);
    await revision.fill('B');
    await page.getByRole('button', { name: text('tc', 'case', 'continue') }).click();
    await uploadFile(page, 'plan-rev-b.pdf', await landscapeA4());
    await expect(page.locator('.documents__file')).toHaveCount(1);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: text('tc', 'case', 'continue') }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: text('tc', 'case', 'screens.preview') }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: text('tc', 'case', 'signAndSubmit') }).click();
    await expectNoAxeViolations(page);
    // Signed with the applicant's e-Cert, over the text the screen shows (the digest of answers and files).
    await page.getByRole('button', { name: text('tc', 'signing', 'choose.ecert') }).click();
    const signed = (await page.locator('.signing__text').innerText()).trim();
    expect(signed).toMatch(/^[0-9a-f]{64}$/);
    await expectNoAxeViolations(page);
    await page.locator('input[type="file"]').setInputFiles({
      name: 'plan.p7s',
      mimeType: 'application/pkcs7-signature',
      buffer: await signAsApplicant(signed),
    });
    await page.getByRole('button', { name: text('tc', 'signing', 'ecert.submit') }).click();
    await expect(page).toHaveURL(/\/form-submit-doc-step2$/, { timeout: 20_000 });
    await expect(page.getByText(text('tc', 'case', 'page.revision', { revision: 'B' }))).toBeVisible();
    await expectNoAxeViolations(page);

    // The case page: the revision's row says which revision, and its plans are the current ones.
    await page.getByRole('link', { name: text('tc', 'case', 'toCase') }).click();
    await pageReady(page);
    const row = page.getByRole('row').filter({ hasText: `SD-${no}-1` });
    await expect(row).toContainText(text('tc', 'auth', 'history.documentTypes.LAYOUT_PLAN'));
    await expect(row).toContainText(text('tc', 'case', 'page.revision', { revision: 'B' }));
    await expect(row.locator('.badge--current')).toHaveText(text('tc', 'case', 'page.currentPlan'));
    await expectNoAxeViolations(page);
  });

  test("sc: the department's request answered by keyboard alone, its type chosen already", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const choosers: FileChooser[] = [];
    page.on('filechooser', (chooser) => choosers.push(chooser));
    await seedSession(page, { language: 'sc' });
    const { n } = FOLLOW_UP_APPLICANTS.requestSc;
    // Find my case by keyboard (inside the form), then the case page with the department's request.
    await page.goto('/form-submit-doc-step1');
    await logInToCase(page, 'sc', n, { keyboard: true });
    // Logged in: the form's first screen (only then is the session there for the case page).
    await expect(
      page.getByRole('heading', { level: 1, name: text('sc', 'flows', 'forms.submitDocument.title') }),
    ).toBeVisible();
    await page.goto('/case-history');
    await pageReady(page);
    const reply = page.getByRole('link', { name: text('sc', 'case', 'department.reply') });
    await expect(reply).toBeVisible();
    await reply.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/form-submit-doc-step1\?request=\d+$/);

    // The request asked for the layout plans: chosen already; the revision is typed.
    const revision = page.getByLabel(text('sc', 'forms', 'followUp.submitDocument.revision'));
    await expect(revision).toBeVisible();
    await revision.focus();
    await page.keyboard.type('C');
    await page.getByRole('button', { name: text('sc', 'case', 'continue') }).focus();
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('heading', { level: 1, name: text('sc', 'case', 'screens.upload') }),
    ).toBeVisible();
    await page.locator('#choose-file').focus();
    const before = choosers.length;
    await page.keyboard.press('Enter');
    await expect.poll(() => choosers.length).toBe(before + 1);
    await choosers[before]?.setFiles({
      name: 'plan-rev-c.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(await landscapeA4()),
    });
    await expect(page.locator('.documents__file')).toHaveCount(1);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: text('sc', 'case', 'continue') }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: text('sc', 'case', 'signAndSubmit') }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: text('sc', 'signing', 'choose.iamsmart') }).focus();
    await page.keyboard.press('Enter');
    await answerOnPhone(page, await identificationCode(page), 'approve');
    await expect(page).toHaveURL(/\/form-submit-doc-step2$/, { timeout: 20_000 });
    await expectNoAxeViolations(page);

    // The request is answered: the case page no longer offers to reply to it.
    await page.goto('/case-history');
    await pageReady(page);
    await expect(
      page.getByRole('row').filter({ hasText: text('sc', 'case', 'page.revision', { revision: 'C' }) }),
    ).toHaveCount(1);
    await expect(page.getByRole('link', { name: text('sc', 'case', 'department.reply') })).toHaveCount(0);
  });
});
