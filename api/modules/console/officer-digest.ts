import { and, eq, isNull } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../../drizzle/db';
import { officerDigests, officerInboxState } from '../../../drizzle/schema-inbox';
import { staffAccounts } from '../../../drizzle/schema-staff';
import { isLanguage, type Language } from '../../../machines/rules/language';
import type { Clock } from '../../clock';
import { translate } from '../../http/i18n';
import type { JobQueue } from '../../jobs/queue';
import type { MessageService } from '../shared';
import { activitySince, officersWithActivity } from './inbox';

/**
 * The officer's digest email (docs/decisions/039-officer-inbox.md): what the applicants and AP/RSEs did on
 * the officer's cases, one email listing the cases, at most once every OFFICER_DIGEST_MINUTES per
 * officer, in the officer's language. One durable job, `officer.digest` (every minute), makes each
 * digest under the officer's row lock, moving the officer's mark past what it lists, so a second run
 * finds nothing new, and queues it through the message service, which records and retries it like every
 * email.
 */

export const OFFICER_DIGEST_JOB = 'officer.digest';

export interface OfficerDigestDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  messages: MessageService;
  jobs: JobQueue;
  /** The least time between two digests to one officer. */
  minutes: number;
  /** Register the cron schedule (default true; test apps on a moved clock leave it out). */
  schedule?: boolean;
}

type DigestItem = { applicationNo: string; kinds: string[] };

/** Makes the officer's digest if one is due and there is something new: its id, else null. */
async function makeDigest(db: Db, staffId: number, now: Date, minutes: number): Promise<number | null> {
  return db.transaction(async (tx) => {
    await tx.insert(officerInboxState).values({ staffId }).onConflictDoNothing();
    const [state] = await tx
      .select()
      .from(officerInboxState)
      .where(eq(officerInboxState.staffId, staffId))
      .for('update');
    if (state?.digestAt && now.getTime() - state.digestAt.getTime() < minutes * 60_000) return null;
    const activity = await activitySince(tx, staffId, state?.digestThrough ?? null, now);
    const newest = activity[0];
    if (!newest) return null;
    // Oldest case first, each case's kinds in the order they happened.
    const items = new Map<string, DigestItem>();
    for (const a of [...activity].reverse()) {
      const item = items.get(a.applicationNo) ?? { applicationNo: a.applicationNo, kinds: [] };
      if (!item.kinds.includes(a.kind)) item.kinds.push(a.kind);
      items.set(a.applicationNo, item);
    }
    const [made] = await tx
      .insert(officerDigests)
      .values({ staffId, items: [...items.values()], createdAt: now })
      .returning({ id: officerDigests.id });
    await tx
      .update(officerInboxState)
      .set({ digestThrough: new Date(newest.at), digestAt: now })
      .where(eq(officerInboxState.staffId, staffId));
    return made?.id ?? null;
  });
}

/** The digest's subject and text in `language` (i18n api.json `inbox.digest.*`, `inbox.kinds.*`). */
export function digestTexts(
  language: Language,
  name: string,
  items: readonly DigestItem[],
): { subject: string; email: string; sms: string } {
  const separator = language === 'en' ? ', ' : '、';
  const lines = items
    .map((item) =>
      translate(language, 'inbox.digest.line', {
        applicationNo: item.applicationNo,
        what: item.kinds.map((k) => translate(language, `inbox.kinds.${k}`)).join(separator),
      }),
    )
    .join('\n');
  const subject = translate(language, 'inbox.digest.subject', { count: items.length });
  const email = translate(language, 'inbox.digest.email', { name, lines, count: items.length });
  return { subject, email, sms: subject };
}

/**
 * Sends a made digest once: claimed first (`queued_at` set where still null, so two scans at once send it
 * once), then queued through the message service (durable from there: recorded, retried). When queueing
 * fails the claim is undone and the next scan tries again.
 */
async function sendDigest(db: Db, messages: MessageService, digestId: number, now: Date): Promise<void> {
  const [claimed] = await db
    .update(officerDigests)
    .set({ queuedAt: now })
    .where(and(eq(officerDigests.id, digestId), isNull(officerDigests.queuedAt)))
    .returning();
  if (!claimed) return;
  const [staff] = await db.select().from(staffAccounts).where(eq(staffAccounts.id, claimed.staffId));
  if (!staff?.active) return;
  const language = isLanguage(staff.language) ? staff.language : 'en';
  const name = language === 'en' ? staff.nameEn : staff.nameZh;
  try {
    await messages.sendText({
      channel: 'email',
      to: staff.email,
      language,
      texts: digestTexts(language, name, claimed.items),
    });
  } catch (err) {
    await db.update(officerDigests).set({ queuedAt: null }).where(eq(officerDigests.id, digestId));
    throw err;
  }
}

export function defineOfficerDigestJobs(deps: OfficerDigestDeps): void {
  const { db, clock, logger, messages, jobs, minutes, schedule = true } = deps;
  jobs.define({
    retryLimit: 3,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 15 * 60,
    name: OFFICER_DIGEST_JOB,
    ...(schedule ? { cron: '* * * * *' } : {}),
    async handler() {
      const now = clock.now();
      for (const staffId of await officersWithActivity(db)) await makeDigest(db, staffId, now, minutes);
      // Every digest not yet queued (a crash between making and queueing loses none).
      const unsent = await db
        .select({ id: officerDigests.id })
        .from(officerDigests)
        .where(isNull(officerDigests.queuedAt));
      for (const d of unsent) await sendDigest(db, messages, d.id, now);
      if (unsent.length > 0) logger.info({ digests: unsent.length }, 'officer digests queued');
    },
  });
}
