import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../api/modules/auth/sessions';
import { sessions } from '../../drizzle/schema';
import { type ConsoleAction, PERMISSIONS } from '../../machines/rules/authorisation';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';

/**
 * Who may use each console endpoint (issue 17), as a table: no session, an applicant, an AP, a case
 * officer the case is not assigned to, the assigned officer, a senior officer, an admin. Each refusal
 * (401 / 403) is the same whether or not the case exists.
 */
let h: ConsoleHarness;
let assigned: StaffUser;
const callers: Record<string, { token?: string; bearer?: string; id?: number }> = {};

type Endpoint =
  | 'queue'
  | 'view'
  | 'assign'
  | 'act'
  | 'document'
  | 'review'
  | 'audit'
  | 'settings'
  | 'accounts'
  | 'unlock'
  | 'notices'
  | 'noticesRead'
  | 'propose'
  | 'approve'
  | 'sendBack'
  | 'withdraw'
  | 'note'
  | 'performance';
const ACTION_OF: Record<Endpoint, ConsoleAction> = {
  queue: 'console.queue',
  view: 'console.case.view',
  assign: 'console.case.assign',
  act: 'console.case.act',
  document: 'console.case.view',
  // A document's review (decision 043): as acting on the case.
  review: 'console.case.act',
  audit: 'console.audit',
  settings: 'console.staff',
  // Staff administration (decision 036): the list, and one of its changes (unlock: harmless to repeat).
  accounts: 'console.staff',
  unlock: 'console.staff',
  // The officer's inbox (decision 039): one's own notices, and marking them read.
  notices: 'console.inbox',
  noticesRead: 'console.inbox',
  // Decisions by two people and internal notes (decision 040): a rejection proposed; proposal 999999,
  // so a caller allowed to approve, send back or withdraw gets 404.
  propose: 'console.case.act',
  approve: 'console.case.approve',
  sendBack: 'console.case.approve',
  withdraw: 'console.case.act',
  note: 'console.case.note',
  // The performance pledges' report (decision 044).
  performance: 'console.performance',
};
const ROLE_OF: Record<string, string> = {
  unassignedOfficer: 'caseOfficer',
  assignedOfficer: 'caseOfficer',
  seniorOfficer: 'seniorOfficer',
  admin: 'admin',
};

// assign: the caller assigns themself. The assigned officer cannot take a case already theirs (409:
// only a senior officer reassigns); document, review: no document 999999, so an allowed caller gets 404.
const EXPECTED: Record<string, Record<Endpoint, number>> = {
  none: {
    queue: 401,
    view: 401,
    assign: 401,
    act: 401,
    document: 401,
    review: 401,
    audit: 401,
    settings: 401,
    accounts: 401,
    unlock: 401,
    notices: 401,
    noticesRead: 401,
    propose: 401,
    approve: 401,
    sendBack: 401,
    withdraw: 401,
    note: 401,
    performance: 401,
  },
  applicant: {
    queue: 401,
    view: 401,
    assign: 401,
    act: 401,
    document: 401,
    review: 401,
    audit: 401,
    settings: 401,
    accounts: 401,
    unlock: 401,
    notices: 401,
    noticesRead: 401,
    propose: 401,
    approve: 401,
    sendBack: 401,
    withdraw: 401,
    note: 401,
    performance: 401,
  },
  ap: {
    queue: 401,
    view: 401,
    assign: 401,
    act: 401,
    document: 401,
    review: 401,
    audit: 401,
    settings: 401,
    accounts: 401,
    unlock: 401,
    notices: 401,
    noticesRead: 401,
    propose: 401,
    approve: 401,
    sendBack: 401,
    withdraw: 401,
    note: 401,
    performance: 401,
  },
  unassignedOfficer: {
    queue: 200,
    view: 200,
    assign: 403,
    act: 403,
    document: 404,
    review: 403,
    audit: 403,
    settings: 403,
    accounts: 403,
    unlock: 403,
    notices: 200,
    noticesRead: 200,
    propose: 403,
    approve: 403,
    sendBack: 403,
    withdraw: 403,
    note: 200,
    performance: 403,
  },
  assignedOfficer: {
    queue: 200,
    view: 200,
    assign: 409,
    act: 200,
    document: 404,
    review: 404,
    audit: 403,
    settings: 403,
    accounts: 403,
    unlock: 403,
    notices: 200,
    noticesRead: 200,
    propose: 200,
    approve: 403,
    sendBack: 403,
    withdraw: 404,
    note: 200,
    performance: 403,
  },
  seniorOfficer: {
    queue: 200,
    view: 200,
    assign: 200,
    act: 200,
    document: 404,
    review: 404,
    audit: 200,
    settings: 403,
    accounts: 403,
    unlock: 403,
    notices: 200,
    noticesRead: 200,
    propose: 200,
    approve: 404,
    sendBack: 404,
    withdraw: 404,
    note: 200,
    performance: 200,
  },
  admin: {
    queue: 200,
    view: 200,
    assign: 403,
    act: 403,
    document: 404,
    review: 403,
    audit: 200,
    settings: 200,
    accounts: 200,
    unlock: 200,
    notices: 403,
    noticesRead: 403,
    propose: 403,
    approve: 403,
    sendBack: 403,
    withdraw: 403,
    note: 403,
    performance: 200,
  },
};

