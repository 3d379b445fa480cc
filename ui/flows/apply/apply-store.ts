import { createActor, type ActorRefFrom } from 'xstate';
import i18next from 'i18next';
import { applyMachine } from '../../../machines/flows/apply.machine';
import type { FormDefinition } from '../../../machines/forms/types';
import { issueText, schemaFor, toFormIssues, type FormIssue } from '../../../machines/forms';
import { inspectOptions } from '../inspector';
import { applyActors } from './apply-actors';
import type { DraftCopy, ValidateStep } from '../../../machines/flows/apply/types';

export type ApplyActor = ActorRefFrom<typeof applyMachine>;

/** The issues of one fill step of a definition, from the same zod schema the API validates with. */
export function stepIssues(
  definition: FormDefinition,
  stepIndex: number,
  answers: Record<string, unknown>,
): FormIssue[] {
  const step = definition.steps[stepIndex];
  if (step?.kind !== 'fill') return [];
  const result = schemaFor(definition, { stepId: step.id }).safeParse(answers);
  return result.success ? [] : toFormIssues(result.error);
}

function validatorFor(definition: FormDefinition): ValidateStep {
  return (stepIndex, answers) => {
    const issues = stepIssues(definition, stepIndex, answers);
    const errors: Record<string, string> = {};
    for (const issue of issues) errors[issue.fieldId] ??= issue.message;
    return { ok: issues.length === 0, errors };
  };
}

/**
 * One running wizard for the whole visit of a form's routes: moving between `/form-a2-step1` and
 * `/form-a2-step2` keeps the same actor (and its answers); opening another form, resuming a draft, or
 * starting a new form (`fresh`) starts a new one.
 */
let running: { key: string; actor: ApplyActor } | null = null;

export function applyActorFor(definition: FormDefinition, resume?: DraftCopy, fresh = false): ApplyActor {
  if (running && running.key === definition.key && !resume && !fresh) return running.actor;
  running?.actor.stop();
  const actor = createActor(applyMachine.provide({ actors: applyActors }), {
    input: { definition, now: () => Date.now(), validate: validatorFor(definition), resume },
    ...inspectOptions(),
  });
  actor.start();
  running = { key: definition.key, actor };
  return actor;
}

/**
 * The fields of the letter step the department issued (reference, date, items) for a wizard opened from
 * its case with the letter on record: shown read only (docs/decisions/021-self-certification.md). Kept
 * with the wizard's actor, so each step's page finds them.
 */
const issuedLetters = new WeakMap<ApplyActor, ReadonlySet<string>>();

export const issuedFieldsOf = (actor: ApplyActor): ReadonlySet<string> =>
  issuedLetters.get(actor) ?? new Set();

export function markLetterIssued(actor: ApplyActor, fields: readonly string[]): void {
  issuedLetters.set(actor, new Set(fields));
}

/** The wizard of this form already running in this page (moving between its steps), if any. */
export function runningApplyActor(key: string): ApplyActor | undefined {
  return running?.key === key ? running.actor : undefined;
}

/** A form issue as text in the page's language. */
export const issueMessage = (issue: Pick<FormIssue, 'message' | 'params'>): string =>
  issueText(issue, (key, params) => i18next.t(key, params), i18next.language);

/** Forget the running wizard of a form (after Exit), so the next visit starts afresh. */
export function dropApplyActor(key: string): void {
  if (running?.key !== key) return;
  running.actor.stop();
  running = null;
}

/**
 * A field to focus when the wizard next shows a fill step (after the page heading took focus): the way
 * back from another step to one answer, such as the HKIC that iAM Smart needs.
 */
let focusOnArrival: string | null = null;

export function focusFieldOnArrival(domId: string): void {
  focusOnArrival = domId;
}

export function takeFocusOnArrival(): string | null {
  const id = focusOnArrival;
  focusOnArrival = null;
  return id;
}
