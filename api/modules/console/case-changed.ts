import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { caseActions } from '../../../drizzle/schema';
import type { StaffAccountRow } from '../../../drizzle/schema-staff';
import type { Language } from '../../../machines/rules/language';
import { ApiError } from '../../http/errors';
import { translate } from '../../http/i18n';

/** Who changed a case, as the officer who was refused is told (docs/console.md, "When the case moved"). */
export type ChangedBy =
  | { kind: 'applicant' | 'ap' | 'rse' | 'caseOfficer' | 'seniorOfficer' | 'system' | 'unknown' }
  | { kind: 'officer'; nameEn: string; nameZh: string };

const KINDS = new Set(['applicant', 'ap', 'rse', 'caseOfficer', 'seniorOfficer', 'system']);

/** The last change of the case: the actor of its newest action (under the case's lock, so it is the one). */
export async function lastChangeBy(tx: Db, applicationId: number): Promise<ChangedBy> {
  const [row] = await tx
    .select({ actor: caseActions.actor })
    .from(caseActions)
    .where(eq(caseActions.applicationId, applicationId))
    .orderBy(desc(caseActions.createdAt), desc(caseActions.id))
    .limit(1);
  const kind = row?.actor ?? 'unknown';
  return { kind: KINDS.has(kind) ? (kind as Exclude<ChangedBy['kind'], 'officer'>) : 'unknown' };
}

export const officerChange = (staff: StaffAccountRow): ChangedBy => ({
  kind: 'officer',
  nameEn: staff.nameEn,
  nameZh: staff.nameZh,
});

function whoIn(language: Language, by: ChangedBy): string {
  if (by.kind === 'officer') return language === 'en' ? by.nameEn : by.nameZh;
  return translate(language, `staff.who.${by.kind}`);
}

/**
 * 409 CASE_CHANGED: the case is no longer as the officer saw it. Says in plain words who changed it and
 * what it is now; `data` carries the same for the console, which keeps what the officer typed.
 */
export class CaseChangedError extends ApiError {
  constructor(status: string, language: Language, by: ChangedBy) {
    super(
      409,
      'CASE_CHANGED',
      by.kind === 'officer' ? 'staff.taken' : 'staff.changed',
      { status, changedBy: by },
      {
        params: {
          status: translate(language, `case.statuses.${status}`),
          who: whoIn(language, by),
        },
      },
    );
  }
}
