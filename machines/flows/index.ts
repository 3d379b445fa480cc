import { applyMachine } from './apply.machine';
import { applyTraversal } from './apply/graph';
import { SAMPLE_APPLICATION } from './apply/sample';
import { DEFAULT_IDLE_MINUTES, idleSessionMachine } from './idle-session.machine';
import { caseLifecycleMachine } from './case-lifecycle.machine';
import { MODEL_FACTS, PATH_EVENTS, serializeModel } from './case-lifecycle.model';
import { caseRulesTable } from '../rules/case-rules-table';
import { caseActionMachine, type CaseActionFailure, type LoadCaseOutput } from './case-action.machine';
import { consoleActionMachine } from './console-action.machine';
import { appointeeContactFlow, appointeeLoginFlow, appointmentAcceptanceFlow } from './appointment-flows';
import { loginOtpFlow, oneTimeCodeFlow } from './login-flows';
import { signingMachine } from './signing.machine';
import { defineFlow, done, failed, GRAPH_NOW, type FlowEntry } from './flow-entry';
import {
  ECERT_REJECTIONS,
  type PollIamSmartOutput,
  type PrepareEcertOutput,
  type SigningFailure,
  type StartIamSmartOutput,
} from './signing/types';

/**
 * The flow registry's entries, one per machine, and FLOW_REGISTRY. The entry shape lives in flow-entry.ts
 * and the structure helpers in flow-structure.ts; tools import all of it from here.
 */
export { done, failed, GRAPH_NOW, type FlowEntry } from './flow-entry';
export {
  delayedEventsOf,
  stateNodesOf,
  transitionKey,
  transitionsOf,
  traversalEvents,
  type FlowStateNode,
  type FlowTransition,
} from './flow-structure';

const MINUTE = 60_000;

const idleSession = defineFlow({
  id: 'idleSession',
  machine: idleSessionMachine,
  doc: 'idle-session.md',
  input: () => undefined,
  events: [
    { type: 'session.start', timeoutMinutes: DEFAULT_IDLE_MINUTES },
    { type: 'session.activity', now: GRAPH_NOW },
    // One check per verdict: missing, future, too old, warning (2 min and 1 s left), fresh.
    { type: 'session.check', lastOperationTime: null, now: GRAPH_NOW },
    { type: 'session.check', lastOperationTime: GRAPH_NOW + 1000, now: GRAPH_NOW },
    { type: 'session.check', lastOperationTime: GRAPH_NOW - 30 * MINUTE, now: GRAPH_NOW },
    { type: 'session.check', lastOperationTime: GRAPH_NOW - 28 * MINUTE, now: GRAPH_NOW },
    { type: 'session.check', lastOperationTime: GRAPH_NOW - 30 * MINUTE + 1000, now: GRAPH_NOW },
    { type: 'session.check', lastOperationTime: GRAPH_NOW - MINUTE, now: GRAPH_NOW },
    { type: 'session.extend', now: GRAPH_NOW },
    { type: 'session.stop' },
  ],
  serializeState: (s) => JSON.stringify({ value: s.value, countdownEnding: s.context.secondsLeft <= 1 }),
  actorOutcomes: {
    extendSession: [done('extendSession'), failed('extendSession', new Error('401'))],
  },
  simplePaths: { to: (s) => s.matches('loggedOut') },
  unreachable: {},
});

// The application wizard, walked over a small four-step definition (later: every form of the catalogue).
const apply = defineFlow({
  id: 'apply',
  machine: applyMachine,
  doc: 'apply.md',
  ...applyTraversal(SAMPLE_APPLICATION),
  simplePaths: {
    skip: 'the wizard and autosave regions multiply into too many simple paths; shortest and edge paths cover every transition',
  },
});

