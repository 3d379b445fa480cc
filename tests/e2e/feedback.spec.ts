import { expect, test, type Page } from '@playwright/test';
import { FORM_CATALOGUE } from '../../machines/forms';
import type { FormDefinition } from '../../machines/forms/types';
import type { Language } from '../../machines/rules/language';
import { MINOR_WORKS_DESCRIPTION_MAX } from '../../machines/rules/minor-works';
import { axeViolations, pageReady, seedSession } from './support';
import { fillStep } from './flows/fill-form';
import { text } from './flows/submit-flow';
import { caseNoFor } from './fixtures-selfcert';

/**
 * What a person is told while filling a form (docs/forms.md "Length limits", docs/flows/apply.md
 * "Autosave: what a failed save says"): the error summary lists each problem once and a ticked box is no
 * problem; a text with a limit shows its count and keeps text over it, marked with a message; a save the
 * portal refuses says why at the answer, never that the portal could not be reached.
 */

/** Fills the fill steps before `upTo` and moves on with each step's own button. */
async function fillSteps(
  page: Page,
  definition: FormDefinition,
  answers: Record<string, unknown>,
  upTo: number,
  lang: Language,
) {
  for (let i = 0; i < upTo; i++) {
    await fillStep(page, definition, i, answers);
    const last = definition.steps[i + 1]?.kind !== 'fill';
    await page.getByRole('button', { name: text(lang, 'wizard', last ? 'toPreview' : 'next') }).click();
    await expect(page).toHaveURL(new RegExp(`/form-${definition.slug}-step${i + 2}$`));
  }
}

/** SCS-1 opened on its Letter of Requirements step (Parts A and B filled, the case checked). */
async function toLetterStep(page: Page, lang: Language, tag: string) {
  await seedSession(page, { language: lang });
  const definition = FORM_CATALOGUE.scs1;
  const answers = {
    ...definition.example,
    caseApplicationNo: caseNoFor('scs1'),
    applicantEmail: `feedback-${tag}@example.hk`,
  };
  await page.goto('/form-scs-1-step1');
  await pageReady(page);
  await fillSteps(page, definition, answers, 2, lang);
  await expect(page).toHaveURL(/\/form-scs-1-step3$/);
}

const cell = (page: Page, row: number, column: string) => page.locator(`#field-minorWorks-${row}-${column}`);
/** The field around a table cell: its count and its message. */
const cellField = (page: Page, row: number, column: string) =>
  page.locator('.table-field__cell', { has: cell(page, row, column) });

test('the error summary lists each problem once; ticked certification boxes are not errors (en)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await toLetterStep(page, 'en', 'summary');
  const next = page.getByRole('button', { name: text('en', 'wizard', 'toPreview') });
  await next.click();
  const summary = page.locator('.error-summary');
  await expect(summary).toBeFocused();
  const certify = text('en', 'forms', 'errors.certify');
  // Three boxes unticked, one problem: listed once, linked to the first box.
  await expect(summary.getByRole('link', { name: certify })).toHaveCount(1);
  await summary.getByRole('link', { name: certify }).click();
  await expect(page.locator('#field-certifyInspected')).toBeFocused();

  // Corrections change the list above the certification entries many times (the key a repeated message
  // had left stale copies behind, and ticked boxes still listed).
  await page.locator('#field-lorReference').pressSequentially('BD 2/9041/26');
  await page.locator('#field-minorWorksCarriedOut label:has(input[value="no"])').click();
  for (const id of ['certifyInspected', 'certifyComplied', 'certifySafe']) {
    await page.locator(`label:has(#field-${id})`).click();
    await expect(page.locator(`#field-${id}`)).toBeChecked();
  }
  await expect(summary.getByText(certify)).toHaveCount(0);
  await next.click();
  await expect(summary).toBeFocused();
  await expect(summary.getByText(certify)).toHaveCount(0);
  const listed = await summary.locator('li').allInnerTexts();
  expect(listed.length).toBeGreaterThan(0);
  expect(new Set(listed).size, listed.join(' | ')).toBe(listed.length);
  // The boxes themselves carry no message.
  await expect(page.locator('#field-certifyInspected')).not.toHaveAttribute('aria-invalid', 'true');
});

