import { eq } from 'drizzle-orm';
import type { Db } from '../../drizzle/db';
import { applications, selfCertifications } from '../../drizzle/schema';
import type { FormDefinition } from '../../machines/forms/types';
import { CASE_FIELD } from '../../machines/forms/self-cert-build';
import { parseRegistrationNumber } from '../../machines/rules/registration';
import { certifiesCaseForm, isSelfCertKey } from '../../machines/rules/self-certification';
import { activeAppointees } from './appointments';
import { fieldError } from './drafts';

/**
 * Self-certification (issue 16, docs/decisions/021-self-certification.md): the case a certificate is for
 * must exist and be of a form the self-certification certifies (machines/rules/self-certification.ts);
 * when the case has an active appointment, the certifier must be that appointee. Checked with the other
 * rules before signing and again at submission (api/services/application-ready.ts), answered as a field
 * error under `answers.<field>` (400) in the caller's language; the link is written with the submission.
 */

/** The case a self-certification certifies, as found. */
export interface CertifiedCase {
  id: number;
  applicationNo: string;
  formCode: string;
}

/** A transaction or the database: where the link is written. */
type Writer = Pick<Db, 'insert'>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const problem = (field: string, key: string) => fieldError(['answers', field], `forms:errors.${key}`);

/**
 * The appointment rule (issue 16 §3): when the case has an active appointment of an AP or RSE (issue 12),
 * the certifier must be one of its appointees (the registration numbers compare in their normalised
 * form, decision 018); otherwise any AP / RSE with a valid registration may certify.
 */
async function checkAppointee(db: Db, found: CertifiedCase, registrationNo: string): Promise<void> {
  const appointees = await activeAppointees(db, found.id);
  if (appointees.length > 0 && !appointees.some((a) => a.registrationNumber === registrationNo)) {
    throw problem('certifierRegNo', 'notAppointee');
  }
}

/** The case of a self-certification's answers, checked; undefined for a form that is not one. */
export async function certifiedCase(
  db: Db,
  definition: FormDefinition,
  answers: Readonly<Record<string, unknown>>,
): Promise<CertifiedCase | undefined> {
  if (!definition.selfCertification || !isSelfCertKey(definition.key)) return undefined;
  const applicationNo = answers[CASE_FIELD];
  if (typeof applicationNo !== 'string') throw problem(CASE_FIELD, 'caseNotFound');
  const [found] = await db
    .select({
      id: applications.id,
      applicationNo: applications.applicationNo,
      formCode: applications.formCode,
    })
    .from(applications)
    .where(eq(applications.applicationNo, applicationNo));
  if (!found) throw problem(CASE_FIELD, 'caseNotFound');
  if (!certifiesCaseForm(definition.key, found.formCode)) throw problem(CASE_FIELD, 'caseTypeMismatch');
  const registration = parseRegistrationNumber(str(answers.certifierRegNo));
  if (registration) await checkAppointee(db, found, registration.value);
  return found;
}

/** The link of a submitted self-certification to its case, in the submission's transaction. */
export async function recordSelfCertification(
  tx: Writer,
  applicationId: number,
  found: CertifiedCase,
  answers: Readonly<Record<string, unknown>>,
  now: Date,
): Promise<void> {
  await tx.insert(selfCertifications).values({
    applicationId,
    caseApplicationId: found.id,
    certifierRegistrationNo: str(answers.certifierRegNo),
    certifierIdentity: str(answers.certifierIdentity),
    lorReference: typeof answers.lorReference === 'string' ? answers.lorReference : null,
    createdAt: now,
  });
}
