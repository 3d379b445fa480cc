/**
 * Seals every HKIC number still plain in the database (rows written before sealing) or sealed under a key
 * that is no longer the first of HKIC_KEYS (after a rotation), under HKIC_KEYS' first key:
 *
 *   DATABASE_URL=… HKIC_KEYS=… npx tsx scripts/reseal-hkic.ts
 *
 * Safe while the portal runs and safe to run again (docs/operations.md, "HKIC numbers at rest").
 */
import { resealHkic } from '../api/modules/shared/hkic-reseal';
import { openDatabase } from '../drizzle/db';

const database = await openDatabase({ url: process.env.DATABASE_URL ?? '', dataDir: process.env.DATA_DIR });
try {
  const counts = await resealHkic(database.db);
  for (const [table, n] of Object.entries(counts)) console.log(`${table}: ${n} row(s) sealed again`);
} finally {
  await database.close();
}
