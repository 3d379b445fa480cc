import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';

/**
 * The check of the audit log's hash chain (docs/operations.md, "The audit log"): each row's `prev_hash`
 * is the hash of the row before it (by id), and its `hash` is sha256 over `prev_hash` and the row's
 * canonical content, computed here in TypeScript as drizzle/migrations/0021_audit_log.sql computes it in
 * SQL (`audit_row_hash`): 'v1|', then each field as '-' (null) or its length in UTF-8 bytes, ':' and its text.
 */

export type ChainVerdict =
  | { ok: true; rows: number; head: string | null }
  | { ok: false; rows: number; brokenAt: number; reason: 'prev_hash' | 'hash' };

/** The fields of a row as text, in the order the hash takes them. */
type ChainRow = {
  id: string;
  at_us: string;
  actor: string;
  actor_ref: string;
  event: string;
  application_id: string | null;
  reference: string | null;
  before: string | null;
  after: string | null;
  address: string | null;
  request_id: string | null;
  prev_hash: string | null;
  hash: string;
};

const field = (value: string | null) =>
  value === null ? '-' : `${Buffer.byteLength(value, 'utf8')}:${value}`;

/** The hash a row must carry after `prev`. */
export function auditRowHash(prev: string | null, row: Omit<ChainRow, 'prev_hash' | 'hash'>): string {
  const content =
    'v1|' +
    [
      row.id,
      row.at_us,
      row.actor,
      row.actor_ref,
      row.event,
      row.application_id,
      row.reference,
      row.before,
      row.after,
      row.address,
      row.request_id,
    ]
      .map(field)
      .join('');
  return createHash('sha256')
    .update((prev ?? '') + content, 'utf8')
    .digest('hex');
}

/** Rows read at a time. */
const BATCH = 1000;

/** Walks the whole chain in id order; answers OK with the last hash, or the first row that breaks it. */
export async function verifyAuditChain(db: Db): Promise<ChainVerdict> {
  let prev: string | null = null;
  let after = 0;
  let rows = 0;
  for (;;) {
    const result = await db.execute<ChainRow>(sql`
      select id::text, (extract(epoch from at) * 1000000)::bigint::text as at_us, actor, actor_ref, event,
        application_id::text, reference, before::text, after::text, address, request_id, prev_hash, hash
      from audit_events where audit_events.id > ${after} order by audit_events.id limit ${BATCH}`);
    // postgres.js answers an array, PGlite `{ rows }` (docs/architecture.md, "Data").
    const batch = (Array.isArray(result) ? result : (result as { rows: ChainRow[] }).rows) as ChainRow[];
    for (const row of batch) {
      rows += 1;
      const id = Number(row.id);
      if (row.prev_hash !== prev) return { ok: false, rows, brokenAt: id, reason: 'prev_hash' };
      if (auditRowHash(prev, row) !== row.hash) return { ok: false, rows, brokenAt: id, reason: 'hash' };
      prev = row.hash;
      after = id;
    }
    if (batch.length < BATCH) return { ok: true, rows, head: prev };
  }
}
