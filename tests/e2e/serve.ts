/**
 * The server the browser tests run against: the built SPA over the real API, on a fresh database that
 * is dropped at the end (real Postgres when DATABASE_URL is set, in-memory PGlite otherwise).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { startServer } from '../../api/server';
import { createTestDatabaseUrl } from '../support/fresh-postgres';
import { CASE_APPLICANTS, TEST_APPLICANT_COUNT } from './fixtures';
import { seedTestCase } from './seed-case';
import { seedFollowUpCases, seedFollowUpRequests } from './fixtures-followups';
import { makeTestPki } from '../support/test-ca';
import { writeSignerFile } from './ecert-signer';
import { seedAppointmentCases } from './fixtures-appointments';
import { seedSelfCertCases, seedSelfCertLetterCase } from './fixtures-selfcert';
import { seedConsoleFixtures } from './fixtures-console';
import { seedTakeoverCases } from './fixtures-takeover';
import { seedFocusCases } from './fixtures-focus';
import { seedScreenReaderCases } from './fixtures-screen-reader';
import { seedWordsCase } from './fixtures-words';
import { seedReviewCases } from './fixtures-review';

const staticDir = fileURLToPath(new URL('../../dist', import.meta.url));
if (!existsSync(`${staticDir}/index.html`)) {
  console.error('dist/ is missing: run `npm run build` first (npm test does).');
  process.exit(1);
}

// The browser tests read codes from the outbox and answer iAM Smart on the sandbox's phone.
process.env.DEV_TOOLS = '1';
// One browser from one address makes more drafts and PDFs in minutes than a person in a day.
process.env.RATE_LIMITS = 'off';

// Uploaded documents go to a directory of this run, removed at the end.
const documentsDir = mkdtempSync(path.join(tmpdir(), 'bd-e2e-documents-'));
process.env.DOCUMENT_STORAGE_DIR = documentsDir;

// A test e-Cert PKI made now: the server trusts its root and CRL (as production trusts Hongkong Post's),
// and the browser tests sign as the applicant with its valid signer (ecert-signer.ts reads the file).
const pkiDir = mkdtempSync(path.join(tmpdir(), 'bd-e2e-pki-'));
const pki = await makeTestPki(new Date());
writeFileSync(path.join(pkiDir, 'root.der'), pki.root.der);
writeFileSync(path.join(pkiDir, 'crl.der'), pki.crl);
process.env.ECERT_ROOTS = path.join(pkiDir, 'root.der');
process.env.ECERT_CRLS = path.join(pkiDir, 'crl.der');
await writeSignerFile(pki.signers.valid);

const fresh = process.env.DATABASE_URL
  ? await createTestDatabaseUrl(process.env.DATABASE_URL, 'bd_e2e')
  : null;
const server = await startServer({
  port: Number(process.env.E2E_PORT ?? 3100),
  host: '127.0.0.1',
  databaseUrl: fresh?.url,
  staticDir,
  logger: pino({ level: 'warn' }),
});

// The tests' own applicants (fixtures.ts), each with one history row.
const statusOf = new Map<number, string>(Object.values(CASE_APPLICANTS).map((c) => [c.n, c.status]));
const lastApplicant = Math.max(TEST_APPLICANT_COUNT, ...statusOf.keys());
for (let n = 1; n <= lastApplicant; n++) {
  await seedTestCase(server.database.db, n, { status: statusOf.get(n) ?? 'SUBMITTED' });
}

await seedAppointmentCases(server.database.db);
await seedSelfCertCases(server.database.db);
await seedFollowUpCases(server.database.db);
await seedConsoleFixtures(server.database.db);
await seedSelfCertLetterCase(server.database.db);
await seedFollowUpRequests(server.database.db);
await seedTakeoverCases(server.database.db);
await seedFocusCases(server.database.db);
await seedScreenReaderCases(server.database.db);
await seedWordsCase(server.database.db);
await seedReviewCases(server.database.db);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  await fresh?.drop();
  rmSync(documentsDir, { recursive: true, force: true });
  rmSync(pkiDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
