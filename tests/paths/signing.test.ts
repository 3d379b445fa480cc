import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { screenOfSigning, signingMachine } from '../../machines/flows/signing.machine';
import {
  ECERT_REJECTIONS,
  FALLBACK_EXPIRY_MS,
  MAX_POLL_FAILURES,
  POLL_INTERVAL_MS,
  signingFailure,
  toSigningFailure,
  type CancelIamSmartInput,
  type PollIamSmartInput,
  type PollIamSmartOutput,
  type PrepareEcertInput,
  type PrepareEcertOutput,
  type SigningFailure,
  type StartIamSmartInput,
  type StartIamSmartOutput,
  type VerifyEcertInput,
  type VerifyEcertOutput,
} from '../../machines/flows/signing/types';

const START = Date.UTC(2025, 0, 6, 9, 0, 0);
const APPLICATION_NO = 'NEWSCH-2025-000123';
const TTL_MS = 120_000;
const request = (n: number): StartIamSmartOutput => ({
  requestId: `req-${n}`,
  identificationCode: '1234',
  qrText: `https://sandbox.iamsmart.local/sign?tx=req-${n}`,
  expiresAt: new Date(START + TTL_MS).toISOString(),
  digest: 'a'.repeat(64),
});
const PREPARED: PrepareEcertOutput = {
  digest: 'b'.repeat(64),
  content: 'I sign application NEWSCH-2025-000123',
};
const PENDING: PollIamSmartOutput = { status: 'pending' };

type Answer<T> = T | SigningFailure;
const isFailure = (v: object): v is SigningFailure => 'kind' in v;

/** Lets the fake actors' promises settle (they resolve on microtasks, outside the simulated clock). */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A signing actor on a simulated clock whose API answers come from the given lists, one per call; an empty
 * list answers with the default (a new request, `pending`, the prepared text, a reference).
 */
function start(
  answers: {
    start?: Answer<StartIamSmartOutput>[];
    poll?: Answer<PollIamSmartOutput>[];
    cancel?: Answer<undefined>[];
    prepare?: Answer<PrepareEcertOutput>[];
    verify?: Answer<VerifyEcertOutput>[];
  } = {},
) {
  const clock = new SimulatedClock();
  clock.set(START);
  const answer = <T>(list: Answer<T>[] | undefined, fallback: T): Promise<T> => {
    const next = list && list.length > 0 ? list.shift() : fallback;
    return typeof next === 'object' && next !== null && isFailure(next)
      ? Promise.reject(signingFailure(next))
      : Promise.resolve(next as T);
  };
  let requests = 0;
  const startIamSmart = vi.fn((_: StartIamSmartInput) => answer(answers.start, request(++requests)));
  const pollIamSmart = vi.fn((_: PollIamSmartInput) => answer(answers.poll, PENDING));
  const cancelIamSmart = vi.fn((_: CancelIamSmartInput) => answer(answers.cancel, undefined));
  const prepareEcert = vi.fn((_: PrepareEcertInput) => answer(answers.prepare, PREPARED));
  const verifyEcert = vi.fn((_: VerifyEcertInput) => answer(answers.verify, { reference: 'SIG-E' }));
  const machine = signingMachine.provide({
    actors: {
      startIamSmart: fromPromise<StartIamSmartOutput, StartIamSmartInput>(({ input }) =>
        startIamSmart(input),
      ),
      pollIamSmart: fromPromise<PollIamSmartOutput, PollIamSmartInput>(({ input }) => pollIamSmart(input)),
      cancelIamSmart: fromPromise<void, CancelIamSmartInput>(({ input }) => cancelIamSmart(input)),
      prepareEcert: fromPromise<PrepareEcertOutput, PrepareEcertInput>(({ input }) => prepareEcert(input)),
      verifyEcert: fromPromise<VerifyEcertOutput, VerifyEcertInput>(({ input }) => verifyEcert(input)),
    },
  });
  const actor = createActor(machine, {
    input: { applicationNo: APPLICATION_NO, now: () => clock.now() },
    clock,
  }).start();
  const screen = () => screenOfSigning(actor.getSnapshot());
  /** One poll interval on the clock, then the poll's answer. */
  const tick = async () => {
    clock.increment(POLL_INTERVAL_MS);
    await settle();
  };
  const fields = () => actor.getSnapshot().context;
  return {
    actor,
    clock,
    screen,
    tick,
    fields,
    startIamSmart,
    pollIamSmart,
    cancelIamSmart,
    prepareEcert,
    verifyEcert,
  };
}

