import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationHistory, caseDocuments, caseVersions } from '../../drizzle/schema';
import { signerMatches } from '../../api/modules/appointments/registration-holder';
import { type AppointmentHarness, startAppointmentHarness } from './appointments-harness';

/**
 * What an AP or RSE receives of a case (docs/appointee-visibility.md): never the applicant's identity card
 * number, email or mobile, nor the signed application (its PDF, its full answers), whatever they ask.
 */
let h: AppointmentHarness;

beforeAll(async () => {
  h = await startAppointmentHarness();
});

afterAll(async () => {
  await h?.close();
});

const HKIC = 'Z683365(5)';
const APPLICANT_EMAIL = 'applicant-private@example.com';
const APPLICANT_MOBILE = '98765432';

/** A case with its applicant's answers, its signed application form and a layout plan; an AP on it. */
async function caseWithAp() {
  const c = await h.applicantCase();
  const now = h.clock.now();
  await h.database.db.insert(caseVersions).values({
    applicationId: c.id,
    version: 1,
    answers: {
      applicantNameEn: 'CHAN TAI MAN',
      applicantHkic: HKIC,
      applicantEmail: APPLICANT_EMAIL,
      applicantMobile: APPLICANT_MOBILE,
      premisesAddress: { en: '1 QUEEN’S ROAD CENTRAL' },
    },
    reference: c.applicationNo,
    submittedBy: 'APPLICANT',
    createdAt: now,
  });
  const [history] = await h.database.db
    .insert(applicationHistory)
    .values({
      applicationId: c.id,
      submissionDate: now,
      documentType: 'APPLICATION_FORM',
      status: 'SUBMITTED',
      submittedBy: 'APPLICANT',
      date: now,
    })
    .returning({ id: applicationHistory.id });
  const [signed, plan] = await h.database.db
    .insert(caseDocuments)
    .values(
      (['application', 'layoutPlans'] as const).map((kind) => ({
        applicationId: c.id,
        historyId: history!.id,
        kind,
        storageKey: `test/${c.id}/${kind}`,
        fileName: `${kind}.pdf`,
        sha256: '0'.repeat(64),
        createdAt: now,
      })),
    )
    .returning({ id: caseDocuments.id });
  const { answers } = await h.appointed(c.token, 'ap');
  const login = await h.appointeeLogin(answers.registrationNumber!, answers.email!);
  return { c, ap: login.body.data.token, signedId: signed!.id, planId: plan!.id };
}

describe('what an AP receives of a case', () => {
  it('has no HKIC, email, mobile or signed application in the case view', async () => {
    const { ap, signedId, planId } = await caseWithAp();
    const view = await h.current(ap);
    expect(view.status).toBe(200);
    const text = JSON.stringify(view.body.data);
    for (const secret of [HKIC, APPLICANT_EMAIL, APPLICANT_MOBILE, 'applicantHkic', 'applicantEmail'])
      expect(text).not.toContain(secret);
    const ids = view.body.data.history.flatMap((r) => r.documents.map((d) => d.id));
    expect(ids).not.toContain(signedId);
    expect(ids).toContain(planId);
    expect(view.body.data.facts.information.answers).toMatchObject({ applicantNameEn: 'CHAN TAI MAN' });
  });

  it('cannot download the signed application, its PDF or the submission', async () => {
    const { ap, signedId } = await caseWithAp();
    expect((await h.download(`/api/cases/current/documents/${signedId}`, ap)).status).toBe(404);
    expect((await h.download('/api/cases/current/information.pdf', ap)).status).toBe(403);
    const submission = await h.call('GET', '/api/application/submission', { token: ap });
    expect(submission.status).toBe(403);
    expect(submission.body.meta.code).toBe('FORBIDDEN');
    expect((await h.call('POST', '/api/application/submission/links', { token: ap })).status).toBe(403);
  });

  it('leaves the applicant their own information', async () => {
    const { c, signedId } = await caseWithAp();
    const view = await h.current(c.token);
    expect(JSON.stringify(view.body.data)).toContain(HKIC);
    const ids = view.body.data.history.flatMap((r) => r.documents.map((d) => d.id));
    expect(ids).toContain(signedId);
  });
});

describe('the holder’s signer', () => {
  const ecert = (subject: string) => ({ method: 'ecert', subject, issuer: 'CN=CA', serialNumber: '1' });
  it.each([
    ['the same e-Cert holder', ecert('CN=CHAN'), { ...ecert('CN=CHAN'), serialNumber: '2' }, true],
    ['another e-Cert holder', ecert('CN=CHAN'), ecert('CN=LEE'), false],
    [
      'iAM Smart then an e-Cert (not comparable)',
      { method: 'iamsmart', certificate: 'a' },
      ecert('CN=LEE'),
      true,
    ],
    ['no signer on file', null, ecert('CN=LEE'), true],
  ])('%s', (_name, held, given, matches) => {
    expect(signerMatches(held, given)).toBe(matches);
  });
});
