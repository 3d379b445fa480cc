import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type SnapshotFrom, waitFor } from 'xstate';
import { FLOW_REGISTRY } from '../../machines/flows';
import { APPOINTEE_CODE } from '../../machines/flows/appointee-login.machine';
import { IN_PLACE_TRANSITIONS } from '../../machines/flows/login-flows';
import { FIND_MY_CASE_CODE } from '../../machines/flows/login-otp.machine';
import { oneTimeCodeMachine } from '../../machines/flows/one-time-code.machine';
import {
  type OneTimeCodeOptions,
  type OtpError,
  otpFailure,
  type SendCodeInput,
  type SendCodeOutput,
  stepOfOneTimeCode,
  toOtpError,
  type VerifyCodeInput,
  type VerifyCodeOutput,
} from '../../machines/flows/one-time-code/types';
import { RESEND_AFTER_SECONDS } from '../../machines/rules/otp';
import { flowCoverage } from './coverage';
import { advance } from './support';

type CodeState = Parameters<SnapshotFrom<typeof oneTimeCodeMachine>['matches']>[0];

const START = Date.UTC(2025, 0, 6, 9, 0, 0);
const REQUEST = { applicationNo: 'BD-2025-000123', contact: '91234567' };
const ANSWER = { token: 't', applicationNo: REQUEST.applicationNo };
const SENT: SendCodeOutput = { resendAfterSeconds: RESEND_AFTER_SECONDS, expiresInSeconds: 300 };

const isOtpError = (v: object): v is OtpError => 'kind' in v;

/** A code step on a simulated clock whose API answers come from the given lists, one per call. */
function start(
  answers: { send?: (SendCodeOutput | OtpError)[]; verify?: (object | OtpError)[] } = {},
  options: OneTimeCodeOptions = FIND_MY_CASE_CODE,
) {
  const clock = new SimulatedClock();
  clock.set(START);
  const answer = <T extends object>(list: (T | OtpError)[] | undefined, fallback: T): Promise<T> => {
    const next = list?.shift() ?? fallback;
    return isOtpError(next) ? Promise.reject(otpFailure(next)) : Promise.resolve(next);
  };
  const sendCode = vi.fn((_: SendCodeInput) => answer(answers.send, SENT));
  const verifyCode = vi.fn((_: VerifyCodeInput) => answer<object>(answers.verify, ANSWER));
  const machine = oneTimeCodeMachine.provide({
    actors: {
      sendCode: fromPromise<SendCodeOutput, SendCodeInput>(({ input }) => sendCode(input)),
      verifyCode: fromPromise<VerifyCodeOutput, VerifyCodeInput>(({ input }) => verifyCode(input)),
    },
  });
  const actor = createActor(machine, {
    input: { now: () => clock.now(), request: REQUEST, options },
    clock,
  }).start();
  const settle = (state: CodeState) => waitFor(actor, (s) => s.matches(state));
  const ended = () => waitFor(actor, (s) => s.status === 'done');
  return { actor, clock, sendCode, verifyCode, settle, ended };
}

async function toCodeEntry(answers?: Parameters<typeof start>[0], options?: OneTimeCodeOptions) {
  const t = start(answers, options);
  await t.settle('codeSent');
  return t;
}

async function submit(t: Awaited<ReturnType<typeof toCodeEntry>>, code = '123456') {
  t.actor.send({ type: 'code.change', code });
  t.actor.send({ type: 'otp.submit' });
  await waitFor(t.actor, (s) => !s.matches({ codeSent: { code: 'verifying' } }));
}

