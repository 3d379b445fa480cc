/**
 * The life of a case after submission, as data: its statuses, the events that move it, who may send each
 * event, what each records (a history row of spec §3 and an audit event) and whom it notifies. The
 * statechart machines/flows/case-lifecycle.machine.ts is built from this table, and the API asks that
 * machine, never this table directly, whether an event is allowed now. docs/decisions/009-case-lifecycle.md.
 */
import type { DocumentType } from './history';

/** The open statuses: the case is being handled, and can still be withdrawn or rejected. */
export const OPEN_STATUSES = [
  'SUBMITTED',
  'ACKNOWLEDGED',
  'UNDER_EXAMINATION',
  'LOR_ISSUED',
  'COMPLIANCE_REPORTED',
  'INSPECTION_REQUESTED',
  'INSPECTION_SCHEDULED',
  'INSPECTED',
] as const;

/**
 * The decided statuses: the case is no longer handled. Only a senior officer's correction leaves one (a
 * rejected case reopened, a certificate revoked after closing); a withdrawal is final.
 */
export const FINAL_STATUSES = ['CLOSED', 'WITHDRAWN', 'REJECTED'] as const;

/** The statuses of a case, as stored in `applications.status` and shown (translated) to the applicant. */
export const CASE_STATUSES = [...OPEN_STATUSES, 'CERTIFICATE_ISSUED', ...FINAL_STATUSES] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

export function isCaseStatus(value: unknown): value is CaseStatus {
  return typeof value === 'string' && (CASE_STATUSES as readonly string[]).includes(value);
}

/**
 * Who acts on a case. `applicant`: the person logged in by Find my case; `ap` / `rse`: an appointed
 * Authorized Person / Registered Structural Engineer; `caseOfficer` / `seniorOfficer`: staff of the
 * department; `system`: the portal itself (scheduled work).
 */
export const CASE_ACTORS = ['applicant', 'ap', 'rse', 'caseOfficer', 'seniorOfficer', 'system'] as const;
export type CaseActor = (typeof CASE_ACTORS)[number];

/** The "submitted or issued by" code of a history row for an actor. */
export function submitterOf(actor: CaseActor): 'APPLICANT' | 'AP' | 'RSE' | 'BD' {
  if (actor === 'applicant') return 'APPLICANT';
  if (actor === 'ap') return 'AP';
  if (actor === 'rse') return 'RSE';
  return 'BD';
}

const PARTIES = ['applicant', 'ap', 'rse'] as const satisfies readonly CaseActor[];
const STAFF = ['caseOfficer', 'seniorOfficer'] as const satisfies readonly CaseActor[];

/** Whom an event tells, by email (else SMS) in their language. */
export type CaseRecipient = 'applicant' | 'caseOfficer';

export interface CaseTransition {
  /** The event, lowercase and dot-separated like every machine's events. */
  event: string;
  /** The statuses it may be sent in. */
  from: readonly CaseStatus[];
  /** The status it leads to; null when the case keeps its status (a document added, information updated). */
  to: CaseStatus | null;
  /** Who may send it. */
  by: readonly CaseActor[];
  /** The history row it writes (its document type), or null for a change seen only in the audit trail. */
  history: DocumentType | null;
  /** Who is told. */
  notifies: readonly CaseRecipient[];
}

/**
 * Every transition of the lifecycle. Inspection can be requested once works can be inspected (a Letter of
 * Requirements is out, or compliance was reported); an open request blocks a second one because
 * INSPECTION_REQUESTED / _SCHEDULED are not among its `from`. A further Letter of Requirements after an
 * inspection starts the round again.
 */
