import type {
  AnyEventObject,
  AnyMachineSnapshot,
  AnyStateMachine,
  EventFrom,
  EventObject,
  InputFrom,
  MachineContext,
  SnapshotFrom,
  StateNode,
  TransitionDefinition,
} from 'xstate';
import { applyMachine } from './apply.machine';
import { applyTraversal } from './apply/graph';
import { SAMPLE_APPLICATION } from './apply/sample';
import { DEFAULT_IDLE_MINUTES, idleSessionMachine } from './idle-session.machine';
import {
  isApplicationNoValid,
  isCodeValid,
  isContactValid,
  loginOtpMachine,
  type LoginSession,
  type OtpError,
  type SendCodeOutput,
} from './login-otp.machine';
import { caseLifecycleMachine, type CaseEvent } from './case-lifecycle.machine';
import { caseActionMachine, type CaseActionFailure, type LoadCaseOutput } from './case-action.machine';
import { consoleActionMachine } from './console-action.machine';
import { CASE_ACTORS, CASE_EVENT_TYPES } from '../rules/case-lifecycle';
import { appointeeLoginFlow, appointmentAcceptanceFlow } from './appointment-flows';
import {
  ECERT_REJECTIONS,
  type PollIamSmartOutput,
  type PrepareEcertOutput,
  signingMachine,
  type SigningFailure,
  type StartIamSmartOutput,
} from './signing.machine';

/**
 * The flow registry: everything a tool needs to walk, draw or measure a machine (the generated path tests,
 * the inspector, the diagrams, coverage). A tool reads only this file.
 */
export interface FlowEntry {
  id: string;
  machine: AnyStateMachine;
  /** An input for tests and traversal (a fixed clock where the machine takes one). */
  input: () => unknown;
  /** The events to try in every state, with sample payloads (one per branch the guards tell apart). */
  events: readonly AnyEventObject[];
  /** Keeps the state value and the few context facts guards read, so each graph node is a real difference. */
  serializeState: (snapshot: AnyMachineSnapshot) => string;
  /** Per invoked actor id, the outcomes to try, as the events XState raises for them. */
  actorOutcomes: Record<string, readonly AnyEventObject[]>;
  /** State ids (`machine.state`) or transition keys (see `transitionKey`) no path can reach, with the reason. */
  unreachable?: Record<string, string>;
  /** Its page in `docs/flows/`, e.g. `login.md`: `npm run docs:flows` writes the diagram between its markers. */
  doc: string;
  /**
   * Simple paths (no state twice) replayed besides the shortest path to every state and one path per graph
   * edge: those ending in a state `to` accepts (every state when `to` is absent), or `{ skip: reason }` where
   * they are too many to walk (they grow with every branch; the login flow's take over a minute).
   */
  simplePaths?: { to?: (snapshot: AnyMachineSnapshot) => boolean } | { skip: string };
  /** The most states a graph traversal may visit before it fails (`@xstate/graph`'s `limit`); default 10 000. */
  traversalLimit?: number;
}

/** The same, typed for one machine: what `defineFlow` checks before the entry joins the registry. */
interface TypedFlowEntry<TMachine extends AnyStateMachine> extends Omit<
  FlowEntry,
  'input' | 'events' | 'serializeState' | 'simplePaths'
> {
  machine: TMachine;
  input: () => InputFrom<TMachine>;
  events: readonly EventFrom<TMachine>[];
  serializeState: (snapshot: SnapshotFrom<TMachine>) => string;
  simplePaths?: { to?: (snapshot: SnapshotFrom<TMachine>) => boolean } | { skip: string };
}

const defineFlow = <TMachine extends AnyStateMachine>(entry: TypedFlowEntry<TMachine>): FlowEntry =>
  entry as unknown as FlowEntry;

export const done = (actorId: string, output?: unknown): AnyEventObject => ({
  type: `xstate.done.actor.${actorId}`,
  output,
});
export const failed = (actorId: string, error: unknown): AnyEventObject => ({
  type: `xstate.error.actor.${actorId}`,
  error,
});

