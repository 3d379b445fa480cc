import { describe, expect, it, vi } from 'vitest';
import { type ActorRefFrom, type AnyActorRef, createActor, fromPromise, waitFor } from 'xstate';
import {
  APPOINTEE_CODE,
  type AppointeeSession,
  appointeeLoginMachine,
} from '../../machines/flows/appointee-login.machine';
import {
  ACCEPTANCE_CODE,
  appointmentAcceptanceMachine,
} from '../../machines/flows/appointment-acceptance.machine';
import { oneTimeCodeMachine } from '../../machines/flows/one-time-code.machine';
import {
  type OtpError,
  otpFailure,
  type SendCodeInput,
  type SendCodeOutput,
  type VerifyCodeInput,
  type VerifyCodeOutput,
} from '../../machines/flows/one-time-code/types';
import type { InvitationView } from '../../machines/rules/appointment';

// The code step itself is tests/paths/one-time-code.test.ts: here, how the appointee flows invoke it and end it.
const START = Date.UTC(2025, 0, 6, 9, 0, 0);
const SENT: SendCodeOutput = { resendAfterSeconds: 60, expiresInSeconds: 600 };
const SESSION: AppointeeSession = {
  token: 'token-1',
  applicationNo: 'A2-2025-000123',
  role: 'ap',
  userId: 'ap:AP(A) 1234',
  idleTimeoutMinutes: 30,
  cases: [],
};

/** The running child `oneTimeCode` of a flow's actor. */
function childOf(actor: AnyActorRef): ActorRefFrom<typeof oneTimeCodeMachine> {
  const child = (actor.getSnapshot() as { children: Record<string, unknown> }).children.oneTimeCode;
  if (!child) throw new Error('no code step running');
  return child as ActorRefFrom<typeof oneTimeCodeMachine>;
}

/** The child with actors answering from the lists, one per call, and spies on their inputs. */
function codeStep(answers: { send?: (SendCodeOutput | OtpError)[]; verify?: (object | OtpError)[] }) {
  const next = <T extends object>(list: (T | OtpError)[] | undefined, fallback: T): Promise<T> => {
    const value = list?.shift() ?? fallback;
    return 'kind' in value ? Promise.reject(otpFailure(value)) : Promise.resolve(value);
  };
  const sendCode = vi.fn((_: SendCodeInput) => next(answers.send, SENT));
  const verifyCode = vi.fn((_: VerifyCodeInput) => next<object>(answers.verify, SESSION));
  const logic = oneTimeCodeMachine.provide({
    actors: {
      sendCode: fromPromise<SendCodeOutput, SendCodeInput>(({ input }) => sendCode(input)),
      verifyCode: fromPromise<VerifyCodeOutput, VerifyCodeInput>(({ input }) => verifyCode(input)),
    },
  });
  return { logic, sendCode, verifyCode };
}

describe('the AP/RSE login', () => {
  function start(answers: Parameters<typeof codeStep>[0] = {}) {
    const code = codeStep(answers);
    const machine = appointeeLoginMachine.provide({ actors: { oneTimeCode: code.logic } });
    const actor = createActor(machine, { input: { now: () => START } }).start();
    actor.send({ type: 'details.change', registrationNumber: 'ap(a)1234', contact: 'ap@example.com' });
    actor.send({ type: 'otp.send' });
    return { actor, ...code };
  }

  it('sends the registration number and contact as typed, with the plain code step', async () => {
    const t = start();
    const child = childOf(t.actor);
    expect(child.getSnapshot().context.options).toEqual(APPOINTEE_CODE);
    await waitFor(child, (s) => s.matches('codeSent'));
    expect(t.sendCode).toHaveBeenCalledWith({ registrationNumber: 'ap(a)1234', contact: 'ap@example.com' });
  });

  it("lists the person's cases with the session once the code is right", async () => {
    const t = start();
    const child = childOf(t.actor);
    await waitFor(child, (s) => s.matches('codeSent'));
    child.send({ type: 'code.change', code: '123456' });
    child.send({ type: 'otp.submit' });
    await waitFor(t.actor, (s) => s.matches('chooseCase'));
    expect(t.actor.getSnapshot().context.session).toEqual(SESSION);
  });

  it('shows a refused send back on the details', async () => {
    const t = start({ send: [{ kind: 'rateLimited', retryAfterSeconds: 60 }] });
    await waitFor(t.actor, (s) => s.matches('enterDetails'));
    expect(t.actor.getSnapshot().context.failure).toMatchObject({ kind: 'rateLimited' });
  });
});

describe('accepting an appointment', () => {
  const invitation = { applicationNo: 'A2-2025-000123', confirmed: false } as InvitationView;

  async function start(answers: Parameters<typeof codeStep>[0] = {}) {
    const code = codeStep(answers);
    const machine = appointmentAcceptanceMachine.provide({
      actors: {
        loadInvitation: fromPromise<InvitationView, { token: string }>(() => Promise.resolve(invitation)),
        oneTimeCode: code.logic,
      },
    });
    const actor = createActor(machine, { input: { token: 'tok', now: () => START } }).start();
    await waitFor(actor, (s) => s.matches('review'));
    actor.send({ type: 'channel.choose', channel: 'mobile' });
    actor.send({ type: 'otp.send' });
    return { actor, child: childOf(actor), ...code };
  }

  it('sends the token and the channel chosen, with the plain code step, and signs once verified', async () => {
    const t = await start();
    expect(t.child.getSnapshot().context.options).toEqual(ACCEPTANCE_CODE);
    await waitFor(t.child, (s) => s.matches('codeSent'));
    expect(t.sendCode).toHaveBeenCalledWith({ token: 'tok', channel: 'mobile' });
    t.child.send({ type: 'code.change', code: '123456' });
    t.child.send({ type: 'otp.submit' });
    await waitFor(t.actor, (s) => s.matches('signing'));
    expect(t.verifyCode).toHaveBeenCalledWith({ token: 'tok', channel: 'mobile', code: '123456' });
  });

  it("shows a refused send on the review in the API's words", async () => {
    const t = await start({ send: [{ kind: 'invalid', message: 'Too many codes' }] });
    await waitFor(t.actor, (s) => s.matches('review'));
    expect(t.actor.getSnapshot().context.failure).toEqual({ kind: 'refused', message: 'Too many codes' });
  });

  it('goes back to the review when the appointee changes the channel', async () => {
    const t = await start();
    await waitFor(t.child, (s) => s.matches('codeSent'));
    t.child.send({ type: 'details.edit' });
    expect(t.actor.getSnapshot().value).toBe('review');
  });
});
