import { and, type AnyColumn, desc, eq, gt, gte, inArray, lte, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import {
  applications,
  caseActions,
  caseAssignments,
  caseMessages,
  informationRequests,
} from '../../../drizzle/schema';
import { caseSeen, officerInboxState } from '../../../drizzle/schema-inbox';
import { OPEN_STATUSES } from '../../../machines/rules/case-lifecycle';
import {
  activityKindOf,
  NOTICES_LIMIT,
  type ActivityData,
  type ActivityKind,
  type InboxTab,
  type NoticesData,
} from '../../../machines/rules/staff-inbox';

/**
 * The officer's inbox (docs/decisions/039-officer-inbox.md). What the applicant or AP/RSE did on a case is
 * read from the case's own rows: a case action whose actor is a party, and a message not from the
 * department. Nothing is copied at the moment of the action, so every way a party acts (follow-ups,
 * messages, self-certification, the appointment form) is seen without a hook in each.
 */

const PARTY_ACTORS = ['applicant', 'ap', 'rse'];
const PARTY_SENDERS = ['APPLICANT', 'AP', 'RSE'];

/** A party's activity with the case's id. */
export interface Activity extends ActivityData {
  applicationId: number;
}

/**
 * The parties' activity on cases, newest first: `where` narrows both sources by the case, the time
 * column given, and (with `assignedTo`) to the cases now assigned to that officer since they were.
 */
async function partyActivity(
  db: Db,
  where: (at: AnyColumn) => SQL | undefined,
  options: { ids?: number[]; assignedTo?: number; limit?: number } = {},
): Promise<Activity[]> {
  const limit = options.limit ?? 10_000;
  type Column = typeof caseActions.applicationId | typeof caseMessages.applicationId;
  type At = typeof caseActions.createdAt | typeof caseMessages.createdAt;
  const scope = (appId: Column, at: At) =>
    and(
      options.ids ? inArray(appId, options.ids.length > 0 ? options.ids : [-1]) : undefined,
      options.assignedTo === undefined
        ? undefined
        : and(eq(caseAssignments.staffId, options.assignedTo), gte(at, caseAssignments.assignedAt)),
    );
  const [actions, messages] = await Promise.all([
    db
      .select({
        applicationId: caseActions.applicationId,
        applicationNo: applications.applicationNo,
        formKey: caseActions.formKey,
        actor: caseActions.actor,
        at: caseActions.createdAt,
      })
      .from(caseActions)
      .innerJoin(applications, eq(applications.id, caseActions.applicationId))
      .leftJoin(caseAssignments, eq(caseAssignments.applicationId, caseActions.applicationId))
      .where(
        and(
          inArray(caseActions.actor, PARTY_ACTORS),
          scope(caseActions.applicationId, caseActions.createdAt),
          where(caseActions.createdAt),
        ),
      )
      .orderBy(desc(caseActions.createdAt), desc(caseActions.id))
      .limit(limit),
    db
      .select({
        applicationId: caseMessages.applicationId,
        applicationNo: applications.applicationNo,
        sender: caseMessages.sender,
        at: caseMessages.createdAt,
      })
      .from(caseMessages)
      .innerJoin(applications, eq(applications.id, caseMessages.applicationId))
      .leftJoin(caseAssignments, eq(caseAssignments.applicationId, caseMessages.applicationId))
      .where(
        and(
          inArray(caseMessages.sender, PARTY_SENDERS),
          scope(caseMessages.applicationId, caseMessages.createdAt),
          where(caseMessages.createdAt),
        ),
      )
      .orderBy(desc(caseMessages.createdAt), desc(caseMessages.id))
      .limit(limit),
  ]);
  const all: Activity[] = [
    ...actions.map((a) => ({
      applicationId: a.applicationId,
      applicationNo: a.applicationNo,
      kind: activityKindOf(a.formKey),
      at: a.at.toISOString(),
      by: a.actor.toUpperCase(),
    })),
    ...messages.map((m) => ({
      applicationId: m.applicationId,
      applicationNo: m.applicationNo,
      kind: 'message' as const,
      at: m.at.toISOString(),
      by: m.sender,
    })),
  ];
  return all.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, limit);
}

/** The kinds of activity each of `ids` had since `staffId` last opened it (never opened: all), newest first. */
export async function newActivity(
  db: Db,
  staffId: number,
  ids: number[],
): Promise<Map<number, ActivityKind[]>> {
  const found = new Map<number, ActivityKind[]>();
  if (ids.length === 0) return found;
  const seen = await db
    .select({ applicationId: caseSeen.applicationId, at: caseSeen.lastSeenAt })
    .from(caseSeen)
    .where(and(eq(caseSeen.staffId, staffId), inArray(caseSeen.applicationId, ids)));
  const seenAt = new Map(seen.map((s) => [s.applicationId, s.at.toISOString()]));
  for (const a of await partyActivity(db, () => undefined, { ids })) {
    const since = seenAt.get(a.applicationId);
    if (since !== undefined && a.at <= since) continue;
    const kinds = found.get(a.applicationId) ?? [];
    if (!kinds.includes(a.kind)) kinds.push(a.kind);
    found.set(a.applicationId, kinds);
  }
  return found;
}

