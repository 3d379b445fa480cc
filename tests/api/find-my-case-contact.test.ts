import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applications, caseVersions } from '../../drizzle/schema';
import { codeIn } from '../support/login';
import { type ApplicationHarness, type ReadyDraft, startApplicationHarness } from './application-harness';

/**
 * Find my case asks for "the mobile number or email address on your application" (spec §2): either one the
 * application gives for the applicant logs in, whichever of them was confirmed at the preview, and the code
 * goes to the one typed. The answer is the same whether or not anything matches
 * (docs/decisions/005-one-time-codes.md, "Which contact").
 */

let h: ApplicationHarness;
let counter = 0;

beforeAll(async () => {
  h = await startApplicationHarness();
});

afterAll(async () => {
  await h?.close();
});

beforeEach(() => {
  // Past every send limit of the previous test (one a minute, five an hour per number).
  h.clock.advance({ hours: 2 });
});

/** A fresh Hong Kong mobile, so that the per-address limit never couples two tests. */
const freshMobile = () =>
  `6${String(5_100_000 + (process.pid % 1000) * 100 + (counter += 1)).padStart(7, '0')}`;

/** An application submitted online: the email confirmed at the preview, the mobile only typed on the form. */
async function submittedWithEmailConfirmed(mobile: string): Promise<ReadyDraft> {
  const draft = await h.readyDraft({ applicantMobile: mobile });
  await h.sign(draft);
  const res = await h.submit(draft);
  if (res.status !== 201 && res.status !== 200) throw new Error(`submit answered ${res.status}`);
  // The acknowledgement delivered, and past the hour in which the preview's codes count for this number.
  await h.messages.settled();
  h.clock.advance({ hours: 1, seconds: 1 });
  return draft;
}

const smsTo = (mobile: string) => h.sms.filter((m) => m.to === `+852${mobile}`);

describe('POST /api/auth/otp/send and /verify: the contact of Find my case', () => {
  it('logs in with the mobile typed on a form whose email was confirmed, the code going to that mobile by SMS', async () => {
    const mobile = freshMobile();
    const draft = await submittedWithEmailConfirmed(mobile);
    const [stored] = await h.database.db
      .select({ email: applications.email, mobile: applications.mobile })
      .from(applications)
      .where(eq(applications.applicationNo, draft.applicationNo));

    // Typed as a person might: with the country code and a space.
    const sent = await h.send({
      applicationNo: draft.applicationNo,
      contact: `+852 ${mobile.slice(0, 4)} ${mobile.slice(4)}`,
    });
    await h.messages.settled();
    const sms = smsTo(mobile);
    const login = await h.verify({
      applicationNo: draft.applicationNo,
      contact: mobile,
      code: codeIn(sms.at(-1)?.text ?? ''),
    });

    // Only the email was confirmed: the mobile is not on the case row, it is on the application.
    expect(stored).toEqual({ email: draft.email, mobile: null });
    expect(sent.status).toBe(200);
    expect(sms).toHaveLength(1);
    expect(sms[0]?.text).toContain(draft.applicationNo);
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ applicationNo: draft.applicationNo, role: 'applicant' });
  });

  it('still logs in with the email confirmed at the preview, the code going by email', async () => {
    const draft = await submittedWithEmailConfirmed(freshMobile());

    const code = await h.codeByEmail(draft.applicationNo, draft.email.toUpperCase());
    const login = await h.verify({ applicationNo: draft.applicationNo, contact: draft.email, code });

    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ applicationNo: draft.applicationNo, role: 'applicant' });
  });

  it('answers an unknown number, a contact not on the application and the contact person’s mobile exactly as the right mobile, and sends them nothing', async () => {
    const mobile = freshMobile();
    const draft = await submittedWithEmailConfirmed(mobile);
    await h.messages.settled();
    const [smsBefore, mailsBefore] = [h.sms.length, h.smtp.mails.length];
    const contactPersonMobile = String(draft.answers.contactMobile);

    const unknown = await h.send({ applicationNo: 'ZZ-2026-777777', contact: mobile });
    const stranger = await h.send({ applicationNo: draft.applicationNo, contact: freshMobile() });
    h.clock.advance({ seconds: 61 }); // past the resend limit of this number
    const contactPerson = await h.send({ applicationNo: draft.applicationNo, contact: contactPersonMobile });
    h.clock.advance({ seconds: 61 });
    const strangerEmail = await h.send({
      applicationNo: draft.applicationNo,
      contact: 'not.on.it@example.hk',
    });
    await h.messages.settled();
    const nothingSent = { sms: h.sms.length - smsBefore, mails: h.smtp.mails.length - mailsBefore };
    h.clock.advance({ seconds: 61 });
    const right = await h.send({ applicationNo: draft.applicationNo, contact: mobile });
    await h.messages.settled();

    expect(right.status).toBe(200);
    for (const other of [unknown, stranger, contactPerson, strangerEmail]) {
      expect(other.status).toBe(right.status);
      expect(other.body).toEqual(right.body);
    }
    expect(nothingSent).toEqual({ sms: 0, mails: 0 });
    expect(h.sms.length).toBe(smsBefore + 1);
    expect(h.sms.at(-1)?.to).toBe(`+852${mobile}`);
  });

  it('answers a wrong code for a contact not on the application exactly as for the right one, and never logs in with it', async () => {
    const mobile = freshMobile();
    const draft = await submittedWithEmailConfirmed(mobile);
    const stranger = freshMobile();
    await h.send({ applicationNo: draft.applicationNo, contact: stranger });
    h.clock.advance({ seconds: 61 });
    await h.send({ applicationNo: draft.applicationNo, contact: mobile });

    const onFile = await h.verify({ applicationNo: draft.applicationNo, contact: mobile, code: '000000' });
    const notOnFile = await h.verify({
      applicationNo: draft.applicationNo,
      contact: stranger,
      code: '000000',
    });

    expect(onFile.status).toBe(422);
    expect(notOnFile.body).toEqual(onFile.body);
  });

  it('follows the application as updated: its new mobile logs in, the mobile it no longer gives does not', async () => {
    const old = freshMobile();
    const draft = await submittedWithEmailConfirmed(old);
    const [app] = await h.database.db
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.applicationNo, draft.applicationNo));
    const updated = freshMobile();
    // The case's information as an Update Application and School Information leaves it (version 2).
    await h.database.db.insert(caseVersions).values([
      {
        applicationId: app!.id,
        version: 1,
        answers: draft.answers,
        reference: draft.applicationNo,
        submittedBy: 'APPLICANT',
        createdAt: h.clock.now(),
      },
      {
        applicationId: app!.id,
        version: 2,
        answers: { ...draft.answers, applicantMobile: updated },
        reference: `${draft.applicationNo}-U1`,
        submittedBy: 'APPLICANT',
        createdAt: h.clock.now(),
      },
    ]);

    await h.send({ applicationNo: draft.applicationNo, contact: old });
    h.clock.advance({ seconds: 61 });
    await h.send({ applicationNo: draft.applicationNo, contact: updated });
    await h.messages.settled();
    const login = await h.verify({
      applicationNo: draft.applicationNo,
      contact: updated,
      code: codeIn(smsTo(updated).at(-1)?.text ?? ''),
    });

    expect(smsTo(old)).toHaveLength(0);
    expect(smsTo(updated)).toHaveLength(1);
    expect(login.status).toBe(200);
  });
});
