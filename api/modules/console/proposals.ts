import { randomBytes } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../../drizzle/db';
import { decisionProposals } from '../../../drizzle/schema-proposals';
import { staffAccounts, type StaffAccountRow } from '../../../drizzle/schema-staff';
import type { CaseActor, CaseStatus } from '../../../machines/rules/case-lifecycle';
import type { Language } from '../../../machines/rules/language';
import { allowedEvents, canSend } from '../../../machines/flows/case-lifecycle.machine';
import type { LifecycleFacts } from '../../../machines/rules/case-rules';
import {
  DECISION_EVENTS,
  PROPOSAL_EVENTS,
  type CaseDecisionsData,
  type DecisionEvent,
  type ProposalData,
  type ProposalState,
} from '../../../machines/rules/proposals';
import { CONSOLE_ACTION_SCHEMAS, type ConsoleActionResult } from '../../../machines/rules/staff';
import type { Clock } from '../../clock';
import { ApiError, ForbiddenError, NotFoundError } from '../../http/errors';
import { underAnswers } from '../../http/field-errors';
import { assignmentOf, runCaseAction, type CaseAction } from '../cases';
import type { StaffSession } from '../auth';
import type { ConsoleService } from './console.service';
import { CaseChangedError, lastChangeBy } from './case-changed';
import * as repo from './console.repo';

/**
 * Decisions by two people (docs/decisions/040-four-eyes-decisions.md). A certificate (or notice), a
 * rejection or a revocation is proposed by the case officer (or a senior officer) and made only when a
 * senior officer who did not propose approves it. Proposing, sending back and withdrawing are lifecycle
 * events that keep the status (`certificate.propose`, `proposal.sendBack` …), run in the one action
 * transaction under the case's row lock with their audit event; the approval is the decision itself,
 * made by the console's action (ConsoleService.act) with the proposed answers, and marks the proposal
 * approved in the same transaction, compare-and-set: a second approval is 409 PROPOSAL_DECIDED naming
 * who decided.
 */

/** 409 PROPOSAL_DECIDED: the proposal was approved, sent back or withdrawn meanwhile, by whom. */
export class ProposalDecidedError extends ApiError {
  constructor(
    state: ProposalState,
    by: Pick<StaffAccountRow, 'nameEn' | 'nameZh'> | undefined,
    language: Language,
  ) {
    const who = by ? (language === 'en' ? by.nameEn : by.nameZh) : '';
    super(
      409,
      'PROPOSAL_DECIDED',
      `staff.proposal.${state === 'pending' ? 'approved' : state}`,
      {
        state,
        decidedBy: by ? { nameEn: by.nameEn, nameZh: by.nameZh } : null,
      },
      { params: { who } },
    );
  }
}

export interface ProposalContext {
  language: Language;
  address: string;
  idempotencyKey?: string;
}

export interface ProposalService {
  propose(
    session: StaffSession,
    applicationNo: string,
    decision: DecisionEvent,
    body: { expectedStatus: CaseStatus; answers: Record<string, unknown> },
    context: ProposalContext,
  ): Promise<ConsoleActionResult & { proposalId: number }>;
  approve(
    session: StaffSession,
    applicationNo: string,
    id: number,
    context: ProposalContext,
  ): Promise<ConsoleActionResult>;
  sendBack(
    session: StaffSession,
    applicationNo: string,
    id: number,
    note: string,
    context: ProposalContext,
  ): Promise<{ id: number; state: ProposalState }>;
  withdraw(
    session: StaffSession,
    applicationNo: string,
    id: number,
    context: ProposalContext,
  ): Promise<{ id: number; state: ProposalState }>;
}

const CODES = {
  'certificate.propose': 'PRC',
  'rejection.propose': 'PRR',
  'revocation.propose': 'PRV',
  'proposal.sendBack': 'PSB',
  'proposal.withdraw': 'PWD',
} as const;

const proposer = alias(staffAccounts, 'proposer');
const decider = alias(staffAccounts, 'decider');
const person = (s: { id: number; nameEn: string; nameZh: string }) => ({
  id: s.id,
  nameEn: s.nameEn,
  nameZh: s.nameZh,
});

