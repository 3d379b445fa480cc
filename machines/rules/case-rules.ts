import type { CaseActor, CaseEventType, CaseStatus } from './case-lifecycle';
import {
  certifiesCaseForm,
  isSelfCertKey,
  letterDifference,
  type IssuedLetter,
  type LetterAsCertified,
} from './selfcert';
import { addWorkingDays, isIsoDate, isWorkingDay } from './working-days';
import { decisionProposedBy, isDecisionEvent, type PendingProposal } from './proposals';

/**
 * The case's facts the lifecycle's guards decide on, beyond its status (docs/flows/case-rules.md): what
 * was issued, the inspection and its result, the open information requests, who is appointed. The API
 * reads them from the case's records under the case's row lock (api/modules/cases/case-facts.ts); the
 * lifecycle machine holds them as its context and updates them as each event would, so the invariant
 * test walks the same rules the API applies. Pure: no clock, no database.
 */
export type InspectionResult = 'PASS' | 'FAIL';

export interface LifecycleFacts {
  /** Today in Hong Kong (YYYY-MM-DD). */
  today: string;
  /** Hong Kong general holidays around today (YYYY-MM-DD). */
  holidays: readonly string[];
  /** The case's form code (A2, CCCAI-C2 ...): which self-certification fits it. */
  formCode: string;
  /** A Letter of Requirements stands (issued and not withdrawn). */
  lorIssued: boolean;
  /** The applicant's preferred inspection dates, from the inspection request (empty: none given). */
  preferredDates: readonly string[];
  /** The inspection of this round: its date, and its result once recorded. */
  inspection: { date: string; result: InspectionResult | null } | null;
  /** The ids of the information requests neither answered nor withdrawn. */
  openRequests: readonly number[];
  /** The AP / RSE actively appointed: `ap:AP(E) 2345`, `rse:RSE 567` ({@link partyRef}). */
  appointees: readonly string[];
  /** Working days a reply-by date must at least be ahead of today (master data `reply_working_days`). */
  replyWorkingDays: number;
  /**
   * The latest Letter of Requirements the console issued on the case (`lor.issue`'s answers), when on
   * record; absent for a letter issued before the console or on paper (nothing to compare with).
   */
  issuedLetter?: IssuedLetter | null;
  /**
   * The decision proposed and waiting for a senior officer's approval (docs/decisions/040-four-eyes-
   * decisions.md); null: none. A certificate, a rejection or a revocation is made only on approval of it.
   */
  proposal: PendingProposal | null;
}

/** An event's own facts: the date asked for, the result recorded, the request it names, the form used. */
export interface CaseEventFacts {
  /** An inspection's date (schedule, reschedule). */
  date?: string;
  /** A reply-by date (request, extension). */
  replyBy?: string;
  result?: InspectionResult;
  /** The information request an extension, a withdrawal or an answer names. */
  requestId?: number;
  /** A self-certification's form key (scs1 ...). */
  formKey?: string;
  /** An inspection request's preferred dates. */
  preferredDates?: readonly string[];
  /** A self-certification's letter as its answers state it (reference, date, items). */
  letter?: LetterAsCertified;
}

/**
 * Statuses in which a Letter of Requirements stands (issued, not withdrawn, the case not reopened): the
 * API reads `lorIssued` from the status; the invariant test checks the machine's facts agree.
 */
export const LOR_STANDS: readonly CaseStatus[] = [
  'LOR_ISSUED',
  'COMPLIANCE_REPORTED',
  'INSPECTION_REQUESTED',
  'INSPECTION_SCHEDULED',
  'INSPECTED',
  'CERTIFICATE_ISSUED',
  'CLOSED',
];

/** Default of `replyWorkingDays`: a request leaves the applicant at least this many working days. */
export const REPLY_WORKING_DAYS = 5;

/** How an appointee is named among the case's appointees. */
export const partyRef = (actor: 'ap' | 'rse', registrationNumber: string) => `${actor}:${registrationNumber}`;

