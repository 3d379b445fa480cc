import { createHash } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../drizzle/db';
import {
  caseDocuments,
  caseUploads,
  draftDocuments,
  drafts,
  otpChallenges,
  outbox,
  rateEvents,
  sessions,
  signingRequests,
} from '../../drizzle/schema';
import { formatHkDate } from '../../machines/rules/dates';
import { isLanguage } from '../../machines/rules/language';
import type { DocumentStorage } from '../adapters/storage';
import { type Clock, HOUR_MS } from '../clock';
import { translate } from '../http/i18n';
import { purgeExpiredDrafts } from '../modules/applications';
import type { MessageService } from '../modules/shared';
import type { JobQueue } from './queue';

/**
 * The portal's scheduled jobs, on the durable queue (api/jobs/queue.ts): pg-boss queues each one once a
 * period across every process (cron, UTC), and one worker runs it. Each is also safe to run twice.
 *
 * | job | when | what |
 * |---|---|---|
 * | purge.expired | hourly at :07 | expired drafts (and their files), a case's files never submitted (a day), one-time codes, sessions, rate events, old outbox rows |
 * | sweep.files | hourly at :27 | document files no row names, and `.part` files a crash left, older than an hour |
 * | remind.scan | hourly at :47 | queues one `remind.draft` per saved application that expires within 3 days |
 * | remind.draft | queued by the scan | the reminder, by email or SMS, in the applicant's language, with the expiry date |
 */
const DAY_MS = 24 * HOUR_MS;

export const MAINTENANCE_JOBS = {
  purge: 'purge.expired',
  sweep: 'sweep.files',
  remindScan: 'remind.scan',
  remind: 'remind.draft',
} as const;

/** Codes and sessions are kept a day after they end (to answer "expired" rather than "unknown"). */
const KEEP_ENDED_MS = DAY_MS;
/** Outbox rows (the record of each message) are kept this long. */
export const OUTBOX_RETENTION_DAYS = 30;
/** A file no row names is only removed once older than this (an upload in flight writes the file first). */
export const ORPHAN_MIN_AGE_MS = HOUR_MS;
/** The reminder goes this long before a saved application expires. */
export const REMIND_BEFORE_MS = 3 * DAY_MS;

export interface MaintenanceDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  storage: DocumentStorage;
  messages: MessageService;
  /** Register the cron schedules (default true; test apps on a moved clock leave them out). */
  schedule?: boolean;
}

export interface PurgeCounts {
  drafts: number;
  codes: number;
  sessions: number;
  rateEvents: number;
  outbox: number;
  caseUploads: number;
}

export async function purgeExpired({
  db,
  clock,
  storage,
}: Omit<MaintenanceDeps, 'logger' | 'messages'>): Promise<PurgeCounts> {
  const now = clock.now();
  const ended = new Date(now.getTime() - KEEP_ENDED_MS);
  const draftsPurged = await purgeExpiredDrafts(db, now, storage);
  const codes = await db
    .delete(otpChallenges)
    .where(lt(otpChallenges.expiresAt, ended))
    .returning({ id: otpChallenges.id });
  const gone = await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.absoluteExpiresAt, ended),
        and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, ended)),
      ),
    )
    .returning({ id: sessions.id });
  const events = await db.delete(rateEvents).where(lt(rateEvents.at, ended)).returning({ id: rateEvents.id });
  // A case's files never submitted with a follow-up go a day after they came, with their files.
  const unsent = await db
    .delete(caseUploads)
    .where(and(isNull(caseUploads.actionId), lt(caseUploads.createdAt, new Date(now.getTime() - DAY_MS))))
    .returning({ key: caseUploads.storageKey });
  await Promise.all(unsent.map((r) => storage.remove(r.key).catch(() => undefined)));
  const old = await db
    .delete(outbox)
    .where(lt(outbox.createdAt, new Date(now.getTime() - OUTBOX_RETENTION_DAYS * DAY_MS)))
    .returning({ id: outbox.id });
  return {
    drafts: draftsPurged,
    codes: codes.length,
    sessions: gone.length,
    rateEvents: events.length,
    outbox: old.length,
    caseUploads: unsent.length,
  };
}

/** Every storage key a row still names: uploads, frozen application PDFs and the documents frozen with them. */
async function namedKeys(db: Db): Promise<Set<string>> {
  const uploads = await db.select({ key: draftDocuments.storageKey }).from(draftDocuments);
  const frozen = await db
    .select({ key: signingRequests.pdfStorageKey, documents: signingRequests.documents })
    .from(signingRequests);
  const keys = new Set(uploads.map((r) => r.key));
  // A case's files: uploaded for a follow-up, and the documents of its history.
  for (const r of await db.select({ key: caseUploads.storageKey }).from(caseUploads)) keys.add(r.key);
  for (const r of await db.select({ key: caseDocuments.storageKey }).from(caseDocuments)) keys.add(r.key);
  for (const row of frozen) {
    keys.add(row.key);
    for (const d of row.documents as { storageKey?: unknown }[])
      if (typeof d.storageKey === 'string') keys.add(d.storageKey);
  }
  return keys;
}

