import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { caseDocuments, issuedDocuments } from '../../../drizzle/schema';

/** The issued letters' queries of the public check (docs/decisions/038-sealed-letters.md). */

export interface IssuedLetter {
  id: number;
  applicationId: number;
  event: string;
  reference: string;
  data: unknown;
  createdAt: Date;
  sha256: string;
}

const letterColumns = {
  id: issuedDocuments.id,
  applicationId: issuedDocuments.applicationId,
  event: issuedDocuments.event,
  reference: issuedDocuments.reference,
  data: issuedDocuments.data,
  createdAt: issuedDocuments.createdAt,
  sha256: caseDocuments.sha256,
};

/** The letter issued under this reference (one with a PDF), if any. */
export async function letterByReference(db: Db, reference: string): Promise<IssuedLetter | undefined> {
  const [row] = await db
    .select(letterColumns)
    .from(issuedDocuments)
    .innerJoin(caseDocuments, eq(caseDocuments.id, issuedDocuments.caseDocumentId))
    .where(eq(issuedDocuments.reference, reference))
    .limit(1);
  return row;
}

/** The letter whose stored file has this SHA-256 (lowercase hex), if any. */
export async function letterBySha256(db: Db, sha256: string): Promise<IssuedLetter | undefined> {
  const [row] = await db
    .select(letterColumns)
    .from(issuedDocuments)
    .innerJoin(caseDocuments, eq(caseDocuments.id, issuedDocuments.caseDocumentId))
    .where(eq(caseDocuments.sha256, sha256))
    .orderBy(asc(issuedDocuments.id))
    .limit(1);
  return row;
}

/** The first of these events on the case issued after the letter `afterId`: what ended it, if anything did. */
export async function firstLaterEvent(
  db: Db,
  applicationId: number,
  afterId: number,
  events: readonly string[],
): Promise<{ event: string; createdAt: Date } | undefined> {
  if (events.length === 0) return undefined;
  const [row] = await db
    .select({ event: issuedDocuments.event, createdAt: issuedDocuments.createdAt })
    .from(issuedDocuments)
    .where(
      and(
        eq(issuedDocuments.applicationId, applicationId),
        gt(issuedDocuments.id, afterId),
        inArray(issuedDocuments.event, [...events]),
      ),
    )
    .orderBy(asc(issuedDocuments.id))
    .limit(1);
  return row;
}
