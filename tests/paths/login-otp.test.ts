import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type SnapshotFrom, waitFor } from 'xstate';
import {
  isApplicationNoValid,
  isContactValid,
  type LoginSession,
  loginOtpMachine,
  type OtpError,
  otpFailure,
  RESEND_AFTER_SECONDS,
  type SendCodeInput,
  type SendCodeOutput,
  toOtpError,
  type VerifyCodeInput,
} from '../../machines/flows/login-otp.machine';
import { advance } from './support';

type LoginState = Parameters<SnapshotFrom<typeof loginOtpMachine>['matches']>[0];

const START = Date.UTC(2025, 0, 6, 9, 0, 0);
const DETAILS = { applicationNo: 'BD-2025-000123', contact: '91234567' };
const SESSION: LoginSession = {
  token: 't',
  applicationNo: DETAILS.applicationNo,
  role: 'applicant',
  userId: 'u',
  idleTimeoutMinutes: 20,
};
const SENT: SendCodeOutput = { resendAfterSeconds: RESEND_AFTER_SECONDS, expiresInSeconds: 300 };

const isOtpError = (v: object): v is OtpError => 'kind' in v;

/** A login actor on a simulated clock whose API answers come from the given lists, one per call. */
function start(answers: { send?: (SendCodeOutput | OtpError)[]; verify?: (LoginSession | OtpError)[] } = {}) {
  const clock = new SimulatedClock();
  clock.set(START);
  const answer = <T extends object>(list: (T | OtpError)[] | undefined, fallback: T): Promise<T> => {
    const next = list?.shift() ?? fallback;
    return isOtpError(next) ? Promise.reject(otpFailure(next)) : Promise.resolve(next);
  };
  const sendCode = vi.fn((_: SendCodeInput) => answer(answers.send, SENT));
  const verifyCode = vi.fn((_: VerifyCodeInput) => answer(answers.verify, SESSION));
  const machine = loginOtpMachine.provide({
    actors: {
      sendCode: fromPromise<SendCodeOutput, SendCodeInput>(({ input }) => sendCode(input)),
      verifyCode: fromPromise<LoginSession, VerifyCodeInput>(({ input }) => verifyCode(input)),
    },
  });
  const actor = createActor(machine, { input: { now: () => clock.now() }, clock }).start();
  const settle = (state: LoginState) => waitFor(actor, (s) => s.matches(state));
  return { actor, clock, sendCode, verifyCode, settle };
}

async function toCodeEntry(answers?: Parameters<typeof start>[0]) {
  const t = start(answers);
  t.actor.send({ type: 'details.change', ...DETAILS });
  t.actor.send({ type: 'otp.send' });
  await t.settle('codeSent');
  return t;
}

async function submit(t: Awaited<ReturnType<typeof toCodeEntry>>, code = '123456') {
  t.actor.send({ type: 'code.change', code });
  t.actor.send({ type: 'otp.submit' });
  await waitFor(t.actor, (s) => !s.matches({ codeSent: { code: 'verifying' } }));
}

