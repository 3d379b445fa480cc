import { expect, test, type Page } from '@playwright/test';
import { applicableFieldIds, fieldDomId, FORM_CATALOGUE } from '../../machines/forms';
import type { Field, FormDefinition, TableRow } from '../../machines/forms/types';
import type { Language } from '../../machines/rules/language';
import { axeViolations, pageReady, seedSession } from './support';
import { confirmContact, text } from './flows/submit-flow';
import { answerField, fillStep } from './flows/fill-form';
import { caseNoFor } from './fixtures-selfcert';
import { FOLLOW_UP_APPLICANTS } from './fixtures-followups';
import { logInToCase } from './case-login';

/**
 * A reload part-way through a form (docs/decisions/027-draft-kept-on-reload.md): the same step, every answer
 * and the same number come back, the heading has focus, Back works; the number shows from the first
 * autosave; Save for later without an email or mobile asks for one first. B2 in English and Traditional
 * Chinese, SCS-1 (three fill steps, the case checked by the API) in English.
 */

const sel = (...path: (string | number)[]) => `#${fieldDomId(path)}`;
const w = (lang: Language, key: string, params?: Record<string, string>) => text(lang, 'wizard', key, params);


const fieldsOfStep = (definition: FormDefinition, stepIndex: number, answers: Record<string, unknown>) => {
  const step = definition.steps[stepIndex];
  if (step?.kind !== 'fill') throw new Error(`step ${stepIndex} is not a fill step`);
  const applicable = applicableFieldIds(definition, answers);
  return step.sections
    .flatMap((s) => s.fields)
    .filter((f) => applicable.has(f.id))
    .filter((f) => ![undefined, '', false].includes(answers[f.id] as never));
};

async function typeStep(
  page: Page,
  definition: FormDefinition,
  stepIndex: number,
  answers: Record<string, unknown>,
) {
  for (const field of fieldsOfStep(definition, stepIndex, answers))
    await answerField(page, field, answers[field.id]);
}

/** Every answer of the step is on screen as it was typed. */
async function expectStep(
  page: Page,
  definition: FormDefinition,
  stepIndex: number,
  answers: Record<string, unknown>,
) {
  for (const field of fieldsOfStep(definition, stepIndex, answers)) {
    const value = answers[field.id];
    switch (field.kind) {
      case 'text':
      case 'email':
      case 'mobile':
      case 'phone':
      case 'hkic':
      case 'number':
        await expect(page.locator(sel(field.id)), field.id).toHaveValue(String(value));
        break;
      case 'address':
        for (const [part, v] of Object.entries(value as Record<string, string | undefined>))
          if (v) await expect(page.locator(sel(field.id, part)), `${field.id}.${part}`).toHaveValue(v);
        break;
      case 'radio':
        await expect(
          page.locator(`${sel(field.id)} input[value="${String(value)}"]`),
          field.id,
        ).toBeChecked();
        break;
      case 'checkbox':
        await expect(page.locator(sel(field.id)), field.id).toBeChecked();
        break;
      case 'date': {
        const [year = '', month = '', day = ''] = String(value).split('-');
        for (const [type, part] of [
          ['year', year],
          ['month', month],
          ['day', day],
        ] as const)
          await expect(
            page.locator(`${sel(field.id)} [data-type="${type}"]`),
            `${field.id} ${type}`,
          ).toHaveText(new RegExp(`^0*${Number(part)}$`));
        break;
      }
      case 'table':
        for (const [i, row] of (value as TableRow[]).entries())
          for (const [col, v] of Object.entries(row)) {
            const column = field.columns.find((c) => c.id === col);
            if (v && column?.kind !== 'select')
              await expect(page.locator(sel(field.id, i, col)), `${field.id} ${i} ${col}`).toHaveValue(v);
          }
        break;
      default:
        break;
    }
  }
}

/** The number the first autosave gave, shown near the save indicator, as a polite status. */
async function draftNumber(page: Page, definition: FormDefinition): Promise<string> {
  const shown = page.locator('.draft-number');
  await expect(shown).toHaveAttribute('role', 'status');
  await expect(shown).toContainText(new RegExp(`${definition.code}-\\d{4}-\\d{6}`));
  const match = new RegExp(`${definition.code}-\\d{4}-\\d{6}`).exec(await shown.innerText());
  return match?.[0] ?? '';
}

async function expectReloaded(
  page: Page,
  definition: FormDefinition,
  lang: Language,
  number: string,
  step: number,
  heading: string,
) {
  await expect(page).toHaveURL(new RegExp(`/form-${definition.slug}-step${step}$`));
  const h1 = page.getByRole('heading', { level: 1 });
  await expect(h1).toHaveText(heading);
  await expect(h1).toBeFocused();
  await expect(page.locator('.flow-step__progress')).toHaveText(
    w(lang, 'stepOf', { n: String(step), total: String(definition.steps.length) }),
  );
  await expect(page.locator('.draft-number')).toContainText(number);
}

const stepTitle = (lang: Language, definition: FormDefinition, stepIndex: number) => {
  const step = definition.steps[stepIndex];
  if (step?.kind !== 'fill') throw new Error('not a fill step');
  return text(lang, 'forms', step.titleKey);
};

