import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { applications, sessions as sessionsTable } from '../../../drizzle/schema';
import type { AppointeeCase } from '../../../machines/rules/appointment';
import { isIdentity } from '../../../machines/rules/appointment';
import type { Contact, LoginData, OtpSentData, SessionData } from '../../../machines/rules/otp';
import { hongKongDate } from '../../../machines/rules/working-days';
import type { Clock } from '../../clock';
import { ApiError, ForbiddenError, UnauthorizedError } from '../../http/errors';
import * as repo from './appointments.repo';
import * as holders from './holders.repo';
import type { OtpService, AppointeeCheck, AuthSession, SessionService } from '../auth';

/**
 * APs and RSEs as users (docs/decisions/020-appointments.md): they log in with their registration number and
 * a one-time password sent to the email or mobile of the number's holder (docs/decisions/025-registration-holders.md);
 * the session carries their role ('ap' | 'rse') and one case at a time (the newest appointment first; they
 * switch to another of theirs). They reach only cases whose ACTIVE appointment the holder accepted. Every
 * request checks the appointment again (`check`), so a revoked or lapsed one loses access at once: 403
 * APPOINTMENT_ENDED.
 */

export class AppointmentEndedError extends ApiError {
  constructor() {
    super(403, 'APPOINTMENT_ENDED', 'appointment.ended');
  }
}

export function createAppointeeAuth({ db, clock, otp }: { db: Db; clock: Clock; otp: OtpService }) {
  const today = () => hongKongDate(clock.now());

  /**
   * Who is on file for a registration number: its holder's contacts, when the holder has an active
   * appointment they accepted (no code is sent otherwise, and the answer is the same).
   */
  const lookup = async (tx: Db, registrationNumber: string) => {
    const holder = await holders.holderOfNumber(tx, registrationNumber);
    if (!holder) return undefined;
    const [newest] = await repo.activeOfRegistration(tx, registrationNumber, today());
    if (!newest) return undefined;
    return {
      id: newest.appointment.applicationId,
      applicationNo: registrationNumber,
      email: holder.email,
      mobile: holder.mobile,
      language: holder.language,
    };
  };

  const check: AppointeeCheck = async (record) => {
    const appointee = await repo.appointeeOfSession(db, record.id);
    if (!appointee) throw new UnauthorizedError();
    const ok = await repo.hasActiveAppointment(
      db,
      record.applicationId,
      appointee.registrationNumber,
      appointee.identity,
      today(),
    );
    if (!ok) throw new AppointmentEndedError();
    return appointee.registrationNumber;
  };

  async function casesOf(registrationNumber: string): Promise<AppointeeCase[]> {
    const rows = await repo.activeOfRegistration(db, registrationNumber, today());
    return rows.map((r) => ({
      applicationNo: r.applicationNo,
      formCode: r.formCode,
      status: r.status,
      identity: isIdentity(r.appointment.identity) ? r.appointment.identity : 'ap',
      acceptedAt: r.appointment.acceptedAt?.toISOString() ?? null,
      expiryDate: r.appointment.expiryDate,
    }));
  }

  return {
    check,

    sendCode(request: { registrationNumber: string; contact: Contact }): Promise<OtpSentData> {
      return otp.send(
        { applicationNo: request.registrationNumber, contact: request.contact },
        'appointee',
        lookup,
      );
    },

    async login(
      sessions: SessionService,
      request: { registrationNumber: string; contact: Contact; code: string },
    ): Promise<LoginData & { cases: AppointeeCase[] }> {
      const idleMinutes = await sessions.idleMinutes();
      const login = await otp.verify(
        { applicationNo: request.registrationNumber, contact: request.contact, code: request.code },
        async (tx, applicationId) => {
          const [newest] = await repo.activeOfRegistration(tx, request.registrationNumber, today());
          // The appointment ended between the code and now: nothing to open a session on.
          if (!newest || !isIdentity(newest.appointment.identity)) throw new AppointmentEndedError();
          return sessions.create(tx, newest.appointment.applicationId ?? applicationId, idleMinutes, {
            identity: newest.appointment.identity,
            registrationNumber: request.registrationNumber,
          });
        },
        'appointee',
      );
      return { ...login, cases: await casesOf(request.registrationNumber) };
    },

    cases(session: AuthSession): Promise<AppointeeCase[]> {
      return casesOf(session.registrationNumber ?? '');
    },

    /** Moves the session to another case the AP/RSE is appointed to (403 for any other, known or not). */
    async select(
      sessions: SessionService,
      session: AuthSession,
      applicationNo: string,
    ): Promise<SessionData> {
      const [application] = await db
        .select({ id: applications.id })
        .from(applications)
        .where(eq(applications.applicationNo, applicationNo));
      const registrationNumber = session.registrationNumber ?? '';
      if (
        !application ||
        !(await repo.hasActiveAppointment(db, application.id, registrationNumber, session.role, today()))
      )
        throw new ForbiddenError('appointment.noCase');
      await db
        .update(sessionsTable)
        .set({ applicationId: application.id })
        .where(and(eq(sessionsTable.id, session.id)));
      return sessions.describe({ ...session, applicationId: application.id, applicationNo });
    },
  };
}

export type AppointeeAuth = ReturnType<typeof createAppointeeAuth>;
