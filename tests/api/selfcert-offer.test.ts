import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications } from '../../drizzle/schema';
import { issuedDocuments, staffAccounts } from '../../drizzle/schema-staff';
import { type AppointmentHarness, startAppointmentHarness } from './appointments-harness';

/**
 * The case page's "Self-certify this case" (docs/decisions/021-self-certification.md): GET
 * /api/cases/current offers an AP or RSE the form that fits the case, with Part B's prefill, only when
 * the lifecycle allows `selfCertification.submit` for them now; never to the applicant.
 */
let h: AppointmentHarness;

beforeAll(async () => {
  h = await startAppointmentHarness();
});

afterAll(async () => {
  await h?.close();
});

type View = { formCode: string; selfCertification?: unknown };

describe('the self-certification offer on the case page', () => {
  it('is offered to the appointed AP with a letter standing, not before the letter, never to the applicant', async () => {
    const c = await h.applicantCase('LOR_ISSUED');
    const { answers } = await h.appointed(c.token, 'ap');
    const login = await h.appointeeLogin(answers.registrationNumber!, answers.email!);
    const ap = login.body.data.token;

    const view = await h.current(ap);
    const data = view.body.data as unknown as View;
    expect(data.formCode).toBe('A2');
    expect(data.selfCertification).toEqual({
      formKey: 'scs1',
      certifierIdentity: 'ap',
      certifierRegNo: expect.stringMatching(/^AP/) as unknown,
      letter: null,
    });
    // With the letter the department issued on record, its items come with the offer, to certify against.
    const [row] = await h.database.db
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.applicationNo, c.applicationNo));
    const [staff] = await h.database.db
      .insert(staffAccounts)
      .values({
        username: 'offer.officer',
        role: 'caseOfficer',
        nameEn: 'Officer',
        nameZh: '主任',
        postEn: 'Building Surveyor',
        postZh: '屋宇測量師',
        telephone: '2626 1616',
        email: 'offer.officer@bd.gov.hk',
        passwordHash: 'x',
        totpSecret: 'x',
        createdAt: h.clock.now(),
      })
      .returning({ id: staffAccounts.id });
    await h.database.db.insert(issuedDocuments).values({
      applicationId: row!.id,
      event: 'lor.issue',
      reference: `LOR-${c.applicationNo}-1`,
      data: {
        bdReference: 'BD 2/9123/26',
        date: '2026-01-05',
        category1: ['Provide a second means of escape.'],
        category2: ['Handrails on both sides of the ramp.'],
        minorWorks: [],
      },
      staffId: staff!.id,
      createdAt: h.clock.now(),
    });
    const offered = (await h.current(ap)).body.data as unknown as { selfCertification: { letter: unknown } };
    expect(offered.selfCertification.letter).toEqual({
      lorReference: 'BD 2/9123/26',
      lorDate: '2026-01-05',
      lorCategory1: [{ item: 'Provide a second means of escape.', status: '', remark: '' }],
      lorCategory2: [{ item: 'Handrails on both sides of the ramp.', status: '', remark: '' }],
    });
    expect((await h.current(c.token)).body.data).not.toHaveProperty('selfCertification');

    await h.database.db
      .update(applications)
      .set({ status: 'UNDER_EXAMINATION' })
      .where(eq(applications.applicationNo, c.applicationNo));
    expect((await h.current(ap)).body.data).not.toHaveProperty('selfCertification');
  });
});