// Signing: iAM Smart (request, polls, the phone's answers, local expiry) and e-Cert (prepare, file, verify).
const iamSmartRequest = (expiresAt: number): StartIamSmartOutput => ({
  requestId: 'req-1',
  identificationCode: '1234',
  qrText: 'https://sandbox.iamsmart.local/sign?tx=req-1',
  expiresAt: new Date(expiresAt).toISOString(),
  digest: 'a'.repeat(64),
});
const polled: PollIamSmartOutput[] = [
  { status: 'pending' },
  { status: 'signed', reference: 'SIG-1' },
  { status: 'failed', code: 'D70004' },
  { status: 'failed', code: 'D70005' },
  { status: 'failed', code: 'D49999' },
  { status: 'expired' },
  { status: 'cancelled' },
];
const ecertText: PrepareEcertOutput = { digest: 'b'.repeat(64), content: 'Application NEWSCH-2025-000123' };
const network: SigningFailure = { kind: 'network' };
const refused: SigningFailure = { kind: 'failed' };

const signing = defineFlow({
  id: 'signing',
  machine: signingMachine,
  doc: 'signing.md',
  input: () => ({ applicationNo: 'NEWSCH-2025-000123', now: () => GRAPH_NOW }),
  events: [
    { type: 'signing.iamsmart' },
    { type: 'signing.ecert' },
    { type: 'signing.cancel' },
    { type: 'signing.retry' },
    { type: 'signing.other' },
    { type: 'signing.back' },
    { type: 'ecert.file', file: new Blob(['signature']), name: 'signature.p7s' },
    { type: 'ecert.submit' },
  ],
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      method: s.context.method,
      hasFile: s.context.file !== null,
      pollFailures: s.context.pollFailures,
      expiredLocally: s.context.expiresAt !== null && s.context.now() >= s.context.expiresAt,
    }),
  actorOutcomes: {
    // A request still valid, and one whose expiry the (frozen) clock has already passed.
    startIamSmart: [
      done('startIamSmart', iamSmartRequest(GRAPH_NOW + 2 * MINUTE)),
      done('startIamSmart', iamSmartRequest(GRAPH_NOW - 1000)),
      failed('startIamSmart', network),
      failed('startIamSmart', refused),
    ],
    pollIamSmart: [...polled.map((p) => done('pollIamSmart', p)), failed('pollIamSmart', network)],
    cancelIamSmart: [done('cancelIamSmart'), failed('cancelIamSmart', network)],
    prepareEcert: [
      done('prepareEcert', ecertText),
      failed('prepareEcert', network),
      failed('prepareEcert', refused),
    ],
    verifyEcert: [
      done('verifyEcert', { reference: 'SIG-2' }),
      ...ECERT_REJECTIONS.map((reason) => failed('verifyEcert', { kind: 'rejected', reason })),
      failed('verifyEcert', network),
    ],
  },
  simplePaths: { to: (s) => s.status === 'done' },
  unreachable: {},
});

// The case lifecycle: every event by every kind of actor, in every status.
const caseLifecycle = defineFlow({
  id: 'caseLifecycle',
  machine: caseLifecycleMachine,
  doc: 'case-lifecycle.md',
  input: () => MODEL_FACTS,
  events: PATH_EVENTS,
  serializeState: serializeModel,
  sections: { rules: caseRulesTable },
  actorOutcomes: {},
  simplePaths: {
    skip: 'with the case facts in the state, simple paths run to millions; tests/paths/case-rules.test.ts walks every reachable state and edge instead',
  },
  unreachable: {},
});