describe('the one-time code step, as Find my case has it', () => {
  it('sends the request it was given as it is', async () => {
    const t = await toCodeEntry();
    expect(t.sendCode).toHaveBeenCalledWith(REQUEST);
    expect(stepOfOneTimeCode(t.actor.getSnapshot())).toBe('codeSent');
  });

  it('does not allow a resend before 60 seconds and allows it after', async () => {
    const t = await toCodeEntry();
    expect(t.actor.getSnapshot().context.secondsLeft).toBe(60);
    expect(t.actor.getSnapshot().context.resendAvailableAt).toBe(START + 60_000);
    advance(t.clock, 59_000);
    expect(t.actor.getSnapshot().context.secondsLeft).toBe(1);
    t.actor.send({ type: 'otp.resend' });
    expect(t.actor.getSnapshot().matches({ codeSent: { resend: 'waiting' } })).toBe(true);
    advance(t.clock, 1000);
    expect(t.actor.getSnapshot().matches({ codeSent: { resend: 'resendable' } })).toBe(true);
    t.actor.send({ type: 'otp.resend' });
    await t.settle('codeSent');
    expect(t.sendCode).toHaveBeenCalledTimes(2);
    expect(t.actor.getSnapshot().context.secondsLeft).toBe(60);
  });

  it('catches up the countdown when the clock jumped between ticks (a throttled background tab)', async () => {
    const t = await toCodeEntry();
    t.clock.increment(50_000); // one timer fires, 50 s late
    expect(t.actor.getSnapshot().context.secondsLeft).toBe(10);
  });

  it('keeps digits only, at most six, full-width ones folded', async () => {
    const t = await toCodeEntry();
    t.actor.send({ type: 'code.change', code: '１2a3 4567' });
    expect(t.actor.getSnapshot().context.code).toBe('123456');
  });

  it('shows the code error when an incomplete code is submitted, and verifies nothing', async () => {
    const t = await toCodeEntry();
    t.actor.send({ type: 'code.change', code: '12' });
    t.actor.send({ type: 'otp.submit' });
    expect(t.actor.getSnapshot().context.showErrors).toBe(true);
    expect(t.verifyCode).not.toHaveBeenCalled();
  });

  it('empties the code and counts the attempts after a wrong code', async () => {
    const t = await toCodeEntry({
      verify: [
        { kind: 'wrongCode', attemptsLeft: 2 },
        { kind: 'wrongCode', attemptsLeft: 1 },
      ],
    });
    await submit(t);
    expect(t.actor.getSnapshot().matches({ codeSent: { code: 'wrongCode' } })).toBe(true);
    expect(t.actor.getSnapshot().context).toMatchObject({ code: '', attemptsLeft: 2 });
    await submit(t, '654321');
    expect(t.actor.getSnapshot().context.attemptsLeft).toBe(1);
    expect(t.verifyCode).toHaveBeenLastCalledWith({ ...REQUEST, code: '654321' });
  });

  it("ends verified with the verify's answer as its output", async () => {
    const t = await toCodeEntry();
    await submit(t);
    await t.ended();
    expect(t.actor.getSnapshot().output).toEqual({ result: 'verified', answer: ANSWER });
  });

  it.each([
    ['expired', 'codeExpired'],
    ['burnt', 'codeBurnt'],
  ] as const)('asks for a new code when the code is %s', async (kind, state) => {
    const t = await toCodeEntry({ verify: [{ kind }] });
    await submit(t);
    expect(t.actor.getSnapshot().matches({ codeSent: { code: state } })).toBe(true);
    t.actor.send({ type: 'code.change', code: '111111' });
    t.actor.send({ type: 'otp.submit' });
    expect(t.verifyCode).toHaveBeenCalledTimes(1);
    advance(t.clock, 60_000);
    t.actor.send({ type: 'otp.resend' });
    await t.settle({ codeSent: { code: 'entering' } });
    expect(t.sendCode).toHaveBeenCalledTimes(2);
  });

  it('waits retryAfterSeconds when locked and then goes back to the details', async () => {
    const t = await toCodeEntry({ verify: [{ kind: 'locked', retryAfterSeconds: 900 }] });
    await submit(t);
    expect(t.actor.getSnapshot().value).toBe('locked');
    expect(t.actor.getSnapshot().context.retryAt).toBe(t.clock.now() + 900_000);
    t.clock.increment(899_999);
    expect(t.actor.getSnapshot().value).toBe('locked');
    t.clock.increment(1);
    expect(t.actor.getSnapshot().output).toEqual({ result: 'back' });
  });

  it('shows a refused first send until the wait is over and then goes back to the details', async () => {
    const t = start({ send: [{ kind: 'rateLimited', retryAfterSeconds: 30 }] });
    await t.settle('rateLimited');
    expect(t.actor.getSnapshot().context.retryAt).toBe(START + 30_000);
    t.clock.increment(30_000);
    expect(t.actor.getSnapshot().output).toEqual({ result: 'back' });
  });

  it('returns to the code entry after a refused resend', async () => {
    const t = await toCodeEntry({ send: [SENT, { kind: 'rateLimited', retryAfterSeconds: 120 }] });
    advance(t.clock, 60_000);
    t.actor.send({ type: 'otp.resend' });
    await t.settle('rateLimited');
    t.clock.increment(120_000);
    expect(t.actor.getSnapshot().matches({ codeSent: { resend: 'resendable', code: 'entering' } })).toBe(
      true,
    );
  });

  it("ends refused with the server's reason when the first send is invalid, and stays on a resend", async () => {
    const invalid: OtpError = { kind: 'invalid', message: 'Application not found' };
    const first = start({ send: [invalid] });
    await first.ended();
    expect(first.actor.getSnapshot().output).toMatchObject({ result: 'refused', error: invalid });
    const again = await toCodeEntry({ send: [SENT, invalid] });
    advance(again.clock, 60_000);
    again.actor.send({ type: 'otp.resend' });
    await waitFor(again.actor, (s) => s.context.error !== null);
    expect(again.actor.getSnapshot().matches('codeSent')).toBe(true);
  });

  it('sends the same verification again on retry after a network error', async () => {
    const t = await toCodeEntry({ verify: [{ kind: 'network' }] });
    await submit(t);
    expect(t.actor.getSnapshot().value).toBe('networkError');
    expect(stepOfOneTimeCode(t.actor.getSnapshot())).toBe('networkError');
    t.actor.send({ type: 'otp.retry' });
    await t.ended();
    expect(t.verifyCode.mock.calls).toEqual([
      [{ ...REQUEST, code: '123456' }],
      [{ ...REQUEST, code: '123456' }],
    ]);
  });

  it('ends back to the details when the person asks to change them', async () => {
    const t = await toCodeEntry();
    t.actor.send({ type: 'details.edit' });
    expect(t.actor.getSnapshot().output).toEqual({ result: 'back' });
  });

  it('reports a network error with its default actors, which the UI replaces', async () => {
    const actor = createActor(oneTimeCodeMachine, {
      input: { now: () => START, request: REQUEST, options: FIND_MY_CASE_CODE },
    }).start();
    await waitFor(actor, (s) => s.matches('networkError'));
  });

  it('treats anything but a well-formed error as a network error, and keeps the words of one', () => {
    expect(toOtpError(new TypeError('Failed to fetch'))).toEqual({ kind: 'network' });
    expect(toOtpError({ kind: 'locked' })).toEqual({ kind: 'locked', retryAfterSeconds: 1 });
    expect(toOtpError({ kind: 'wrongCode', attemptsLeft: 3 })).toEqual({
      kind: 'wrongCode',
      attemptsLeft: 3,
    });
    expect(toOtpError({ kind: 'wrongCode', message: 'Wrong' })).toEqual({
      kind: 'wrongCode',
      attemptsLeft: 0,
      message: 'Wrong',
    });
    expect(toOtpError({ kind: 'refused', message: 'Too many codes' })).toEqual({
      kind: 'invalid',
      message: 'Too many codes',
    });
    expect(toOtpError({ kind: 'refused' })).toEqual({ kind: 'network' });
  });
});

