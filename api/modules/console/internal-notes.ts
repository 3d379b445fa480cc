import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { internalNotes } from '../../../drizzle/schema-proposals';
import { staffAccounts } from '../../../drizzle/schema-staff';
import type { Clock } from '../../clock';
import { NotFoundError } from '../../http/errors';
import type { StaffSession } from '../auth';
import * as repo from './console.repo';
import type { InternalNoteData } from '../../../machines/rules/proposals';

/**
 * Internal notes on a case (docs/decisions/040-four-eyes-decisions.md): the officers' own words, listed on
 * the console's case page with the author and the time. Only the console reads this table: the
 * applicant's and the AP's case APIs and the PDFs never include a note.
 */
export interface InternalNoteService {
  add(session: StaffSession, applicationNo: string, body: string): Promise<InternalNoteData>;
}

/** The notes of a case, oldest first, with their authors. */
export async function notesOf(db: Db, applicationId: number): Promise<InternalNoteData[]> {
  const rows = await db
    .select({ note: internalNotes, author: staffAccounts })
    .from(internalNotes)
    .innerJoin(staffAccounts, eq(staffAccounts.id, internalNotes.staffId))
    .where(eq(internalNotes.applicationId, applicationId))
    .orderBy(asc(internalNotes.createdAt), asc(internalNotes.id));
  return rows.map(({ note, author }) => ({
    id: note.id,
    body: note.body,
    author: { id: author.id, nameEn: author.nameEn, nameZh: author.nameZh },
    createdAt: note.createdAt.toISOString(),
  }));
}

export function createInternalNoteService(deps: { db: Db; clock: Clock }): InternalNoteService {
  const { db, clock } = deps;
  return {
    async add(session, applicationNo, body) {
      const application = await repo.applicationByNo(db, applicationNo);
      if (!application) throw new NotFoundError('case.notFound');
      const { staff } = session;
      const [row] = await db
        .insert(internalNotes)
        .values({ applicationId: application.id, staffId: staff.id, body, createdAt: clock.now() })
        .returning();
      if (!row) throw new Error('internal note not written');
      return {
        id: row.id,
        body: row.body,
        author: { id: staff.id, nameEn: staff.nameEn, nameZh: staff.nameZh },
        createdAt: row.createdAt.toISOString(),
      };
    },
  };
}
