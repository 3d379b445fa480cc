import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../drizzle/db';
import { DEFAULT_IDLE_TIMEOUT_MINUTES, IDLE_TIMEOUT_LOOKUP } from '../../machines/rules/master-data';
import { type LoginData, SESSION_ABSOLUTE_HOURS, type SessionData } from '../../machines/rules/otp';
import { type Clock, HOUR_MS, MINUTE_MS, addMs } from '../clock';
import { UnauthorizedError } from '../errors';
import type { MasterDataService } from './master-data';
import {
  type SessionRecord,
  applicationNoOf,
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
}

export interface SessionService {
  /** The idle time-out a new session gets: master data admin_setting / logout_idletime_frontend, else 30. */
  idleMinutes(): Promise<number>;
  /** Opens a session for the application (inside the verify transaction). */
  create(tx: Db, applicationId: number, idleMinutes: number): Promise<LoginData>;
  /** The live session of a bearer token, marked as seen now; UnauthorizedError otherwise. */
  authenticate(token: string | undefined): Promise<AuthSession>;
  revoke(session: AuthSession): Promise<void>;
  describe(session: AuthSession): SessionData;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** `userId` of an applicant's session: the applicant is known by the application they logged in with. */
export const applicantUserId = (applicationNo: string) => `applicant:${applicationNo}`;

export function createSessionService({
  db,
  clock,
  masterData,
}: {
  db: Db;
  clock: Clock;
  masterData: MasterDataService;
}): SessionService {
  return {
    async idleMinutes() {
      const [entry] = await masterData.find(IDLE_TIMEOUT_LOOKUP);
      const minutes = Number(entry?.dataValue);
      return Number.isInteger(minutes) && minutes > 0 && minutes <= MAX_IDLE_MINUTES
        ? minutes
        : DEFAULT_IDLE_TIMEOUT_MINUTES;
    },

    async create(tx, applicationId, idleMinutes) {
      const token = randomBytes(32).toString('base64url');
      const now = clock.now();
      const absoluteExpiresAt = addMs(now, SESSION_ABSOLUTE_HOURS * HOUR_MS);
      await insertSession(tx, {
        tokenHash: hashToken(token),
        applicationId,
        role: APPLICANT_ROLE,
        createdAt: now,
        idleMinutes,
        absoluteExpiresAt,
      });
      const applicationNo = await applicationNoOf(tx, applicationId);
      return {
        token,
        applicationNo,
        role: APPLICANT_ROLE,
        userId: applicantUserId(applicationNo),
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
      return { ...record, idleExpiresAt };
    },

    async revoke(session) {
      await revokeSession(db, session.id, clock.now());
    },

    describe(session) {
      return {
        applicationNo: session.applicationNo,
        role: APPLICANT_ROLE,
        userId: applicantUserId(session.applicationNo),
        idleExpiresAt: session.idleExpiresAt.toISOString(),
        absoluteExpiresAt: session.absoluteExpiresAt.toISOString(),
      };
    },
  };
}
