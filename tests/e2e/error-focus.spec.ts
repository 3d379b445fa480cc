import { expect, test } from '@playwright/test';
import { fieldDomId, FORM_CATALOGUE } from '../../machines/forms';
import { firstStepPath } from '../../machines/routes';
import { pageReady, seedSession } from './support';

/**
 * Correcting an answer after the error summary showed (docs/forms.md, "Errors and focus"): the summary
 * takes focus when Continue finds problems; then the person clicks a field and types a correction key by
 * key, and every key stays in that field, the summary shrinking as they go.
 */
const A2 = FORM_CATALOGUE.a2;

test('after "There is a problem", typing a correction key by key keeps every key and the focus', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await seedSession(page, { language: 'en' });
  await page.goto(firstStepPath('a2'));
  await pageReady(page);
  await page.getByRole('button', { name: 'Save and go to preview' }).click();
  const summary = page.locator('.error-summary');
  await expect(summary).toBeFocused();
  const before = await summary.locator('li').count();
  expect(before).toBeGreaterThan(1);

  const step = A2.steps[0];
  if (step?.kind !== 'fill') throw new Error('no fill step');
  const text = step.sections.flatMap((s) => s.fields).find((f) => f.kind === 'text' && f.required);
  if (!text) throw new Error('no required text field on the first step');
  const field = page.locator(`#${fieldDomId([text.id])}`);
  await field.click();
  await page.keyboard.type('WXYZ', { delay: 30 });
  await expect(field).toHaveValue('WXYZ');
  await expect(field).toBeFocused();
  // The summary lost the corrected field's line without taking focus back.
  await expect(summary.locator('li')).toHaveCount(before - 1);
});