/**
 * Why the case's facts refuse an event (an i18n key under `case.rules.`), or null when they allow it. The
 * status and the sender's role are the lifecycle's other guards; this is everything that depends on the
 * case's records and the event's own facts.
 */
export type CaseRuleRefusal =
  | 'notOnCase'
  | 'inspectionNotPassed'
  | 'requestOpen'
  | 'inspectionDateInvalid'
  | 'inspectionDatePast'
  | 'inspectionDateNotWorkingDay'
  | 'inspectionOutsidePreferred'
  | 'inspectionNotYet'
  | 'lorMissing'
  | 'lorRevised'
  | 'formNotForCase'
  | 'replyByInvalid'
  | 'replyByNotWorkingDay'
  | 'replyByTooSoon'
  | 'requestNotOpen'
  | 'proposalMissing'
  | 'selfApproval'
  | 'proposalPending'
  | 'proposalNotPending'
  | 'notProposer';

/** Refusals of who the sender is (403, not 409): someone else must act. */
export const FORBIDDEN_REFUSALS: readonly CaseRuleRefusal[] = ['notOnCase', 'selfApproval', 'notProposer'];

/** The field of the action's answers a refusal is about (the console marks that field). */
export const REFUSAL_FIELD: Partial<Record<CaseRuleRefusal, string>> = {
  inspectionDateInvalid: 'date',
  inspectionDatePast: 'date',
  inspectionDateNotWorkingDay: 'date',
  inspectionOutsidePreferred: 'date',
  replyByInvalid: 'replyBy',
  replyByNotWorkingDay: 'replyBy',
  replyByTooSoon: 'replyBy',
  requestNotOpen: 'requestId',
};

/** The earliest reply-by date allowed today. */
export const earliestReplyBy = (facts: Pick<LifecycleFacts, 'today' | 'holidays' | 'replyWorkingDays'>) =>
  addWorkingDays(facts.today, facts.replyWorkingDays, new Set(facts.holidays));

function inspectionDateRefusal(facts: LifecycleFacts, date: string | undefined): CaseRuleRefusal | null {
  if (!isIsoDate(date)) return 'inspectionDateInvalid';
  if (date < facts.today) return 'inspectionDatePast';
  if (!isWorkingDay(date, new Set(facts.holidays))) return 'inspectionDateNotWorkingDay';
  const preferred = [...facts.preferredDates].sort();
  const [first] = preferred;
  const last = preferred.at(-1);
  if (first !== undefined && last !== undefined && (date < first || date > last))
    return 'inspectionOutsidePreferred';
  return null;
}

function replyByRefusal(facts: LifecycleFacts, replyBy: string | undefined): CaseRuleRefusal | null {
  if (!isIsoDate(replyBy)) return 'replyByInvalid';
  if (!isWorkingDay(replyBy, new Set(facts.holidays))) return 'replyByNotWorkingDay';
  if (replyBy < earliestReplyBy(facts)) return 'replyByTooSoon';
  return null;
}

/** What must be true of the case for a certificate, both to propose it and to issue it on approval. */
function standingRefusal(event: CaseEventType, facts: LifecycleFacts): CaseRuleRefusal | null {
  if (event !== 'certificate.issue' && event !== 'certificate.propose') return null;
  if (facts.inspection?.result !== 'PASS') return 'inspectionNotPassed';
  if (facts.openRequests.length > 0) return 'requestOpen';
  return null;
}

/**
 * The rules of the case that span flows, one place: who of the parties is on the case, what must be true
 * before a decision, which dates may be set. `own` absent asks whether the action may be offered now: only
 * the case's standing facts are checked, not the date or request the action will name. `docs/flows/
 * case-rules.md` lists the rules per event.
 */
