import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  type CaseActionFailure,
  caseActionMachine,
  type LoadCaseOutput,
  type SubmitActionInput,
  type SubmitActionOutput,
} from '../../machines/flows/case-action.machine';
import { allowedEvents, nextStatus, OPEN_FACTS } from '../../machines/flows/case-lifecycle.machine';

const LOADED: LoadCaseOutput = {
  kind: 'case',
  summary: {
    applicationNo: 'A2-2026-000123',
    status: 'SUBMITTED',
    formCode: 'A2',
    applicationType: 'NEWSCH',
    submittedAt: '2026-01-02T02:00:00.000Z',
  },
  allowed: true,
  prefill: { name: 'CHAN Tai Man' },
  calendar: { today: '2026-01-05', holidays: [] },
};
const DONE: SubmitActionOutput = { reference: 'WD-1', status: 'WITHDRAWN', submittedAt: '' };

/** A follow-up actor whose API answers come from the given lists, one per call. */
function start(
  options: {
    hasPreview?: boolean;
    hasUpload?: boolean;
    hasSign?: boolean;
    loads?: LoadCaseOutput[];
    submits?: (SubmitActionOutput | CaseActionFailure)[];
  } = {},
) {
  const loads = [...(options.loads ?? [LOADED])];
  const submits = [...(options.submits ?? [DONE])];
  const submit = vi.fn((input: SubmitActionInput) => {
    const next = submits.shift() ?? DONE;
    // The machine reads a typed failure (CaseActionFailure) from the rejection, as the UI's actor gives it.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- see above
    return 'kind' in next ? Promise.reject(next) : Promise.resolve({ ...next, key: input.idempotencyKey });
  });
  const machine = caseActionMachine.provide({
    actors: {
      loadCase: fromPromise<LoadCaseOutput>(() => Promise.resolve(loads.shift() ?? LOADED)),
      submitAction: fromPromise<SubmitActionOutput, SubmitActionInput>(({ input }) => submit(input)),
    },
  });
  const actor = createActor(machine, {
    input: {
      hasPreview: options.hasPreview ?? false,
      hasUpload: options.hasUpload ?? false,
      hasSign: options.hasSign ?? false,
      validate: (answers) => answers.confirm === true,
      idempotencyKey: 'flow-key-000000001',
    },
  }).start();
  return { actor, submit };
}

