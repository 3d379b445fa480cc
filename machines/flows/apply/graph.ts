import type { AnyEventObject, SnapshotFrom } from 'xstate';
import type { FormDefinition } from '../../forms/types';
import type { applyMachine } from '../apply.machine';
import { fillStepIndexes, hasAllRequiredDocuments, requiredAnswersValidator } from './steps';
import type {
  ApplyEvent,
  ApplyInput,
  DraftCopy,
  SaveDraftOutput,
  SignDocumentsOutput,
  SubmitApplicationOutput,
  ValidateStep,
} from './types';

/**
 * What a traversal of the wizard needs for one form definition (the flow registry's entry, the path tests):
 * the events to try (one per branch the guards tell apart), the actor outcomes and a state serialiser that
 * keeps only what guards read. The answers themselves are left out: only each fill step's validity counts.
 */
export const APPLY_GRAPH_NOW = Date.UTC(2025, 0, 6, 9, 0, 0);
export const GRAPH_APPLICATION_NO = 'NEWSCH-2025-000123';

const done = (actorId: string, output?: unknown): AnyEventObject => ({
  type: `xstate.done.actor.${actorId}`,
  output,
});
const failed = (actorId: string, error: unknown): AnyEventObject => ({
  type: `xstate.error.actor.${actorId}`,
  error,
});

const saved: SaveDraftOutput = {
  applicationNo: GRAPH_APPLICATION_NO,
  version: 2,
  validUntil: '2025-01-20T09:00:00.000Z',
};
const signed: SignDocumentsOutput = { method: 'iamsmart', reference: 'SIG-1' };
const submitted: SubmitApplicationOutput = {
  applicationNo: GRAPH_APPLICATION_NO,
  submittedAt: '2025-01-06T09:05:00.000Z',
};

/** A valid answer for a field, from the definition's example or a plain stand-in of the field's kind. */
function sampleAnswer(definition: FormDefinition, fieldId: string): unknown {
  if (fieldId in definition.example) return definition.example[fieldId];
  const field = definition.steps
    .flatMap((s) => (s.kind === 'fill' ? s.sections.flatMap((sec) => sec.fields) : []))
    .find((f) => f.id === fieldId);
  switch (field?.kind) {
    case 'checkbox':
      return true;
    case 'number':
      return 1;
    case 'address':
      return { en: '1 Queen’s Road Central', zh: '皇后大道中1號' };
    case 'table':
      return [Object.fromEntries(field.columns.map((c) => [c.id, '1']))];
    default:
      return 'x';
  }
}

/** Per fill step: set every required field to a valid answer, and clear the first one. */
function fieldEvents(definition: FormDefinition): ApplyEvent[] {
  return definition.steps.flatMap((step) => {
    if (step.kind !== 'fill') return [];
    const required = step.sections.flatMap((s) => s.fields.filter((f) => f.required));
    const first = required[0];
    if (!first) return [];
    const value = (id: string) => sampleAnswer(definition, id);
    return [
      ...required.map((f): ApplyEvent => ({ type: 'field.change', id: f.id, value: value(f.id) })),
      { type: 'field.change', id: first.id, value: first.kind === 'checkbox' ? false : '' },
    ];
  });
}