export function refusalOf(
  event: CaseEventType,
  actor: CaseActor,
  facts: LifecycleFacts,
  who: { actorRef?: string | undefined },
  own?: CaseEventFacts,
): CaseRuleRefusal | null {
  // A self-certification of a form for another type of case is refused for that first: no AP could make it.
  if (
    event === 'selfCertification.submit' &&
    own?.formKey !== undefined &&
    !(isSelfCertKey(own.formKey) && certifiesCaseForm(own.formKey, facts.formCode))
  )
    return 'formNotForCase';
  // An AP or RSE acts only on a case they are actively appointed to.
  if ((actor === 'ap' || actor === 'rse') && !facts.appointees.includes(partyRef(actor, who.actorRef ?? '')))
    return 'notOnCase';
  const requestOpen = (id: number | undefined) =>
    own === undefined ? facts.openRequests.length > 0 : id !== undefined && facts.openRequests.includes(id);
  const standing = standingRefusal(event, facts);
  if (standing !== null) return standing;
  // Four eyes: the decision only on a pending proposal of it, by someone other than the one deciding.
  if (isDecisionEvent(event)) {
    if (facts.proposal?.decision !== event) return 'proposalMissing';
    if (facts.proposal.by === who.actorRef) return 'selfApproval';
    return null;
  }
  if (decisionProposedBy(event) !== undefined) return facts.proposal === null ? null : 'proposalPending';
  switch (event) {
    case 'proposal.sendBack':
      return facts.proposal === null ? 'proposalNotPending' : null;
    case 'proposal.withdraw':
      if (facts.proposal === null) return 'proposalNotPending';
      return facts.proposal.by === who.actorRef ? null : 'notProposer';
    case 'inspection.schedule':
    case 'inspection.reschedule':
      return own === undefined ? null : inspectionDateRefusal(facts, own.date);
    case 'inspection.record':
      if (!facts.inspection || facts.today < facts.inspection.date) return 'inspectionNotYet';
      return null;
    case 'selfCertification.submit':
      if (!facts.lorIssued) return 'lorMissing';
      // Certified against the letter the department issued, as it stands now (a revision replaces it).
      if (own?.letter && facts.issuedLetter && letterDifference(facts.issuedLetter, own.letter) !== null)
        return 'lorRevised';
      return null;
    case 'information.request':
      return own === undefined ? null : replyByRefusal(facts, own.replyBy);
    case 'information.extend':
      if (!requestOpen(own?.requestId)) return 'requestNotOpen';
      return own === undefined ? null : replyByRefusal(facts, own.replyBy);
    case 'information.withdraw':
      if (!requestOpen(own?.requestId)) return 'requestNotOpen';
      return null;
    default:
      return null;
  }
}

/** The facts after an event the lifecycle allowed: what the API's records will say once it is written. */
export function factsAfter(
  event: CaseEventType,
  facts: LifecycleFacts,
  own: CaseEventFacts = {},
  actorRef?: string,
): LifecycleFacts {
  const decision = decisionProposedBy(event);
  if (decision !== undefined) return { ...facts, proposal: { decision, by: actorRef ?? '' } };
  if (event === 'proposal.sendBack' || event === 'proposal.withdraw' || isDecisionEvent(event))
    facts = { ...facts, proposal: null };
  switch (event) {
    case 'lor.issue':
      // A new round: the inspection of the last one is history.
      return { ...facts, lorIssued: true, inspection: null, preferredDates: [] };
    case 'lor.withdraw':
      return { ...facts, lorIssued: false, inspection: null, preferredDates: [] };
    case 'inspection.request':
      return { ...facts, preferredDates: own.preferredDates ?? [] };
    case 'inspection.schedule':
    case 'inspection.reschedule':
      return { ...facts, inspection: { date: own.date ?? facts.today, result: null } };
    case 'inspection.cancel':
      return { ...facts, inspection: null };
    case 'inspection.record':
      return facts.inspection
        ? { ...facts, inspection: { ...facts.inspection, result: own.result ?? 'FAIL' } }
        : facts;
    case 'information.request': {
      // The model's id of a new request: the smallest not open (the API's are the table's own ids).
      let id = 1;
      while (facts.openRequests.includes(id)) id += 1;
      return { ...facts, openRequests: [...facts.openRequests, id].sort((a, b) => a - b) };
    }
    case 'information.withdraw':
      return { ...facts, openRequests: facts.openRequests.filter((id) => id !== own.requestId) };
    case 'document.submit':
      return own.requestId === undefined
        ? facts
        : { ...facts, openRequests: facts.openRequests.filter((id) => id !== own.requestId) };
    case 'case.reopen':
      return { ...facts, lorIssued: false, inspection: null, preferredDates: [] };
    case 'case.withdraw':
    case 'case.reject':
      // A decided case: nothing it was issued stands any more (a reopened case starts examination again).
      return { ...facts, lorIssued: false };
    default:
      return facts;
  }
}

