import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from '@playwright/test';
import type { FormDefinition } from '../../../machines/forms/types';
import type { Language } from '../../../machines/rules/language';
import { landscapeA4 } from '../../support/pdf-corpus';
import { codeSentTo } from '../outbox';

/**
 * The second half of an application as a person does it in the browser: confirm the email on the
 * preview, upload the required documents, sign with iAM Smart (the sandbox's phone answered through its
 * development API, as a phone would), submit, and see the success page. Texts come from the i18n files,
 * so the same steps run in every language.
 */
const messages = (lang: Language, ns: string): unknown =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../../i18n/${lang}/${ns}.json`, import.meta.url)), 'utf8'),
  );

/** The text of `ns:key.path` in `lang`, with `{{name}}` values filled in. */
export function text(lang: Language, ns: string, key: string, params: Record<string, string> = {}): string {
  const v = key
    .split('.')
    .reduce<unknown>(
      (o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
      messages(lang, ns),
    );
  if (typeof v !== 'string') throw new Error(`no text for ${lang} ${ns}:${key}`);
  return v.replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');
}

/**
 * Confirms the applicant's (or the contact person's) email or mobile on the preview with the one-time
 * password from the outbox.
 */
export async function confirmContact(
  page: Page,
  channel: 'email' | 'mobile',
  to: string,
  lang: Language = 'en',
  party: 'applicant' | 'contactPerson' = 'applicant',
): Promise<void> {
  const box = page.locator(`section.verify-contact[data-party="${party}"]`);
  await expect(box).toBeVisible();
  const choice = box.locator(`label:has(input[value="${channel}"])`);
  if (await choice.isVisible()) await choice.click();
  await box.getByRole('button', { name: text(lang, 'wizard', 'contact.send') }).click();
  await box.getByLabel(text(lang, 'auth', 'findMyCase.code.label')).fill(await codeSentTo(page, to));
  await box.getByRole('button', { name: text(lang, 'auth', 'findMyCase.submit'), exact: true }).click();
  // As confirmed: an email in lower case, a mobile without spaces.
  const shown = channel === 'email' ? to.toLowerCase() : to.replace(/\s/g, '');
  await expect(box).toContainText(text(lang, 'wizard', 'contact.verified', { to: shown }));
}

/** Chooses a document type in the upload form's select (by its key, the same in every language). */
export async function chooseDocumentType(page: Page, documentType: string): Promise<void> {
  await page.locator('#document-type').click();
  await page.locator(`[role="option"][data-key="${documentType}"]`).click();
}

/** Uploads a landscape A4 PDF for every required document of the form. */
export async function uploadRequiredDocuments(page: Page, definition: FormDefinition): Promise<void> {
  const pdf = Buffer.from(await landscapeA4());
  for (const d of definition.documents.filter((doc) => doc.required)) {
    await chooseDocumentType(page, d.id);
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: `${d.id}.pdf`, mimeType: 'application/pdf', buffer: pdf });
    const line = page.locator(`[data-document="${d.id}"] .documents__file`);
    await expect(line).toContainText(`${d.id}.pdf`);
    // "1 page", never "1 page(s)" (issue 14).
    await expect(line).toContainText(/1 (page|頁|页)[,，]/);
  }
}

/** The identification code shown while signing with iAM Smart. */
export async function identificationCode(page: Page): Promise<string> {
  const code = page.locator('.signing__code-value');
  await expect(code).toHaveText(/^\d{4}$/);
  return (await code.innerText()).trim();
}

/** Plays the phone: answers the sandbox request showing `code` (approve, decline, D70004, D70005). */
export async function answerOnPhone(
  page: Page,
  code: string,
  action: 'approve' | 'decline' | 'no-signing-function' | 'other-hkic',
): Promise<void> {
  const list = await page.request.get('/api/dev/iamsmart');
  expect(list.ok()).toBe(true);
  const requests = ((await list.json()) as { data: { txId: string; identificationCode: string }[] }).data;
  const request = requests.find((r) => r.identificationCode === code);
  if (!request) throw new Error(`no sandbox request with identification code ${code}`);
  const answer = await page.request.post(`/api/dev/iamsmart/${request.txId}`, { data: { action } });
  expect(answer.ok()).toBe(true);
}

/** From the documents screen: continue, sign with iAM Smart and approve on the phone. */
export async function signWithIamSmart(page: Page, lang: Language = 'en'): Promise<void> {
  await page.getByRole('button', { name: text(lang, 'wizard', 'upload.continue') }).click();
  await page.getByRole('button', { name: text(lang, 'signing', 'choose.iamsmart') }).click();
  await answerOnPhone(page, await identificationCode(page), 'approve');
  await expect(page.getByRole('heading', { name: text(lang, 'wizard', 'submit.title') })).toBeVisible({
    timeout: 15_000,
  });
}

/** Submits and checks the success page; answers the download links of the page. */
export async function submitApplication(
  page: Page,
  applicationNo: string,
  lang: Language = 'en',
): Promise<Locator> {
  await page.getByRole('button', { name: text(lang, 'wizard', 'submit.button') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    text(lang, 'flows', 'steps.success.title'),
    {
      timeout: 15_000,
    },
  );
  await expect(page.getByText(text(lang, 'wizard', 'success.body', { applicationNo }))).toBeVisible();
  // Nothing is saved after submission: no "Saved at" here (issue 14).
  await expect(page.locator('.save-indicator')).toHaveCount(0);
  const downloads = page.locator('ul.downloads');
  await expect(downloads.locator('a[data-file="archive"]')).toBeVisible();
  return downloads;
}

/** The bytes of a download started by clicking `link`. */
export async function downloadOf(page: Page, link: Locator): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const chunks: Buffer[] = [];
  for await (const c of await file.createReadStream()) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
