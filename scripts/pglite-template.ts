/**
 * Step of `npm run build`: a migrated, empty PGlite data directory as a tarball (drizzle/db.ts
 * PGLITE_TEMPLATE), from which `npm start` makes a new DATA_DIR at its first start instead of running
 * initdb. No seed data: the server seeds at every start as before.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder, PGLITE_EXTENSIONS, PGLITE_TEMPLATE } from '../drizzle/db';

const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
try {
  await migrate(drizzle({ client }), { migrationsFolder });
  const dump = await client.dumpDataDir('gzip');
  mkdirSync(path.dirname(PGLITE_TEMPLATE), { recursive: true });
  writeFileSync(PGLITE_TEMPLATE, Buffer.from(await dump.arrayBuffer()));
  console.log(`PGlite template: ${path.relative(process.cwd(), PGLITE_TEMPLATE)}`);
} finally {
  await client.close();
}
