/**
 * Who may do what, as data: a table of role × action, enforced by one API middleware
 * (api/middleware/authorise.ts) and tested as a table (tests/api/authorisation.test.ts). The screens ask
 * the same table, and the case lifecycle then says which events each actor may send in each status.
 */
export const ROLES = ['applicant', 'ap', 'rse', 'caseOfficer', 'seniorOfficer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const ACTIONS = ['case.view', 'case.act', 'case.document'] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * `case.view`: read the session's case (status, history, allowed actions); `case.act`: send a follow-up
 * (withdraw, request an inspection ...); `case.document`: download a document of the case. Staff reach
 * cases through their own console and sign-in (not through a Find my case session), so no staff role is
 * here yet.
 */
export const PERMISSIONS: Readonly<Record<Action, readonly Role[]>> = {
  'case.view': ['applicant', 'ap', 'rse'],
  'case.act': ['applicant', 'ap', 'rse'],
  'case.document': ['applicant', 'ap', 'rse'],
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function may(role: string, action: Action): boolean {
  return isRole(role) && PERMISSIONS[action].includes(role);
}