// The generic follow-up flow, over a stand-in form whose answers are valid when `ok` is true.
const caseCalendar = { today: '2025-01-06', holidays: [] };
const loadedCase = (allowed: boolean): LoadCaseOutput => ({
  kind: 'case',
  summary: {
    applicationNo: 'A2-2025-000123',
    status: allowed ? 'LOR_ISSUED' : 'WITHDRAWN',
    formCode: 'A2',
    applicationType: 'NEWSCH',
    submittedAt: '2025-01-02T02:00:00.000Z',
  },
  allowed,
  prefill: {},
  calendar: caseCalendar,
});
const actionFailures: CaseActionFailure[] = [
  { kind: 'invalid', fields: { ok: 'forms:errors.required' } },
  { kind: 'notAllowed', status: 'WITHDRAWN', message: 'Withdrawn' },
  { kind: 'loggedOut' },
  { kind: 'failed', message: 'Refused' },
  { kind: 'network' },
  { kind: 'stale', information: { version: 2, answers: { ok: true } }, message: 'Changed meanwhile' },
  { kind: 'unsigned', message: 'Sign again' },
];
const caseAction = defineFlow({
  id: 'caseAction',
  machine: caseActionMachine,
  doc: 'case-action.md',
  // The fullest form: fill, upload, preview, sign (the forms with fewer steps are walked by
  // tests/paths/case-action.test.ts, see `unreachable`).
  input: () => ({
    hasPreview: true,
    hasUpload: true,
    hasSign: true,
    validate: (answers) => answers.ok === true,
    idempotencyKey: 'case-action-key-0001',
  }),
  events: [
    { type: 'answer.change', field: 'ok', value: true },
    { type: 'answer.change', field: 'ok', value: false },
    { type: 'step.next' },
    { type: 'step.back' },
    { type: 'step.submit' },
    { type: 'login.done' },
    { type: 'flow.retry' },
    { type: 'upload.change', uploads: [{ id: 1, documentType: 'other', fileName: 'plan.pdf' }] },
    { type: 'upload.change', uploads: [] },
    { type: 'sign.done', reference: 'sign-ref-1' },
  ],
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      valid: s.context.answers.ok === true,
      errors: s.context.showErrors,
      files: s.context.uploads.length > 0,
    }),
  actorOutcomes: {
    loadCase: [
      done('loadCase', { kind: 'loggedOut' }),
      done('loadCase', loadedCase(true)),
      done('loadCase', loadedCase(false)),
      failed('loadCase', new Error('network')),
    ],
    submitAction: [
      done('submitAction', { reference: 'INS-1', status: 'INSPECTION_REQUESTED', submittedAt: '' }),
      ...actionFailures.map((f) => failed('submitAction', f)),
    ],
  },
  simplePaths: { to: (s) => s.status === 'done' },
  unreachable: Object.fromEntries(
    [
      'caseAction.fill --step.next[2]--> caseAction.preview',
      'caseAction.fill --step.next[3]--> caseAction.sign',
      'caseAction.fill --step.next[4]--> caseAction.submitting',
      'caseAction.upload --step.next[2]--> caseAction.sign',
      'caseAction.upload --step.next[3]--> caseAction.submitting',
      'caseAction.preview --step.back[1]--> caseAction.fill',
      'caseAction.preview --step.submit[1]--> caseAction.submitting',
      'caseAction.sign --step.back[1]--> caseAction.upload',
      'caseAction.sign --step.back[2]--> caseAction.fill',
    ].map((t) => [
      t,
      'taken by forms with fewer steps (no upload, preview or sign), whose input differs; tests/paths/case-action.test.ts walks them',
    ]),
  ),
});

// One action of the case officer console (docs/decisions/022-case-officer-console.md): confirm, send, and a refusal or a conflict.
const consoleAction = defineFlow({
  id: 'consoleAction',
  machine: consoleActionMachine,
  doc: 'console-action.md',
  input: () => undefined,
  events: [{ type: 'action.continue' }, { type: 'action.back' }, { type: 'action.confirm', answers: {} }],
  serializeState: (s) => JSON.stringify({ value: s.value, failed: s.context.failure?.status ?? null }),
  actorOutcomes: {
    submitAction: [
      done('submitAction', {
        applicationNo: 'A2-2025-000123',
        event: 'case.examine',
        status: 'UNDER_EXAMINATION',
        reference: 'EXM-1',
      }),
      failed('submitAction', { status: 409, code: 'CASE_CHANGED', message: 'Acknowledged', fields: [] }),
      failed('submitAction', { status: 400, code: 'BAD_REQUEST', message: 'Check', fields: [] }),
      failed('submitAction', new Error('network')),
    ],
  },
  simplePaths: { to: (s) => s.status === 'done' },
  unreachable: {},
});

export const FLOW_REGISTRY: readonly FlowEntry[] = [
  loginOtpFlow,
  oneTimeCodeFlow,
  idleSession,
  apply,
  signing,
  caseLifecycle,
  caseAction,
  appointmentAcceptanceFlow,
  appointeeLoginFlow,
  appointeeContactFlow,
  consoleAction,
];
