import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type SnapshotFrom, waitFor } from 'xstate';
import {
  FIND_MY_CASE_CODE,
  isApplicationNoValid,
  isContactValid,
  type LoginSession,
  loginOtpMachine,
} from '../../machines/flows/login-otp.machine';
import { oneTimeCodeMachine } from '../../machines/flows/one-time-code.machine';
import {
  type OtpError,
  otpFailure,
  type SendCodeInput,
  type SendCodeOutput,
  type VerifyCodeInput,
  type VerifyCodeOutput,
} from '../../machines/flows/one-time-code/types';
import { RESEND_AFTER_SECONDS } from '../../machines/rules/otp';

// The code step's own behaviour (countdown, wrong codes, locks, retries) is tests/paths/one-time-code.test.ts.
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

/** A login actor on a simulated clock whose code step's API answers come from the given lists, one per call. */
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
      oneTimeCode: oneTimeCodeMachine.provide({
        actors: {
          sendCode: fromPromise<SendCodeOutput, SendCodeInput>(({ input }) => sendCode(input)),
          verifyCode: fromPromise<VerifyCodeOutput, VerifyCodeInput>(({ input }) => verifyCode(input)),
        },
      }),
    },
  });
  const actor = createActor(machine, { input: { now: () => clock.now() }, clock }).start();
  const settle = (state: LoginState) => waitFor(actor, (s) => s.matches(state));
  /** The running code step (the child `oneTimeCode`). */
  const code = () => {
    const child = actor.getSnapshot().children.oneTimeCode;
    if (!child) throw new Error('no code step running');
    return child;
  };
  return { actor, clock, sendCode, verifyCode, settle, code };
}

async function toCodeEntry(answers?: Parameters<typeof start>[0]) {
  const t = start(answers);
  t.actor.send({ type: 'details.change', ...DETAILS });
  t.actor.send({ type: 'otp.send' });
  await waitFor(t.code(), (s) => s.matches('codeSent'));
  return t;
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

  it("invokes the code step with the trimmed details and Find my case's options", async () => {
    const t = start();
    t.actor.send({
      type: 'details.change',
      applicationNo: ` ${DETAILS.applicationNo} `,
      contact: DETAILS.contact,
    });
    t.actor.send({ type: 'otp.send' });
    expect(t.actor.getSnapshot().value).toBe('code');
    expect(t.code().getSnapshot().context).toMatchObject({ request: DETAILS, options: FIND_MY_CASE_CODE });
    await waitFor(t.code(), (s) => s.matches('codeSent'));
    expect(t.sendCode).toHaveBeenCalledWith(DETAILS);
  });

  it('logs in and gives the session as its output', async () => {
    const t = await toCodeEntry();
    t.code().send({ type: 'code.change', code: '123456' });
    t.code().send({ type: 'otp.submit' });
    await waitFor(t.actor, (s) => s.status === 'done');
    expect(t.actor.getSnapshot().output).toEqual(SESSION);
    expect(t.verifyCode).toHaveBeenCalledWith({ ...DETAILS, code: '123456' });
  });

  it('goes back to the details from the code step and keeps them', async () => {
    const t = await toCodeEntry();
    t.code().send({ type: 'details.edit' });
    await t.settle('enterDetails');
    expect(t.actor.getSnapshot().context).toMatchObject({ ...DETAILS, error: null });
  });

  it("shows a refused first send on the details with the server's reason, until they change", async () => {
    const t = start({ send: [{ kind: 'invalid', message: 'Application not found' }] });
    t.actor.send({ type: 'details.change', ...DETAILS });
    t.actor.send({ type: 'otp.send' });
    await t.settle('enterDetails');
    expect(t.actor.getSnapshot().context.error).toEqual({
      kind: 'invalid',
      message: 'Application not found',
    });
    t.actor.send({ type: 'details.change', contact: 'applicant@example.com' });
    expect(t.actor.getSnapshot().context.error).toBeNull();
  });

  it('returns to the details when a lock has run out, and sends again from there', async () => {
    const t = start({ send: [{ kind: 'locked', retryAfterSeconds: 900 }] });
    t.actor.send({ type: 'details.change', ...DETAILS });
    t.actor.send({ type: 'otp.send' });
    await waitFor(t.code(), (s) => s.matches('locked'));
    t.clock.increment(900_000);
    expect(t.actor.getSnapshot().value).toBe('enterDetails');
    expect(t.actor.getSnapshot().context).toMatchObject(DETAILS);
    t.actor.send({ type: 'otp.send' });
    await waitFor(t.code(), (s) => s.matches('codeSent'));
    expect(t.sendCode).toHaveBeenCalledTimes(2);
  });

  it('shows the network error of its default actors, which the UI replaces', async () => {
    const actor = createActor(loginOtpMachine, { input: { now: () => START } }).start();
    actor.send({ type: 'details.change', ...DETAILS });
    actor.send({ type: 'otp.send' });
    const child = actor.getSnapshot().children.oneTimeCode;
    if (!child) throw new Error('no code step running');
    await waitFor(child, (s) => s.matches('networkError'));
    expect(actor.getSnapshot().value).toBe('code');
  });
});
