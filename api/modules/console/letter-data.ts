import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { issuedDocuments, type ApplicationRow } from '../../../drizzle/schema';
import { APPLYING_AS } from '../../../machines/forms/options';
import { hongKongDate, isIsoDate } from '../../../machines/rules/working-days';
import type { Language } from '../../../machines/rules/language';
import { currentAnswers } from '../cases';

/**
 * What a letter names of its case (docs/decisions/041-letter-parts.md), read from the case's information
 * as it stands (its latest version, docs/decisions/019-case-versions.md): the addressee (the applicant, or
 * the organisation or operator applying, and the correspondence address), the school or centre and the
 * premises; and the date of the inspection a certificate rests on.
 */

export interface LetterParties {
  /** The addressee's name in the letter's language (the other language's when that one is not given). */
  addresseeName: string;
  /** The correspondence address, one line each as the applicant wrote it. */
  addresseeAddress: string[];
  /** The school's or centre's name, when the form names one. */
  establishment: string | null;
  /** The premises address in the letter's language, with its floor and unit. */
  premises: string | null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** The first of `en` / `zh` in the letter's order of languages that is given. */
function inLanguage(language: Language, en: string, zh: string): string {
  return (language === 'en' ? en || zh : zh || en).trim();
}

function premisesOf(value: unknown, language: Language, fallback: string | null): string | null {
  const a = (value ?? {}) as Record<string, unknown>;
  const main = inLanguage(language, str(a.en), str(a.zh));
  if (!main) return fallback;
  const extra = [str(a.unit), str(a.floor), str(a.lot)].filter(Boolean);
  return extra.length ? `${extra.join(', ')}, ${main}` : main;
}

export async function letterParties(
  db: Db,
  application: ApplicationRow,
  language: Language,
): Promise<LetterParties> {
  const a = await currentAnswers(db, application.id);
  const asOrganisation = a.applyingAs === APPLYING_AS.organisation;
  const name = asOrganisation
    ? inLanguage(language, str(a.orgNameEn), str(a.orgNameZh))
    : inLanguage(language, str(a.applicantNameEn), str(a.applicantNameZh));
  const addresseeName =
    name || inLanguage(language, application.applicantNameEn ?? '', application.applicantNameZh ?? '');
  const address = str(a.correspondenceAddress) || str(asOrganisation ? a.orgAddress : '');
  const establishment =
    inLanguage(language, str(a.schoolNameEn), str(a.schoolNameZh)) ||
    inLanguage(language, str(a.centreNameEn), str(a.centreNameZh)) ||
    null;
  return {
    addresseeName,
    addresseeAddress: address
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean),
    establishment,
    premises: premisesOf(a.premisesAddress, language, application.premisesAddressEn),
  };
}

/** The events that start a new round of inspection: an inspection before them is not this round's. */
const NEW_ROUND = new Set(['lor.issue', 'lor.withdraw', 'case.reopen', 'inspection.cancel']);

/**
 * The date of the inspection whose result was recorded last in this round, as a certificate prints it
 * ("Inspected on"): the scheduled date when it had come by the day the result was recorded, else that day
 * (Hong Kong dates). Never a date after the result was recorded, so never one still to come, and, as an
 * inspection is scheduled only on a working day, not a Sunday or a holiday. Null when no result stands.
 */
export async function recordedInspectionDate(db: Db, applicationId: number): Promise<string | null> {
  const rows = await db
    .select({
      event: issuedDocuments.event,
      data: issuedDocuments.data,
      createdAt: issuedDocuments.createdAt,
    })
    .from(issuedDocuments)
    .where(eq(issuedDocuments.applicationId, applicationId))
    .orderBy(asc(issuedDocuments.id));
  let scheduled: string | null = null;
  let inspected: string | null = null;
  for (const row of rows) {
    const data = (row.data ?? {}) as { date?: unknown };
    if (NEW_ROUND.has(row.event)) [scheduled, inspected] = [null, null];
    else if (row.event === 'inspection.schedule' || row.event === 'inspection.reschedule')
      [scheduled, inspected] = [isIsoDate(data.date) ? data.date : null, null];
    else if (row.event === 'inspection.record' && scheduled !== null) {
      const recordedOn = hongKongDate(row.createdAt);
      inspected = scheduled <= recordedOn ? scheduled : recordedOn;
    }
  }
  return inspected;
}