/** The proposals of a case, oldest first, with who proposed and who decided (the console's case page). */
export async function proposalsOf(db: Db, applicationId: number): Promise<ProposalData[]> {
  const rows = await db
    .select({ p: decisionProposals, proposer, decider })
    .from(decisionProposals)
    .innerJoin(proposer, eq(proposer.id, decisionProposals.proposedBy))
    .leftJoin(decider, eq(decider.id, decisionProposals.decidedBy))
    .where(eq(decisionProposals.applicationId, applicationId))
    .orderBy(asc(decisionProposals.id));
  return rows.map(({ p, proposer: by, decider: dec }) => ({
    id: p.id,
    decision: p.decision as DecisionEvent,
    answers: p.answers,
    state: p.state as ProposalState,
    proposedBy: person(by),
    proposedAt: p.proposedAt.toISOString(),
    decidedBy: dec ? person(dec) : null,
    decidedAt: p.decidedAt?.toISOString() ?? null,
    note: p.note,
    reference: p.decisionReference,
  }));
}

/**
 * The console's case page's part of decisions by two people: the proposals, what this officer may propose
 * now (the lifecycle's `*.propose` events, on a case they may act on), and whether the pending proposal
 * waits for their approval (the lifecycle allows them the decision).
 */
export async function caseDecisions(
  db: Db,
  application: { id: number; status: CaseStatus },
  staff: StaffAccountRow,
  mayAct: boolean,
  facts: LifecycleFacts,
): Promise<Omit<CaseDecisionsData, 'notes'>> {
  const actor: CaseActor | null =
    staff.role === 'seniorOfficer' ? 'seniorOfficer' : staff.role === 'caseOfficer' ? 'caseOfficer' : null;
  const query = actor ? { actor, actorRef: `staff:${staff.id}`, facts } : null;
  const events = query && mayAct ? allowedEvents(application.status, query) : [];
  return {
    proposals: await proposalsOf(db, application.id),
    proposable: DECISION_EVENTS.filter((d) => (events as string[]).includes(PROPOSAL_EVENTS[d])),
    awaitingMe:
      query !== null &&
      actor === 'seniorOfficer' &&
      facts.proposal !== null &&
      canSend(application.status, facts.proposal.decision, query),
  };
}

