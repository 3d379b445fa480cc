import { describe, expect, it, vi } from 'vitest';
import {
  type ActorRefFrom,
  createActor,
  fromPromise,
  SimulatedClock,
  type SnapshotFrom,
  waitFor,
} from 'xstate';
import { signingMachine } from '../../machines/flows/signing.machine';
import type { FormDefinition } from '../../machines/forms/types';
import { applyMachine } from '../../machines/flows/apply.machine';
import type { SignDocumentsOutput } from '../../machines/flows/apply/types';
import { APPLICATION_FORM, SELF_CERTIFICATION_FORM } from './fixtures/apply-forms';
import { AUTOSAVE_DELAY_MS } from '../../machines/flows/apply/setup';
import type {
  DraftCopy,
  LoadDraftInput,
  SaveDraftError,
  SaveDraftInput,
  SaveDraftOutput,
  SubmitApplicationError,
  SubmitApplicationInput,
  SubmitApplicationOutput,
} from '../../machines/flows/apply/types';
import {
  applyFailure,
  furthestReachableStep,
  requiredAnswersValidator,
  screenOf,
  stepFromRoute,
} from '../../machines/flows/apply/steps';
import {
  signingFailure,
  type PrepareEcertInput,
  type PrepareEcertOutput,
  type VerifyEcertInput,
  type VerifyEcertOutput,
} from '../../machines/flows/signing/types';

type ApplySnapshot = SnapshotFrom<typeof applyMachine>;
type Failure = { kind: string };

const START = Date.UTC(2025, 0, 6, 9, 0, 0);
const APPLICATION_NO = 'NEWSCH-2025-000042';
const VALID_UNTIL = '2025-01-20T09:00:00.000Z';
const PART_A = { applicantNameEn: 'CHAN Tai Man' };
const PART_B = { apName: 'LEE Siu Ming' };
const LETTER = { minorWorks: [{ item: 'Fire-rated door', submissionNo: '' }] };

const isFailure = (v: object): v is Failure => 'kind' in v && !('applicationNo' in v);

interface Answers {
  save?: (SaveDraftOutput | SaveDraftError)[];
  load?: DraftCopy[];
  /** The e-Cert verifications' answers, one per signature sent (a rejection reason or the signature). */
  sign?: (SignDocumentsOutput | { kind: 'rejected'; reason: string })[];
  submit?: (SubmitApplicationOutput | SubmitApplicationError)[];
}

/** A wizard on a simulated clock whose API answers come from the given lists, one per call. */
function start(definition: FormDefinition, answers: Answers = {}, resume?: DraftCopy) {
  const clock = new SimulatedClock();
  clock.set(START);
  const answer = <T extends object>(list: (T | Failure)[] | undefined, fallback: T): Promise<T> => {
    const next = list?.shift() ?? fallback;
    return isFailure(next) ? Promise.reject(applyFailure(next)) : Promise.resolve(next);
  };
  let version = resume?.version ?? 0;
  const saveDraft = vi.fn((input: SaveDraftInput) =>
    answer<SaveDraftOutput>(answers.save, {
      applicationNo: input.applicationNo ?? APPLICATION_NO,
      version: ++version,
      validUntil: VALID_UNTIL,
    }),
  );
  const loadDraft = vi.fn((_: LoadDraftInput) =>
    answer<DraftCopy>(answers.load, undefined as unknown as DraftCopy),
  );
  const verifyEcert = vi.fn((_: VerifyEcertInput) => {
    const next = answers.sign?.shift() ?? { method: 'ecert' as const, reference: 'SIG-1' };
    return 'kind' in next
      ? Promise.reject(signingFailure(next as never))
      : Promise.resolve({ reference: next.reference });
  });
  const submitApplication = vi.fn((input: SubmitApplicationInput) =>
    answer<SubmitApplicationOutput>(answers.submit, {
      applicationNo: input.applicationNo,
      submittedAt: '2025-01-06T09:30:00.000Z',
    }),
  );
  const machine = applyMachine.provide({
    actors: {
      saveDraft: fromPromise<SaveDraftOutput, SaveDraftInput>(({ input }) => saveDraft(input)),
      loadDraft: fromPromise<DraftCopy, LoadDraftInput>(({ input }) => loadDraft(input)),
      // The real signing machine, its API calls faked: the e-Cert path (no polling to wait for).
      signDocuments: signingMachine.provide({
        actors: {
          prepareEcert: fromPromise<PrepareEcertOutput, PrepareEcertInput>(() =>
            Promise.resolve({ digest: 'ab'.repeat(32), content: 'ab'.repeat(32) }),
          ),
          verifyEcert: fromPromise<VerifyEcertOutput, VerifyEcertInput>(({ input }) => verifyEcert(input)),
        },
      }),
      submitApplication: fromPromise<SubmitApplicationOutput, SubmitApplicationInput>(({ input }) =>
        submitApplication(input),
      ),
    },
  });
  const validate = requiredAnswersValidator(definition);
  const actor = createActor(machine, {
    input: { definition, now: () => clock.now(), validate, ...(resume ? { resume } : {}) },
    clock,
  }).start();
  const state = () => actor.getSnapshot();
  const screen = () => screenOf(state());
  const fill = (values: Record<string, unknown>) => {
    for (const [id, value] of Object.entries(values)) actor.send({ type: 'field.change', id, value });
  };
  const settle = (done: (s: ApplySnapshot) => boolean) => waitFor(actor, done);
  const saved = () => settle((s) => s.matches({ autosave: 'idle' }) || s.matches({ autosave: 'debouncing' }));
  return {
    actor,
    clock,
    state,
    screen,
    fill,
    settle,
    saved,
    saveDraft,
    loadDraft,
    verifyEcert,
    submitApplication,
  };
}

