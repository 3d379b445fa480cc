import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  appointeeContactMachine,
  type ContactChangeFailure,
  type ContactChangeResult,
  isNewContactValid,
  type SendCodesInput,
  type VerifyCodesInput,
} from '../../machines/flows/appointee-contact.machine';
import type { OtpSentData } from '../../machines/rules/otp';

// The generated paths walk every state and transition (machines/flows/appointment-flows.ts); here, what the
// actors are given and what the person keeps (docs/flows/appointee-contact.md).
const SENT: OtpSentData = { resendAfterSeconds: 60, expiresInSeconds: 600 };
const CHANGED: ContactChangeResult = { email: 'new-ap@example.com', mobile: '91234567' };
const refusal = (f: ContactChangeFailure) => Object.assign(new Error(f.kind), f);

function start(
  answers: {
    send?: (OtpSentData | ContactChangeFailure)[];
    verify?: (ContactChangeResult | ContactChangeFailure)[];
  } = {},
) {
  const next = <T extends object>(
    list: (T | ContactChangeFailure)[] | undefined,
    fallback: T,
  ): Promise<T> => {
    const value = list?.shift() ?? fallback;
    return 'kind' in value ? Promise.reject(refusal(value)) : Promise.resolve(value);
  };
  const sendCodes = vi.fn((_: SendCodesInput) => next(answers.send, SENT));
  const verifyCodes = vi.fn((_: VerifyCodesInput) => next(answers.verify, CHANGED));
  const machine = appointeeContactMachine.provide({
    actors: {
      sendCodes: fromPromise<OtpSentData, SendCodesInput>(({ input }) => sendCodes(input)),
      verifyCodes: fromPromise<ContactChangeResult, VerifyCodesInput>(({ input }) => verifyCodes(input)),
    },
  });
  const actor = createActor(machine).start();
  return { actor, sendCodes, verifyCodes };
}

async function toCodes(t: ReturnType<typeof start>, contact = ' new-ap@example.com ') {
  t.actor.send({ type: 'contact.change', contact });
  t.actor.send({ type: 'codes.send' });
  await waitFor(t.actor, (s) => s.matches('enterCodes'));
}

