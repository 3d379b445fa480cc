import type { Condition, Field, FormDefinition, WizardStep } from '../../forms/types';
import type {
  ApplyContext,
  ApplyStateMeta,
  SaveDraftError,
  SubmitApplicationError,
  ValidateStep,
} from './types';
import type { Answers } from '../../forms/fields';
import { linesOf } from '../../forms/check';

/** Pure step arithmetic of the wizard: which steps exist, which are reachable, which route a state shows. */

/** `meta.route` of a screen: `{slug}` is the definition's slug, `{fill}` the current fill step's number, `{preview}` ... the number of that fixed step. */
export const routeTemplate = (kind: 'fill' | 'preview' | 'upload' | 'success') =>
  `/form-{slug}-step{${kind}}`;
/** `meta.titleKey` of the fill screens: the current fill step's own title key. */
export const STEP_TITLE = '{step.titleKey}';

export const stepRoute = (definition: FormDefinition, stepIndex: number) =>
  `/form-${definition.slug}-step${stepIndex + 1}`;

/** Every route of the form's wizard, in step order. */
export const stepRoutes = (definition: FormDefinition) =>
  definition.steps.map((_, i) => stepRoute(definition, i));

/** The step number (1-based) of a pathname of this form, or undefined: what a typed URL asks for. */
export function stepFromRoute(definition: FormDefinition, pathname: string): number | undefined {
  const prefix = `/form-${definition.slug}-step`;
  if (!pathname.startsWith(prefix)) return undefined;
  const n = Number(pathname.slice(prefix.length));
  return Number.isInteger(n) && n >= 1 && n <= definition.steps.length ? n : undefined;
}

export const isFillStep = (definition: FormDefinition, stepIndex: number) =>
  definition.steps[stepIndex]?.kind === 'fill';

export const fillStepIndexes = (definition: FormDefinition) =>
  definition.steps.flatMap((step, i) => (step.kind === 'fill' ? [i] : []));

/** The index of the fixed screen of a kind; -1 when the definition has none. */
export const indexOfStep = (definition: FormDefinition, kind: Exclude<WizardStep['kind'], 'fill'>) =>
  definition.steps.findIndex((step) => step.kind === kind);

/**
 * The furthest step number a typed URL may open: a step is reachable when every step before it is valid.
 * Fill steps and the preview are reachable this way; upload and success only through the machine (the
 * preview must be confirmed, the application signed and submitted), so the answer is at most the preview.
 */
export function furthestReachableStep(
  definition: FormDefinition,
  answers: Answers,
  validate: ValidateStep,
): number {
  for (const [i, step] of definition.steps.entries()) {
    if (step.kind !== 'fill') return i + 1;
    if (!validate(i, answers).ok) return i + 1;
  }
  return Math.max(1, definition.steps.length);
}

/** The step index a requested step number leads to: itself when reachable, else the furthest reachable. */
export function reachableStepIndex(
  context: Pick<ApplyContext, 'definition' | 'answers' | 'validate'>,
  step: number,
) {
  const furthest = furthestReachableStep(context.definition, context.answers, context.validate);
  const wanted = Number.isFinite(step) ? Math.trunc(step) : 1;
  return Math.max(1, Math.min(wanted, furthest)) - 1;
}

export const areAllStepsValid = (context: Pick<ApplyContext, 'definition' | 'answers' | 'validate'>) =>
  fillStepIndexes(context.definition).every((i) => context.validate(i, context.answers).ok);

export const hasAllRequiredDocuments = (context: Pick<ApplyContext, 'definition' | 'documents'>) =>
  context.definition.documents.every((d) => !d.required || context.documents[d.id] === true);

/** Resolves a state's `meta.route` / `meta.titleKey` template for the current context. */
export function resolveMeta(template: string, context: Pick<ApplyContext, 'definition' | 'stepIndex'>) {
  const { definition, stepIndex } = context;
  const step = definition.steps[stepIndex];
  return template
    .replace(STEP_TITLE, step?.kind === 'fill' ? step.titleKey : '')
    .replace('{slug}', definition.slug)
    .replace(/\{(fill|preview|upload|success)\}/, (_, kind: 'fill' | 'preview' | 'upload' | 'success') =>
      String((kind === 'fill' ? stepIndex : indexOfStep(definition, kind)) + 1),
    );
}

export interface Screen {
  screen: NonNullable<ApplyStateMeta['screen']>;
  route: string;
  titleKey: string;
  busy: boolean;
  /** 1-based step number and the number of steps, for "Step 2 of 6". */
  step: number;
  total: number;
}