async function toPending(answers?: Parameters<typeof start>[0]) {
  const t = start(answers);
  t.actor.send({ type: 'signing.iamsmart' });
  await waitFor(t.actor, (s) => s.matches('pending'));
  return t;
}

async function toEcertReady(answers?: Parameters<typeof start>[0]) {
  const t = start(answers);
  t.actor.send({ type: 'signing.ecert' });
  await waitFor(t.actor, (s) => s.matches('ecertReady'));
  return t;
}

const signatureFile = (name = 'signature.p7s') => ({
  type: 'ecert.file' as const,
  file: new Blob(['-----BEGIN PKCS7-----']),
  name,
});

describe('signing with iAM Smart', () => {
  it('starts with the choice of method and asks for nothing before the applicant chooses', () => {
    const t = start();
    expect(t.screen()).toBe('choose');
    expect(t.startIamSmart).not.toHaveBeenCalled();
    expect(t.prepareEcert).not.toHaveBeenCalled();
  });

  it('shows the QR code and identification code and signs after two pending polls', async () => {
    const t = await toPending({ poll: [PENDING, PENDING, { status: 'signed', reference: 'SIG-1' }] });
    expect(t.startIamSmart).toHaveBeenCalledWith({ applicationNo: APPLICATION_NO });
    expect(t.screen()).toBe('pending');
    expect(t.fields().request).toEqual(request(1));
    expect(t.fields().expiresAt).toBe(START + TTL_MS);
    await t.tick();
    await t.tick();
    expect(t.actor.getSnapshot().matches('pending')).toBe(true);
    expect(t.pollIamSmart).toHaveBeenCalledTimes(2);
    await t.tick();
    expect(t.pollIamSmart).toHaveBeenLastCalledWith({ applicationNo: APPLICATION_NO, requestId: 'req-1' });
    expect(t.actor.getSnapshot().status).toBe('done');
    expect(t.actor.getSnapshot().output).toEqual({ method: 'iamsmart', reference: 'SIG-1' });
  });

  it('does not poll before the interval has passed', async () => {
    const t = await toPending();
    t.clock.increment(POLL_INTERVAL_MS - 1);
    await settle();
    expect(t.pollIamSmart).not.toHaveBeenCalled();
    t.clock.increment(1);
    await settle();
    expect(t.pollIamSmart).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['D70004', 'd70004'],
    ['D70005', 'd70005'],
  ] as const)('shows %s as %s and makes a new request on retry', async (code, error) => {
    const t = await toPending({ poll: [{ status: 'failed', code }] });
    await t.tick();
    expect(t.screen()).toBe('failed');
    expect(t.fields().error).toBe(error);
    t.actor.send({ type: 'signing.retry' });
    await waitFor(t.actor, (s) => s.matches('pending'));
    expect(t.startIamSmart).toHaveBeenCalledTimes(2);
    expect(t.fields().request?.requestId).toBe('req-2');
    expect(t.fields().error).toBeNull();
  });

  it('shows any other failure code as failed and keeps the code', async () => {
    const t = await toPending({ poll: [{ status: 'failed', code: 'D49999' }] });
    await t.tick();
    expect(t.fields()).toMatchObject({ error: 'failed', errorCode: 'D49999' });
  });

  it('shows the request as expired when iAM Smart says so', async () => {
    const t = await toPending({ poll: [PENDING, { status: 'expired' }] });
    await t.tick();
    await t.tick();
    expect(t.screen()).toBe('failed');
    expect(t.fields().error).toBe('expired');
  });

  it('expires the request by the local clock when the portal keeps answering pending', async () => {
    const t = await toPending();
    for (let i = 0; i < TTL_MS / POLL_INTERVAL_MS - 1; i++) await t.tick();
    expect(t.actor.getSnapshot().matches('pending')).toBe(true);
    const polls = t.pollIamSmart.mock.calls.length;
    await t.tick();
    expect(t.screen()).toBe('failed');
    expect(t.fields().error).toBe('expired');
    expect(t.pollIamSmart).toHaveBeenCalledTimes(polls);
  });

  it('expires without polling again when the clock jumped past the expiry (a throttled tab)', async () => {
    const t = await toPending();
    t.clock.increment(TTL_MS); // the next poll timer fires once, late
    await settle();
    expect(t.fields().error).toBe('expired');
    expect(t.pollIamSmart).not.toHaveBeenCalled();
  });

  it('falls back to a local expiry of 5 minutes when the expiry cannot be read', async () => {
    const t = await toPending({ start: [{ ...request(1), expiresAt: 'soon' }] });
    expect(t.fields().expiresAt).toBe(START + FALLBACK_EXPIRY_MS);
  });

  it('shows cancelled when the applicant declines on the phone', async () => {
    const t = await toPending({ poll: [{ status: 'cancelled' }] });
    await t.tick();
    expect(t.fields().error).toBe('cancelled');
  });

  it('cancels the request and returns to the choice when the applicant cancels while pending', async () => {
    const t = await toPending();
    t.actor.send({ type: 'signing.cancel' });
    expect(t.screen()).toBe('cancelling');
    await waitFor(t.actor, (s) => s.matches('choose'));
    expect(t.cancelIamSmart).toHaveBeenCalledWith({ applicationNo: APPLICATION_NO, requestId: 'req-1' });
    expect(t.fields().request).toBeNull();
    await t.tick();
    expect(t.pollIamSmart).not.toHaveBeenCalled();
  });

  it('returns to the choice even when the cancellation gets no answer', async () => {
    const t = await toPending({ cancel: [{ kind: 'network' }] });
    t.actor.send({ type: 'signing.cancel' });
    await waitFor(t.actor, (s) => s.matches('choose'));
  });

  it('keeps polling after two polls without an answer and the third answers', async () => {
    const t = await toPending({ poll: [{ kind: 'network' }, { kind: 'network' }, PENDING] });
    await t.tick();
    await t.tick();
    expect(t.fields().pollFailures).toBe(2);
    await t.tick();
    expect(t.actor.getSnapshot().matches('pending')).toBe(true);
    expect(t.fields().pollFailures).toBe(0);
  });

  it(`fails with network after ${MAX_POLL_FAILURES} polls in a row without an answer`, async () => {
    const t = await toPending({ poll: [{ kind: 'network' }, { kind: 'network' }, { kind: 'network' }] });
    await t.tick();
    await t.tick();
    expect(t.actor.getSnapshot().matches('pending')).toBe(true);
    await t.tick();
    expect(t.screen()).toBe('failed');
    expect(t.fields().error).toBe('network');
  });

  it('fails with network when the request cannot be started, and with failed when it is refused', async () => {
    const t = start({ start: [{ kind: 'network' }, { kind: 'failed' }] });
    t.actor.send({ type: 'signing.iamsmart' });
    await waitFor(t.actor, (s) => s.matches('failed'));
    expect(t.fields().error).toBe('network');
    t.actor.send({ type: 'signing.retry' });
    await waitFor(t.actor, (s) => s.matches('failed'));
    expect(t.fields().error).toBe('failed');
  });

  it("keeps the portal's reason when it refuses to start, and forgets it on the next attempt", async () => {
    const reason = 'Confirm your email address or mobile number with a one-time password.';
    const t = start({ start: [{ kind: 'failed', message: reason }, { kind: 'network' }] });
    t.actor.send({ type: 'signing.iamsmart' });
    await waitFor(t.actor, (s) => s.matches('failed'));
    expect(t.actor.getSnapshot().context.errorMessage).toBe(reason);
    t.actor.send({ type: 'signing.retry' });
    await waitFor(t.actor, (s) => s.matches('failed') && s.context.error === 'network');
    expect(t.actor.getSnapshot().context.errorMessage).toBeNull();
  });

  it('offers the other method from the failure', async () => {
    const t = await toPending({ poll: [{ status: 'failed', code: 'D70004' }] });
    await t.tick();
    t.actor.send({ type: 'signing.other' });
    expect(t.screen()).toBe('choose');
    t.actor.send({ type: 'signing.ecert' });
    await waitFor(t.actor, (s) => s.matches('ecertReady'));
  });
});

