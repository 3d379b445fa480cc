import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { applications, issuedDocuments } from '../../../drizzle/schema';
import { LOR_FIELDS } from '../../../machines/forms/letter-of-requirements';
import { SEARCHED_ANSWERS, searchTextOf } from '../shared';
import { currentAnswers } from './case-versions';

/**
 * Keeps `applications.search_text` (docs/decisions/034-console-search.md). The database marks a case "to be
 * indexed" (NULL) when it is made and whenever what the text is made of changes (migration 0022's triggers:
 * its names or premises, a new version of its answers, a Letter of Requirements); this fills the marked
 * ones: at the server's start, and before every search, so that a search always reads current text.
 */

/** Cases indexed per round of `indexPendingCases`. */
const BATCH = 200;

/**
 * Indexes one marked case under its row lock, reading its answers after the lock: a change committed
 * meanwhile marks it again, and is read by this or the next round. False when it is not marked (any more).
 */
async function indexCase(db: Db, applicationId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(applications)
      .where(and(eq(applications.id, applicationId), isNull(applications.searchText)))
      .for('update');
    if (!row) return false;
    const answers = await currentAnswers(tx, applicationId);
    const letters = await tx
      .select({ data: issuedDocuments.data })
      .from(issuedDocuments)
      .where(and(eq(issuedDocuments.applicationId, applicationId), eq(issuedDocuments.event, 'lor.issue')));
    const references = [
      answers[LOR_FIELDS.reference],
      ...letters.map((l) => (l.data as { bdReference?: unknown } | null)?.bdReference),
    ].filter((r): r is string => typeof r === 'string' && r.trim() !== '');
    const searchText = searchTextOf({
      applicationNo: row.applicationNo,
      texts: [
        row.applicantNameEn,
        row.applicantNameZh,
        row.premisesAddressEn,
        ...SEARCHED_ANSWERS.map((id) => answers[id]),
      ],
      bdReferences: references,
    });
    await tx.update(applications).set({ searchText }).where(eq(applications.id, applicationId));
    return true;
  });
}

/** Indexes every case marked "to be indexed" (until `signal` aborts); returns how many. */
export async function indexPendingCases(db: Db, signal?: AbortSignal): Promise<number> {
  let indexed = 0;
  while (!signal?.aborted) {
    const pending = await db
      .select({ id: applications.id })
      .from(applications)
      .where(isNull(applications.searchText))
      .orderBy(asc(applications.id))
      .limit(BATCH);
    for (const { id } of pending) {
      if (signal?.aborted) break;
      if (await indexCase(db, id)) indexed += 1;
    }
    if (pending.length < BATCH) break;
  }
  return indexed;
}
