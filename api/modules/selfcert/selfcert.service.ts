import { eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { applicationHistory, applications, selfCertifications } from '../../../drizzle/schema';
import { canSend, whyRefused } from '../../../machines/flows/case-lifecycle.machine';
import { partyRef, type CaseRuleRefusal } from '../../../machines/rules/case-rules';
import { isCaseStatus, submitterOf } from '../../../machines/rules/case-lifecycle';
import { isLanguage } from '../../../machines/rules/language';
import { appendAudit, type CaseNoticeMessage } from '../shared';
import { caseFacts, CaseRuleError, lockApplication } from '../cases';
import type { FormDefinition } from '../../../machines/forms/types';
import { CASE_FIELD } from '../../../machines/forms/selfcert-build';
import { parseRegistrationNumber } from '../../../machines/rules/registration';
import {
  isSelfCertKey,
  letterAnswers,
  letterDifference,
  letterOfAnswers,
} from '../../../machines/rules/selfcert';
import { fieldError } from '../../http/field-errors';

/**
 * Self-certification (docs/decisions/021-self-certification.md): the case a certificate is for
 * must exist and be of a form the self-certification certifies (machines/rules/selfcert.ts);
 * when the case has an active appointment, the certifier must be that appointee. Checked with the other
 * rules when the wizard leaves Part A, Part B and the letter step (api/modules/applications/case-check.ts),
 * before signing and at submission (api/modules/applications/readiness.ts), and once more under the case's
 * row lock in the submission's transaction (submission.service.ts), answered as a field error under
 * `answers.<field>` (400) in the caller's language — and a letter that is not the one issued now as 409
 * CASE_RULE `lorRevised` at its field; the link is written with the submission.
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
type Writer = Pick<Db, 'insert' | 'execute'>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const problem = (field: string, key: string) => fieldError(['answers', field], `forms:errors.${key}`);

/**
 * The field and message of each refusal of the lifecycle's `selfCertification.submit` (docs/flows/
 * case-rules.md): only an AP or RSE actively appointed to the case (registration numbers compare in their
 * normalised form, decision 018), with the form that fits the case's type, on an open case with a Letter
 * of Requirements issued.
 */
const REFUSALS: Partial<Record<CaseRuleRefusal | 'status', [string, string]>> = {
  status: [CASE_FIELD, 'caseNotOpen'],
  notOnCase: ['certifierRegNo', 'notAppointee'],
  formNotForCase: [CASE_FIELD, 'caseTypeMismatch'],
  lorMissing: [CASE_FIELD, 'lorMissing'],
};

/** Does the form have the Letter of Requirements step (every self-certification but SCC-2)? */
const hasLetterStep = (definition: FormDefinition) =>
  definition.steps.some((s) => s.kind === 'fill' && s.id === 'letterOfRequirements');

/**
 * The case of a self-certification's answers, checked; undefined for a form that is not one. With
 * `certifier: false` (the wizard's first step, before Part B is filled: docs/flows/apply.md) the certifier
 * is taken as appointed, so that only the case's own rules are asked.
 */
export async function certifiedCase(
  db: Db,
  definition: FormDefinition,
  answers: Readonly<Record<string, unknown>>,
  now: Date,
  { certifier = true }: { certifier?: boolean } = {},
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
  const status = isCaseStatus(found.status) ? found.status : 'SUBMITTED';
  const actor = certifierActor(answers);
  const facts = await caseFacts(db, found, now);
  const actorRef = certifier ? (parseRegistrationNumber(str(answers.certifierRegNo))?.value ?? '') : '';
  // The letter as the answers state it, from a form with the letter step (SCC-2 has none).
  const letter = hasLetterStep(definition) ? letterOfAnswers(answers) : undefined;
  const query = {
    actor,
    actorRef,
    facts: certifier ? facts : { ...facts, appointees: [...facts.appointees, partyRef(actor, actorRef)] },
    own: { formKey: definition.key, ...(letter ? { letter } : {}) },
  };
  if (!canSend(status, 'selfCertification.submit', query)) {
    const why = whyRefused(status, 'selfCertification.submit', query);
    // The letter was revised since the form was opened (or its items typed otherwise): 409 CASE_RULE at
    // the first field that differs, with the letter as issued now for the wizard to refresh its items.
    if (why.kind === 'rule' && why.rule === 'lorRevised' && facts.issuedLetter && letter)
      throw new CaseRuleError('lorRevised', facts, undefined, {
        field: letterDifference(facts.issuedLetter, letter) ?? 'lorCategory1',
        data: { letter: letterAnswers(facts.issuedLetter) },
      });
    const [field, key] = REFUSALS[why.kind === 'rule' ? why.rule : 'status'] ?? [CASE_FIELD, 'caseNotOpen'];
    throw problem(field, key);
  }
  return found;
}

/**
 * In the submission's transaction, before anything is written: the case's row locked as every action on
 * the case locks it (api/modules/cases/case-action.ts, so a letter issued in parallel waits or is seen),
 * and the case's rules asked again on the facts read under that lock: a letter revised or an appointment
 * ended since the readiness check refuses the submission here, never after it is recorded.
 */
export async function certifiedCaseLocked(
  tx: Db,
  definition: FormDefinition,
  answers: Readonly<Record<string, unknown>>,
  found: CertifiedCase,
  now: Date,
): Promise<CertifiedCase> {
  await lockApplication(tx, found.id);
  return (await certifiedCase(tx, definition, answers, now)) ?? found;
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
  await appendAudit(tx, {
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