describe('signing with an e-Cert', () => {
  it('shows the text and hash to sign', async () => {
    const t = await toEcertReady();
    expect(t.prepareEcert).toHaveBeenCalledWith({ applicationNo: APPLICATION_NO });
    expect(t.fields().ecert).toEqual(PREPARED);
    expect(t.screen()).toBe('ecertReady');
  });

  it('refuses a submission without a file and shows the field error', async () => {
    const t = await toEcertReady();
    t.actor.send({ type: 'ecert.submit' });
    expect(t.screen()).toBe('ecertReady');
    expect(t.fields().showFileError).toBe(true);
    expect(t.verifyEcert).not.toHaveBeenCalled();
    t.actor.send(signatureFile());
    expect(t.fields()).toMatchObject({ showFileError: false, fileName: 'signature.p7s' });
  });

  it.each(ECERT_REJECTIONS)('shows the rejection %s, then signs with a good file', async (reason) => {
    const t = await toEcertReady({ verify: [{ kind: 'rejected', reason }] });
    const bad = signatureFile('bad.p7s');
    t.actor.send(bad);
    t.actor.send({ type: 'ecert.submit' });
    expect(t.screen()).toBe('verifying');
    await waitFor(t.actor, (s) => s.matches('ecertReady'));
    expect(t.fields()).toMatchObject({ ecertError: reason, fileName: 'bad.p7s' });
    expect(t.verifyEcert).toHaveBeenCalledWith({ applicationNo: APPLICATION_NO, file: bad.file });
    t.actor.send(signatureFile('good.p7s'));
    expect(t.fields().ecertError).toBeNull();
    t.actor.send({ type: 'ecert.submit' });
    await waitFor(t.actor, (s) => s.status === 'done');
    expect(t.actor.getSnapshot().output).toEqual({ method: 'ecert', reference: 'SIG-E' });
  });

  it('keeps the file when the upload gets no answer, so the same file can be sent again', async () => {
    const t = await toEcertReady({ verify: [{ kind: 'network' }] });
    t.actor.send(signatureFile());
    t.actor.send({ type: 'ecert.submit' });
    await waitFor(t.actor, (s) => s.matches('ecertReady'));
    expect(t.fields()).toMatchObject({ ecertError: 'network', fileName: 'signature.p7s' });
    t.actor.send({ type: 'ecert.submit' });
    await waitFor(t.actor, (s) => s.status === 'done');
    expect(t.verifyEcert).toHaveBeenCalledTimes(2);
  });

  it("shows the portal's reason when it refuses the file for something other than a check", async () => {
    const reason = 'The application or its documents changed after signing started. Please sign again.';
    const t = await toEcertReady({ verify: [{ kind: 'failed', message: reason }] });
    t.actor.send(signatureFile());
    t.actor.send({ type: 'ecert.submit' });
    await waitFor(t.actor, (s) => s.matches('ecertReady') && s.context.ecertError !== null);
    expect(t.fields()).toMatchObject({ ecertError: 'failed' });
    expect(t.actor.getSnapshot().context.errorMessage).toBe(reason);
  });

  it('fails with network when the text to sign cannot be fetched, and retries the e-Cert', async () => {
    const t = start({ prepare: [{ kind: 'network' }] });
    t.actor.send({ type: 'signing.ecert' });
    await waitFor(t.actor, (s) => s.matches('failed'));
    expect(t.fields().error).toBe('network');
    t.actor.send({ type: 'signing.retry' });
    await waitFor(t.actor, (s) => s.matches('ecertReady'));
    expect(t.prepareEcert).toHaveBeenCalledTimes(2);
    expect(t.startIamSmart).not.toHaveBeenCalled();
  });

  it('returns to the choice on cancel and forgets the file', async () => {
    const t = await toEcertReady();
    t.actor.send(signatureFile());
    t.actor.send({ type: 'signing.cancel' });
    expect(t.screen()).toBe('choose');
    expect(t.fields().file).toBeNull();
  });
});