/** Removes files no row names and `.part` files, once older than an hour. Answers what went. */
export async function sweepFiles({
  db,
  clock,
  storage,
}: Omit<MaintenanceDeps, 'logger' | 'messages'>): Promise<{ orphans: number; parts: number }> {
  if (!storage.entries || !storage.removeEntry) return { orphans: 0, parts: 0 };
  const before = clock.now().getTime() - ORPHAN_MIN_AGE_MS;
  // The files are listed before the rows are read: a file written after the listing is not looked at,
  // and one listed before its row was written is younger than an hour.
  const entries = (await storage.entries()).filter((e) => e.modifiedAt.getTime() < before);
  const keys = await namedKeys(db);
  let orphans = 0;
  let parts = 0;
  for (const entry of entries) {
    if (entry.kind === 'part') {
      await storage.removeEntry(entry.name);
      parts += 1;
    } else if (!keys.has(entry.name)) {
      await storage.removeEntry(entry.name);
      orphans += 1;
    }
  }
  return { orphans, parts };
}

/** The reminder's job id: one per draft and validity, so that any number of scans queue it once. */
function reminderId(draftId: number, validUntil: Date): string {
  const h = createHash('sha256').update(`reminder|${draftId}|${validUntil.toISOString()}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

interface RemindJob {
  draftId: number;
  validUntil: string;
}

export function defineMaintenanceJobs(jobs: JobQueue, deps: MaintenanceDeps): void {
  const { db, clock, logger, messages, schedule = true } = deps;
  const at = (cron: string) => (schedule ? { cron } : {});
  const common = { retryLimit: 3, retryDelaySeconds: 60, retryBackoff: true, expireInSeconds: 15 * 60 };

  jobs.define({
    ...common,
    name: MAINTENANCE_JOBS.purge,
    ...at('7 * * * *'),
    async handler() {
      const counts = await purgeExpired(deps);
      logger.info({ ...counts }, 'expired data purged');
    },
  });

  jobs.define({
    ...common,
    name: MAINTENANCE_JOBS.sweep,
    ...at('27 * * * *'),
    async handler() {
      const counts = await sweepFiles(deps);
      if (counts.orphans + counts.parts > 0) logger.info(counts, 'orphan files swept');
    },
  });

  jobs.define({
    ...common,
    name: MAINTENANCE_JOBS.remindScan,
    ...at('47 * * * *'),
    async handler() {
      const now = clock.now();
      const due = await db
        .select({ id: drafts.id, validUntil: drafts.validUntil })
        .from(drafts)
        .where(
          and(
            isNull(drafts.submittedAt),
            gt(drafts.validUntil, now),
            lte(drafts.validUntil, new Date(now.getTime() + REMIND_BEFORE_MS)),
            or(isNotNull(drafts.contactEmail), isNotNull(drafts.contactMobile)),
          ),
        );
      for (const draft of due) {
        await jobs.send<RemindJob>(
          MAINTENANCE_JOBS.remind,
          { draftId: draft.id, validUntil: draft.validUntil.toISOString() },
          { id: reminderId(draft.id, draft.validUntil) },
        );
      }
    },
  });

  jobs.define<RemindJob>({
    ...common,
    name: MAINTENANCE_JOBS.remind,
    async handler({ draftId, validUntil }) {
      const [draft] = await db
        .select()
        .from(drafts)
        .where(and(eq(drafts.id, draftId), isNull(drafts.submittedAt), gt(drafts.validUntil, clock.now())));
      // Submitted, purged, or saved again since (a new validity, with a reminder of its own).
      if (!draft || draft.validUntil.toISOString() !== validUntil) return;
      const language = isLanguage(draft.language) ? draft.language : 'tc';
      const params = {
        applicationNo: draft.applicationNo,
        expiresAt: formatHkDate(draft.validUntil, language, true),
      };
      const texts = {
        subject: translate(language, 'message.reminder.subject', params),
        email: translate(language, 'message.reminder.email', params),
        sms: translate(language, 'message.reminder.sms', params),
      };
      const channel = draft.contactEmail ? 'email' : 'sms';
      const to = draft.contactEmail ?? draft.contactMobile ?? '';
      await messages.sendText({ channel, to, language, texts });
    },
  });
}
