import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { applications, caseVersions } from '../../../drizzle/schema';
import { changesOf, followUpForCase, formOfCase, type AnswerChange } from '../../../machines/forms/follow-up';
import {
  UPDATE_CCCAI_C2,
  UPDATE_CCCAI_MH3,
  UPDATE_JOKC02,
  UPDATE_SCHOOL,
} from '../../../machines/forms/follow-up/update';
import { openAnswers, sealAnswers } from '../shared';
import { submittedAnswers } from './cases.repo';

/**
 * The versions of a case's information (docs/decisions/019-case-versions.md): version 1 as submitted,
 * then one per update, never overwritten. Version 1 is recorded with the first update; until then it is
 * read from the submission (the draft's answers), so a case needs no row until it changes.
 */

export interface CaseVersion {
  version: number;
  answers: Record<string, unknown>;
  createdAt: string;
  /** The application number for version 1, the update's reference after. */
  reference: string;
  /** 'APPLICANT' | 'AP' | 'RSE' | 'BD'. */
  submittedBy: string;
  /** What changed against the previous version (none for version 1). */
  changes: AnswerChange[];
}

interface StoredVersion {
  version: number;
  answers: Record<string, unknown>;
  createdAt: Date;
  reference: string;
  submittedBy: string;
}

const UPDATE_FORMS = [UPDATE_SCHOOL, UPDATE_CCCAI_C2, UPDATE_JOKC02, UPDATE_CCCAI_MH3];

/** The fields compared: the update form of the case's application form (all of its fields). */
function compareAs(formCode: string) {
  for (const update of UPDATE_FORMS) {
    const concrete = followUpForCase(update, formCode);
    if (concrete) return concrete;
  }
  const form = formOfCase(formCode);
  return form ? { code: form.code, steps: form.steps } : undefined;
}

/** Version 1 as the submission recorded it, when no version has been stored yet. */
async function firstVersion(db: Db, applicationId: number): Promise<StoredVersion | null> {
  const [application] = await db.select().from(applications).where(eq(applications.id, applicationId));
  if (!application) return null;
  const submitted = await submittedAnswers(db, applicationId);
  return {
    version: 1,
    answers: submitted?.answers ?? {},
    createdAt: submitted?.submittedAt ?? application.createdAt,
    reference: application.applicationNo,
    submittedBy: 'APPLICANT',
  };
}

async function storedVersions(db: Db, applicationId: number): Promise<StoredVersion[]> {
  const rows = await db
    .select()
    .from(caseVersions)
    .where(eq(caseVersions.applicationId, applicationId))
    .orderBy(asc(caseVersions.version));
  if (rows.length > 0) return rows.map((row) => ({ ...row, answers: openAnswers(row.answers) }));
  const first = await firstVersion(db, applicationId);
  return first ? [first] : [];
}

/** Every version of the case's information, oldest first, each with its changes against the one before. */
export async function listCaseVersions(db: Db, applicationId: number): Promise<CaseVersion[]> {
  const versions = await storedVersions(db, applicationId);
  const [application] = await db
    .select({ formCode: applications.formCode })
    .from(applications)
    .where(eq(applications.id, applicationId));
  const compare = application ? compareAs(application.formCode) : undefined;
  return versions.map((v, i) => {
    const previous = versions[i - 1];
    return {
      version: v.version,
      answers: v.answers,
      createdAt: v.createdAt.toISOString(),
      reference: v.reference,
      submittedBy: v.submittedBy,
      changes: previous && compare ? changesOf(compare, previous.answers, v.answers) : [],
    };
  });
}

/** The case's information now: its latest version (version 1, as submitted, before any update). */
export async function currentCaseVersion(
  db: Db,
  applicationId: number,
): Promise<{ version: number; answers: Record<string, unknown> }> {
  const versions = await storedVersions(db, applicationId);
  const latest = versions.at(-1);
  return latest ? { version: latest.version, answers: latest.answers } : { version: 1, answers: {} };
}

/**
 * The version a form was opened on, as the person saw it; the latest when that version does not exist (the
 * update is then refused as stale under the lock).
 */
export async function caseVersionOpened(
  db: Db,
  applicationId: number,
  version: number | undefined,
): Promise<{ version: number; answers: Record<string, unknown> }> {
  const versions = await storedVersions(db, applicationId);
  const opened = versions.find((v) => v.version === version) ?? versions.at(-1);
  return opened ? { version: opened.version, answers: opened.answers } : { version: 1, answers: {} };
}

/** The latest answers of the case (what the next update, the PDF and the department see). */
export async function currentAnswers(db: Db, applicationId: number): Promise<Record<string, unknown>> {
  return (await currentCaseVersion(db, applicationId)).answers;
}

/**
 * Records the next version in the transaction that holds the case's row lock: version 1 first when it was
 * only read from the submission until now. Returns the new version's number.
 */
export async function addCaseVersion(
  tx: Db,
  applicationId: number,
  next: {
    answers: Record<string, unknown>;
    reference: string;
    submittedBy: string;
    actionId: number;
    at: Date;
  },
): Promise<number> {
  const rows = await tx
    .select({ version: caseVersions.version })
    .from(caseVersions)
    .where(eq(caseVersions.applicationId, applicationId))
    .orderBy(asc(caseVersions.version));
  let latest = rows.at(-1)?.version ?? 0;
  if (latest === 0) {
    const first = await firstVersion(tx, applicationId);
    if (!first) throw new Error(`case ${applicationId} not found`);
    await tx
      .insert(caseVersions)
      .values({ applicationId, ...first, answers: sealAnswers(first.answers), actionId: null });
    latest = 1;
  }
  const version = latest + 1;
  await tx.insert(caseVersions).values({
    applicationId,
    version,
    answers: sealAnswers(next.answers),
    reference: next.reference,
    submittedBy: next.submittedBy,
    actionId: next.actionId,
    createdAt: next.at,
  });
  return version;
}
