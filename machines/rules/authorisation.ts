/**
 * Who may do what, as data: a table of role × action, enforced by one API middleware
 * (api/modules/auth/authorise.ts) and tested as a table (tests/api/authorisation.test.ts). The screens ask
 * the same table, and the case lifecycle then says which events each actor may send in each status.
 */
export const ROLES = ['applicant', 'ap', 'rse', 'caseOfficer', 'seniorOfficer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** What a Find my case (or AP/RSE) session may be allowed. */
export const CASE_ACTIONS = [
  'case.view',
  'case.act',
  'case.document',
  'case.information',
  'appointment.manage',
  'appointee.cases',
] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];

/** What a staff session of the console (docs/decisions/022-case-officer-console.md) may be allowed; applicant sessions never reach these. */
export const CONSOLE_ACTIONS = [
  'console.queue',
  'console.case.view',
  'console.case.act',
  'console.case.assign',
  'console.audit',
  'console.staff',
  'console.holders',
  'console.inbox',
  'console.case.approve',
  'console.case.note',
  'console.performance',
] as const;
export type ConsoleAction = (typeof CONSOLE_ACTIONS)[number];

export const ACTIONS = [...CASE_ACTIONS, ...CONSOLE_ACTIONS] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * `case.view`: read the session's case (status, history, allowed actions); `case.act`: send a follow-up
 * (withdraw, request an inspection ...); `case.document`: download a document of the case;
 * `case.information`: the applicant's own information in full (the application PDF of the case's answers,
 * the submission's downloads), never an AP's or RSE's (docs/appointee-visibility.md). Staff reach
 * cases through their own console and sign-in (not through a Find my case session), so no staff role is
 * here yet. `appointment.manage`: see, cancel and revoke the appointments of the case (the applicant only:
 * an AP/RSE cannot change the appointment); `appointee.cases`: the cases an AP/RSE is appointed to, and
 * switching the session to one of them (docs/decisions/020-appointments.md).
 */
export const PERMISSIONS: Readonly<Record<Action, readonly Role[]>> = {
  'case.view': ['applicant', 'ap', 'rse'],
  'case.act': ['applicant', 'ap', 'rse'],
  'case.document': ['applicant', 'ap', 'rse'],
  'case.information': ['applicant'],
  'appointment.manage': ['applicant'],
  'appointee.cases': ['ap', 'rse'],
  // The console (docs/decisions/022-case-officer-console.md): the work queue (its search and its CSV) and a
  // case are seen by every member of staff, an admin too, who reads them and acts on none; acting on a case
  // needs it assigned to the officer (or a senior officer), checked per case by the console service; a case
  // officer assigns only themself to an unassigned case, a senior officer anyone; admins search the audit
  // trail and keep staff accounts and master data.
  'console.queue': ['caseOfficer', 'seniorOfficer', 'admin'],
  'console.case.view': ['caseOfficer', 'seniorOfficer', 'admin'],
  'console.case.act': ['caseOfficer', 'seniorOfficer'],
  'console.case.assign': ['caseOfficer', 'seniorOfficer'],
  'console.audit': ['seniorOfficer', 'admin'],
  'console.staff': ['admin'],
  // The registered AP/RSE (docs/console.md, "Registered AP/RSE"): looking up a number's holder and
  // resetting it, a decision of the department's own register, is a senior officer's or an admin's.
  'console.holders': ['seniorOfficer', 'admin'],
  // The officer's inbox (docs/decisions/039-officer-inbox.md): the notices of one's own cases; an admin has none.
  'console.inbox': ['caseOfficer', 'seniorOfficer'],
  // Decisions by two people (docs/decisions/040-four-eyes-decisions.md): proposing and withdrawing are
  // `console.case.act`; approving or sending back a proposal is a senior officer's. Internal notes are
  // written by the officers who may act on cases (an admin reads them).
  'console.case.approve': ['seniorOfficer'],
  'console.case.note': ['caseOfficer', 'seniorOfficer'],
  // The performance pledges' report (docs/decisions/044-pledges.md).
  'console.performance': ['seniorOfficer', 'admin'],
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function may(role: string, action: Action): boolean {
  return isRole(role) && PERMISSIONS[action].includes(role);
}