describe('acting on a case', () => {
  it('goes from fill straight to submitting when the form has no preview (Withdraw)', async () => {
    const { actor, submit } = start();
    await waitFor(actor, (s) => s.matches('fill'));
    expect(actor.getSnapshot().context.answers).toEqual({ name: 'CHAN Tai Man' });
    actor.send({ type: 'step.next' });
    expect(actor.getSnapshot().context.showErrors).toBe(true);
    actor.send({ type: 'answer.change', field: 'confirm', value: true });
    actor.send({ type: 'step.next' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(submit).toHaveBeenCalledWith({
      answers: { name: 'CHAN Tai Man', confirm: true },
      idempotencyKey: 'flow-key-000000001',
    });
    expect(actor.getSnapshot().context.summary?.status).toBe('WITHDRAWN');
  });

  it('keeps what was typed through a login in the middle, and sends the same key on a retry', async () => {
    const { actor, submit } = start({
      loads: [LOADED, { ...LOADED, prefill: { name: 'someone else' } }],
      submits: [{ kind: 'loggedOut' }, { kind: 'network' }, DONE],
    });
    await waitFor(actor, (s) => s.matches('fill'));
    actor.send({ type: 'answer.change', field: 'confirm', value: true });
    actor.send({ type: 'step.next' });
    await waitFor(actor, (s) => s.matches('login'));
    actor.send({ type: 'login.done' });
    await waitFor(actor, (s) => s.matches('fill'));
    expect(actor.getSnapshot().context.answers).toEqual({ name: 'CHAN Tai Man', confirm: true });
    actor.send({ type: 'step.next' });
    await waitFor(actor, (s) => s.matches('submitFailed'));
    actor.send({ type: 'flow.retry' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(new Set(submit.mock.calls.map(([input]) => input.idempotencyKey))).toEqual(
      new Set(['flow-key-000000001']),
    );
  });

  it('shows the API’s field errors on the form, and explains a status that changed meanwhile', async () => {
    const { actor } = start({
      hasPreview: true,
      submits: [
        { kind: 'invalid', fields: { confirm: 'Tick the box' } },
        { kind: 'notAllowed', status: 'WITHDRAWN', message: 'Withdrawn' },
      ],
    });
    await waitFor(actor, (s) => s.matches('fill'));
    actor.send({ type: 'answer.change', field: 'confirm', value: true });
    actor.send({ type: 'step.next' });
    expect(actor.getSnapshot().value).toBe('preview');
    actor.send({ type: 'step.submit' });
    await waitFor(actor, (s) => s.matches('fill') && s.context.showErrors);
    expect(actor.getSnapshot().context.failure).toEqual({
      kind: 'invalid',
      fields: { confirm: 'Tick the box' },
    });
    actor.send({ type: 'step.next' });
    actor.send({ type: 'step.submit' });
    await waitFor(actor, (s) => s.matches('notAllowed'));
    expect(actor.getSnapshot().context.summary?.status).toBe('WITHDRAWN');
  });

  it('shows an update form the information as it is now, with the person’s changes kept, when stale', async () => {
    const opened = { version: 1, answers: { name: 'CHAN Tai Man', school: 'Harbour' } };
    const now = { version: 2, answers: { name: 'CHAN Tai Man', school: 'Harbour Learning' } };
    const { actor, submit } = start({
      hasPreview: true,
      loads: [{ ...LOADED, prefill: opened.answers, information: opened }],
      submits: [{ kind: 'stale', information: now, message: 'Changed meanwhile' }, DONE],
    });
    await waitFor(actor, (s) => s.matches('fill'));
    actor.send({ type: 'answer.change', field: 'name', value: 'CHAN Siu Wai' });
    actor.send({ type: 'answer.change', field: 'confirm', value: true });
    actor.send({ type: 'step.next' });
    actor.send({ type: 'step.submit' });
    await waitFor(actor, (s) => s.matches('fill') && s.context.failure?.kind === 'stale');
    expect(actor.getSnapshot().context.answers).toEqual({
      name: 'CHAN Siu Wai',
      school: 'Harbour Learning',
      confirm: true,
    });
    actor.send({ type: 'step.next' });
    actor.send({ type: 'step.submit' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(submit.mock.calls.map(([input]) => input.baseVersion)).toEqual([1, 2]);
  });

  it('with an upload step only: needs a file, then sends the files with the answers', async () => {
    const { actor, submit } = start({ hasUpload: true });
    await waitFor(actor, (s) => s.matches('fill'));
    actor.send({ type: 'answer.change', field: 'confirm', value: true });
    actor.send({ type: 'step.next' });
    expect(actor.getSnapshot().value).toBe('upload');
    actor.send({ type: 'step.next' });
    expect(actor.getSnapshot().context.showErrors).toBe(true);
    actor.send({ type: 'upload.change', uploads: [{ id: 7, documentType: 'other', fileName: 'a.pdf' }] });
    actor.send({ type: 'step.next' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(submit.mock.calls[0]![0].uploads).toEqual([7]);
  });

  it('with upload and sign: back from signing to the files; a changed file asks for a new signature', async () => {
    const { actor, submit } = start({
      hasUpload: true,
      hasSign: true,
      submits: [{ kind: 'unsigned', message: 'Sign again' }, DONE],
    });
    await waitFor(actor, (s) => s.matches('fill'));
    actor.send({ type: 'answer.change', field: 'confirm', value: true });
    actor.send({ type: 'step.next' });
    actor.send({ type: 'upload.change', uploads: [{ id: 7, documentType: 'other', fileName: 'a.pdf' }] });
    actor.send({ type: 'step.next' });
    expect(actor.getSnapshot().value).toBe('sign');
    actor.send({ type: 'step.back' });
    expect(actor.getSnapshot().value).toBe('upload');
    actor.send({ type: 'step.next' });
    actor.send({ type: 'sign.done', reference: 'sig-1' });
    await waitFor(actor, (s) => s.matches('sign') && s.context.failure?.kind === 'unsigned');
    actor.send({ type: 'sign.done', reference: 'sig-2' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(submit.mock.calls.map(([input]) => input.signature)).toEqual(['sig-1', 'sig-2']);
  });

  it('with a sign step only, and with a preview: back to the form from each', async () => {
    const signOnly = start({ hasSign: true }).actor;
    await waitFor(signOnly, (s) => s.matches('fill'));
    signOnly.send({ type: 'answer.change', field: 'confirm', value: true });
    signOnly.send({ type: 'step.next' });
    expect(signOnly.getSnapshot().value).toBe('sign');
    signOnly.send({ type: 'step.back' });
    expect(signOnly.getSnapshot().value).toBe('fill');

    const withPreview = start({ hasPreview: true }).actor;
    await waitFor(withPreview, (s) => s.matches('fill'));
    withPreview.send({ type: 'answer.change', field: 'confirm', value: true });
    withPreview.send({ type: 'step.next' });
    withPreview.send({ type: 'step.back' });
    expect(withPreview.getSnapshot().value).toBe('fill');
  });

  it("answers the department's request it was opened on: the request's id goes with the submission", async () => {
    const { actor, submit } = start({
      loads: [{ ...LOADED, request: { id: 42, documentTypes: ['layoutPlans'] } }],
    });
    await waitFor(actor, (s) => s.matches('fill'));
    expect(actor.getSnapshot().context.request).toEqual({ id: 42, documentTypes: ['layoutPlans'] });
    actor.send({ type: 'answer.change', field: 'confirm', value: true });
    actor.send({ type: 'step.next' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(submit.mock.calls[0]![0].requestId).toBe(42);
    // Without a request, no id is sent.
    const plain = start();
    await waitFor(plain.actor, (s) => s.matches('fill'));
    plain.actor.send({ type: 'answer.change', field: 'confirm', value: true });
    plain.actor.send({ type: 'step.next' });
    await waitFor(plain.actor, (s) => s.matches('done'));
    expect(plain.submit.mock.calls[0]![0]).not.toHaveProperty('requestId');
  });

  it('starts from the answers kept before a reload, laid over the prefill (an update form keeps only its changes)', async () => {
    const machine = caseActionMachine.provide({
      actors: {
        loadCase: fromPromise<LoadCaseOutput>(() => Promise.resolve(LOADED)),
        submitAction: fromPromise<SubmitActionOutput, SubmitActionInput>(() => Promise.resolve(DONE)),
      },
    });
    const actor = createActor(machine, {
      input: {
        hasPreview: false,
        validate: () => true,
        idempotencyKey: 'flow-key-000000002',
        initialAnswers: { note: 'typed before the reload', confirm: false },
      },
    }).start();
    await waitFor(actor, (s) => s.matches('fill'));
    expect(actor.getSnapshot().context.answers).toEqual({
      name: 'CHAN Tai Man',
      note: 'typed before the reload',
      confirm: false,
    });

    // A kept answer wins over the prefill of the same field (a changed name of an update form).
    const changed = createActor(machine, {
      input: {
        hasPreview: false,
        validate: () => true,
        idempotencyKey: 'flow-key-000000003',
        initialAnswers: { name: 'CHAN Siu Ming' },
      },
    }).start();
    await waitFor(changed, (s) => s.matches('fill'));
    expect(changed.getSnapshot().context.answers).toEqual({ name: 'CHAN Siu Ming' });
  });

  it('asks for the login first when logged out, and explains when the action is not allowed', async () => {
    const { actor } = start({ loads: [{ kind: 'loggedOut' }, { ...LOADED, allowed: false }] });
    await waitFor(actor, (s) => s.matches('login'));
    actor.send({ type: 'login.done' });
    await waitFor(actor, (s) => s.matches('notAllowed'));
  });
});

describe('the case lifecycle', () => {
  it('lets only the applicant withdraw, from any open status, and nobody after', () => {
    expect(nextStatus('INSPECTED', 'case.withdraw', { actor: 'applicant' })).toBe('WITHDRAWN');
    expect(nextStatus('SUBMITTED', 'case.withdraw', { actor: 'caseOfficer' })).toBeNull();
    expect(nextStatus('CERTIFICATE_ISSUED', 'case.withdraw', { actor: 'applicant' })).toBeNull();
    expect(allowedEvents('WITHDRAWN', { actor: 'applicant' })).toEqual([]);
  });

  it('allows an inspection request once works can be inspected, and only one open at a time', () => {
    expect(nextStatus('SUBMITTED', 'inspection.request', { actor: 'applicant' })).toBeNull();
    const rse = {
      actor: 'rse',
      actorRef: 'RSE 567',
      facts: { ...OPEN_FACTS, appointees: ['rse:RSE 567'] },
    } as const;
    expect(nextStatus('LOR_ISSUED', 'inspection.request', rse)).toBe('INSPECTION_REQUESTED');
    // An RSE who is not appointed to the case may not.
    expect(nextStatus('LOR_ISSUED', 'inspection.request', { ...rse, actorRef: 'RSE 999' })).toBeNull();
    expect(nextStatus('INSPECTION_REQUESTED', 'inspection.request', { actor: 'applicant' })).toBeNull();
    expect(nextStatus('INSPECTED', 'lor.issue', { actor: 'caseOfficer' })).toBe('LOR_ISSUED');
  });

  it('keeps the status for a follow-up that adds to the case', () => {
    const ap = {
      actor: 'ap',
      actorRef: 'AP(E) 1',
      facts: { ...OPEN_FACTS, appointees: ['ap:AP(E) 1'] },
    } as const;
    expect(nextStatus('UNDER_EXAMINATION', 'document.submit', ap)).toBe('UNDER_EXAMINATION');
    expect(nextStatus('CLOSED', 'document.submit', { actor: 'applicant' })).toBeNull();
  });
});
