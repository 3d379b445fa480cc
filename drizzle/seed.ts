import { and, eq } from 'drizzle-orm';
import { seedAddressTable } from './address-seed';
import type { Db } from './db';
import { masterData, type NewMasterDataRow } from './schema';

/** Master data the portal needs to run. A (type, code) that already has any value is left alone. */
export const seedMasterData: readonly NewMasterDataRow[] = [
  {
    type: 'admin_setting',
    code: 'logout_idletime_frontend',
    dataValue: '30',
    description: 'Minutes of inactivity before the browser session is logged out.',
    sortOrder: 0,
  },
];

/**
 * Idempotent: inserts each seed entry only when its (type, code) has no value yet, so a value an
 * administrator has changed is kept. Safe to run at every start, also from several processes at once
 * (the unique index on type, code, data_value absorbs a race).
 */
export async function seed(db: Db): Promise<void> {
  for (const entry of seedMasterData) {
    const existing = await db
      .select({ id: masterData.id })
      .from(masterData)
      .where(and(eq(masterData.type, entry.type), eq(masterData.code, entry.code)))
      .limit(1);
    if (existing.length > 0) continue;
    await db.insert(masterData).values(entry).onConflictDoNothing();
  }
  // Public addresses for the address search (entries already there are kept).
  await seedAddressTable(db);
}
