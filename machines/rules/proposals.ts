import type { CaseEventType } from './case-lifecycle';

/**
 * Decisions by two people (docs/decisions/040-four-eyes-decisions.md): the certificate (or notice), the
 * rejection and the revocation are proposed by one officer and made only when a senior officer who did
 * not propose approves. Shared by the lifecycle's rules (machines/rules/case-rules.ts), the API and the
 * console's screens; codes, never text.
 */

/** The decisions that need two people, each with the lifecycle event that proposes it. */
export const PROPOSAL_EVENTS = {
  'certificate.issue': 'certificate.propose',
  'case.reject': 'rejection.propose',
  'certificate.revoke': 'revocation.propose',
} as const satisfies Partial<Record<CaseEventType, CaseEventType>>;

export type DecisionEvent = keyof typeof PROPOSAL_EVENTS;
export type ProposeEvent = (typeof PROPOSAL_EVENTS)[DecisionEvent];
export const DECISION_EVENTS = Object.keys(PROPOSAL_EVENTS) as DecisionEvent[];

export function isDecisionEvent(value: unknown): value is DecisionEvent {
  return typeof value === 'string' && value in PROPOSAL_EVENTS;
}

/** The decision a proposing event proposes, or undefined for any other event. */
export function decisionProposedBy(event: string): DecisionEvent | undefined {
  return DECISION_EVENTS.find((d) => PROPOSAL_EVENTS[d] === event);
}

/** The pending proposal of a case, as the lifecycle's facts hold it: the decision and who proposed it. */
export interface PendingProposal {
  decision: DecisionEvent;
  /** `staff:<id>` of the officer who proposed it. */
  by: string;
}

export const PROPOSAL_STATES = ['pending', 'sentBack', 'approved', 'withdrawn'] as const;
export type ProposalState = (typeof PROPOSAL_STATES)[number];

/** A proposal as the console shows it (GET /api/staff/cases/:applicationNo, `proposals`). */
export interface ProposalData {
  id: number;
  decision: DecisionEvent;
  /** The decision's answers as proposed (the certificate's kind and remarks, the reason). */
  answers: Record<string, unknown>;
  state: ProposalState;
  proposedBy: { id: number; nameEn: string; nameZh: string };
  proposedAt: string;
  decidedBy: { id: number; nameEn: string; nameZh: string } | null;
  decidedAt: string | null;
  /** The senior officer's note when sent back. */
  note: string | null;
  /** The reference of the decision made at approval. */
  reference: string | null;
}

/** An internal note on a case: only the console shows it (never the applicant's or the AP's pages, nor a PDF). */
export interface InternalNoteData {
  id: number;
  body: string;
  author: { id: number; nameEn: string; nameZh: string };
  createdAt: string;
}

/** What the console's case page adds for decisions by two people and internal notes. */
export interface CaseDecisionsData {
  /** Every proposal of the case, oldest first (the pending one, when any, is the last). */
  proposals: ProposalData[];
  /** The decisions this officer may propose now. */
  proposable: DecisionEvent[];
  /** The pending proposal waits for this officer's approval (a senior officer who did not propose it). */
  awaitingMe: boolean;
  notes: InternalNoteData[];
}
