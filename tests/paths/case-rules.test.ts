import { describe, expect, it } from 'vitest';
import { transition, type AnyStateMachine } from 'xstate';
import {
  caseLifecycleMachine,
  statusOf,
  type CaseEvent,
  type CaseLifecycleSnapshot,
} from '../../machines/flows/case-lifecycle.machine';
import {
  MODEL_EVENTS,
  MODEL_FACTS,
  MODEL_STAFF,
  MODEL_TODAY,
  serializeModel,
} from '../../machines/flows/case-lifecycle.model';
import { CASE_STATUSES } from '../../machines/rules/case-lifecycle';
import { earliestReplyBy, LOR_STANDS, partyRef, type LifecycleFacts } from '../../machines/rules/case-rules';
import { certifiesCaseForm, isSelfCertKey } from '../../machines/rules/selfcert';
import { isDecisionEvent } from '../../machines/rules/proposals';
import { isWorkingDay } from '../../machines/rules/working-days';

/**
 * The case's invariants on every reachable state and every transition of the lifecycle with its facts
 * (docs/flows/case-lifecycle.md, "Invariants"): the model case is walked breadth first with every event by
 * every sender with every variant of its own facts (machines/flows/case-lifecycle.model.ts), each state
 * told apart by its status and the facts the rules read. Since every path is a walk over these states and
 * edges, checking each state and each edge checks every path; the count of paths up to a length that
 * visits each status twice is reported. A second walk over the machine with the case's rules taken out
 * shows the same checks find the violations they are for.
 */

interface Walk {
  states: Map<string, CaseLifecycleSnapshot>;
  edges: { before: CaseLifecycleSnapshot; event: CaseEvent; after: CaseLifecycleSnapshot }[];
  /** Distinct event paths of each length from the start (allowed events only). */
  pathsByLength: number[];
}

const PATH_LENGTH = 2 * CASE_STATUSES.length;

function walk(machine: AnyStateMachine): Walk {
  const start = caseLifecycleMachine.resolveState({ value: { open: 'submitted' }, context: MODEL_FACTS });
  const startSnapshot = (
    machine === caseLifecycleMachine
      ? start
      : machine.resolveState({ value: { open: 'submitted' }, context: MODEL_FACTS })
  ) as CaseLifecycleSnapshot;
  const states = new Map<string, CaseLifecycleSnapshot>([[serializeModel(startSnapshot), startSnapshot]]);
  const out = new Map<string, string[]>();
  const edges: Walk['edges'] = [];
  const queue = [startSnapshot];
  while (queue.length > 0) {
    const before = queue.shift()!;
    const key = serializeModel(before);
    const next: string[] = [];
    for (const event of MODEL_EVENTS) {
      if (!before.can(event)) continue;
      const [after] = transition(machine, before, event) as [CaseLifecycleSnapshot, unknown];
      edges.push({ before, event, after });
      const afterKey = serializeModel(after);
      next.push(afterKey);
      if (!states.has(afterKey)) {
        states.set(afterKey, after);
        queue.push(after);
      }
    }
    out.set(key, next);
  }
  // Paths of each length, counted over the edges (each allowed event a step).
  let counts = new Map<string, number>([[serializeModel(startSnapshot), 1]]);
  const pathsByLength = [1];
  for (let n = 1; n <= PATH_LENGTH; n += 1) {
    const nextCounts = new Map<string, number>();
    for (const [key, c] of counts)
      for (const to of out.get(key) ?? []) nextCounts.set(to, (nextCounts.get(to) ?? 0) + c);
    counts = nextCounts;
    pathsByLength.push([...counts.values()].reduce((a, b) => a + b, 0));
  }
  return { states, edges, pathsByLength };
}

/** What is wrong with a state or an edge, in words (empty: nothing). */
function stateViolations(s: CaseLifecycleSnapshot): string[] {
  const f: LifecycleFacts = s.context;
  const status = statusOf(s);
  const problems: string[] = [];
  if ((status === 'CERTIFICATE_ISSUED' || status === 'CLOSED') && f.inspection?.result !== 'PASS')
    problems.push(`${status} without a passed inspection`);
  if (f.inspection && !isWorkingDay(f.inspection.date, new Set(f.holidays)))
    problems.push(`inspection on ${f.inspection.date}, not a working day`);
  if (f.inspection && f.inspection.date < MODEL_TODAY) problems.push(`inspection in the past`);
  if (f.lorIssued !== LOR_STANDS.includes(status)) problems.push(`lorIssued ${f.lorIssued} in ${status}`);
  return problems;
}

