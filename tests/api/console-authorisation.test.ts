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
  | 'audit'
  | 'settings'
  | 'accounts'
  | 'unlock'
  | 'performance';
const ACTION_OF: Record<Endpoint, ConsoleAction> = {
  queue: 'console.queue',
  view: 'console.case.view',
  assign: 'console.case.assign',
  act: 'console.case.act',
  document: 'console.case.view',
  audit: 'console.audit',
  settings: 'console.staff',
  // Staff administration (decision 036): the list, and one of its changes (unlock: harmless to repeat).
  accounts: 'console.staff',
  unlock: 'console.staff',
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
// only a senior officer reassigns); document: no document 999999, so an allowed caller gets 404.
const EXPECTED: Record<string, Record<Endpoint, number>> = {
  none: {
    queue: 401,
    view: 401,
    assign: 401,
    act: 401,
    document: 401,
    audit: 401,
    settings: 401,
    accounts: 401,
    unlock: 401,
    performance: 401,
  },
  applicant: {
    queue: 401,
    view: 401,
    assign: 401,
    act: 401,
    document: 401,
    audit: 401,
    settings: 401,
    accounts: 401,
    unlock: 401,
    performance: 401,
  },
  ap: {
    queue: 401,
    view: 401,
    assign: 401,
    act: 401,
    document: 401,
    audit: 401,
    settings: 401,
    accounts: 401,
    unlock: 401,
    performance: 401,
  },
  unassignedOfficer: {
    queue: 200,
    view: 200,
    assign: 403,
    act: 403,
    document: 404,
    audit: 403,
    settings: 403,
    accounts: 403,
    unlock: 403,
    performance: 403,
  },
  assignedOfficer: {
    queue: 200,
    view: 200,
    assign: 409,
    act: 200,
    document: 404,
    audit: 403,
    settings: 403,
    accounts: 403,
    unlock: 403,
    performance: 403,
  },
  seniorOfficer: {
    queue: 200,
    view: 200,
    assign: 200,
    act: 200,
    document: 404,
    audit: 200,
    settings: 403,
    accounts: 403,
    unlock: 403,
    performance: 200,
  },
  admin: {
    queue: 200,
    view: 200,
    assign: 403,
    act: 403,
    document: 404,
    audit: 200,
    settings: 200,
    accounts: 200,
    unlock: 200,
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
  const reply = await (endpoint === 'queue'
    ? h.call('GET', '/api/staff/cases', options)
    : endpoint === 'view'
      ? h.call('GET', base, options)
      : endpoint === 'document'
        ? h.call('GET', `${base}/documents/999999`, options)
        : endpoint === 'audit' ||
            endpoint === 'settings' ||
            endpoint === 'accounts' ||
            endpoint === 'performance'
          ? h.call('GET', `/api/staff/${endpoint}`, options)
          : endpoint === 'unlock'
            ? h.call('POST', `/api/staff/accounts/${assigned.id}/unlock`, { ...options, body: {} })
            : h.call('POST', `${base}/actions/${endpoint === 'assign' ? 'case.assign' : 'message.send'}`, {
                ...options,
                body: {
                  expectedStatus: 'SUBMITTED',
                  answers: endpoint === 'assign' ? { staffId: c.id ?? 1 } : { body: 'Hello from the table.' },
                },
              }));
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
