import { eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { applicationHistory, applications, auditEvents, selfCertifications } from '../../../drizzle/schema';
import { canSend } from '../../../machines/flows/case-lifecycle.machine';
import { isCaseStatus, submitterOf } from '../../../machines/rules/case-lifecycle';
import { isLanguage } from '../../../machines/rules/language';
import type { CaseNoticeMessage } from '../shared';
import { activeAppointees } from '../appointments';
import type { FormDefinition } from '../../../machines/forms/types';
import { CASE_FIELD } from '../../../machines/forms/selfcert-build';
import { parseRegistrationNumber } from '../../../machines/rules/registration';
import { certifiesCaseForm, isSelfCertKey } from '../../../machines/rules/selfcert';
import { fieldError } from '../../http/field-errors';

/**
 * Self-certification (docs/decisions/021-self-certification.md): the case a certificate is for
 * must exist and be of a form the self-certification certifies (machines/rules/selfcert.ts);
 * when the case has an active appointment, the certifier must be that appointee. Checked with the other
 * rules before signing and again at submission (api/modules/applications/readiness.ts), answered as a field
 * error under `answers.<field>` (400) in the caller's language; the link is written with the submission.
 */

/** The case a self-certification certifies, as found. */
export interface CertifiedCase {
  id: number;
  applicationNo: string;
  formCode: string;
  status: string;
  email: string | null;
  mobile: string | null;
  language: string;
}

/** The certifier's role on the case: an AP or an RSE (Part B's identity). */
const certifierActor = (answers: Readonly<Record<string, unknown>>): 'ap' | 'rse' =>
  answers.certifierIdentity === 'rse' ? 'rse' : 'ap';

/** A transaction or the database: where the link is written. */
type Writer = Pick<Db, 'insert'>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const problem = (field: string, key: string) => fieldError(['answers', field], `forms:errors.${key}`);

/**
 * The appointment rule (docs/decisions/021-self-certification.md §3): when the case has an active appointment of an AP or RSE (docs/decisions/020-appointments.md),
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
      status: applications.status,
      email: applications.email,
      mobile: applications.mobile,
      language: applications.language,
    })
    .from(applications)
    .where(eq(applications.applicationNo, applicationNo));
  if (!found) throw problem(CASE_FIELD, 'caseNotFound');
  if (!certifiesCaseForm(definition.key, found.formCode)) throw problem(CASE_FIELD, 'caseTypeMismatch');
  // A case withdrawn, rejected or closed takes no certificate (the lifecycle's `selfCertification.submit`).
  const status = isCaseStatus(found.status) ? found.status : 'SUBMITTED';
  if (!canSend(status, 'selfCertification.submit', certifierActor(answers)))
    throw problem(CASE_FIELD, 'caseNotOpen');
  const registration = parseRegistrationNumber(str(answers.certifierRegNo));
  if (registration) await checkAppointee(db, found, registration.value);
  return found;
}

/**
 * In the submission's transaction: the link of the self-certification to its case, and on the case a
 * history row (SELF_CERTIFICATION, by the AP or RSE, its reference the self-certification's number) and an
 * audit event, so that the applicant and the officer find it in the case's history.
 */
export async function recordSelfCertification(
  tx: Writer,
  self: { applicationId: number; applicationNo: string },
  found: CertifiedCase,
  answers: Readonly<Record<string, unknown>>,
  now: Date,
): Promise<void> {
  await tx.insert(selfCertifications).values({
    applicationId: self.applicationId,
    caseApplicationId: found.id,
    certifierRegistrationNo: str(answers.certifierRegNo),
    certifierIdentity: str(answers.certifierIdentity),
    lorReference: typeof answers.lorReference === 'string' ? answers.lorReference : null,
    createdAt: now,
  });
  const actor = certifierActor(answers);
  await tx.insert(applicationHistory).values({
    applicationId: found.id,
    submissionDate: now,
    documentType: 'SELF_CERTIFICATION',
    status: found.status,
    submittedBy: submitterOf(actor),
    date: now,
    reference: self.applicationNo,
  });
  await tx.insert(auditEvents).values({
    at: now,
    actor,
    actorRef: `registration:${str(answers.certifierRegNo)}`,
    event: 'selfCertification.submit',
    applicationId: found.id,
    reference: self.applicationNo,
    before: { status: found.status },
    after: { status: found.status, selfCertification: self.applicationNo },
  });
}

/** The notice to the certified case's applicant (in the case's language), when the case has an address. */
export function selfCertificationNotice(
  found: CertifiedCase,
  selfApplicationNo: string,
  at: Date,
): CaseNoticeMessage | undefined {
  const to = found.email ?? found.mobile;
  if (!to) return undefined;
  return {
    channel: found.email ? 'email' : 'sms',
    to,
    language: isLanguage(found.language) ? found.language : 'tc',
    applicationNo: found.applicationNo,
    formKey: 'selfCertification',
    reference: selfApplicationNo,
    status: found.status,
    at,
  };
}
