import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { appointeeSessions, applications, sessions } from '../../../drizzle/schema';

/** The queries of sessions. */

export interface SessionRecord {
  id: number;
  applicationId: number;
  applicationNo: string;
  role: string;
  lastSeenAt: Date;
  idleMinutes: number;
  absoluteExpiresAt: Date;
}

export async function insertSession(
  tx: Db,
  row: {
    tokenHash: string;
    applicationId: number;
    role: string;
    createdAt: Date;
    idleMinutes: number;
    absoluteExpiresAt: Date;
  },
): Promise<number> {
  const [made] = await tx
    .insert(sessions)
    .values({ ...row, lastSeenAt: row.createdAt })
    .returning({ id: sessions.id });
  if (!made) throw new Error('session not recorded');
  return made.id;
}

/** The AP or RSE behind a session of role 'ap' | 'rse'. */
export async function insertAppointeeSession(
  tx: Db,
  row: typeof appointeeSessions.$inferInsert,
): Promise<void> {
  await tx.insert(appointeeSessions).values(row);
}

/** The id of the session of `tokenHash` (the audit log names a session by it). */
export async function sessionIdOf(db: Db, tokenHash: string): Promise<number | undefined> {
  const [row] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.tokenHash, tokenHash));
  return row?.id;
}

export async function applicationNoOf(tx: Db, applicationId: number): Promise<string> {
  const [row] = await tx
    .select({ applicationNo: applications.applicationNo })
    .from(applications)
    .where(eq(applications.id, applicationId));
  if (!row) throw new Error(`application ${applicationId} not found`);
  return row.applicationNo;
}

/**
 * Marks the session of `tokenHash` as seen at `now`, if it is live: not revoked, before its absolute
 * end, and seen within its idle minutes. One statement, so two requests cannot revive an idle session.
 */
export async function touchLiveSession(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<SessionRecord | undefined> {
  const [touched] = await db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        isNull(sessions.revokedAt),
        gt(sessions.absoluteExpiresAt, now),
        sql`${sessions.lastSeenAt} + ${sessions.idleMinutes} * interval '1 minute' > ${now.toISOString()}::timestamptz`,
      ),
    )
    .returning({
      id: sessions.id,
      applicationId: sessions.applicationId,
      role: sessions.role,
      lastSeenAt: sessions.lastSeenAt,
      idleMinutes: sessions.idleMinutes,
      absoluteExpiresAt: sessions.absoluteExpiresAt,
    });
  if (!touched) return undefined;
  return { ...touched, applicationNo: await applicationNoOf(db, touched.applicationId) };
}

export async function revokeSession(db: Db, id: number, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}