export const CASE_TRANSITIONS = [
  {
    event: 'case.acknowledge',
    from: ['SUBMITTED'],
    to: 'ACKNOWLEDGED',
    by: [...STAFF, 'system'],
    history: 'ACKNOWLEDGEMENT',
    notifies: ['applicant'],
  },
  {
    event: 'case.examine',
    from: ['ACKNOWLEDGED'],
    to: 'UNDER_EXAMINATION',
    by: STAFF,
    history: null,
    notifies: [],
  },
  // Also a correction: a new revision of the letter while it stands (the earlier ones are kept).
  {
    event: 'lor.issue',
    from: ['UNDER_EXAMINATION', 'INSPECTED', 'LOR_ISSUED', 'COMPLIANCE_REPORTED'],
    to: 'LOR_ISSUED',
    by: STAFF,
    history: 'LETTER_OF_REQUIREMENTS',
    notifies: ['applicant'],
  },
  {
    event: 'compliance.report',
    from: ['LOR_ISSUED'],
    to: 'COMPLIANCE_REPORTED',
    by: PARTIES,
    history: 'COMPLIANCE_REPORT',
    notifies: ['applicant', 'caseOfficer'],
  },
  {
    event: 'inspection.request',
    from: ['LOR_ISSUED', 'COMPLIANCE_REPORTED'],
    to: 'INSPECTION_REQUESTED',
    by: PARTIES,
    history: 'INSPECTION_REQUEST',
    notifies: ['applicant', 'caseOfficer'],
  },
  {
    event: 'inspection.schedule',
    from: ['INSPECTION_REQUESTED'],
    to: 'INSPECTION_SCHEDULED',
    by: STAFF,
    history: 'INSPECTION_NOTICE',
    notifies: ['applicant'],
  },
  {
    event: 'inspection.record',
    from: ['INSPECTION_SCHEDULED'],
    to: 'INSPECTED',
    by: STAFF,
    history: 'INSPECTION_REPORT',
    notifies: ['applicant'],
  },
  {
    event: 'inspection.reschedule',
    from: ['INSPECTION_SCHEDULED'],
    to: null,
    by: STAFF,
    history: 'INSPECTION_NOTICE',
    notifies: ['applicant'],
  },
  {
    event: 'inspection.cancel',
    from: ['INSPECTION_SCHEDULED'],
    to: 'INSPECTION_REQUESTED',
    by: STAFF,
    history: 'INSPECTION_CANCELLED',
    notifies: ['applicant'],
  },
  {
    event: 'certificate.issue',
    from: ['INSPECTED'],
    to: 'CERTIFICATE_ISSUED',
    // The approval of a case officer's or another senior officer's proposal (decision.propose).
    by: ['seniorOfficer'],
    history: 'CERTIFICATE',
    notifies: ['applicant'],
  },
  {
    event: 'case.close',
    from: ['CERTIFICATE_ISSUED'],
    to: 'CLOSED',
    by: [...STAFF, 'system'],
    history: null,
    notifies: [],
  },
  // Corrections of a decision (docs/flows/case-rules.md): each a senior officer's, recorded and notified.
  {
    event: 'lor.withdraw',
    from: ['LOR_ISSUED', 'COMPLIANCE_REPORTED'],
    to: 'UNDER_EXAMINATION',
    by: ['seniorOfficer'],
    history: 'LOR_WITHDRAWAL',
    notifies: ['applicant'],
  },
  {
    event: 'certificate.revoke',
    from: ['CERTIFICATE_ISSUED', 'CLOSED'],
    to: 'INSPECTED',
    by: ['seniorOfficer'],
    history: 'CERTIFICATE_REVOCATION',
    notifies: ['applicant'],
  },
  {
    event: 'case.reopen',
    from: ['REJECTED'],
    to: 'UNDER_EXAMINATION',
    by: ['seniorOfficer'],
    history: 'CASE_REOPENED',
    notifies: ['applicant'],
  },
  {
    event: 'case.withdraw',
    from: OPEN_STATUSES,
    to: 'WITHDRAWN',
    by: ['applicant'],
    history: 'WITHDRAWAL',
    notifies: ['applicant', 'caseOfficer'],
  },
  {
    event: 'case.reject',
    from: OPEN_STATUSES,
    to: 'REJECTED',
    by: ['seniorOfficer'],
    history: 'REJECTION_NOTICE',
    notifies: ['applicant'],
  },
  // Decisions by two people (docs/decisions/040-four-eyes-decisions.md): the certificate, the rejection and
  // the revocation are proposed by one officer and made only when a senior officer who did not propose
  // approves; the proposal is kept in the case's facts (`proposal`), the status does not move.
  {
    event: 'certificate.propose',
    from: ['INSPECTED'],
    to: null,
    by: STAFF,
    history: null,
    notifies: [],
  },
  {
    event: 'rejection.propose',
    from: OPEN_STATUSES,
    to: null,
    by: STAFF,
    history: null,
    notifies: [],
  },
  {
    event: 'revocation.propose',
    from: ['CERTIFICATE_ISSUED', 'CLOSED'],
    to: null,
    by: STAFF,
    history: null,
    notifies: [],
  },
  {
    event: 'proposal.sendBack',
    from: [...OPEN_STATUSES, 'CERTIFICATE_ISSUED', 'CLOSED'],
    to: null,
    by: ['seniorOfficer'],
    history: null,
    notifies: [],
  },
  {
    event: 'proposal.withdraw',
    from: [...OPEN_STATUSES, 'CERTIFICATE_ISSUED', 'CLOSED'],
    to: null,
    by: STAFF,
    history: null,
    notifies: [],
  },
  // Follow-ups that add to an open case without moving it (the update, document and appointment forms).
  {
    event: 'information.update',
    from: OPEN_STATUSES,
    to: null,
    by: PARTIES,
    history: 'INFORMATION_UPDATE',
    notifies: ['applicant', 'caseOfficer'],
  },
  {
    event: 'document.submit',
    from: OPEN_STATUSES,
    to: null,
    by: PARTIES,
    history: 'SUPPORTING_DOCUMENT',
    notifies: ['applicant', 'caseOfficer'],
  },
  {
    event: 'appointment.submit',
    from: OPEN_STATUSES,
    to: null,
    by: ['applicant'],
    history: 'APPOINTMENT',
    notifies: ['applicant', 'caseOfficer'],
  },
  // The department's console (docs/decisions/022-case-officer-console.md).
  {
    event: 'case.assign',
    from: OPEN_STATUSES,
    to: null,
    by: STAFF,
    history: null,
    notifies: [],
  },
  {
    event: 'compliance.record',
    from: ['LOR_ISSUED'],
    to: 'COMPLIANCE_REPORTED',
    by: STAFF,
    history: 'COMPLIANCE_REPORT',
    notifies: ['applicant'],
  },
  {
    event: 'information.request',
    from: OPEN_STATUSES,
    to: null,
    by: STAFF,
    history: null,
    notifies: ['applicant'],
  },
  // A self-certification of the case (SCS-1 ... SCN-1, docs/decisions/021-self-certification.md) by an AP or RSE: recorded on the case for
  // the officer's audit check; the status is the officer's to move (decision 021).
  {
    event: 'selfCertification.submit',
    from: OPEN_STATUSES,
    to: null,
    by: ['ap', 'rse'],
    history: 'SELF_CERTIFICATION',
    notifies: ['applicant', 'caseOfficer'],
  },
  {
    event: 'information.extend',
    from: OPEN_STATUSES,
    to: null,
    by: STAFF,
    history: null,
    notifies: ['applicant'],
  },
  {
    event: 'information.withdraw',
    from: OPEN_STATUSES,
    to: null,
    by: STAFF,
    history: null,
    notifies: ['applicant'],
  },
  {
    event: 'message.send',
    from: OPEN_STATUSES,
    to: null,
    by: [...STAFF, ...PARTIES],
    history: null,
    notifies: ['applicant', 'caseOfficer'],
  },
] as const satisfies readonly CaseTransition[];

export type CaseEventType = (typeof CASE_TRANSITIONS)[number]['event'];
export const CASE_EVENT_TYPES: CaseEventType[] = CASE_TRANSITIONS.map((t) => t.event);

export function transitionOf(event: CaseEventType): CaseTransition {
  const found = CASE_TRANSITIONS.find((t) => t.event === event);
  if (!found) throw new Error(`unknown case event ${event}`);
  return found;
}
