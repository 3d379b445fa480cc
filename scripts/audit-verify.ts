/**
 * `npm run audit:verify`: walks the audit log's hash chain (docs/operations.md, "The audit log") and
 * prints OK with the number of rows and the last hash, or the first row that breaks the chain; exit code
 * 1 on a break. The database of DATABASE_URL, else the PGlite directory of DATA_DIR (stop the server
 * first: two processes must never open one PGlite directory).
 */
import path from 'node:path';
import { openDatabase } from '../drizzle/db';
import { verifyAuditChain } from '../api/modules/shared/audit-chain';

const url = process.env.DATABASE_URL ?? '';
const database = await openDatabase(
  url ? { url } : { url: '', dataDir: path.join(process.env.DATA_DIR || '.data', 'pglite') },
);
try {
  const verdict = await verifyAuditChain(database.db);
  if (verdict.ok) {
    console.log(`audit chain OK: ${verdict.rows} rows, last hash ${verdict.head ?? '(none)'}`);
  } else {
    console.log(
      `audit chain BROKEN at row id ${verdict.brokenAt} (${verdict.reason} does not match; ${verdict.rows} rows read)`,
    );
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