describe('login by application number and one-time code', () => {
  it('refuses to send a code until both details are valid and then shows the field errors', () => {
    const { actor, sendCode } = start();
    actor.send({ type: 'details.change', applicationNo: DETAILS.applicationNo, contact: 'not a contact' });
    actor.send({ type: 'otp.send' });
    expect(actor.getSnapshot().value).toBe('enterDetails');
    expect(actor.getSnapshot().context.showErrors).toBe(true);
    expect(sendCode).not.toHaveBeenCalled();
  });

  it('accepts an email address or a Hong Kong mobile number as the contact', () => {
    expect(isContactValid('applicant@example.com')).toBe(true);
    expect(isContactValid('+852 9123 4567')).toBe(true);
    expect(isContactValid('31234567')).toBe(false);
    expect(isApplicationNoValid(' BD-2025-000123 ')).toBe(true);
    expect(isApplicationNoValid('x')).toBe(false);
  });

  it('sends the trimmed details to sendCode', async () => {
    const t = start();
    t.actor.send({
      type: 'details.change',
      applicationNo: ` ${DETAILS.applicationNo} `,
      contact: DETAILS.contact,
    });
    t.actor.send({ type: 'otp.send' });
    await t.settle('codeSent');
    expect(t.sendCode).toHaveBeenCalledWith(DETAILS);
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

  it('keeps the details and counts the attempts after a wrong code', async () => {
    const t = await toCodeEntry({
      verify: [
        { kind: 'wrongCode', attemptsLeft: 2 },
        { kind: 'wrongCode', attemptsLeft: 1 },
      ],
    });
    await submit(t);
    expect(t.actor.getSnapshot().matches({ codeSent: { code: 'wrongCode' } })).toBe(true);
    expect(t.actor.getSnapshot().context).toMatchObject({ ...DETAILS, code: '', attemptsLeft: 2 });
    await submit(t, '654321');
    expect(t.actor.getSnapshot().context.attemptsLeft).toBe(1);
    expect(t.verifyCode).toHaveBeenLastCalledWith({ ...DETAILS, code: '654321' });
  });

  it('logs in and gives the session as its output', async () => {
    const t = await toCodeEntry();
    await submit(t);
    expect(t.actor.getSnapshot().status).toBe('done');
    expect(t.actor.getSnapshot().output).toEqual(SESSION);
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

  it('waits retryAfterSeconds when locked and then returns to the details', async () => {
    const t = await toCodeEntry({ verify: [{ kind: 'locked', retryAfterSeconds: 900 }] });
    await submit(t);
    expect(t.actor.getSnapshot().value).toBe('locked');
    expect(t.actor.getSnapshot().context.retryAt).toBe(t.clock.now() + 900_000);
    t.clock.increment(899_999);
    expect(t.actor.getSnapshot().value).toBe('locked');
    t.clock.increment(1);
    expect(t.actor.getSnapshot().value).toBe('enterDetails');
    expect(t.actor.getSnapshot().context).toMatchObject(DETAILS);
  });

  it('shows a refused send until the wait is over and then allows the send again', async () => {
    const t = start({ send: [{ kind: 'rateLimited', retryAfterSeconds: 30 }] });
    t.actor.send({ type: 'details.change', ...DETAILS });
    t.actor.send({ type: 'otp.send' });
    await t.settle('rateLimited');
    expect(t.actor.getSnapshot().context.retryAt).toBe(START + 30_000);
    t.clock.increment(30_000);
    expect(t.actor.getSnapshot().value).toBe('enterDetails');
    t.actor.send({ type: 'otp.send' });
    await t.settle('codeSent');
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

  it('sends the same verification again on retry after a network error', async () => {
    const t = await toCodeEntry({ verify: [{ kind: 'network' }] });
    await submit(t);
    expect(t.actor.getSnapshot().value).toBe('networkError');
    t.actor.send({ type: 'otp.retry' });
    await waitFor(t.actor, (s) => s.status === 'done');
    expect(t.verifyCode.mock.calls).toEqual([
      [{ ...DETAILS, code: '123456' }],
      [{ ...DETAILS, code: '123456' }],
    ]);
  });

  it('goes back to the details from the code entry and keeps them', async () => {
    const t = await toCodeEntry();
    t.actor.send({ type: 'details.edit' });
    expect(t.actor.getSnapshot().value).toBe('enterDetails');
    expect(t.actor.getSnapshot().context).toMatchObject(DETAILS);
  });

  it('reports a network error with its default actors, which the UI replaces', async () => {
    const actor = createActor(loginOtpMachine, { input: { now: () => START } }).start();
    actor.send({ type: 'details.change', ...DETAILS });
    actor.send({ type: 'otp.send' });
    await waitFor(actor, (s) => s.matches('networkError'));
  });

  it('treats anything but a well-formed error as a network error', () => {
    expect(toOtpError(new TypeError('Failed to fetch'))).toEqual({ kind: 'network' });
    expect(toOtpError({ kind: 'locked' })).toEqual({ kind: 'locked', retryAfterSeconds: 1 });
    expect(toOtpError({ kind: 'wrongCode', attemptsLeft: 3 })).toEqual({
      kind: 'wrongCode',
      attemptsLeft: 3,
    });
  });
});