async function applicantBearer(role: string): Promise<string> {
  const app = await h.addApplication({ status: 'SUBMITTED' });
  const token = randomBytes(32).toString('base64url');
  const now = h.clock.now();
  await h.database.db.insert(sessions).values({
    tokenHash: hashToken(token),
    applicationId: app.id,
    role,
    createdAt: now,
    lastSeenAt: now,
    idleMinutes: 30,
    absoluteExpiresAt: new Date(now.getTime() + 3_600_000),
  });
  return token;
}

async function request(
  caller: string,
  endpoint: Endpoint,
  applicationNo: string,
): Promise<{ status: number; body: unknown }> {
  const c = callers[caller] ?? {};
  const headers: Record<string, string> = {};
  if (c.token) headers.cookie = `bd_staff=${c.token}`;
  const options = { token: c.bearer, headers };
  const base = `/api/staff/cases/${applicationNo}`;
  const post = (path: string, body: unknown) => h.call('POST', path, { ...options, body });
  const calls: Record<Endpoint, () => ReturnType<typeof h.call>> = {
    queue: () => h.call('GET', '/api/staff/cases', options),
    view: () => h.call('GET', base, options),
    document: () => h.call('GET', `${base}/documents/999999`, options),
    review: () => post(`${base}/documents/999999/review`, { status: 'accepted', expectedVersion: 0 }),
    audit: () => h.call('GET', '/api/staff/audit', options),
    settings: () => h.call('GET', '/api/staff/settings', options),
    accounts: () => h.call('GET', '/api/staff/accounts', options),
    performance: () => h.call('GET', '/api/staff/performance', options),
    notices: () => h.call('GET', '/api/staff/notices', options),
    noticesRead: () => post('/api/staff/notices/read', { through: h.clock.now().toISOString() }),
    unlock: () => post(`/api/staff/accounts/${assigned.id}/unlock`, {}),
    propose: () =>
      post(`${base}/proposals/case.reject`, {
        expectedStatus: 'SUBMITTED',
        answers: { reason: 'Not the premises named.' },
      }),
    approve: () => post(`${base}/proposals/999999/approve`, {}),
    sendBack: () => post(`${base}/proposals/999999/send-back`, { note: 'Please add the reason.' }),
    withdraw: () => post(`${base}/proposals/999999/withdraw`, {}),
    note: () => post(`${base}/notes`, { body: 'A note for the file.' }),
    assign: () =>
      post(`${base}/actions/case.assign`, { expectedStatus: 'SUBMITTED', answers: { staffId: c.id ?? 1 } }),
    act: () =>
      post(`${base}/actions/message.send`, {
        expectedStatus: 'SUBMITTED',
        answers: { body: 'Hello from the table.' },
      }),
  };
  const reply = await calls[endpoint]();
  return { status: reply.status, body: reply.body };
}

beforeAll(async () => {
  h = await startConsoleHarness();
  assigned = await h.staff('caseOfficer', 'matrix.assigned');
  const unassigned = await h.staff('caseOfficer', 'matrix.unassigned');
  const senior = await h.staff('seniorOfficer', 'matrix.senior');
  const admin = await h.staff('admin', 'matrix.admin');
  callers.none = {};
  callers.applicant = { bearer: await applicantBearer('applicant') };
  callers.ap = { bearer: await applicantBearer('ap') };
  callers.unassignedOfficer = { token: unassigned.token, id: unassigned.id };
  callers.assignedOfficer = { token: assigned.token, id: assigned.id };
  callers.seniorOfficer = { token: senior.token, id: senior.id };
  callers.admin = { token: admin.token, id: admin.id };
});

afterAll(async () => {
  await h?.close();
});

describe('the console authorisation matrix (machines/rules/authorisation.ts × the case assignment)', () => {
  const rows = Object.entries(EXPECTED).flatMap(([caller, byEndpoint]) =>
    (Object.keys(byEndpoint) as Endpoint[]).map(
      (endpoint) => [caller, endpoint, byEndpoint[endpoint]] as const,
    ),
  );

  it.each(rows)('%s → %s: %i', async (caller, endpoint, expected) => {
    // A fresh case assigned to `assigned`, so that every row starts alike.
    const app = await h.submittedCase();
    await h.staffAct(assigned.token, app.applicationNo, 'case.assign', 'SUBMITTED', { staffId: assigned.id });
    const reply = await request(caller, endpoint, app.applicationNo);
    expect(reply.status).toBe(expected);
    // The role level agrees with the table of roles × actions.
    const role = ROLE_OF[caller];
    if (role && !PERMISSIONS[ACTION_OF[endpoint]].includes(role as never)) expect(reply.status).toBe(403);
    if (expected === 401 || expected === 403) {
      // The same answer for a case that does not exist.
      const missing = await request(caller, endpoint, 'A2-2099-999999');
      expect(missing).toEqual(reply);
    }
  });
});