describe('leaving the signing step', () => {
  it('ends abandoned with output null on back from the choice', () => {
    const t = start();
    t.actor.send({ type: 'signing.back' });
    expect(t.actor.getSnapshot().status).toBe('done');
    expect(t.screen()).toBe('abandoned');
    expect(t.actor.getSnapshot().output).toBeNull();
  });

  it('ends abandoned with output null on back from a failure', async () => {
    const t = await toPending({ poll: [{ status: 'expired' }] });
    await t.tick();
    t.actor.send({ type: 'signing.back' });
    expect(t.actor.getSnapshot().output).toBeNull();
  });

  it('reports a network failure with its default actors, which the UI replaces', async () => {
    const actor = createActor(signingMachine, { input: { applicationNo: APPLICATION_NO, now: () => START } });
    actor.start();
    actor.send({ type: 'signing.iamsmart' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('network');
  });

  it('treats anything but a well-formed failure as network', () => {
    expect(toSigningFailure(new TypeError('Failed to fetch'))).toEqual({ kind: 'network' });
    expect(toSigningFailure({ kind: 'rejected', reason: 'something new' })).toEqual({ kind: 'network' });
    expect(toSigningFailure(signingFailure({ kind: 'rejected', reason: 'revoked' }))).toEqual({
      kind: 'rejected',
      reason: 'revoked',
    });
  });
});