test.describe('a reload part-way through a form', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  for (const lang of ['en', 'tc'] as const) {
    test(`B2 in ${lang}: the number from the first autosave; Save for later asks for a contact; a reload mid-form and at the preview keeps the step, the answers and the number`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await seedSession(page, { language: lang });
      const definition = FORM_CATALOGUE.b2;
      const answers: Record<string, unknown> = {
        ...definition.example,
        applicantEmail: `reload-${lang}@example.hk`,
      };
      const fill = stepTitle(lang, definition, 0);
      await page.goto('/form-b2-step1');
      await pageReady(page);

      // Before any contact is typed, Save for later says the code could not be used, and offers the field.
      const name = definition.steps[0]?.kind === 'fill' ? fieldsOfStep(definition, 0, answers) : [];
      const first = name.find((f) => f.id === 'applicantNameEn');
      if (first) await answerField(page, first, answers.applicantNameEn);
      await page.getByRole('button', { name: w(lang, 'saveForLater') }).click();
      const dialog = page.getByRole('alertdialog', { name: w(lang, 'noContact.title') });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(w(lang, 'noContact.body'));
      expect(await axeViolations(page), 'the dialog').toEqual([]);
      await dialog.getByRole('button', { name: w(lang, 'noContact.add') }).click();
      await expect(dialog).toBeHidden();
      await expect(page.locator(sel('applicantEmail'))).toBeFocused();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(fill);

      // The number shows from the first autosave, without taking focus.
      const number = await draftNumber(page, definition);
      await expect(page.locator(sel('applicantEmail'))).toBeFocused();

      // Everything typed; the last keys are not saved yet when the page reloads.
      await typeStep(page, definition, 0, { ...answers, applicantNameEn: undefined });
      await page.reload();
      await pageReady(page);
      await expectReloaded(page, definition, lang, number, 1, fill);
      await expectStep(page, definition, 0, answers);
      expect(await axeViolations(page), 'the reloaded step').toEqual([]);

      // On to the preview, and a reload there.
      await page.getByRole('button', { name: w(lang, 'toPreview') }).click();
      await expect(page).toHaveURL(/\/form-b2-step2$/);
      await page.reload();
      await pageReady(page);
      await expectReloaded(page, definition, lang, number, 2, w(lang, 'preview.title'));
      for (const id of ['applicantNameEn', 'applicantEmail', 'schoolNameEn', 'orgNameEn'])
        await expect(page.locator('.content-page')).toContainText(String(answers[id]));
      expect(await axeViolations(page), 'the reloaded preview').toEqual([]);

      // Back after the reload: the fill step, every answer in place, the same number.
      await page.getByRole('button', { name: w(lang, 'back'), exact: true }).click();
      await expect(page).toHaveURL(/\/form-b2-step1$/);
      await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
      await expectStep(page, definition, 0, answers);
      await expect(page.locator('.draft-number')).toContainText(number);

      // Save for later with a contact: the same number.
      await page.getByRole('button', { name: w(lang, 'saveForLater') }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(w(lang, 'saved.title'));
      await expect(page.locator('.saved__code')).toHaveText(number);
    });
  }

  test('SCS-1: a reload at Part B, at the Letter of Requirements and at the preview keeps the step, the answers and the number; Back after it', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const lang = 'en';
    await seedSession(page, { language: lang });
    const definition = FORM_CATALOGUE.scs1;
    const answers: Record<string, unknown> = {
      ...definition.example,
      caseApplicationNo: caseNoFor('scs1'),
      applicantEmail: 'reload-scs1@example.hk',
    };
    await page.goto('/form-scs-1-step1');
    await pageReady(page);
    await typeStep(page, definition, 0, answers);
    const number = await draftNumber(page, definition);
    await page.getByRole('button', { name: w(lang, 'next') }).click();
    await expect(page).toHaveURL(/\/form-scs-1-step2$/);

    // Part B, half typed: a reload keeps it.
    const partB = fieldsOfStep(definition, 1, answers);
    const half = Math.ceil(partB.length / 2);
    for (const field of partB.slice(0, half)) await answerField(page, field, answers[field.id]);
    await page.reload();
    await pageReady(page);
    await expectReloaded(page, definition, lang, number, 2, stepTitle(lang, definition, 1));
    const typed = Object.fromEntries(partB.slice(0, half).map((f) => [f.id, answers[f.id]]));
    await expectStep(page, definition, 1, { ...typed, certifierIdentity: answers.certifierIdentity });
    for (const field of partB.slice(half)) await answerField(page, field, answers[field.id]);
    await page.getByRole('button', { name: w(lang, 'next') }).click();
    await expect(page).toHaveURL(/\/form-scs-1-step3$/);

    // The Letter of Requirements typed, then a reload.
    await typeStep(page, definition, 2, answers);
    await page.reload();
    await pageReady(page);
    await expectReloaded(page, definition, lang, number, 3, stepTitle(lang, definition, 2));
    await expectStep(page, definition, 2, answers);

    // Back after the reload: Part B as typed.
    await page.getByRole('button', { name: w(lang, 'back'), exact: true }).click();
    await expect(page).toHaveURL(/\/form-scs-1-step2$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    await expectStep(page, definition, 1, answers);
    await page.getByRole('button', { name: w(lang, 'next') }).click();
    await expect(page).toHaveURL(/\/form-scs-1-step3$/);
    await page.getByRole('button', { name: w(lang, 'toPreview') }).click();
    await expect(page).toHaveURL(/\/form-scs-1-step4$/);

    // The preview, reloaded.
    await page.reload();
    await pageReady(page);
    await expectReloaded(page, definition, lang, number, 4, w(lang, 'preview.title'));
    await expect(page.locator('.content-page')).toContainText(String(answers.lorReference));
    await expect(page.locator('.content-page')).toContainText(String(answers.certifierRegNo));
    expect(await axeViolations(page)).toEqual([]);
  });

  test('a new tab starts a new form with a new number', async ({ page, context }) => {
    await seedSession(page, { language: 'en' });
    const definition = FORM_CATALOGUE.b2;
    await page.goto('/form-b2-step1');
    await pageReady(page);
    await answerField(page, { id: 'applicantNameEn', kind: 'text' } as Field, 'CHAN Tai Man');
    const number = await draftNumber(page, definition);
    const other = await context.newPage();
    await other.goto('/form-b2-step1');
    await pageReady(other);
    await expect(other.locator(sel('applicantNameEn'))).toHaveValue('');
    await expect(other.locator('.draft-number')).toHaveText('');
    await answerField(other, { id: 'applicantNameEn', kind: 'text' } as Field, 'LEE');
    expect(await draftNumber(other, definition)).not.toBe(number);
  });

  test('Update information: a reload mid-way and at the preview keeps the change and the screen, in Traditional Chinese', async ({
    page,
  }) => {
    const lang = 'tc';
    await seedSession(page, { language: lang });
    await page.goto('/form-usi-step1');
    await logInToCase(page, lang, FOLLOW_UP_APPLICANTS.reloadUpdateTc.n);
    const title = text(lang, 'flows', 'forms.updateInformation.title');
    const h1 = page.getByRole('heading', { level: 1 });
    await expect(h1).toHaveText(title);
    const school = page.getByLabel(text(lang, 'forms', 'fields.school.proposedNameEn'));
    await expect(school).not.toHaveValue('');
    const before = await school.inputValue();
    await school.clear();
    await school.pressSequentially('Harbour Reload Centre');

    await page.reload();
    await pageReady(page);
    await expect(h1).toHaveText(title);
    await expect(h1).toBeFocused();
    await expect(school).toHaveValue('Harbour Reload Centre');
    expect(await axeViolations(page), 'the reloaded form').toEqual([]);

    await page.getByText(text(lang, 'forms', 'followUp.update.confirmSchool')).click();
    await page.getByRole('button', { name: text(lang, 'case', 'continue') }).click();
    const preview = text(lang, 'case', 'screens.preview');
    await expect(h1).toHaveText(preview);
    await page.reload();
    await pageReady(page);
    await expect(h1).toHaveText(preview);
    await expect(h1).toBeFocused();
    const change = page.locator('[data-field="schoolNameEn"]');
    await expect(change.locator('del')).toHaveText(before);
    await expect(change.locator('ins')).toHaveText('Harbour Reload Centre');
    expect(await axeViolations(page), 'the reloaded preview').toEqual([]);

    // Back (Change): the form with the change and the tick.
    await page.getByRole('button', { name: text(lang, 'case', 'change') }).click();
    await expect(school).toHaveValue('Harbour Reload Centre');
  });

  test('A2: a reload at the upload step returns to it once the preview was confirmed; Back goes to the preview', async ({
    page,
  }) => {
    const lang = 'en';
    await seedSession(page, { language: lang });
    const definition = FORM_CATALOGUE.a2;
    const answers: Record<string, unknown> = {
      ...definition.example,
      applicantEmail: 'reload-upload@example.hk',
      contactEmail: 'reload-upload-person@example.hk',
    };
    await page.goto('/form-a2-step1');
    await pageReady(page);
    // The typing itself is tested above: here the answers only need to be there.
    await fillStep(page, definition, 0, answers);
    const number = await draftNumber(page, definition);
    await page.getByRole('button', { name: w(lang, 'toPreview') }).click();
    await expect(page).toHaveURL(/\/form-a2-step2$/);
    await confirmContact(page, 'email', String(answers.applicantEmail));
    await confirmContact(page, 'email', String(answers.contactEmail), lang, 'contactPerson');
    await page.getByRole('button', { name: w(lang, 'preview.confirm') }).click();
    await expect(page).toHaveURL(/\/form-a2-step3$/);

    await page.reload();
    await pageReady(page);
    await expectReloaded(page, definition, lang, number, 3, text(lang, 'flows', 'steps.upload.title'));
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: w(lang, 'back'), exact: true }).click();
    await expect(page).toHaveURL(/\/form-a2-step2$/);
    await expect(page.locator('.content-page')).toContainText(String(answers.applicantNameEn));
  });
});