test('tc: a description over its limit is kept, counted and marked; an emoji refused by the autosave is explained at the cell', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const lang: Language = 'tc';
  await toLetterStep(page, lang, 'limits');
  await page.locator('#field-minorWorksCarriedOut label:has(input[value="yes"])').click();
  await page.locator('#field-minorWorks').getByRole('button', { name: '在小型工程新增一列' }).click();
  await expect(cell(page, 0, 'no')).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.type('3.5');
  await page.keyboard.press('Tab');
  const description = cell(page, 0, 'description');
  await expect(description).toBeFocused();
  const field = cellField(page, 0, 'description');
  const count = field.locator('.field__count');
  const max = MINOR_WORKS_DESCRIPTION_MAX;
  // The limit and the count are shown from the first character, tied to the input.
  await page.keyboard.type('工程');
  await expect(count).toHaveText(text(lang, 'common', 'characterCount.used', { n: '2', max: String(max) }));
  await expect(description).toHaveAttribute(
    'aria-describedby',
    new RegExp(`${await count.getAttribute('id')}`),
  );

  // Up to the limit (most of it pasted), then key by key past it: nothing is cut.
  await page.keyboard.insertText('冷氣機支架'.repeat(99) + '一');
  await expect(count).toHaveText(text(lang, 'common', 'characterCount.used', { n: '498', max: String(max) }));
  await description.pressSequentially('安裝');
  await expect(count).toHaveText(
    text(lang, 'common', 'characterCount.used', { n: String(max), max: String(max) }),
  );
  await expect(description).not.toHaveAttribute('aria-invalid', 'true');
  await description.pressSequentially('工程');
  await expect(description).toHaveValue(/安裝工程$/);
  expect((await description.inputValue()).length).toBe(max + 2);
  await expect(count).toHaveText(text(lang, 'common', 'characterCount.over', { n: '2', max: String(max) }));
  await expect(description).toHaveAttribute('aria-invalid', 'true');
  await expect(field.locator('.field__error')).toContainText(String(max));
  // Announced politely once typing pauses.
  const status = field.locator('.field__count-live');
  await expect(status).toHaveAttribute('aria-live', 'polite');
  await expect(status).toHaveText(text(lang, 'common', 'characterCount.over', { n: '2', max: String(max) }));
  // Focus stays where the person types.
  await expect(description).toBeFocused();

  // Pasting far too much keeps it all, so that it can be shortened.
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText('長'.repeat(max + 100));
  expect((await description.inputValue()).length).toBe(max + 100);
  await expect(count).toHaveText(text(lang, 'common', 'characterCount.over', { n: '100', max: String(max) }));
  await expect(description).toHaveAttribute('aria-invalid', 'true');
  expect(await axeViolations(page), 'the letter step with a description over its limit').toEqual([]);

  // Shortened by keyboard: the message goes.
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('冷氣機支架');
  await expect(description).not.toHaveAttribute('aria-invalid', 'true');
  await expect(field.locator('.field__error')).toHaveCount(0);

  // An emoji: the autosave is refused (400), and the page says why, at the cell and in the save status.
  await page.keyboard.insertText('😀');
  const unprintable = /包含 "😀" \(U\+1F600\)，此字元無法列印在申請表上：申請表所用的字型/;
  await expect(field.locator('.field__error')).toHaveText(unprintable, { timeout: 15_000 });
  await expect(description).toHaveAttribute('aria-invalid', 'true');
  const saveStatus = page.locator('.save-indicator [role="status"]');
  await expect(saveStatus).toContainText('未能儲存：');
  await expect(saveStatus).toContainText('U+1F600');
  await expect(saveStatus).not.toContainText(text(lang, 'wizard', 'autosave.error'));
  await expect(page.getByText('無法連接本網站')).toHaveCount(0);
  // The summary did not take focus from the person typing.
  await expect(description).toBeFocused();
  expect(await axeViolations(page), 'the letter step with a refused save').toEqual([]);

  // Removing the emoji takes the message away and the answers are saved.
  await page.keyboard.press('Backspace');
  await expect(description).toHaveValue('冷氣機支架');
  await expect(field.locator('.field__error')).toHaveCount(0);
  await expect(saveStatus).toHaveText(/^已於.+儲存$/, { timeout: 15_000 });
});
