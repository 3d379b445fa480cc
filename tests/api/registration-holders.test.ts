import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { appointments, registrationHolders } from '../../drizzle/schema';
import type { AppointeeCase } from '../../machines/rules/appointment';
import { type AppointmentHarness, startAppointmentHarness } from './appointments-harness';

/**
 * The registration holder (docs/decisions/025-registration-holders.md): the takeover of an AP's number by
 * another case's applicant, replayed through the API, is refused at every step, and an AP reaches only the
 * cases they accepted.
 */
let h: AppointmentHarness;

beforeAll(async () => {
  h = await startAppointmentHarness();
});

afterAll(async () => {
  await h?.close();
});

const mailsTo = async (address: string, pattern: RegExp) => {
  await h.messages.settled();
  return h.smtp.mails.filter((m) => m.to.includes(address) && pattern.test(m.text));
};
const smsTo = (mobile: string, pattern: RegExp) =>
  h.sms.filter((s) => s.to.endsWith(mobile) && pattern.test(s.text));
const INVITE = /appointment-accept#/;

/** Case X with its AP (the holder of the number), and case Z whose applicant is the attacker. */
async function takeoverWorld() {
  const x = await h.applicantCase();
  const real = await h.appointed(x.token, 'ap');
  const z = await h.applicantCase();
  const attacker = {
    ...real.answers,
    email: `attacker-${x.id}@example.com`,
    mobile: `6${String(1_000_000 + x.id).slice(-7)}`,
  };
  return { x, real, z, attacker };
}

describe('the first acceptance establishes the holder', () => {
  it('records the contacts proved by the code and the signer of the declaration', async () => {
    const { real } = await takeoverWorld();
    const [holder] = await h.database.db
      .select()
      .from(registrationHolders)
      .where(eq(registrationHolders.registrationNumber, real.answers.registrationNumber!));
    expect(holder).toMatchObject({
      identity: 'ap',
      email: real.answers.email,
      mobile: real.answers.mobile,
      nameEn: real.answers.nameEn,
    });
    expect(holder?.signer).toMatchObject({ method: 'iamsmart' });
  });
});

describe('the takeover of a registration number by another case', () => {
  it('sends the invitation to the holder, never to the contacts the applicant typed, and masks them', async () => {
    const { real, z, attacker } = await takeoverWorld();
    const before = (await mailsTo(real.answers.email!, INVITE)).length;
    const made = await h.act(z.token, 'appointment', attacker);
    expect(made.status).toBe(200);

    expect(await mailsTo(attacker.email, INVITE)).toHaveLength(0);
    expect(smsTo(attacker.mobile, INVITE)).toHaveLength(0);
    expect(await mailsTo(real.answers.email!, INVITE)).toHaveLength(before + 1);
    expect(smsTo(real.answers.mobile!, INVITE).length).toBeGreaterThanOrEqual(2);

    const [row] = (await h.list(z.token)).body.data;
    expect(row).toMatchObject({ status: 'INVITED', registeredContacts: true });
    expect(row?.email).not.toBe(real.answers.email);
    expect(row?.email).toMatch(/\*\*\*/);
    expect(row?.mobile).not.toContain(real.answers.mobile!.slice(0, 4));
    const stored = await h.database.db.select().from(appointments).where(eq(appointments.id, row!.id));
    expect(stored[0]).toMatchObject({ email: real.answers.email, mobile: real.answers.mobile });
  });

  it('sends the acceptance code only to the holder, even to someone holding the link', async () => {
    const { real, z, attacker } = await takeoverWorld();
    await h.act(z.token, 'appointment', attacker);
    const token = await h.invitationTo(real.answers.email!);
    const sent = await h.call('POST', '/api/appointments/invitation/otp/send', {
      body: { token, channel: 'email' },
    });
    expect(sent.status).toBe(200);
    expect(await mailsTo(attacker.email, /one-time password/i)).toHaveLength(0);
    expect((await mailsTo(real.answers.email!, /one-time password/i)).length).toBeGreaterThan(0);
    const guessed = await h.call('POST', '/api/appointments/invitation/otp/verify', {
      body: { token, channel: 'email', code: '000000' },
    });
    expect(guessed.status).toBe(422);
  });

  it('refuses an acceptance confirmed with the typed contacts before the holder was established', async () => {
    const x = await h.applicantCase();
    const z = await h.applicantCase();
    const answers = h.appointeeAnswers('ap');
    const attacker = { ...answers, email: `early-${x.id}@example.com`, mobile: '61234567' };
    await h.act(x.token, 'appointment', answers);
    await h.act(z.token, 'appointment', attacker);
    const theirs = await h.invitationTo(attacker.email);
    expect((await h.confirm(theirs, attacker.email)).status).toBe(200);
    const signed = await h.signIamSmart(theirs);

    // The real AP accepts first: the number's holder is established with their contacts.
    const real = await h.invitationTo(answers.email!);
    await h.confirm(real, answers.email!);
    expect((await h.accept(real, await h.signIamSmart(real))).status).toBe(200);

    const refused = await h.accept(theirs, signed);
    expect(refused.status).toBe(409);
    expect(refused.body.meta.code).toBe('HOLDER_CONTACT_REQUIRED');
    expect(refused.body.meta.message).toContain('department holds');
    expect((await h.invitation(theirs)).body.data.confirmed).toBe(false);
    // A new code goes to the holder, not to the contacts Z typed.
    const before = (await mailsTo(attacker.email, /one-time password/i)).length;
    h.clock.advance({ hours: 1 });
    await h.call('POST', '/api/appointments/invitation/otp/send', {
      body: { token: theirs, channel: 'email' },
    });
    expect(await mailsTo(attacker.email, /one-time password/i)).toHaveLength(before);
  });

  it('sends no login code to the contacts typed by the attacker; the holder still gets theirs', async () => {
    const { x, real, z, attacker } = await takeoverWorld();
    await h.act(z.token, 'appointment', attacker);
    const number = real.answers.registrationNumber!;
    for (const contact of [attacker.mobile, attacker.email]) {
      h.clock.advance({ hours: 1 });
      const sent = await h.call('POST', '/api/auth/appointee/otp/send', {
        body: { registrationNumber: number, contact },
      });
      expect(sent.status).toBe(200);
    }
    expect(await mailsTo(attacker.email, /log in/i)).toHaveLength(0);
    expect(smsTo(attacker.mobile, /\d{6}/)).toHaveLength(0);
    const wrong = await h.call('POST', '/api/auth/appointee/otp/verify', {
      body: { registrationNumber: number, contact: attacker.email, code: '000000' },
    });
    expect(wrong.status).toBe(422);

    h.clock.advance({ hours: 1 });
    const login = await h.appointeeLogin(number, real.answers.email!);
    expect(login.status).toBe(200);
    expect((login.body.data.cases as AppointeeCase[]).map((c) => c.applicationNo)).toEqual([x.applicationNo]);
  });
});

