import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../../drizzle/db';
import { DEFAULT_IDLE_TIMEOUT_MINUTES, IDLE_TIMEOUT_LOOKUP } from '../../../machines/rules/master-data';
import { grantsOf } from '../../../machines/rules/grants';
import { type LoginData, SESSION_ABSOLUTE_HOURS, type SessionData } from '../../../machines/rules/otp';
import { type Clock, HOUR_MS, MINUTE_MS, addMs } from '../../clock';
import { UnauthorizedError } from '../../http/errors';
import type { AuditEntry, MasterDataService } from '../shared';
import {
  type SessionRecord,
  applicationNoOf,
  sessionIdOf,
  insertAppointeeSession,
  insertSession,
  revokeSession,
  touchLiveSession,
} from './sessions.repo';

export const APPLICANT_ROLE = 'applicant';
/** Longest idle time-out taken from master data (a day); anything above, or not a whole number, is ignored. */
const MAX_IDLE_MINUTES = 24 * 60;
/** 32 random bytes in base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The live session behind a request (res.locals.session). */
export interface AuthSession extends SessionRecord {
  idleExpiresAt: Date;
  /** An AP's or RSE's session: their registration number ("AP(A) 1234"). */
  registrationNumber?: string;
}

/** The AP or RSE a session is opened for (role 'ap' | 'rse'). */
export interface Appointee {
  identity: 'ap' | 'rse';
  registrationNumber: string;
}

/**
 * Checks a live session of an AP or RSE on every request (api/modules/appointments/appointee-auth.ts): answers the
 * registration number, or throws 403 APPOINTMENT_ENDED when the appointment to the session's case ended.
 */
export type AppointeeCheck = (record: SessionRecord) => Promise<string>;

type Role = LoginData['role'];
const roleOf = (role: string): Role => (role === 'ap' || role === 'rse' ? role : APPLICANT_ROLE);
const userIdOf = (role: Role, applicationNo: string, registrationNumber?: string) =>
  role === APPLICANT_ROLE ? applicantUserId(applicationNo) : `${role}:${registrationNumber ?? ''}`;

export interface SessionService {
  /** The idle time-out a new session gets: master data admin_setting / logout_idletime_frontend, else 30. */
  idleMinutes(): Promise<number>;
  /** Opens a session for the application (inside the verify transaction); an appointee's when given. */
  create(tx: Db, applicationId: number, idleMinutes: number, appointee?: Appointee): Promise<LoginData>;
  /** The live session of a bearer token, marked as seen now; UnauthorizedError otherwise. */
  authenticate(token: string | undefined): Promise<AuthSession>;
  revoke(session: AuthSession): Promise<void>;
  describe(session: AuthSession): SessionData;
  /** Who a login just made is, for the audit log: the role and `session:<id>`, and the case. */
  loginRecord(login: LoginData): Promise<Omit<AuditEntry, 'action'>>;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** `userId` of an applicant's session: the applicant is known by the application they logged in with. */
export const applicantUserId = (applicationNo: string) => `applicant:${applicationNo}`;

export function createSessionService({
  db,
  clock,
  masterData,
  appointeeCheck,
}: {
  db: Db;
  clock: Clock;
  masterData: MasterDataService;
  appointeeCheck?: AppointeeCheck;
}): SessionService {
  return {
    async idleMinutes() {
      const [entry] = await masterData.find(IDLE_TIMEOUT_LOOKUP);
      const minutes = Number(entry?.dataValue);
      return Number.isInteger(minutes) && minutes > 0 && minutes <= MAX_IDLE_MINUTES
        ? minutes
        : DEFAULT_IDLE_TIMEOUT_MINUTES;
    },

    async create(tx, applicationId, idleMinutes, appointee) {
      const token = randomBytes(32).toString('base64url');
      const now = clock.now();
      const absoluteExpiresAt = addMs(now, SESSION_ABSOLUTE_HOURS * HOUR_MS);
      const role: Role = appointee?.identity ?? APPLICANT_ROLE;
      const id = await insertSession(tx, {
        tokenHash: hashToken(token),
        applicationId,
        role,
        createdAt: now,
        idleMinutes,
        absoluteExpiresAt,
      });
      if (appointee) await insertAppointeeSession(tx, { sessionId: id, ...appointee });
      const applicationNo = await applicationNoOf(tx, applicationId);
      return {
        token,
        applicationNo,
        role,
        userId: userIdOf(role, applicationNo, appointee?.registrationNumber),
        ...grantsOf(role),
        idleTimeoutMinutes: idleMinutes,
        absoluteExpiresAt: absoluteExpiresAt.toISOString(),
      };
    },

    async authenticate(token) {
      if (!token || !TOKEN_PATTERN.test(token)) throw new UnauthorizedError();
      const record = await touchLiveSession(db, hashToken(token), clock.now());
      if (!record) throw new UnauthorizedError();
      const idleEnd = addMs(record.lastSeenAt, record.idleMinutes * MINUTE_MS);
      // Never later than the absolute end: the session cannot outlive it by staying active.
      const idleExpiresAt = idleEnd < record.absoluteExpiresAt ? idleEnd : record.absoluteExpiresAt;
      if (record.role !== 'ap' && record.role !== 'rse') return { ...record, idleExpiresAt };
      // An AP/RSE: still appointed to the session's case? Checked on every request, so a revoked or
      // lapsed appointment loses access at once.
      if (!appointeeCheck) throw new UnauthorizedError();
      return { ...record, idleExpiresAt, registrationNumber: await appointeeCheck(record) };
    },

    async revoke(session) {
      await revokeSession(db, session.id, clock.now());
    },

    async loginRecord(login) {
      const id = await sessionIdOf(db, hashToken(login.token));
      return { caseNo: login.applicationNo, actor: { role: login.role, ref: `session:${id ?? 0}` } };
    },

    describe(session) {
      const role = roleOf(session.role);
      return {
        applicationNo: session.applicationNo,
        role,
        userId: userIdOf(role, session.applicationNo, session.registrationNumber),
        ...grantsOf(role),
        idleExpiresAt: session.idleExpiresAt.toISOString(),
        absoluteExpiresAt: session.absoluteExpiresAt.toISOString(),
      };
    },
  };
}