/**
 * Each event's rules in words, beside its status and sender (docs/flows/case-lifecycle.md's rules table is
 * generated from this and the transition table: `npm run docs:flows`). Typed by the events, so an event
 * added without its words does not compile. Every AP or RSE event also needs the sender actively
 * appointed to the case (`notOnCase`).
 */
export const RULES_IN_WORDS: Readonly<Record<CaseEventType, string>> = {
  'case.acknowledge': '—',
  'case.examine': '—',
  'lor.issue':
    'a further letter after an inspection starts a new round; while a letter stands, a new one is its correction (revision), the earlier kept',
  'compliance.report': 'sender appointed to the case (AP, RSE)',
  'inspection.request':
    'sender appointed to the case (AP, RSE); the preferred dates given bound the inspection date',
  'inspection.schedule':
    "the date is a Hong Kong working day, today or later, and within the applicant's preferred dates when given",
  'inspection.reschedule': 'as scheduling; a reason is given; the earlier date is kept in the audit',
  'inspection.cancel': 'a reason is given; the case waits for a new date',
  'inspection.record': "on or after the inspection's date",
  'certificate.issue':
    "senior officer approving a pending certificate proposal not their own; the inspection of this round passed and no information request is open",
  'case.close': '—',
  'lor.withdraw': 'senior officer; a reason is given; a letter is issued',
  'certificate.revoke':
    'senior officer approving a pending revocation proposal not their own; a reason is given; a letter is issued; reissue after it is a new certificate',
  'case.reopen': 'senior officer; a reason is given; a letter is issued',
  'case.withdraw': '—',
  'case.reject':
    'senior officer approving a pending rejection proposal not their own; a reason the applicant sees; a rejection letter is issued',
  'information.update': 'sender appointed to the case (AP, RSE)',
  'document.submit': 'sender appointed to the case (AP, RSE); answers a request only while it is open',
  'appointment.submit': '—',
  'case.assign': 'an active case or senior officer',
  'compliance.record': '—',
  'information.request':
    'documents from the case form\'s list or "other" described; the reply-by date is a working day at least N working days ahead (N: master data reply_working_days, default 5)',
  'selfCertification.submit':
    "an AP or RSE actively appointed to the case, with the form that fits the case's type, a Letter of Requirements issued; the letter's reference, date and items as the latest letter issued on record (a revision since refuses); checked at the first step, the letter step and at signing and submission",
  'information.extend':
    'the request is open; the new date follows the reply-by rule; the earlier date is kept',
  'information.withdraw': 'the request is open',
  'message.send': 'sender appointed to the case (AP, RSE)',
  'certificate.propose':
    'no proposal pending; the inspection of this round passed and no information request is open',
  'rejection.propose': 'no proposal pending; a reason the applicant will see',
  'revocation.propose': 'no proposal pending; a reason is given',
  'proposal.sendBack': 'a proposal is pending; a note to the proposer',
  'proposal.withdraw': 'a proposal is pending; only by the officer who proposed it',
};