type Wizard = ReturnType<typeof start>;

/** Fills every fill step and arrives at the preview, each save answered. */
async function toPreview(t: Wizard) {
  t.fill(PART_A);
  t.actor.send({ type: 'step.next' });
  t.fill(PART_B);
  t.actor.send({ type: 'step.next' });
  t.fill(LETTER);
  t.actor.send({ type: 'step.next' });
  await t.saved();
  expect(t.screen()?.route).toBe('/form-scs-1-step4');
}

async function toSign(t: Wizard) {
  await toPreview(t);
  t.actor.send({ type: 'contact.verified', verified: true });
  t.actor.send({ type: 'step.next' });
  t.actor.send({ type: 'documents.change', id: 'layoutPlan', present: true });
  t.actor.send({ type: 'documents.complete' });
  await t.saved();
  expect(t.state().matches({ wizard: { upload: { sign: 'signing' } } })).toBe(true);
}

/** The signing child of the wizard (the signing machine), while the wizard is signing. */
const signer = (t: Wizard) => t.state().children.signDocuments as ActorRefFrom<typeof signingMachine>;

/** Signs with an e-Cert signature file through the signing machine; resolves when it has answered. */
async function signWithEcert(t: Wizard) {
  const child = signer(t);
  child.send({ type: 'signing.ecert' });
  await waitFor(child, (s) => s.matches('ecertReady'));
  child.send({ type: 'ecert.file', file: new Blob(['p7s']), name: 'signature.p7s' });
  child.send({ type: 'ecert.submit' });
  await waitFor(child, (s) => !s.matches('verifying'));
}