export function applyTraversal(definition: FormDefinition, validate?: ValidateStep) {
  const check = validate ?? requiredAnswersValidator(definition);
  const fills = fillStepIndexes(definition);
  const checked = fills.filter((i) => {
    const step = definition.steps[i];
    return step?.kind === 'fill' && step.serverCheck === true;
  });
  const requiredDocs = definition.documents.filter((d) => d.required);
  const previewStep = definition.steps.findIndex((s) => s.kind === 'preview') + 1;
  const copy: DraftCopy = { ...saved, step: 1, answers: {} };
  const events: ApplyEvent[] = [
    ...fieldEvents(definition),
    { type: 'step.next' },
    { type: 'step.back' },
    { type: 'history.back' },
    { type: 'step.goto', step: 1 },
    { type: 'step.goto', step: previewStep },
    { type: 'preview.change', step: (fills[0] ?? 0) + 1 },
    { type: 'draft.save' },
    { type: 'draft.reload' },
    { type: 'saved.continue' },
    { type: 'saved.exit' },
    ...requiredDocs.flatMap((d): ApplyEvent[] => [
      { type: 'documents.change', id: d.id, present: true },
      { type: 'documents.change', id: d.id, present: false },
    ]),
    { type: 'documents.complete' },
    { type: 'contact.verified', verified: true },
    { type: 'contact.verified', verified: false },
    { type: 'sign.start' },
    { type: 'submit.confirm' },
  ];
  return {
    input: (): ApplyInput => ({ definition, now: () => APPLY_GRAPH_NOW, validate: check }),
    events,
    // The save status and the expiry follow from the autosave state; `dirty` is read only while saving and
    // the documents only on the upload screen (they are kept when the applicant goes back, but a graph node
    // that told them apart there would double every other state for no guard).
    serializeState: (s: SnapshotFrom<typeof applyMachine>) =>
      JSON.stringify({
        value: s.value,
        step: s.context.stepIndex,
        valid: fills.map((i) => check(i, s.context.answers).ok),
        returnToPreview: s.context.returnToPreview,
        contact: s.matches({ wizard: 'preview' }) ? s.context.contactVerified : undefined,
        documents: s.matches({ wizard: 'upload' }) ? hasAllRequiredDocuments(s.context) : undefined,
        dirty: s.matches({ autosave: 'saving' }) ? s.context.dirty : undefined,
        // Leaving a `serverCheck` step asks at once with a draft, else waits for the first save.
        draft: checked.length > 0 ? s.context.applicationNo !== null : undefined,
      }),
    actorOutcomes: {
      saveDraft: [
        done('saveDraft', saved),
        failed('saveDraft', { kind: 'stale' }),
        failed('saveDraft', { kind: 'expired' }),
        failed('saveDraft', { kind: 'network' }),
        failed('saveDraft', { kind: 'refused', errors: { applicantNameEn: 'Refused' } }),
      ],
      loadDraft: [
        done('loadDraft', copy),
        failed('loadDraft', { kind: 'expired' }),
        failed('loadDraft', { kind: 'network' }),
      ],
      // The signing machine's own outcomes (D70004, D70005, expiry ...) are its own paths (signing.machine.ts).
      signDocuments: [done('signDocuments', signed), done('signDocuments', null)],
      // The case check on leaving a `serverCheck` step: taken, refused at the case's field, or not answered.
      checkCase: [
        done('checkCase', { errors: {} }),
        done('checkCase', { errors: { caseApplicationNo: 'There is no application with this number' } }),
        failed('checkCase', { kind: 'network' }),
      ],
      submitApplication: [
        done('submitApplication', submitted),
        failed('submitApplication', { kind: 'duplicate' }),
        failed('submitApplication', { kind: 'failed' }),
      ],
    },
    unreachable: unreachableOf(definition),
  };
}

const CHECKING = 'apply.wizard.checking';
/** The two ways on from a fill step (`moveOn`): to the preview, or to the next fill step. */
const MOVE_ON_FROM_CHECK = [
  `${CHECKING}.awaitingDraft --xstate.after.caseCheckWait.apply.wizard.checking.awaitingDraft`,
  `${CHECKING}.asking --xstate.done.actor.checkCase`,
  `${CHECKING}.asking --xstate.error.actor.checkCase`,
];
const afterCheck = (toPreview: boolean) =>
  MOVE_ON_FROM_CHECK.map((k) => {
    const index = k.includes('done.actor') ? (toPreview ? 1 : 2) : toPreview ? 0 : 1;
    return `${k}[${index}]--> apply.wizard.${toPreview ? 'preview' : 'fill'}`;
  });

/**
 * The transitions a definition's shape leaves out: with one fill step, no next or previous one; with no
 * `serverCheck` step, no check; with every fill step checked, no unchecked way on (and so on per step).
 * The preview's "Change" in the traversal returns to the first fill step only.
 */
function unreachableOf(definition: FormDefinition): Record<string, string> {
  const fills = fillStepIndexes(definition);
  const isChecked = (i: number) => {
    const step = definition.steps[i];
    return step?.kind === 'fill' && step.serverCheck === true;
  };
  const last = fills.at(-1);
  const first = fills[0];
  const reasons: Record<string, string> = {};
  const add = (keys: string[], reason: string) => keys.forEach((k) => (reasons[k] = reason));
  if (fills.length <= 1)
    add(
      [
        'apply.wizard.fill --step.back[1]--> apply.wizard.fill',
        'apply.wizard.fill --history.back[1]--> apply.wizard.fill',
      ],
      'the form has one fill step, so there is no previous fill step to go to',
    );
  const anyChecked = fills.some(isChecked);
  if (!anyChecked)
    add(
      [CHECKING, `apply.wizard.fill --step.next[1]--> ${CHECKING}`],
      'no step of this form is checked by the API on leaving it (serverCheck): the self-certification forms are',
    );
  const uncheckedNext = fills.some((i) => !isChecked(i) && i !== last);
  const uncheckedToPreview = [first, last].some((i) => i !== undefined && !isChecked(i));
  const checkedNext = fills.some((i) => isChecked(i) && i !== last);
  const checkedToPreview = [first, last].some((i) => i !== undefined && isChecked(i));
  if (!uncheckedNext)
    add(
      ['apply.wizard.fill --step.next[3]--> apply.wizard.fill'],
      'every fill step before the last is checked by the API on leaving it',
    );
  if (!uncheckedToPreview)
    add(
      ['apply.wizard.fill --step.next[2]--> apply.wizard.preview'],
      'the last fill step (and the one "Change" returns to) is checked by the API on leaving it',
    );
  if (anyChecked && !checkedNext) add(afterCheck(false), 'no checked fill step has a fill step after it');
  if (anyChecked && !checkedToPreview)
    add(afterCheck(true), 'neither the last fill step nor the one "Change" returns to is checked');
  return reasons;
}
