import type { Db } from '../../drizzle/db';
import type { Language } from '../../machines/rules/language';
import { seedTestCase } from './seed-case';

/**
 * The cases of the virtual screen reader test (tests/e2e/screen-reader.spec.ts, applicants 141–142): one
 * submitted application per language, so that the one-time code limits never couple two tests.
 */
export const SCREEN_READER_CASES = { en: 141, tc: 142 } as const satisfies Partial<Record<Language, number>>;

export async function seedScreenReaderCases(db: Db): Promise<void> {
  for (const n of Object.values(SCREEN_READER_CASES)) await seedTestCase(db, n, { status: 'SUBMITTED' });
}