/** The officer opened the case page: its "New activity" marker is cleared for this officer only. */
export async function markCaseSeen(db: Db, staffId: number, applicationNo: string, at: Date): Promise<void> {
  const [app] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(eq(applications.applicationNo, applicationNo));
  if (!app) return;
  await db
    .insert(caseSeen)
    .values({ staffId, applicationId: app.id, lastSeenAt: at })
    .onConflictDoUpdate({
      target: [caseSeen.staffId, caseSeen.applicationId],
      set: { lastSeenAt: sql`greatest(${caseSeen.lastSeenAt}, excluded.last_seen_at)` },
    });
}

/** The queue's condition of an inbox tab: the signed-in officer's cases only. */
export function inboxFilter(staffId: number, tab: InboxTab): SQL | undefined {
  const mine = eq(caseAssignments.staffId, staffId);
  const open = inArray(applications.status, [...OPEN_STATUSES]);
  const openRequest = sql`exists (select 1 from ${informationRequests} where ${informationRequests.applicationId} = ${applications.id} and ${informationRequests.answeredAt} is null and ${informationRequests.withdrawnAt} is null)`;
  if (tab === 'mine') return and(mine, open);
  if (tab === 'waiting') return and(mine, open, openRequest);
  if (tab === 'handle') return and(mine, open, sql`not ${openRequest}`);
  return and(mine, notInArray(applications.status, [...OPEN_STATUSES]));
}

async function stateOf(db: Db, staffId: number) {
  const [row] = await db.select().from(officerInboxState).where(eq(officerInboxState.staffId, staffId));
  return row;
}

/** The newest activity on the officer's cases (since each was assigned to them), and how much is unread. */
export async function noticesOf(db: Db, staffId: number): Promise<NoticesData> {
  const readAt = (await stateOf(db, staffId))?.noticesReadAt ?? null;
  const [latest, unread] = await Promise.all([
    partyActivity(db, () => undefined, { assignedTo: staffId, limit: NOTICES_LIMIT }),
    readAt
      ? partyActivity(db, (at) => gt(at, readAt), { assignedTo: staffId })
      : partyActivity(db, () => undefined, { assignedTo: staffId }),
  ]);
  const read = readAt?.toISOString() ?? '';
  return {
    notices: latest.map(({ applicationId: _id, ...n }) => ({ ...n, unread: n.at > read })),
    unread: unread.length,
  };
}

/** The notices up to `through` (the newest the officer was shown; never later than now) are read. */
export async function markNoticesRead(db: Db, staffId: number, through: Date, now: Date): Promise<void> {
  const at = through > now ? now : through;
  await db
    .insert(officerInboxState)
    .values({ staffId, noticesReadAt: at })
    .onConflictDoUpdate({
      target: officerInboxState.staffId,
      set: {
        noticesReadAt: sql`greatest(coalesce(${officerInboxState.noticesReadAt}, excluded.notices_read_at), excluded.notices_read_at)`,
      },
    });
}

/** The activity a digest of `staffId` lists: on their cases, after `after`, up to `until`. */
export function activitySince(db: Db, staffId: number, after: Date | null, until: Date): Promise<Activity[]> {
  return partyActivity(db, (at) => and(after ? gt(at, after) : undefined, lte(at, until)), {
    assignedTo: staffId,
  });
}

/** The officers with activity on their cases after their last digest (their ids). */
export async function officersWithActivity(db: Db): Promise<number[]> {
  const rows = await db
    .selectDistinct({ staffId: caseAssignments.staffId })
    .from(caseAssignments)
    .leftJoin(officerInboxState, eq(officerInboxState.staffId, caseAssignments.staffId))
    .where(
      sql`exists (select 1 from ${caseActions} where ${caseActions.applicationId} = ${caseAssignments.applicationId} and ${caseActions.actor} in ('applicant','ap','rse') and ${caseActions.createdAt} >= ${caseAssignments.assignedAt} and (${officerInboxState.digestThrough} is null or ${caseActions.createdAt} > ${officerInboxState.digestThrough}))
        or exists (select 1 from ${caseMessages} where ${caseMessages.applicationId} = ${caseAssignments.applicationId} and ${caseMessages.sender} <> 'BD' and ${caseMessages.createdAt} >= ${caseAssignments.assignedAt} and (${officerInboxState.digestThrough} is null or ${caseMessages.createdAt} > ${officerInboxState.digestThrough}))`,
    );
  return rows.map((r) => r.staffId);
}