describe('an AP or RSE changes their contact', () => {
  it('tells an email from a mobile by the kind chosen', () => {
    expect(isNewContactValid('email', 'ap@example.com')).toBe(true);
    expect(isNewContactValid('mobile', 'ap@example.com')).toBe(false);
    expect(isNewContactValid('mobile', '9123 4567')).toBe(true);
    expect(isNewContactValid('email', '91234567')).toBe(false);
  });

  it('sends nothing for a contact not of the kind chosen, and shows why', () => {
    const t = start();
    t.actor.send({ type: 'kind.choose', kind: 'mobile' });
    t.actor.send({ type: 'contact.change', contact: 'new-ap@example.com' });
    t.actor.send({ type: 'codes.send' });
    expect(t.actor.getSnapshot().value).toBe('enterContact');
    expect(t.actor.getSnapshot().context.showErrors).toBe(true);
    expect(t.sendCodes).not.toHaveBeenCalled();
  });

  it('sends the new contact trimmed, then verifies both codes against it and ends with the contacts now', async () => {
    const t = start();
    await toCodes(t);
    expect(t.sendCodes).toHaveBeenCalledWith({ contact: 'new-ap@example.com' });
    t.actor.send({ type: 'code.change', field: 'oldCode', code: '111111' });
    t.actor.send({ type: 'code.change', field: 'newCode', code: '222222' });
    t.actor.send({ type: 'codes.verify' });
    await waitFor(t.actor, (s) => s.status === 'done');
    expect(t.verifyCodes).toHaveBeenCalledWith({
      contact: 'new-ap@example.com',
      oldCode: '111111',
      newCode: '222222',
    });
    expect(t.actor.getSnapshot().value).toBe('done');
    expect(t.actor.getSnapshot().context.result).toEqual(CHANGED);
  });

  it('keeps both codes as typed after a wrong one, with the field the API named, and succeeds on the correction', async () => {
    const t = start({ verify: [{ kind: 'wrongCode', field: 'newCode', attemptsLeft: 4 }] });
    await toCodes(t);
    t.actor.send({ type: 'code.change', field: 'oldCode', code: '111111' });
    t.actor.send({ type: 'code.change', field: 'newCode', code: '999999' });
    t.actor.send({ type: 'codes.verify' });
    await waitFor(t.actor, (s) => s.matches('enterCodes') && s.context.failure !== null);
    const c = t.actor.getSnapshot().context;
    expect(c.failure).toMatchObject({ kind: 'wrongCode', field: 'newCode', attemptsLeft: 4 });
    expect([c.contact, c.oldCode, c.newCode]).toEqual([' new-ap@example.com ', '111111', '999999']);
    t.actor.send({ type: 'code.change', field: 'newCode', code: '222222' });
    t.actor.send({ type: 'codes.verify' });
    await waitFor(t.actor, (s) => s.status === 'done');
    expect(t.verifyCodes).toHaveBeenLastCalledWith({
      contact: 'new-ap@example.com',
      oldCode: '111111',
      newCode: '222222',
    });
  });

  it('keeps the contact typed when the API says it is the one on file', async () => {
    const t = start({ send: [{ kind: 'unchanged' }] });
    t.actor.send({ type: 'contact.change', contact: 'same@example.com' });
    t.actor.send({ type: 'codes.send' });
    await waitFor(t.actor, (s) => s.matches('enterContact') && s.context.failure !== null);
    expect(t.actor.getSnapshot().context).toMatchObject({
      contact: 'same@example.com',
      failure: { kind: 'unchanged' },
    });
  });

  it('asks for both codes before verifying', async () => {
    const t = start();
    await toCodes(t);
    t.actor.send({ type: 'code.change', field: 'oldCode', code: '111111' });
    t.actor.send({ type: 'codes.verify' });
    expect(t.actor.getSnapshot().value).toBe('enterCodes');
    expect(t.actor.getSnapshot().context.showErrors).toBe(true);
    expect(t.verifyCodes).not.toHaveBeenCalled();
  });

  it('clears the codes typed when new ones are sent (the old ones no longer work), and counts the sends', async () => {
    const t = start();
    await toCodes(t);
    t.actor.send({ type: 'code.change', field: 'oldCode', code: '111111' });
    t.actor.send({ type: 'codes.resend' });
    await waitFor(t.actor, (s) => s.matches('enterCodes'));
    expect(t.sendCodes).toHaveBeenCalledTimes(2);
    expect(t.actor.getSnapshot().context).toMatchObject({ oldCode: '', sends: 2 });
  });

  it('keeps the codes when a resend is refused (429), with the wait', async () => {
    const t = start({ send: [SENT, { kind: 'rateLimited', retryAfterSeconds: 42 }] });
    await toCodes(t);
    t.actor.send({ type: 'code.change', field: 'oldCode', code: '111111' });
    t.actor.send({ type: 'codes.resend' });
    await waitFor(t.actor, (s) => s.matches('enterCodes') && s.context.failure !== null);
    expect(t.actor.getSnapshot().context).toMatchObject({
      oldCode: '111111',
      failure: { kind: 'rateLimited', retryAfterSeconds: 42 },
    });
  });

  it('ends in loggedOut when the session is gone (401)', async () => {
    const t = start({ verify: [{ kind: 'loggedOut' }] });
    await toCodes(t);
    t.actor.send({ type: 'code.change', field: 'oldCode', code: '111111' });
    t.actor.send({ type: 'code.change', field: 'newCode', code: '222222' });
    t.actor.send({ type: 'codes.verify' });
    await waitFor(t.actor, (s) => s.status === 'done');
    expect(t.actor.getSnapshot().value).toBe('loggedOut');
  });
});
