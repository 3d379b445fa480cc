import {
  isApplicationNoValid,
  isContactValid,
  FIND_MY_CASE_CODE,
  loginOtpMachine,
  type LoginSession,
} from './login-otp.machine';
import { oneTimeCodeMachine } from './one-time-code.machine';
import {
  isCodeValid,
  type OneTimeCodeOutput,
  type OtpError,
  type SendCodeOutput,
} from './one-time-code/types';
import { defineFlow, done, failed, GRAPH_NOW, type FlowEntry } from './flow-entry';

/**
 * The registry entries of the one-time code step and of the Find my case login that invokes it. Kept here,
 * beside their machines; machines/flows/index.ts lists them in FLOW_REGISTRY.
 */
const session: LoginSession = {
  token: 'token-1',
  applicationNo: 'BD-2025-000123',
  role: 'applicant',
  userId: 'user-1',
  idleTimeoutMinutes: 30,
};
// One second to wait, so the countdown reaches `resendable` in a single tick of the frozen clock.
const sent: SendCodeOutput = { resendAfterSeconds: 1, expiresInSeconds: 300 };
const errors: OtpError[] = [
  { kind: 'wrongCode', attemptsLeft: 2 },
  { kind: 'expired' },
  { kind: 'burnt' },
  { kind: 'locked', retryAfterSeconds: 900 },
  { kind: 'rateLimited', retryAfterSeconds: 60 },
  { kind: 'network' },
  { kind: 'invalid', message: 'Application not found' },
];

/** The transitions only a flow whose failures are reported in place takes (the appointee's flows). */
export const IN_PLACE_TRANSITIONS = [
  'oneTimeCode.sending --xstate.error.actor.sendCode[0]--> oneTimeCode.refused',
  'oneTimeCode.codeSent.code.verifying --xstate.error.actor.verifyCode[0]--> oneTimeCode.codeSent.code.entering',
];

// Walked with Find my case's options; tests/paths/one-time-code.test.ts walks the appointee's as well.
export const oneTimeCodeFlow: FlowEntry = defineFlow({
  id: 'oneTimeCode',
  machine: oneTimeCodeMachine,
  doc: 'one-time-code.md',
  input: () => ({
    now: () => GRAPH_NOW,
    request: { applicationNo: 'BD-2025-000123', contact: 'applicant@example.com' },
    options: FIND_MY_CASE_CODE,
  }),
  events: [
    { type: 'code.change', code: '123456' },
    { type: 'code.change', code: '12' },
    { type: 'otp.submit' },
    { type: 'otp.resend' },
    { type: 'otp.send' },
    { type: 'details.edit' },
    { type: 'otp.retry' },
  ],
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      codeComplete: isCodeValid(s.context.code),
      resendDue: s.context.secondsLeft <= 0,
      pendingRequest: s.context.pendingRequest,
      requestFrom: s.context.requestFrom,
    }),
  actorOutcomes: {
    sendCode: [done('sendCode', sent), ...errors.map((e) => failed('sendCode', e))],
    verifyCode: [done('verifyCode', session), ...errors.map((e) => failed('verifyCode', e))],
  },
  simplePaths: {
    skip: 'over 60 000 simple paths to its final states, over a minute to generate; the shortest and edge paths cover it all',
  },
  unreachable: Object.fromEntries(
    IN_PLACE_TRANSITIONS.map((t) => [
      t,
      'taken when `options.failureStates` is false (the appointee flows), an input of its own; tests/paths/one-time-code.test.ts walks it',
    ]),
  ),
});

const outcomes: OneTimeCodeOutput[] = [
  { result: 'verified', answer: session },
  { result: 'back' },
  { result: 'refused', error: { kind: 'invalid', message: 'Application not found' } },
];

export const loginOtpFlow: FlowEntry = defineFlow({
  id: 'loginOtp',
  machine: loginOtpMachine,
  doc: 'login.md',
  input: () => ({ now: () => GRAPH_NOW }),
  events: [
    { type: 'details.change', applicationNo: 'BD-2025-000123', contact: 'applicant@example.com' },
    { type: 'details.change', applicationNo: '' },
    { type: 'otp.send' },
  ],
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      validDetails: isApplicationNoValid(s.context.applicationNo) && isContactValid(s.context.contact),
    }),
  actorOutcomes: { oneTimeCode: outcomes.map((o) => done('oneTimeCode', o)) },
  simplePaths: { to: (s) => s.status === 'done' },
  unreachable: {},
});