describe('the application wizard', () => {
  it('starts on the first fill step with the route and title of that step', () => {
    const t = start(SELF_CERTIFICATION_FORM);
    expect(t.screen()).toEqual({
      screen: 'fill',
      route: '/form-scs-1-step1',
      titleKey: 'flows:steps.fillPartA.title',
      busy: false,
      step: 1,
      total: 6,
    });
  });

  it('lands a deep link to step 3 on step 1 when step 1 is invalid', () => {
    const t = start(SELF_CERTIFICATION_FORM);
    t.actor.send({ type: 'step.goto', step: 3 });
    expect(t.screen()?.route).toBe('/form-scs-1-step1');
  });

  it('lands a deep link on the furthest reachable step, and never beyond the preview', () => {
    const t = start(SELF_CERTIFICATION_FORM);
    t.fill({ ...PART_A, ...LETTER });
    t.actor.send({ type: 'step.goto', step: 3 });
    expect(t.screen()?.route).toBe('/form-scs-1-step2');
    t.fill(PART_B);
    t.actor.send({ type: 'step.goto', step: 6 });
    expect(t.screen()).toMatchObject({ screen: 'preview', route: '/form-scs-1-step4' });
  });

  it('finds the furthest reachable step from the answers alone', () => {
    const validate = requiredAnswersValidator(SELF_CERTIFICATION_FORM);
    const reach = (answers: Record<string, unknown>) =>
      furthestReachableStep(SELF_CERTIFICATION_FORM, answers, validate);
    expect(reach({})).toBe(1);
    expect(reach({ ...PART_A, ...LETTER })).toBe(2);
    expect(reach({ ...PART_A, ...PART_B })).toBe(3);
    expect(reach({ ...PART_A, ...PART_B, ...LETTER })).toBe(4);
    expect(stepFromRoute(SELF_CERTIFICATION_FORM, '/form-scs-1-step3')).toBe(3);
    expect(stepFromRoute(SELF_CERTIFICATION_FORM, '/form-scs-2-step3')).toBeUndefined();
  });

  it('refuses the next step while the step is invalid and shows its errors', () => {
    const t = start(SELF_CERTIFICATION_FORM);
    t.actor.send({ type: 'step.next' });
    expect(t.screen()?.route).toBe('/form-scs-1-step1');
    expect(t.state().context.errors).toEqual({ applicantNameEn: 'forms:errors.required' });
    t.fill(PART_A);
    t.actor.send({ type: 'step.next' });
    expect(t.screen()?.route).toBe('/form-scs-1-step2');
    expect(t.state().context.errors).toEqual({});
  });

  it('returns to the preview after a change from the preview', async () => {
    const t = start(SELF_CERTIFICATION_FORM);
    await toPreview(t);
    t.actor.send({ type: 'preview.change', step: 1 });
    expect(t.screen()?.route).toBe('/form-scs-1-step1');
    t.fill({ applicantNameEn: 'WONG Siu Fung' });
    t.actor.send({ type: 'step.next' });
    expect(t.screen()?.route).toBe('/form-scs-1-step4');
    expect(t.state().context.answers.applicantNameEn).toBe('WONG Siu Fung');
  });

  it('goes back from the preview to the last fill step', async () => {
    const t = start(SELF_CERTIFICATION_FORM);
    await toPreview(t);
    t.actor.send({ type: 'history.back' });
    expect(t.screen()).toMatchObject({
      route: '/form-scs-1-step3',
      titleKey: 'flows:steps.letterOfRequirements.title',
    });
    t.actor.send({ type: 'history.back' });
    expect(t.screen()?.route).toBe('/form-scs-1-step2');
  });

  it('goes back from the upload to the preview, and stays put on the first step', () => {
    const t = start(APPLICATION_FORM);
    t.actor.send({ type: 'history.back' });
    expect(t.screen()?.route).toBe('/form-b2-step1');
    t.fill(APPLICATION_FORM.example);
    t.actor.send({ type: 'step.next' });
    t.actor.send({ type: 'contact.verified', verified: true });
    t.actor.send({ type: 'step.next' });
    expect(t.screen()?.route).toBe('/form-b2-step3');
    t.actor.send({ type: 'history.back' });
    expect(t.screen()?.route).toBe('/form-b2-step2');
  });

  it('shows the retrieval code and the valid-until date after save for later, and continue returns to the same step', async () => {
    const t = start(SELF_CERTIFICATION_FORM);
    t.fill(PART_A);
    t.actor.send({ type: 'step.next' });
    t.fill({ apName: 'LEE' });
    t.actor.send({ type: 'draft.save' });
    await t.settle((s) => s.matches({ wizard: 'saved' }));
    expect(t.state().context).toMatchObject({ applicationNo: APPLICATION_NO, validUntil: VALID_UNTIL });
    expect(t.screen()).toMatchObject({ screen: 'saved', route: '/form-scs-1-step2' });
    expect(t.saveDraft).toHaveBeenLastCalledWith(
      expect.objectContaining({ step: 2, answers: { ...PART_A, apName: 'LEE' } }),
    );
    t.actor.send({ type: 'saved.continue' });
    expect(t.screen()).toMatchObject({ screen: 'fill', route: '/form-scs-1-step2' });
    expect(t.state().context.answers.apName).toBe('LEE');
  });

  it('exits from the saved page', async () => {
    const t = start(APPLICATION_FORM);
    t.actor.send({ type: 'draft.save' });
    await t.settle((s) => s.matches({ wizard: 'saved' }));
    t.actor.send({ type: 'saved.exit' });
    expect(t.state().matches({ wizard: 'exited' })).toBe(true);
  });

  it('offers to reload after a stale save and loses nothing', async () => {
    const resume: DraftCopy = {
      applicationNo: APPLICATION_NO,
      version: 3,
      validUntil: VALID_UNTIL,
      step: 1,
      answers: {},
    };
    const newer: DraftCopy = { ...resume, version: 5, answers: { applicantNameEn: 'From the other tab' } };
    const t = start(SELF_CERTIFICATION_FORM, { save: [{ kind: 'stale' }], load: [newer] }, resume);
    t.fill(PART_A);
    t.clock.increment(AUTOSAVE_DELAY_MS);
    await t.settle((s) => s.context.saveStatus === 'stale');
    expect(t.saveDraft).toHaveBeenCalledWith(expect.objectContaining({ version: 3, answers: PART_A }));
    expect(t.state().context).toMatchObject({ answers: PART_A, version: 3, saveError: 'stale' });
    // Typing goes on, and nothing is saved over the newer copy while stale.
    t.fill({ premisesAddress: { en: '1 Main Street', zh: '大街1號' } });
    t.clock.increment(AUTOSAVE_DELAY_MS * 4);
    t.actor.send({ type: 'draft.save' });
    expect(t.saveDraft).toHaveBeenCalledTimes(1);
    expect(t.state().matches({ wizard: 'fill' })).toBe(true);
    expect(t.state().context.answers).toMatchObject(PART_A);
    t.actor.send({ type: 'draft.reload' });
    await t.settle((s) => s.matches({ autosave: 'idle' }));
    expect(t.loadDraft).toHaveBeenCalledWith({ applicationNo: APPLICATION_NO });
    expect(t.state().context).toMatchObject({ answers: newer.answers, version: 5, saveStatus: 'saved' });
  });

  it('debounces autosave while typing and saves the last answers once', async () => {
    const t = start(SELF_CERTIFICATION_FORM);
    t.fill({ applicantNameEn: 'C' });
    t.clock.increment(1000);
    t.fill({ applicantNameEn: 'CH' });
    t.clock.increment(AUTOSAVE_DELAY_MS - 1);
    expect(t.saveDraft).not.toHaveBeenCalled();
    t.clock.increment(1);
    expect(t.state().context.saveStatus).toBe('saving');
    await t.saved();
    expect(t.saveDraft).toHaveBeenCalledTimes(1);
    expect(t.saveDraft).toHaveBeenCalledWith({
      formCode: 'SCS-1',
      applicationNo: null,
      version: null,
      step: 1,
      answers: { applicantNameEn: 'CH' },
    });
    expect(t.state().context).toMatchObject({
      saveStatus: 'saved',
      lastSavedAt: START + 1000 + AUTOSAVE_DELAY_MS,
    });
  });

  it('saves at once on a step change, with the new step and the version of the last save', async () => {
    const t = start(SELF_CERTIFICATION_FORM);
    t.fill(PART_A);
    t.actor.send({ type: 'step.next' });
    await t.saved();
    expect(t.saveDraft).toHaveBeenCalledTimes(1);
    expect(t.saveDraft).toHaveBeenLastCalledWith(expect.objectContaining({ step: 2, version: null }));
    t.actor.send({ type: 'step.back' });
    await t.saved();
    expect(t.saveDraft).toHaveBeenLastCalledWith(
      expect.objectContaining({ step: 1, version: 1, applicationNo: APPLICATION_NO }),
    );
  });

  it('retries a save that failed for the network, and says so meanwhile', async () => {
    const t = start(APPLICATION_FORM, { save: [{ kind: 'network' }] });
    t.fill({ applicantNameEn: 'CHAN' });
    t.clock.increment(AUTOSAVE_DELAY_MS);
    await t.settle((s) => s.matches({ autosave: 'failed' }));
    expect(t.state().context).toMatchObject({ saveStatus: 'error', saveError: 'network' });
    t.clock.increment(15_000);
    await t.saved();
    expect(t.saveDraft).toHaveBeenCalledTimes(2);
  });

  it('shows a refused save at the answer it names, retries nothing until the answer changes', async () => {
    const message = 'Minor Works contains "😀" (U+1F600), which cannot be printed';
    const t = start(SELF_CERTIFICATION_FORM, {
      save: [{ kind: 'refused', errors: { 'minorWorks.0.item': message } }],
    });
    t.fill({ ...LETTER, minorWorks: [{ item: 'Fire-rated door 😀', submissionNo: '' }] });
    t.clock.increment(AUTOSAVE_DELAY_MS);
    await t.settle((s) => s.matches({ autosave: 'refused' }));
    expect(t.state().context).toMatchObject({
      saveStatus: 'error',
      saveError: 'refused',
      saveRefusals: { 'minorWorks.0.item': message },
      // Not a refusal of the step's case check: the summary does not take focus for it.
      serverErrors: {},
    });
    t.clock.increment(60_000);
    expect(t.saveDraft).toHaveBeenCalledTimes(1);
    // Correcting the answer takes its message away and saves it.
    t.fill(LETTER);
    expect(t.state().context.saveRefusals).toEqual({});
    t.clock.increment(AUTOSAVE_DELAY_MS);
    await t.saved();
    expect(t.saveDraft).toHaveBeenCalledTimes(2);
    expect(t.state().context).toMatchObject({ saveStatus: 'saved', saveError: null, saveRefusals: {} });
  });

  it('stops saving after the draft expired', async () => {
    const t = start(APPLICATION_FORM, { save: [{ kind: 'expired' }] });
    t.actor.send({ type: 'draft.save' });
    await t.settle((s) => s.matches({ autosave: 'expired' }));
    expect(t.state().matches({ wizard: 'fill' })).toBe(true);
    expect(t.state().context.saveError).toBe('expired');
    t.fill({ applicantNameEn: 'CHAN' });
    t.clock.increment(60_000);
    expect(t.saveDraft).toHaveBeenCalledTimes(1);
  });

  it('starts a resumed application on the saved step with its answers', () => {
    const answers = { ...PART_A, ...PART_B };
    const t = start(
      SELF_CERTIFICATION_FORM,
      {},
      {
        applicationNo: APPLICATION_NO,
        version: 7,
        validUntil: VALID_UNTIL,
        step: 3,
        answers,
      },
    );
    expect(t.screen()?.route).toBe('/form-scs-1-step3');
    expect(t.state().context).toMatchObject({ answers, applicationNo: APPLICATION_NO, version: 7 });
    expect(t.saveDraft).not.toHaveBeenCalled();
  });

  it('resumes on the preview when the draft was saved past it, and on the furthest reachable step otherwise', () => {
    const draft = { applicationNo: APPLICATION_NO, version: 2, validUntil: VALID_UNTIL, step: 5 };
    const complete = start(
      SELF_CERTIFICATION_FORM,
      {},
      { ...draft, answers: { ...PART_A, ...PART_B, ...LETTER } },
    );
    expect(complete.screen()?.route).toBe('/form-scs-1-step4');
    const partial = start(SELF_CERTIFICATION_FORM, {}, { ...draft, answers: PART_A });
    expect(partial.screen()?.route).toBe('/form-scs-1-step2');
  });

  it('refuses to leave the preview until a contact is confirmed', async () => {
    const t = start(SELF_CERTIFICATION_FORM);
    await toPreview(t);
    t.actor.send({ type: 'step.next' });
    expect(t.state().matches({ wizard: 'preview' })).toBe(true);
    expect(t.state().context.showContactError).toBe(true);
    t.actor.send({ type: 'contact.verified', verified: true });
    expect(t.state().context.showContactError).toBe(false);
    t.actor.send({ type: 'step.next' });
    expect(t.screen()).toMatchObject({ screen: 'upload', route: '/form-scs-1-step5' });
  });

  it('refuses to go on to signing until every required document is present', async () => {
    const t = start(SELF_CERTIFICATION_FORM);
    await toPreview(t);
    t.actor.send({ type: 'contact.verified', verified: true });
    t.actor.send({ type: 'step.next' });
    expect(t.screen()).toMatchObject({ screen: 'upload', route: '/form-scs-1-step5' });
    t.actor.send({ type: 'documents.complete' });
    expect(t.state().context.showDocumentErrors).toBe(true);
    expect(t.state().matches({ wizard: { upload: 'documents' } })).toBe(true);
    t.actor.send({ type: 'documents.change', id: 'layoutPlan', present: true });
    t.actor.send({ type: 'documents.complete' });
    expect(t.state().matches({ wizard: { upload: { sign: 'signing' } } })).toBe(true);
    expect(signer(t).getSnapshot().matches('choose')).toBe(true);
    expect(t.screen()?.route).toBe('/form-scs-1-step5');
  });

  it('keeps the applicant signing after a rejected signature, then signs', async () => {
    const t = start(SELF_CERTIFICATION_FORM, { sign: [{ kind: 'rejected', reason: 'name-mismatch' }] });
    await toSign(t);
    expect(t.screen()).toMatchObject({ busy: true, route: '/form-scs-1-step5' });
    await signWithEcert(t);
    expect(signer(t).getSnapshot().context.ecertError).toBe('name-mismatch');
    expect(t.state().matches({ wizard: { upload: { sign: 'signing' } } })).toBe(true);
    signer(t).send({ type: 'ecert.submit' });
    await t.settle((s) => s.matches({ wizard: { upload: { sign: 'signed' } } }));
    expect(t.state().context.signature).toEqual({ method: 'ecert', reference: 'SIG-1' });
    expect(t.verifyEcert).toHaveBeenCalledTimes(2);
  });

  it('returns to the documents when the applicant goes back from signing', async () => {
    const t = start(SELF_CERTIFICATION_FORM);
    await toSign(t);
    signer(t).send({ type: 'signing.back' });
    await t.settle((s) => s.matches({ wizard: { upload: 'documents' } }));
    expect(t.state().context.signature).toBeNull();
  });

  it('signs, submits and shows the success page with the application number', async () => {
    const t = start(SELF_CERTIFICATION_FORM);
    await toSign(t);
    await signWithEcert(t);
    await t.settle((s) => s.matches({ wizard: { upload: { sign: 'signed' } } }));
    t.actor.send({ type: 'submit.confirm' });
    await t.settle((s) => s.matches({ wizard: 'success' }));
    expect(t.submitApplication).toHaveBeenCalledWith({
      applicationNo: APPLICATION_NO,
      version: expect.any(Number) as number,
      reference: 'SIG-1',
    });
    expect(t.screen()).toMatchObject({ screen: 'success', route: '/form-scs-1-step6' });
    expect(t.state().context.submission).toEqual({
      applicationNo: APPLICATION_NO,
      submittedAt: '2025-01-06T09:30:00.000Z',
    });
  });

  it('treats a duplicate submission as submitted and keeps the applicant on a failed one', async () => {
    const t = start(SELF_CERTIFICATION_FORM, {
      submit: [{ kind: 'failed', message: 'Please sign again.' }, { kind: 'duplicate' }],
    });
    await toSign(t);
    await signWithEcert(t);
    await t.settle((s) => s.matches({ wizard: { upload: { sign: 'signed' } } }));
    t.actor.send({ type: 'submit.confirm' });
    await t.settle((s) => !s.matches({ wizard: { upload: 'submitting' } }));
    expect(t.state().context.submitError).toBe('failed');
    expect(t.state().context.submitMessage).toBe('Please sign again.');
    expect(t.state().matches({ wizard: { upload: { sign: 'signed' } } })).toBe(true);
    t.actor.send({ type: 'submit.confirm' });
    await t.settle((s) => s.matches({ wizard: 'success' }));
    expect(t.state().context.submission?.applicationNo).toBe(APPLICATION_NO);
  });

  it('reports a network failure with its default actors, which the UI replaces', async () => {
    const actor = createActor(applyMachine, {
      input: {
        definition: APPLICATION_FORM,
        now: () => START,
        validate: requiredAnswersValidator(APPLICATION_FORM),
      },
    }).start();
    actor.send({ type: 'draft.save' });
    await waitFor(actor, (s) => s.matches({ autosave: 'failed' }));
    expect(actor.getSnapshot().matches({ wizard: 'fill' })).toBe(true);
    actor.stop();
  });
});
