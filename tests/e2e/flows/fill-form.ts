import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { applicableFieldIds, fieldDomId } from '../../../machines/forms';
import type { AddressAnswer, Field, FormDefinition, TableRow } from '../../../machines/forms/types';

const forms = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../i18n/en/forms.json', import.meta.url)), 'utf8'),
) as unknown;

/** The English text of a `forms` key. */
export function en(key: string): string {
  const v = key
    .split('.')
    .reduce<unknown>(
      (o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
      forms,
    );
  if (typeof v !== 'string') throw new Error(`no English text for forms:${key}`);
  return v;
}

const id = (...path: (string | number)[]) => `#${fieldDomId(path)}`;

/** Type into an input as a person does, key by key, over what it held (a prefill, a row's own number). */
async function typeInto(page: Page, selector: string, value: string): Promise<void> {
  const input = page.locator(selector);
  await input.clear();
  await input.pressSequentially(value);
}

/** Answer one field as a person does: type key by key, choose, tick, add table rows. */
export async function answerField(page: Page, field: Field, value: unknown): Promise<void> {
  switch (field.kind) {
    case 'text':
    case 'email':
    case 'mobile':
    case 'phone':
    case 'hkic':
    case 'number':
      await typeInto(page, id(field.id), String(value));
      return;
    // A date is typed segment by segment (day, month, year), in whatever order the language shows them.
    case 'date': {
      const [year = '', month = '', day = ''] = String(value).split('-');
      for (const [type, part] of [
        ['day', day],
        ['month', month],
        ['year', year],
      ] as const) {
        await page.locator(`${id(field.id)} [data-type="${type}"]`).click();
        await page.keyboard.type(part);
      }
      return;
    }
    // Options are found by their value, so that the same filling works in every language.
    case 'radio':
      await page.locator(`${id(field.id)} label:has(input[value="${String(value)}"])`).click();
      return;
    case 'select':
      await page.locator(id(field.id)).click();
      await page.locator(`[role="option"][data-key="${String(value)}"]`).click();
      return;
    case 'checkbox':
      if (value === true) await page.locator(`label:has(${id(field.id)})`).click();
      return;
    case 'address': {
      const a = value as AddressAnswer;
      for (const part of ['en', 'zh', 'floor', 'unit', 'lot'] as const)
        if (a[part]) await typeInto(page, id(field.id, part), a[part]);
      return;
    }
    case 'table': {
      const rows = value as TableRow[];
      for (const [i, row] of rows.entries()) {
        await page.locator(`${id(field.id)} [data-action="add-row"]`).click();
        for (const [col, v] of Object.entries(row)) {
          const column = field.columns.find((c) => c.id === col);
          if (column?.kind === 'select') {
            if (!v) continue;
            await page.locator(id(field.id, i, col)).click();
            await page.locator(`[role="option"][data-key="${v}"]`).click();
          } else await typeInto(page, id(field.id, i, col), v);
        }
      }
      return;
    }
  }
}

/** Fill a fill step with answers, in the order of the form, only the fields that apply to them. */
export async function fillStep(
  page: Page,
  definition: FormDefinition,
  stepIndex: number,
  answers: Record<string, unknown>,
): Promise<void> {
  const step = definition.steps[stepIndex];
  if (step?.kind !== 'fill') throw new Error(`step ${stepIndex} is not a fill step`);
  for (const section of step.sections) {
    for (const field of section.fields) {
      if (!applicableFieldIds(definition, answers).has(field.id)) continue;
      const value = answers[field.id];
      if (value === undefined || value === '' || value === false) continue;
      await answerField(page, field, value);
    }
  }
}
