import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { caseActions, caseVersions, drafts } from '../../../drizzle/schema';
import { HKIC_FIELD_IDS, hkicKeys, openAnswers, sealAnswers } from './answers-at-rest';
import { SEALED_PREFIX } from './hkic-crypto';

/**
 * Seals, under the first key of HKIC_KEYS, every HKIC still plain or sealed under an older key, in the three
 * tables that keep answers (docs/operations.md, "HKIC numbers at rest"; `scripts/reseal-hkic.ts`). A row is
 * rewritten only if its answers are still those read, so a save racing with it wins (and seals itself).
 * Answers how many rows of each table were rewritten.
 */
export async function resealHkic(
  db: Db,
): Promise<Record<'drafts' | 'case_versions' | 'case_actions', number>> {
  const current = `${SEALED_PREFIX}${hkicKeys().sealWith}:%`;
  const tables = { drafts, case_versions: caseVersions, case_actions: caseActions };
  const counts = { drafts: 0, case_versions: 0, case_actions: 0 };
  for (const [name, table] of Object.entries(tables) as [
    keyof typeof tables,
    (typeof tables)[keyof typeof tables],
  ][]) {
    const stale = or(
      ...HKIC_FIELD_IDS.map(
        (id) =>
          sql`coalesce(${table.answers}->>${id}, '') <> '' and ${table.answers}->>${id} not like ${current}`,
      ),
    );
    const rows = await db.select({ id: table.id, answers: table.answers }).from(table).where(stale);
    for (const row of rows) {
      const next = sealAnswers(openAnswers(row.answers));
      const done = await db
        .update(table)
        .set({ answers: next })
        .where(and(eq(table.id, row.id), sql`${table.answers} = ${JSON.stringify(row.answers)}::jsonb`))
        .returning({ id: table.id });
      counts[name] += done.length;
    }
  }
  return counts;
}
