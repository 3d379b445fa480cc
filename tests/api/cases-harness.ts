import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { hashToken } from '../../api/modules/auth/sessions';
import { createCalendarService } from '../../api/modules/shared/calendar';
import { applications, appointeeSessions, sessions } from '../../drizzle/schema';
import { insertAcceptedAppointment } from './accepted-appointment';
import type { CaseStatus } from '../../machines/rules/case-lifecycle';
import type { CaseActionResult, CaseData } from '../../machines/rules/case';
import { addWorkingDays } from '../../machines/rules/working-days';
import { type ApplicationHarness, newKey, type Reply, startApplicationHarness } from './application-harness';

/** The application harness, with a logged-in case and the follow-up calls of /api/cases. */
export interface CaseHarness extends ApplicationHarness {
  /** A case in `status` (a row of its own, as the department's side would leave it) and a session on it. */
  loggedInCase(
    status?: CaseStatus,
    language?: 'en' | 'sc' | 'tc',
  ): Promise<{ id: number; applicationNo: string; email: string; token: string }>;
  current(token: string, query?: string): Promise<Reply<CaseData>>;
  act(
    token: string | undefined,
    form: string,
    answers: unknown,
    options?: { key?: string; lang?: string; rawBody?: unknown },
  ): Promise<Reply<CaseActionResult>>;
  /** Valid inspection request answers: working days from the earliest allowed one. */
  inspectionAnswers(overrides?: Record<string, unknown>): Record<string, unknown>;
  /** The next working days the inspection form accepts, today's calendar. */
  workingDays(n: number): string[];
  setStatus(applicationId: number, status: CaseStatus): Promise<void>;
  /**
   * A live session of `role` on the case, made as the login would (only the hash is kept); an AP's or
   * RSE's rests on an active appointment to the case (issue 12), made too. Answers its token.
   */
  sessionOn(applicationId: number, role: string): Promise<string>;
}

export async function startCaseHarness(): Promise<CaseHarness> {
  const h = await startApplicationHarness();
  const calendar = createCalendarService(h.clock);
  const workingDays = (n: number) => {
    const { today, holidays } = calendar.window();
    const set = new Set(holidays);
    const days = [addWorkingDays(today, 3, set)];
    while (days.length < n) days.push(addWorkingDays(days[days.length - 1]!, 1, set));
    return days;
  };
  const harness: CaseHarness = Object.assign(h, {
    async loggedInCase(status: CaseStatus = 'SUBMITTED', language: 'en' | 'sc' | 'tc' = 'en') {
      const app = await h.addApplication({ status, language, applicantNameEn: 'CHAN Tai Man' });
      const login = await h.login(app.applicationNo, app.email);
      return { ...app, token: login.token };
    },
    current: (token: string, query = '') => h.call<CaseData>('GET', `/api/cases/current${query}`, { token }),
    act: (
      token: string | undefined,
      form: string,
      answers: unknown,
      options: { key?: string; lang?: string; rawBody?: unknown } = {},
    ) =>
      h.call<CaseActionResult>(
        'POST',
        `/api/cases/current/actions/${form}${options.lang ? `?lang=${options.lang}` : ''}`,
        {
          token,
          body: 'rawBody' in options ? options.rawBody : { answers },
          headers: { 'Idempotency-Key': options.key ?? newKey() },
        },
      ),
    inspectionAnswers(overrides: Record<string, unknown> = {}) {
      const [d1, d2, d3] = workingDays(3);
      return {
        requesterName: 'CHAN Tai Man',
        requesterRole: 'applicant',
        inspectionContactName: 'LEE Siu Ming',
        inspectionContactTelephone: '21234567',
        preferredDate1: d1,
        preferredDate2: d2,
        preferredDate3: d3,
        accessNotes: 'Use the side entrance on the ground floor.',
        ...overrides,
      };
    },
    workingDays,
    async sessionOn(applicationId: number, role: string) {
      const token = randomBytes(32).toString('base64url');
      const now = h.clock.now();
      const [session] = await h.database.db
        .insert(sessions)
        .values({
          tokenHash: hashToken(token),
          applicationId,
          role,
          createdAt: now,
          lastSeenAt: now,
          idleMinutes: 30,
          absoluteExpiresAt: new Date(now.getTime() + 3_600_000),
        })
        .returning({ id: sessions.id });
      if (role === 'ap' || role === 'rse') {
        const registrationNumber =
          role === 'ap' ? `AP(E) ${applicationId % 100000}` : `RSE ${applicationId % 100000}`;
        // The number's holder accepted it (docs/decisions/025-registration-holders.md).
        await insertAcceptedAppointment(h.database.db, {
          applicationId,
          identity: role,
          nameEn: 'CHAN TAI MAN',
          registrationNumber,
          email: 'ap@example.com',
          mobile: '91234567',
          expiryDate: '2099-12-31',
          language: 'en',
          invitedAt: now,
          acceptedAt: now,
        });
        await h.database.db
          .insert(appointeeSessions)
          .values({ sessionId: session!.id, registrationNumber, identity: role });
      }
      return token;
    },
    async setStatus(applicationId: number, status: CaseStatus) {
      await h.database.db.update(applications).set({ status }).where(eq(applications.id, applicationId));
    },
  });
  return harness;
}