describe('the one-time code step, as the appointee flows have it', () => {
  it('allows a resend at once, by otp.send as well', async () => {
    const t = await toCodeEntry({}, APPOINTEE_CODE);
    expect(t.actor.getSnapshot().matches({ codeSent: { resend: 'resendable' } })).toBe(true);
    t.actor.send({ type: 'otp.send' });
    await t.settle('codeSent');
    expect(t.sendCode).toHaveBeenCalledTimes(2);
  });

  it('keeps the code as the screen sends it', async () => {
    const t = await toCodeEntry({}, APPOINTEE_CODE);
    t.actor.send({ type: 'code.change', code: '12a4567' });
    expect(t.actor.getSnapshot().context.code).toBe('12a4567');
  });

  it.each<OtpError>([
    { kind: 'wrongCode', attemptsLeft: 2 },
    { kind: 'expired' },
    { kind: 'locked', retryAfterSeconds: 900 },
    { kind: 'network' },
  ])('shows a failed verify ($kind) beside the code, which is kept', async (error) => {
    const t = await toCodeEntry({ verify: [error] }, APPOINTEE_CODE);
    await submit(t);
    expect(t.actor.getSnapshot().matches({ codeSent: { code: 'entering' } })).toBe(true);
    expect(t.actor.getSnapshot().context).toMatchObject({ code: '123456', error: { kind: error.kind } });
  });

  it('ends refused on any failed send, a resend too', async () => {
    const limited: OtpError = { kind: 'rateLimited', retryAfterSeconds: 60 };
    const first = start({ send: [limited] }, APPOINTEE_CODE);
    await first.ended();
    expect(first.actor.getSnapshot().output).toMatchObject({ result: 'refused', error: limited });
    const again = await toCodeEntry({ send: [SENT, { kind: 'network' }] }, APPOINTEE_CODE);
    again.actor.send({ type: 'otp.send' });
    await again.ended();
    expect(again.actor.getSnapshot().output).toMatchObject({ result: 'refused', error: { kind: 'network' } });
  });

  it('takes, on its generated paths, the transitions the registry leaves to it', () => {
    const entry = FLOW_REGISTRY.find((e) => e.id === 'oneTimeCode');
    if (!entry) throw new Error('oneTimeCode is not in the registry');
    const inPlace = { ...entry, input: () => ({ ...(entry.input() as object), options: APPOINTEE_CODE }) };
    const result = flowCoverage(inPlace);
    const taken = new Set(result.runs.flatMap((r) => [...r.result.transitions]));
    expect(result.mismatches).toEqual([]);
    expect(IN_PLACE_TRANSITIONS.filter((t) => !taken.has(t))).toEqual([]);
  });
});