export function createProposalService(deps: {
  db: Db;
  clock: Clock;
  console: ConsoleService;
}): ProposalService {
  const { db, clock } = deps;

  /** The case, and that this officer may act on it (assigned case officer, or a senior officer). */
  async function caseFor(staff: StaffAccountRow, applicationNo: string) {
    const found = await repo.applicationByNo(db, applicationNo);
    if (!found) {
      if (staff.role === 'seniorOfficer') throw new NotFoundError('case.notFound');
      throw new ForbiddenError();
    }
    const assignment = await assignmentOf(db, found.id);
    if (staff.role !== 'seniorOfficer' && assignment?.staffId !== staff.id) throw new ForbiddenError();
    return found;
  }

  /** The proposal under the case's lock, pending: else 409 naming who decided it (404 not of this case). */
  async function pendingUnderLock(tx: Db, applicationId: number, id: number, language: Language) {
    const [row] = await tx
      .select()
      .from(decisionProposals)
      .where(and(eq(decisionProposals.id, id), eq(decisionProposals.applicationId, applicationId)));
    if (!row) throw new NotFoundError('staff.proposal.notFound');
    if (row.state !== 'pending') {
      const [by] = row.decidedBy
        ? await tx.select().from(staffAccounts).where(eq(staffAccounts.id, row.decidedBy))
        : [];
      throw new ProposalDecidedError(row.state as ProposalState, by, language);
    }
    return row;
  }

  /** Marks the pending proposal decided (compare-and-set on its state). */
  async function decide(
    tx: Db,
    id: number,
    staff: StaffAccountRow,
    set: { state: ProposalState; note?: string; decisionReference?: string },
    language: Language,
  ) {
    const updated = await tx
      .update(decisionProposals)
      .set({ ...set, decidedBy: staff.id, decidedAt: clock.now() })
      .where(and(eq(decisionProposals.id, id), eq(decisionProposals.state, 'pending')))
      .returning({ id: decisionProposals.id });
    if (updated.length !== 1) throw new ProposalDecidedError('pending', undefined, language);
  }

  /** A lifecycle event of a proposal that keeps the status, in the one action transaction. */
  function proposalAction<P>(
    staff: StaffAccountRow,
    applicationNo: string,
    event: keyof typeof CODES,
    answers: Record<string, unknown>,
    context: ProposalContext,
    more: Pick<CaseAction<P>, 'guard' | 'write'>,
  ) {
    return runCaseAction<P>(db, {
      applicationNo,
      event,
      formKey: event,
      code: CODES[event],
      idempotencyKey: context.idempotencyKey ?? randomBytes(16).toString('hex'),
      answers,
      actor: staff.role === 'seniorOfficer' ? 'seniorOfficer' : 'caseOfficer',
      actorRef: `staff:${staff.id}`,
      staffRef: `staff:${staff.id}`,
      language: context.language,
      now: clock.now(),
      address: context.address,
      ...more,
    });
  }

  return {
    async propose(session, applicationNo, decision, body, context) {
      const { staff } = session;
      await caseFor(staff, applicationNo);
      const parsed = CONSOLE_ACTION_SCHEMAS[decision].safeParse(body.answers);
      if (!parsed.success) throw underAnswers(parsed.error);
      const answers = parsed.data as Record<string, unknown>;
      let proposalId = 0;
      const outcome = await proposalAction(
        staff,
        applicationNo,
        PROPOSAL_EVENTS[decision],
        answers,
        context,
        {
          guard: async (tx, application, before) => {
            if (before !== body.expectedStatus)
              throw new CaseChangedError(before, context.language, await lastChangeBy(tx, application.id));
            const current = await assignmentOf(tx, application.id);
            if (staff.role !== 'seniorOfficer' && current?.staffId !== staff.id) throw new ForbiddenError();
          },
          write: async ({ tx, application, reference }) => {
            const [row] = await tx
              .insert(decisionProposals)
              .values({
                applicationId: application.id,
                decision,
                answers,
                state: 'pending',
                proposedBy: staff.id,
                proposedAt: clock.now(),
                reference,
              })
              .returning({ id: decisionProposals.id });
            proposalId = row?.id ?? 0;
            return { auditAfter: { proposalId, decision } };
          },
        },
      );
      if (!outcome.made) {
        const [again] = await db
          .select({ id: decisionProposals.id })
          .from(decisionProposals)
          .where(eq(decisionProposals.reference, outcome.row.reference));
        proposalId = again?.id ?? 0;
      }
      return {
        applicationNo: outcome.application.applicationNo,
        event: decision,
        status: body.expectedStatus,
        reference: outcome.row.reference,
        proposalId,
      };
    },

    async approve(session, applicationNo, id, context) {
      const { staff } = session;
      if (staff.role !== 'seniorOfficer') throw new ForbiddenError('staff.proposal.seniorOnly');
      const application = await caseFor(staff, applicationNo);
      const [row] = await db
        .select()
        .from(decisionProposals)
        .where(and(eq(decisionProposals.id, id), eq(decisionProposals.applicationId, application.id)));
      if (!row) throw new NotFoundError('staff.proposal.notFound');
      // The decision itself, by the console's action with the answers proposed: the same letter, seal,
      // history row, notice and audit as ever; the proposal is marked approved in its transaction.
      return deps.console.act(
        session,
        applicationNo,
        row.decision,
        { expectedStatus: application.status as CaseStatus, answers: row.answers },
        {
          ...context,
          approval: {
            proposalId: id,
            guard: async (tx) => {
              await pendingUnderLock(tx, application.id, id, context.language);
            },
            write: async (tx, reference) => {
              await decide(
                tx,
                id,
                staff,
                { state: 'approved', decisionReference: reference },
                context.language,
              );
              return { proposalId: id, proposedBy: row.proposedBy };
            },
          },
        },
      );
    },

    async sendBack(session, applicationNo, id, note, context) {
      const { staff } = session;
      if (staff.role !== 'seniorOfficer') throw new ForbiddenError('staff.proposal.seniorOnly');
      await caseFor(staff, applicationNo);
      await proposalAction(staff, applicationNo, 'proposal.sendBack', { proposalId: id, note }, context, {
        guard: async (tx, application) => {
          await pendingUnderLock(tx, application.id, id, context.language);
        },
        write: async ({ tx }) => {
          await decide(tx, id, staff, { state: 'sentBack', note }, context.language);
          return { auditAfter: { proposalId: id, note } };
        },
      });
      return { id, state: 'sentBack' };
    },

    async withdraw(session, applicationNo, id, context) {
      const { staff } = session;
      await caseFor(staff, applicationNo);
      await proposalAction(staff, applicationNo, 'proposal.withdraw', { proposalId: id }, context, {
        guard: async (tx, application) => {
          await pendingUnderLock(tx, application.id, id, context.language);
        },
        write: async ({ tx }) => {
          await decide(tx, id, staff, { state: 'withdrawn' }, context.language);
          return { auditAfter: { proposalId: id } };
        },
      });
      return { id, state: 'withdrawn' };
    },
  };
}
