import { inArray } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { staffAccounts } from '../../../drizzle/schema';
import { staffIdsOf } from '../../../machines/rules/audit-words';
import type { AuditRowData } from '../../../machines/rules/staff';

/**
 * The staff an audit page names, by id, in one query (docs/console.md, "Audit trail"): each row gets the
 * names of its actor and of the officers in its fields. The log itself keeps ids only (decision 033).
 */
export async function withPeople(db: Db, rows: Omit<AuditRowData, 'people'>[]): Promise<AuditRowData[]> {
  const idsOfRow = rows.map(staffIdsOf);
  const ids = [...new Set(idsOfRow.flat())];
  const found = ids.length
    ? await db
        .select({ id: staffAccounts.id, nameEn: staffAccounts.nameEn, nameZh: staffAccounts.nameZh })
        .from(staffAccounts)
        .where(inArray(staffAccounts.id, ids))
    : [];
  const byId = new Map(found.map((s) => [s.id, { nameEn: s.nameEn, nameZh: s.nameZh }]));
  return rows.map((row, i) => ({
    ...row,
    people: Object.fromEntries(
      (idsOfRow[i] ?? []).flatMap((id) => {
        const name = byId.get(id);
        return name ? [[String(id), name]] : [];
      }),
    ),
  }));
}
