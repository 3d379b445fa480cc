import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import type { InvitationView } from '../rules/appointment';
import { appointeeLoginMachine, type AppointeeSession } from './appointee-login.machine';
import {
  appointeeContactMachine,
  isNewContactValid,
  type ContactChangeFailure,
} from './appointee-contact.machine';
import { appointmentAcceptanceMachine } from './appointment-acceptance.machine';
import { isCodeValid, type OneTimeCodeOutput } from './one-time-code/types';
import type { FlowEntry } from './index';

/**
 * The registry entries of the appointment flows (docs/decisions/020-appointments.md): the appointee's acceptance, the AP/RSE login
 * and the AP's or RSE's own change of contact.
 * Kept here, beside their machines; machines/flows/index.ts lists them in FLOW_REGISTRY. (The events an
 * invoked actor raises are written out: this file imports only types from the registry.) The code step of
 * both is the child `oneTimeCode`, walked by its own entry (login-flows.ts): here its three endings.
 */
const NOW = Date.UTC(2025, 0, 6, 9, 0, 0);
const done = (id: string, output?: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string, error: unknown): AnyEventObject => ({ type: `xstate.error.actor.${id}`, error });

/** The code step's endings: verified (with the verify's answer), back to the details, a send refused. */
const codeStep = (answer: unknown): AnyEventObject[] =>
  (
    [
      { result: 'verified', answer },
      { result: 'back' },
      { result: 'refused', error: { kind: 'invalid', message: 'Too many codes' } },
    ] satisfies OneTimeCodeOutput[]
  ).map((output) => done('oneTimeCode', output));

const invitation = (confirmed: boolean): InvitationView => ({
  appointment: {
    id: 1,
    identity: 'ap',
    nameEn: 'CHAN TAI MAN',
    nameZh: null,
    registrationNumber: 'AP(A) 1234',
    registeredContacts: false,
    email: 'a***@example.com',
    mobile: '****5678',
    expiryDate: '2026-12-31',
    status: 'INVITED',
    invitedAt: '2025-01-06T01:00:00.000Z',
    acceptedAt: null,
    endedAt: null,
    endReason: null,
  },
  applicationNo: 'A2-2025-000123',
  formCode: 'A2',
  caseStatus: 'LOR_ISSUED',
  premisesAddress: null,
  applicantName: 'CHAN Siu Ming',
  confirmed,
  declaration: 'Declaration of appointment 1',
});

export const appointmentAcceptanceFlow = {
  id: 'appointmentAcceptance',
  machine: appointmentAcceptanceMachine,
  doc: 'appointment-acceptance.md',
  input: () => ({ token: 't'.repeat(43), now: () => NOW }),
  events: [{ type: 'channel.choose', channel: 'mobile' }, { type: 'otp.send' }, { type: 'flow.retry' }],
  serializeState: (s: AnyMachineSnapshot) => {
    const c = s.context as { channel: string };
    return JSON.stringify({ value: s.value as unknown, channel: c.channel });
  },
  actorOutcomes: {
    loadInvitation: [
      done('loadInvitation', invitation(false)),
      done('loadInvitation', invitation(true)),
      failed('loadInvitation', { kind: 'refused', message: 'This invitation has expired.' }),
    ],
    oneTimeCode: codeStep({}),
    signDeclaration: [
      done('signDeclaration', { method: 'iamsmart', reference: 'a'.repeat(32) }),
      done('signDeclaration', null),
    ],
    accept: [done('accept', {}), failed('accept', { kind: 'refused', message: 'Already accepted' })],
  },
  simplePaths: { to: (s: AnyMachineSnapshot) => s.status === 'done' },
  unreachable: {},
} as unknown as FlowEntry;

const session: AppointeeSession = {
  token: 'token-1',
  applicationNo: 'A2-2025-000123',
  role: 'ap',
  userId: 'ap:AP(A) 1234',
  idleTimeoutMinutes: 30,
  cases: [],
};

export const appointeeLoginFlow = {
  id: 'appointeeLogin',
  machine: appointeeLoginMachine,
  doc: 'appointee-login.md',
  input: () => ({ now: () => NOW }),
  events: [
    { type: 'details.change', registrationNumber: 'AP(A) 1234', contact: 'ap@example.com' },
    { type: 'details.change', registrationNumber: 'X' },
    { type: 'otp.send' },
    { type: 'case.choose', applicationNo: 'A2-2025-000123' },
    { type: 'case.choose', applicationNo: 'A2-2025-000999' },
  ],
  serializeState: (s: AnyMachineSnapshot) => {
    const c = s.context as { registrationNumber: string; contact: string };
    return JSON.stringify({
      value: s.value as unknown,
      details: c.registrationNumber !== '' && c.registrationNumber !== 'X' && c.contact !== '',
    });
  },
  actorOutcomes: {
    oneTimeCode: codeStep(session),
    selectCase: [done('selectCase', {}), failed('selectCase', { kind: 'invalid', message: 'Not yours' })],
  },
  simplePaths: { to: (s: AnyMachineSnapshot) => s.status === 'done' },
  unreachable: {},
} as unknown as FlowEntry;

// An AP's or RSE's own change of contact (docs/flows/appointee-contact.md): every refusal the API gives.
const contactFailures: ContactChangeFailure[] = [
  { kind: 'unchanged' },
  { kind: 'wrongCode', field: 'newCode', attemptsLeft: 4 },
  { kind: 'expired' },
  { kind: 'rateLimited', retryAfterSeconds: 60 },
  { kind: 'loggedOut' },
  { kind: 'network' },
];

export const appointeeContactFlow = {
  id: 'appointeeContact',
  machine: appointeeContactMachine,
  doc: 'appointee-contact.md',
  input: () => undefined,
  events: [
    { type: 'kind.choose', kind: 'mobile' },
    { type: 'kind.choose', kind: 'email' },
    { type: 'contact.change', contact: 'new-ap@example.com' },
    { type: 'contact.change', contact: '' },
    { type: 'codes.send' },
    { type: 'code.change', field: 'oldCode', code: '123456' },
    { type: 'code.change', field: 'newCode', code: '654321' },
    { type: 'code.change', field: 'newCode', code: '65' },
    { type: 'codes.verify' },
    { type: 'codes.resend' },
    { type: 'contact.edit' },
  ],
  serializeState: (s: AnyMachineSnapshot) => {
    const c = s.context as { kind: 'email' | 'mobile'; contact: string; oldCode: string; newCode: string };
    return JSON.stringify({
      value: s.value as unknown,
      contact: isNewContactValid(c.kind, c.contact),
      oldCode: isCodeValid(c.oldCode),
      newCode: isCodeValid(c.newCode),
    });
  },
  actorOutcomes: {
    sendCodes: [
      done('sendCodes', { resendAfterSeconds: 60, expiresInSeconds: 600 }),
      ...contactFailures.map((f) => failed('sendCodes', f)),
    ],
    verifyCodes: [
      done('verifyCodes', { email: 'new-ap@example.com', mobile: '91234567' }),
      ...contactFailures.map((f) => failed('verifyCodes', f)),
    ],
  },
  simplePaths: { to: (s: AnyMachineSnapshot) => s.status === 'done' },
  unreachable: {},
} as unknown as FlowEntry;