function edgeViolations({ before, event }: Walk['edges'][number]): string[] {
  const f = before.context;
  const own = event.own ?? {};
  const problems: string[] = [];
  if (
    (event.actor === 'ap' || event.actor === 'rse') &&
    !f.appointees.includes(partyRef(event.actor, event.actorRef ?? ''))
  )
    problems.push(`${event.type} by ${event.actor} ${event.actorRef ?? ''}, not on the case`);
  if (event.type === 'certificate.issue' && (f.inspection?.result !== 'PASS' || f.openRequests.length > 0))
    problems.push('certificate without a passed inspection or with a request open');
  // Four eyes (docs/decisions/040-four-eyes-decisions.md): a decision only by a senior officer on a pending
  // proposal of it made by someone else; a proposal withdrawn only by its proposer.
  if (isDecisionEvent(event.type)) {
    if (f.proposal?.decision !== event.type) problems.push(`${event.type} without a pending proposal of it`);
    else if (f.proposal.by === event.actorRef) problems.push(`${event.type} approved by its proposer`);
    if (event.actor !== 'seniorOfficer') problems.push(`${event.type} by ${event.actor}`);
  }
  if (event.type === 'proposal.withdraw' && f.proposal?.by !== event.actorRef)
    problems.push('proposal withdrawn by someone who did not propose it');
  if (event.type.endsWith('.propose') && f.proposal !== null)
    problems.push('a second proposal while one is pending');
  if (event.type === 'inspection.record' && (!f.inspection || f.inspection.date > f.today))
    problems.push('result recorded before the inspection date');
  if (event.type === 'selfCertification.submit') {
    if (!f.lorIssued) problems.push('self-certification without a Letter of Requirements');
    if (own.formKey && !(isSelfCertKey(own.formKey) && certifiesCaseForm(own.formKey, f.formCode)))
      problems.push(`self-certification ${own.formKey} on a ${f.formCode} case`);
  }
  if (event.type === 'information.request' || event.type === 'information.extend') {
    const replyBy = own.replyBy ?? '';
    if (!isWorkingDay(replyBy, new Set(f.holidays)) || replyBy < earliestReplyBy(f))
      problems.push(`reply-by ${replyBy} too soon or not a working day`);
  }
  if (
    (event.type === 'information.extend' || event.type === 'information.withdraw') &&
    !f.openRequests.includes(own.requestId ?? -1)
  )
    problems.push(`${event.type} of a request that is not open`);
  return problems;
}

function violations(w: Walk): string[] {
  const found = new Set<string>();
  for (const s of w.states.values()) for (const p of stateViolations(s)) found.add(p);
  for (const e of w.edges) for (const p of edgeViolations(e)) found.add(p);
  return [...found];
}

describe('the case rules, on every reachable state of the lifecycle', () => {
  const w = walk(caseLifecycleMachine);
  const statuses = new Set([...w.states.values()].map(statusOf));

  it('reaches every status, each with several sets of facts', () => {
    expect([...statuses].sort()).toEqual([...CASE_STATUSES].sort());
    expect(w.states.size).toBeGreaterThan(CASE_STATUSES.length * 2);
    const total = w.pathsByLength.reduce((a, b) => a + b, 0);
    console.info(
      `case rules: ${w.states.size} states, ${w.edges.length} transitions, ${MODEL_EVENTS.length} events tried in each; ` +
        `${total.toExponential(3)} paths of up to ${PATH_LENGTH} events`,
    );
  });

  it('holds every invariant on every state and every transition', () => {
    expect(violations(w)).toEqual([]);
  });

  it('refuses each break the invariants are for somewhere on the walk', () => {
    // Each refused kind is tried on the walk: the events are there and the rules turn them away.
    const refused = new Set<string>();
    for (const s of w.states.values())
      for (const event of MODEL_EVENTS)
        if (!s.can(event) && s.can({ ...event, own: undefined, actorRef: event.actorRef }))
          refused.add(event.type);
    expect([...refused]).toEqual(
      expect.arrayContaining([
        'inspection.schedule',
        'inspection.reschedule',
        'information.request',
        'information.extend',
        'selfCertification.submit',
      ]),
    );
  });

  it('refuses each decision to its proposer and makes it on another senior officer\'s approval', () => {
    const refusedToProposer = new Set<string>();
    const madeByOther = new Set<string>();
    for (const s of w.states.values()) {
      const proposal = s.context.proposal;
      if (!proposal) continue;
      for (const [ref, found] of [
        [proposal.by, refusedToProposer],
        [[MODEL_STAFF.senior, MODEL_STAFF.otherSenior].find((r) => r !== proposal.by), madeByOther],
      ] as const) {
        const event: CaseEvent = { type: proposal.decision, actor: 'seniorOfficer', actorRef: ref ?? '' };
        if (s.can(event) === (found === madeByOther)) found.add(proposal.decision);
      }
    }
    expect([...refusedToProposer].sort()).toEqual(['case.reject', 'certificate.issue', 'certificate.revoke']);
    expect([...madeByOther].sort()).toEqual(['case.reject', 'certificate.issue', 'certificate.revoke']);
  });

  it('finds the violations on a lifecycle whose case rules are taken out (the checks can fail)', () => {
    const bare = caseLifecycleMachine.provide({
      guards: {
        isAllowed: ({ event }, params: { by: readonly string[] }) => params.by.includes(event.actor),
      },
    });
    const found = violations(walk(bare));
    expect(found).toEqual(
      expect.arrayContaining([
        'CERTIFICATE_ISSUED without a passed inspection',
        'inspection on 2026-12-06, not a working day',
        'inspection in the past',
        'certificate without a passed inspection or with a request open',
        'result recorded before the inspection date',
        'self-certification without a Letter of Requirements',
        'self-certification scs2 on a A2 case',
        `compliance.report by ap AP(E) 9999, not on the case`,
        `message.send by rse RSE 567, not on the case`,
        'certificate.issue without a pending proposal of it',
        'case.reject without a pending proposal of it',
        'certificate.revoke without a pending proposal of it',
        'certificate.issue approved by its proposer',
        'case.reject approved by its proposer',
        'proposal withdrawn by someone who did not propose it',
        'a second proposal while one is pending',
      ]),
    );
  });
});
