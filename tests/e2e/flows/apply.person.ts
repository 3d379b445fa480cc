import { expect } from '@playwright/test';
import type { AnyEventObject } from 'xstate';
import { FORM_CATALOGUE, fieldsOf } from '../../../machines/forms';
import { answerField, fillStep } from './fill-form';
import { answerOnPhone, confirmContact, identificationCode, uploadRequiredDocuments } from './submit-flow';
import type { EventAction, PersonContext, PersonMapping } from './person';

/**
 * The application wizard as a person meets it on Form A2 (the registry walks a small definition with
 * A2's slug; here the real A2 of the catalogue is on screen). An answer event is the person answering
 * that field with the form's example; "next" is completing the step and pressing the button.
 */
const a2 = FORM_CATALOGUE.a2;
/** The applicant's email in the form: its own address (the login paths send codes to the applicant's email). */
const emailOf = (ctx: PersonContext) => `apply-${ctx.applicant.applicationNo.toLowerCase()}@example.hk`;
/** The contact person's email: their own address too (the contact person confirms theirs as well). */
const personEmailOf = (ctx: PersonContext) =>
  `person-${ctx.applicant.applicationNo.toLowerCase()}@example.hk`;
const example = (ctx: PersonContext): Record<string, unknown> => ({
  ...a2.example,
  applicantEmail: emailOf(ctx),
  contactEmail: personEmailOf(ctx),
});
const field = (id: string) => fieldsOf(a2).find((p) => p.field.id === id)?.field;

const button = (name: string): EventAction => ({
  act: ({ page }) => page.getByRole('button', { name, exact: true }).click(),
});

export const applyPerson: PersonMapping = {
  flowId: 'apply',
  start: '/form-a2-step1',
  route: (screen) =>
    ({
      'apply.wizard.preview': '/form-a2-step2',
      'apply.wizard.upload': '/form-a2-step3',
      'apply.wizard.success': '/form-a2-step4',
    })[screen] ?? '/form-a2-step1',
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
      // Save for later needs an email or mobile in the form (decision 027): a person without one gives it first.
      case 'draft.save':
        return {
          act: async (ctx) => {
            const email = ctx.page.locator('#field-applicantEmail');
            const mobile = ctx.page.locator('#field-applicantMobile');
            if ((await email.inputValue()) === '' && (await mobile.inputValue()) === '')
              await email.pressSequentially(emailOf(ctx));
            await ctx.page.getByRole('button', { name: 'Save for later', exact: true }).click();
          },
        };
      case 'saved.continue':
        return button('Continue Application');
      case 'contact.verified':
        // Only a confirmation a person can make: the codes sent to the applicant's and the contact person's email.
        return (event as unknown as { verified: boolean }).verified
          ? {
              act: async (ctx) => {
                await confirmContact(ctx.page, 'email', emailOf(ctx));
                await confirmContact(ctx.page, 'email', personEmailOf(ctx), 'en', 'contactPerson');
              },
            }
          : null;
      case 'documents.change':
        // The registry's sample has one required document; the real A2 on screen needs all of its own.
        return (event as unknown as { present: boolean }).present
          ? { act: ({ page }) => uploadRequiredDocuments(page, a2) }
          : null;
      case 'documents.complete':
        return button('Continue to signing');
      case 'xstate.done.actor.signDocuments':
        // Signed (the output is the signature; null is going back from signing): iAM Smart, approved on the phone.
        return (event as unknown as { output: unknown }).output
          ? {
              act: async ({ page }) => {
                await page.getByRole('button', { name: 'Signing with iAM Smart' }).click();
                await answerOnPhone(page, await identificationCode(page), 'approve');
                await expect(page.getByRole('heading', { name: 'Submit the application' })).toBeVisible({
                  timeout: 15_000,
                });
              },
            }
          : null;
      case 'submit.confirm':
        return button('Submit application');
      case 'xstate.done.actor.submitApplication':
        return {
          act: ({ page }) =>
            expect(page.getByRole('heading', { level: 1 })).toHaveText('Submission Success', {
              timeout: 15_000,
            }),
        };
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
    'apply.wizard.upload': async ({ page }) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Upload Documents and Sign');
      await expect(page.getByRole('heading', { name: 'Documents for this application' })).toBeVisible();
    },
    'apply.wizard.success': async ({ page }) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Submission Success');
      await expect(page.getByRole('heading', { name: 'Application Details' })).toBeVisible();
      await expect(page.locator('a[data-file="archive"]')).toBeVisible();
    },
    'apply.wizard.saved': async ({ page }) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application Saved');
      await expect(page.locator('.saved__code')).toHaveText(/^A2-\d{4}-\d{6}$/);
    },
  },
  notReplayed: {
    'apply.wizard.savingForLater':
      "a moment between pressing Save for later and its answer, on the fill step's route and heading; the path tests reach it",
    'apply.wizard.checking':
      'the case check of a self-certification step; the sample form A2 these paths replay has none; tests/paths/apply-case-check.test.ts walks it on SCS-1 and SCC-2, tests/e2e/selfcert.spec.ts fills those steps in the browser',
  },
};