/** The fixed instant traversals and path replays run at. */
export const GRAPH_NOW = Date.UTC(2025, 0, 6, 9, 0, 0);
const MINUTE = 60_000;

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

const loginOtp = defineFlow({
  id: 'loginOtp',
  machine: loginOtpMachine,
  doc: 'login.md',
  input: () => ({ now: () => GRAPH_NOW }),
  events: [
    { type: 'details.change', applicationNo: 'BD-2025-000123', contact: 'applicant@example.com' },
    { type: 'details.change', applicationNo: '' },
    { type: 'otp.send' },
    { type: 'code.change', code: '123456' },
    { type: 'code.change', code: '12' },
    { type: 'otp.submit' },
    { type: 'otp.resend' },
    { type: 'details.edit' },
    { type: 'otp.retry' },
  ],
  serializeState: (s) =>
    JSON.stringify({
      value: s.value,
      validDetails: isApplicationNoValid(s.context.applicationNo) && isContactValid(s.context.contact),
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
    skip: 'over 600 simple paths to loggedIn alone, about 75 s to walk; the shortest and edge paths cover it all',
  },
  unreachable: {},
});

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
  input: () => undefined,
  events: CASE_EVENT_TYPES.flatMap((type) => CASE_ACTORS.map((actor): CaseEvent => ({ type, actor }))),
  serializeState: (s) => JSON.stringify(s.value),
  actorOutcomes: {},
  simplePaths: { to: (s) => s.status === 'done' },
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

// One action of the case officer console (issue 17): confirm, send, and a refusal or a conflict.
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
  loginOtp,
  idleSession,
  apply,
  signing,
  caseLifecycle,
  caseAction,
  appointmentAcceptanceFlow,
  appointeeLoginFlow,
  consoleAction,
];

// ---- Structure helpers shared by the path tests, coverage and diagram tools ----

export type FlowStateNode = StateNode<MachineContext, EventObject>;
export type FlowTransition = TransitionDefinition<MachineContext, EventObject>;

/** Every state node of a machine, depth first (the root excluded). */
export function stateNodesOf(machine: AnyStateMachine): FlowStateNode[] {
  const walk = (node: FlowStateNode): FlowStateNode[] =>
    Object.values(node.states).flatMap((child) => [child, ...walk(child)]);
  return walk(machine.root as FlowStateNode);
}

/** A stable name for one candidate transition: `source --event[i]--> targets`. */
export function transitionKey(t: FlowTransition): string {
  const candidates =
    t.eventType === '' ? (t.source.always ?? []) : (t.source.transitions.get(t.eventType) ?? []);
  const targets = (t.target ?? []).map((n) => n.id).join(',') || '(self)';
  return `${t.source.id} --${t.eventType || 'always'}[${candidates.indexOf(t)}]--> ${targets}`;
}

/** Every candidate transition of a machine (the root's own included): events, delays, actor outcomes, eventless. */
export function transitionsOf(machine: AnyStateMachine): FlowTransition[] {
  return [machine.root as FlowStateNode, ...stateNodesOf(machine)].flatMap((node) => [
    ...[...node.transitions.values()].flat(),
    ...(node.always ?? []),
  ]);
}

/** The `xstate.after.*` events of a machine, so a traversal can fire each delay. */
export function delayedEventsOf(machine: AnyStateMachine): AnyEventObject[] {
  return stateNodesOf(machine).flatMap((node) => node.after.map((t) => ({ type: t.eventType })));
}

/** Everything to try in a state: the sample events, the delays and the actor outcomes. */
export function traversalEvents(entry: FlowEntry): (snapshot: AnyMachineSnapshot) => AnyEventObject[] {
  const all = [
    ...entry.events,
    ...delayedEventsOf(entry.machine),
    ...Object.values(entry.actorOutcomes).flat(),
  ];
  return (snapshot) => all.filter((event) => snapshot.machine.getTransitionData(snapshot, event).length > 0);
}
