import { expect } from '@playwright/test';
import type { AnyEventObject } from 'xstate';
import { FORM_CATALOGUE, fieldsOf } from '../../../machines/forms';
import { answerField, fillStep } from './fill-form';
import type { EventAction, PersonContext, PersonMapping } from './person';

/**
 * The application wizard as a person meets it on Form A2 (the registry walks a small definition with
 * A2's slug; here the real A2 of the catalogue is on screen). An answer event is the person answering
 * that field with the form's example; "next" is completing the step and pressing the button.
 */
const a2 = FORM_CATALOGUE.a2;
const example = (ctx: PersonContext): Record<string, unknown> => ({
  ...a2.example,
  applicantEmail: ctx.applicant.email,
});
const field = (id: string) => fieldsOf(a2).find((p) => p.field.id === id)?.field;

const button = (name: string): EventAction => ({
  act: ({ page }) => page.getByRole('button', { name, exact: true }).click(),
});

export const applyPerson: PersonMapping = {
  flowId: 'apply',
  start: '/form-a2-step1',
  route: (screen) => (screen === 'apply.wizard.preview' ? '/form-a2-step2' : '/form-a2-step1'),
  action(event: AnyEventObject): EventAction | null {
    switch (event.type) {
      case 'xstate.init':
        return { act: async () => {} };
      case 'field.change': {
        const { id, value } = event as unknown as { id: string; value: unknown };
        const f = field(id);
        if (!f) return null;
        if (value === '' || value === undefined)
          return { act: ({ page }) => page.locator(`#field-${id}`).fill('') };
        return { act: (ctx) => answerField(ctx.page, f, example(ctx)[id] ?? value) };
      }
      case 'step.next':
        return {
          act: async (ctx) => {
            if (await ctx.page.locator('#field-applicantNameEn').isVisible())
              await fillStep(ctx.page, a2, 0, example(ctx));
            await ctx.page
              .locator('button[type="submit"], button:has-text("Confirm and continue")')
              .first()
              .click();
          },
        };
      case 'step.back':
        return button('Back');
      case 'draft.save':
        return button('Save for later');
      case 'saved.continue':
        return button('Continue Application');
      case 'xstate.done.actor.saveDraft':
        return {
          act: ({ page }) => expect(page.getByRole('status').filter({ hasText: /Saved at/ })).toBeVisible(),
        };
      default:
        return null;
    }
  },
  sees: {
    'apply.wizard.fill': async ({ page }) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fill in Application Form');
      await expect(page.getByRole('button', { name: 'Save and go to preview' })).toBeVisible();
    },
    'apply.wizard.preview': async ({ page }) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application Form Preview');
      await expect(page.getByRole('button', { name: /^Change/ }).first()).toBeVisible();
    },
    'apply.wizard.saved': async ({ page }) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application Saved');
      await expect(page.locator('.saved__code')).toHaveText(/^A2-\d{4}-\d{6}$/);
    },
  },
  notReplayed: {
    'apply.wizard.savingForLater':
      "a moment between pressing Save for later and its answer, on the fill step's route and heading; the path tests reach it",
    'apply.wizard.upload':
      'the documents, signing and submission screens come with the documents and signing issue; until then the route says the online step is not open, and the path tests reach the state',
    'apply.wizard.success':
      'reached only through submission, which comes with the documents and signing issue',
  },
};