/** What the UI shows for a snapshot of the wizard: the exact route, the title, busy. */
export function screenOf(snapshot: {
  context: ApplyContext;
  getMeta: () => Record<string, unknown>;
}): Screen | undefined {
  const metas = Object.entries(snapshot.getMeta())
    .filter(([id]) => id.startsWith('apply.wizard.'))
    .sort(([a], [b]) => a.split('.').length - b.split('.').length)
    .map(([, meta]) => meta as ApplyStateMeta);
  const meta = metas.reduce<ApplyStateMeta>((all, m) => ({ ...all, ...m }), {});
  if (!meta.screen || !meta.route || !meta.titleKey) return undefined;
  return {
    screen: meta.screen,
    route: resolveMeta(meta.route, snapshot.context),
    titleKey: resolveMeta(meta.titleKey, snapshot.context),
    busy: meta.busy === true,
    step: snapshot.context.stepIndex + 1,
    total: snapshot.context.definition.steps.length,
  };
}

// ---- A validator from the definition's `required` flags (tests, traversal, demo; the UI uses the zod schema) ----

const holds = (when: Condition | undefined, answers: Answers) => {
  if (!when) return true;
  const value = answers[when.field];
  if ('equals' in when) return value === when.equals;
  if ('oneOf' in when) return typeof value === 'string' && when.oneOf.includes(value);
  if ('includes' in when) return typeof value === 'string' && linesOf(value).includes(when.includes);
  return value !== when.notEquals;
};

const filled = (v: unknown) => typeof v === 'string' && v.trim() !== '';

function isAnswered(field: Field, value: unknown): boolean {
  switch (field.kind) {
    case 'checkbox':
      return value === true;
    case 'number':
      return typeof value === 'number' ? Number.isFinite(value) : filled(value);
    case 'address': {
      const a = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
      return filled(a.en) && filled(a.zh);
    }
    case 'table': {
      const rows = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
      const required = field.columns.filter((c) => c.required);
      return (
        rows.length >= Math.max(1, field.minRows ?? 1) &&
        rows.every((row) => required.every((c) => filled(row[c.id])))
      );
    }
    default:
      return filled(value);
  }
}

/** Every required field (shown under its conditions) answered; errors keyed `forms:errors.required`. */
export function requiredAnswersValidator(definition: FormDefinition): ValidateStep {
  return (stepIndex, answers) => {
    const step = definition.steps[stepIndex];
    if (step?.kind !== 'fill') return { ok: true, errors: {} };
    const errors: Record<string, string> = {};
    for (const section of step.sections) {
      if (!holds(section.when, answers)) continue;
      for (const field of section.fields)
        if (field.required && holds(field.when, answers) && !isAnswered(field, answers[field.id]))
          errors[field.id] = 'forms:errors.required';
    }
    return { ok: Object.keys(errors).length === 0, errors };
  };
}

// ---- Errors the actors reject with ----

const kindOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null && 'kind' in error ? error.kind : undefined;

/**
 * Anything but a well-formed `stale` / `expired` / `refused` counts as a network failure (retried later);
 * a refusal keeps its messages (the person corrects the answers, nothing is retried as it is).
 */
export const toSaveError = (error: unknown): SaveDraftError => {
  const kind = kindOf(error);
  if (kind === 'stale' || kind === 'expired') return { kind };
  if (kind !== 'refused') return { kind: 'network' };
  const { errors, message } = error as { errors?: unknown; message?: unknown };
  const texts =
    typeof errors === 'object' && errors !== null
      ? Object.fromEntries(
          Object.entries(errors).filter((e): e is [string, string] => typeof e[1] === 'string'),
        )
      : {};
  return typeof message === 'string' && message !== 'refused'
    ? { kind: 'refused', errors: texts, message }
    : { kind: 'refused', errors: texts };
};

/** Is this server error's path (`minorWorks.0.description`) about the answer `id` (or a part of it)? */
export const isErrorOf = (path: string, id: string): boolean => path === id || path.startsWith(`${id}.`);

export const toSubmitError = (error: unknown): SubmitApplicationError => {
  if (kindOf(error) !== 'duplicate') {
    const message = (error as { message?: unknown } | null)?.message;
    return typeof message === 'string' && message !== 'failed'
      ? { kind: 'failed', message }
      : { kind: 'failed' };
  }
  const at = (error as { submittedAt?: unknown }).submittedAt;
  return typeof at === 'string' ? { kind: 'duplicate', submittedAt: at } : { kind: 'duplicate' };
};

/** An `Error` carrying an actor error's fields, for actors to reject with: `throw applyFailure({ kind: 'stale' })`. */
export const applyFailure = <T extends { kind: string }>(error: T): Error & T =>
  Object.assign(new Error(error.kind), error);
