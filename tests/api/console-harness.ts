import { randomBytes } from 'node:crypto';
import { createStaffAccount, hashStaffToken, totpOf } from '../../api/modules/auth/staff-auth';
import { applicationHistory } from '../../drizzle/schema';
import { staffSessions } from '../../drizzle/schema-staff';
import type { CaseStatus } from '../../machines/rules/case-lifecycle';
import type {
  ConsoleActionResult,
  ConsoleCaseData,
  QueuePage,
  StaffMe,
  StaffRole,
} from '../../machines/rules/staff';
import type { Reply } from './application-harness';
import { type CaseHarness, startCaseHarness } from './cases-harness';

export interface StaffUser {
  id: number;
  username: string;
  password: string;
  totpSecret: string;
  recoveryCodes: string[];
  /** A live session's cookie token (made directly, as a sign-in would). */
  token: string;
}

/** The case harness, with staff accounts and the calls of /api/staff. */
export interface ConsoleHarness extends CaseHarness {
  staff(role: StaffRole, name?: string): Promise<StaffUser>;
  /** The TOTP code of `secret` at the harness clock's time. */
  totp(secret: string): string;
  /** The same officer signed in again (a new session, as after days went by). */
  signInAgain(user: StaffUser): Promise<StaffUser>;
  signIn(body: unknown): Promise<Reply<StaffMe>>;
  staffCall<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    token: string | undefined,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply<T>>;
  queue(token: string, query?: string): Promise<Reply<QueuePage>>;
  view(token: string | undefined, applicationNo: string): Promise<Reply<ConsoleCaseData>>;
  staffAct(
    token: string | undefined,
    applicationNo: string,
    event: string,
    expectedStatus: CaseStatus,
    answers?: Record<string, unknown>,
    lang?: string,
  ): Promise<Reply<ConsoleActionResult>>;
  /** Proposes a decision (docs/decisions/040-four-eyes-decisions.md): `certificate.issue`, `case.reject` … */
  propose(
    token: string | undefined,
    applicationNo: string,
    decision: string,
    expectedStatus: CaseStatus,
    answers?: Record<string, unknown>,
    lang?: string,
  ): Promise<Reply<ConsoleActionResult & { proposalId: number }>>;
  /** A senior officer's approval, `send-back` (with `{ note }`) or the proposer's `withdraw`. */
  onProposal(
    token: string | undefined,
    applicationNo: string,
    proposalId: number,
    what: 'approve' | 'send-back' | 'withdraw',
    body?: Record<string, unknown>,
    lang?: string,
  ): Promise<Reply<ConsoleActionResult>>;
  /** A decision of two people: proposed by `proposer`, approved by `approver` (the approval's reply). */
  decide(
    proposer: string,
    approver: string,
    applicationNo: string,
    decision: string,
    expectedStatus: CaseStatus,
    answers?: Record<string, unknown>,
  ): Promise<Reply<ConsoleActionResult>>;
  /** A submitted case (with its submission history row at `submittedAt`). */
  submittedCase(
    status?: CaseStatus,
    submittedAt?: Date,
  ): Promise<{ id: number; applicationNo: string; email: string }>;
}

let counter = 0;

