import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { FORM_CATALOGUE } from '../../machines/forms';
import { applyMachine } from '../../machines/flows/apply.machine';
import { requiredAnswersValidator } from '../../machines/flows/apply/steps';
import type {
  CheckCaseInput,
  CheckCaseOutput,
  SaveDraftInput,
  SaveDraftOutput,
} from '../../machines/flows/apply/types';
import { applyFailure } from '../../machines/flows/apply/steps';

/**
 * The case a self-certification names, checked on leaving Part A and Part B (docs/flows/apply.md), on the
 * real SCS-1 with fake API actors: a refusal stays at (or returns to) the field's step with the message; a
 * taken case moves on; a failed check lets the person on; the certifier goes only from Part B.
 */
const scs1 = FORM_CATALOGUE.scs1;
const NOT_FOUND = 'There is no application with this number';
const NOT_APPOINTEE = 'The certifier must be the AP or RSE appointed for this case';

function start(answers: (input: CheckCaseInput) => CheckCaseOutput | 'fail') {
  const asked: CheckCaseInput[] = [];
  const actor = createActor(
    applyMachine.provide({
      actors: {
        saveDraft: fromPromise<SaveDraftOutput, SaveDraftInput>(() =>
          Promise.resolve({
            applicationNo: 'SCS1-2026-000001',
            version: 1,
            validUntil: '2026-12-31T00:00:00Z',
          }),
        ),
        checkCase: fromPromise<CheckCaseOutput, CheckCaseInput>(({ input }) => {
          asked.push(input);
          const answer = answers(input);
          return answer === 'fail'
            ? Promise.reject(applyFailure({ kind: 'network' as const }))
            : Promise.resolve(answer);
        }),
      },
    }),
    { input: { definition: scs1, now: () => 0, validate: requiredAnswersValidator(scs1) } },
  );
  actor.start();
  for (const [id, value] of Object.entries(scs1.example)) actor.send({ type: 'field.change', id, value });
  return { actor, asked };
}

const settled = (actor: ReturnType<typeof start>['actor']) =>
  waitFor(actor, (s) => !s.matches({ wizard: 'checking' }));

describe('the self-certification case check', () => {
  it('keeps Part A with the refusal at the case field, clears it on change, and moves on once taken', async () => {
    let refuse = true;
    const { actor, asked } = start((): CheckCaseOutput =>
      refuse ? { errors: { caseApplicationNo: NOT_FOUND } } : { errors: {} },
    );
    actor.send({ type: 'step.next' });
    let s = await settled(actor);
    expect(s.context.stepIndex).toBe(0);
    expect(s.context.serverErrors).toEqual({ caseApplicationNo: NOT_FOUND });
    // Part A sends no certifier: its fields are not on the step.
    expect(asked[0]?.fieldIds).toContain('caseApplicationNo');
    expect(asked[0]?.fieldIds).not.toContain('certifierRegNo');

    actor.send({ type: 'field.change', id: 'caseApplicationNo', value: 'A2-2026-000123' });
    expect(actor.getSnapshot().context.serverErrors).toEqual({});
    refuse = false;
    actor.send({ type: 'step.next' });
    s = await settled(actor);
    expect(s.context.stepIndex).toBe(1);
    expect(s.context.serverErrors).toEqual({});
    actor.stop();
  });

  it('keeps Part B with a certifier not appointed, and returns to Part A for a case refused there', async () => {
    let answer: CheckCaseOutput = { errors: {} };
    const { actor, asked } = start(() => answer);
    actor.send({ type: 'step.next' });
    expect((await settled(actor)).context.stepIndex).toBe(1);
    answer = { errors: { certifierRegNo: NOT_APPOINTEE } };
    actor.send({ type: 'step.next' });
    let s = await settled(actor);
    expect(s.context.stepIndex).toBe(1);
    expect(s.context.serverErrors).toEqual({ certifierRegNo: NOT_APPOINTEE });
    expect(asked.at(-1)?.fieldIds).toContain('certifierRegNo');

    answer = { errors: { caseApplicationNo: NOT_FOUND } };
    actor.send({ type: 'step.next' });
    s = await settled(actor);
    expect(s.context.stepIndex).toBe(0);
    expect(s.context.serverErrors).toEqual({ caseApplicationNo: NOT_FOUND });
    actor.stop();
  });

  it('lets the person on when the check is not answered (signing and submission check again)', async () => {
    const { actor } = start(() => 'fail');
    actor.send({ type: 'step.next' });
    const s = await settled(actor);
    expect(s.context.stepIndex).toBe(1);
    expect(s.context.serverErrors).toEqual({});
    actor.stop();
  });
});