describe('an AP reaches only the cases they accepted', () => {
  /** Ways a case can carry the AP's number without the AP having accepted it there. */
  const NOT_ACCEPTED: [string, (number: string, answers: Record<string, string>) => Promise<string>][] = [
    [
      'an invitation of the number, not accepted',
      async (_number, answers) => {
        const c = await h.applicantCase();
        await h.act(c.token, 'appointment', answers);
        return c.applicationNo;
      },
    ],
    [
      'an ACTIVE appointment of the number that its holder did not accept',
      async (number) => {
        const c = await h.applicantCase();
        await h.database.db.insert(appointments).values({
          applicationId: c.id,
          identity: 'ap',
          nameEn: 'SOMEONE ELSE',
          registrationNumber: number,
          email: 'someone@example.com',
          mobile: '69999999',
          expiryDate: '2099-12-31',
          status: 'ACTIVE',
          language: 'en',
          invitedAt: h.clock.now(),
          acceptedAt: h.clock.now(),
        });
        return c.applicationNo;
      },
    ],
    [
      'another AP’s case',
      async () => {
        const c = await h.applicantCase();
        await h.appointed(c.token, 'ap');
        return c.applicationNo;
      },
    ],
    [
      'a case whose appointment of the number was revoked',
      async (_number, answers) => {
        const c = await h.applicantCase();
        await h.act(c.token, 'appointment', answers);
        const token = await h.invitationTo(answers.email!);
        await h.confirm(token, answers.email!);
        const accepted = await h.accept(token, await h.signIamSmart(token));
        await h.call('POST', `/api/cases/current/appointments/${accepted.body.data.id}/revoke`, {
          token: c.token,
          body: { reason: 'Changed firm.' },
        });
        return c.applicationNo;
      },
    ],
  ];

  it.each(NOT_ACCEPTED)('%s: not listed, not selectable, not readable', async (_name, make) => {
    const own = await h.applicantCase();
    const { answers } = await h.appointed(own.token, 'ap');
    const number = answers.registrationNumber!;
    const other = await make(number, answers);
    h.clock.advance({ hours: 1 });
    const login = await h.appointeeLogin(number, answers.email!);
    expect(login.status).toBe(200);
    const ap = login.body.data.token;
    const listed = (await h.call<AppointeeCase[]>('GET', '/api/appointee/cases', { token: ap })).body.data;
    expect(listed.map((c) => c.applicationNo)).toEqual([own.applicationNo]);
    const select = await h.call('POST', '/api/appointee/cases/select', {
      token: ap,
      body: { applicationNo: other },
    });
    expect(select.status).toBe(403);
    expect((await h.current(ap, `?applicationNo=${other}`)).status).toBe(403);
    expect((await h.current(ap)).body.data.applicationNo).toBe(own.applicationNo);
  });
});