export async function startConsoleHarness(): Promise<ConsoleHarness> {
  const h = await startCaseHarness();
  const db = h.database.db;
  const staffCall = <T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    token: string | undefined,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    h.call<T>(method, path, {
      body,
      headers: { ...(token ? { cookie: `bd_staff=${token}` } : {}), ...headers },
    });
  /** A signed-in session of a staff account, at the harness clock's time. */
  const newSession = async (staffId: number) => {
    const token = randomBytes(32).toString('base64url');
    const now = h.clock.now();
    await db.insert(staffSessions).values({
      tokenHash: hashStaffToken(token),
      staffId,
      createdAt: now,
      lastSeenAt: now,
      idleMinutes: 15,
      absoluteExpiresAt: new Date(now.getTime() + 10 * 3_600_000),
    });
    return token;
  };
  return Object.assign(h, {
    async signInAgain(user: StaffUser): Promise<StaffUser> {
      return { ...user, token: await newSession(user.id) };
    },
    async staff(role: StaffRole, name = `${role}${(counter += 1)}`) {
      const password = `correct horse ${name}`;
      const made = await createStaffAccount(db, {
        username: name,
        role,
        nameEn: `Officer ${name}`,
        nameZh: `${name}主任`,
        postEn: 'Building Surveyor',
        postZh: '屋宇測量師',
        telephone: '2626 1616',
        email: `${name}@bd.gov.hk`,
        password,
      });
      const token = await newSession(made.id);
      return {
        id: made.id,
        username: name.toLowerCase(),
        password,
        totpSecret: made.totpSecret,
        recoveryCodes: made.recoveryCodes,
        token,
      };
    },
    totp: (secret: string) => totpOf(secret).generate({ timestamp: h.clock.now().getTime() }),
    signIn: (body: unknown) => h.call<StaffMe>('POST', '/api/staff/session', { body }),
    staffCall,
    queue: (token: string, query = '') => staffCall<QueuePage>('GET', `/api/staff/cases${query}`, token),
    view: (token: string | undefined, applicationNo: string) =>
      staffCall<ConsoleCaseData>('GET', `/api/staff/cases/${applicationNo}`, token),
    staffAct: (
      token: string | undefined,
      applicationNo: string,
      event: string,
      expectedStatus: CaseStatus,
      answers: Record<string, unknown> = {},
      lang?: string,
    ) =>
      staffCall<ConsoleActionResult>(
        'POST',
        `/api/staff/cases/${applicationNo}/actions/${event}${lang ? `?lang=${lang}` : ''}`,
        token,
        { expectedStatus, answers },
      ),
    propose: (
      token: string | undefined,
      applicationNo: string,
      decision: string,
      expectedStatus: CaseStatus,
      answers: Record<string, unknown> = {},
      lang?: string,
    ) =>
      staffCall<ConsoleActionResult & { proposalId: number }>(
        'POST',
        `/api/staff/cases/${applicationNo}/proposals/${decision}${lang ? `?lang=${lang}` : ''}`,
        token,
        { expectedStatus, answers },
      ),
    onProposal: (
      token: string | undefined,
      applicationNo: string,
      proposalId: number,
      what: 'approve' | 'send-back' | 'withdraw',
      body: Record<string, unknown> = {},
      lang?: string,
    ) =>
      staffCall<ConsoleActionResult>(
        'POST',
        `/api/staff/cases/${applicationNo}/proposals/${proposalId}/${what}${lang ? `?lang=${lang}` : ''}`,
        token,
        body,
      ),
    async decide(
      proposer: string,
      approver: string,
      applicationNo: string,
      decision: string,
      expectedStatus: CaseStatus,
      answers: Record<string, unknown> = {},
    ) {
      const proposed = await staffCall<{ proposalId: number }>(
        'POST',
        `/api/staff/cases/${applicationNo}/proposals/${decision}`,
        proposer,
        { expectedStatus, answers },
      );
      if (proposed.status !== 200) return proposed as unknown as Reply<ConsoleActionResult>;
      return staffCall<ConsoleActionResult>(
        'POST',
        `/api/staff/cases/${applicationNo}/proposals/${proposed.body.data.proposalId}/approve`,
        approver,
        {},
      );
    },
    async submittedCase(status: CaseStatus = 'SUBMITTED', submittedAt: Date = h.clock.now()) {
      const app = await h.addApplication({ status, language: 'en', applicantNameEn: 'CHAN Tai Man' });
      await db.insert(applicationHistory).values({
        applicationId: app.id,
        submissionDate: submittedAt,
        documentType: 'APPLICATION_FORM',
        status: 'SUBMITTED',
        submittedBy: 'APPLICANT',
        date: submittedAt,
        reference: app.applicationNo,
      });
      return app;
    },
  });
}
