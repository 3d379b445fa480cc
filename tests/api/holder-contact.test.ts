import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { registrationHolders } from '../../drizzle/schema';
import { codeIn } from '../support/login';
import { type AppointmentHarness, startAppointmentHarness } from './appointments-harness';

/** The holder changes their own contact, by a code to the old and one to the new (docs/decisions/025-registration-holders.md). */
let h: AppointmentHarness;

beforeAll(async () => {
  h = await startAppointmentHarness();
});

afterAll(async () => {
  await h?.close();
});

const codeTo = async (address: string) => {
  await h.messages.settled();
  const mail = [...h.smtp.mails]
    .reverse()
    .find((m) => m.to.includes(address) && /change the email or mobile/i.test(m.text));
  if (!mail) throw new Error(`no code to ${address}`);
  return codeIn(mail.text);
};

async function holderLoggedIn() {
  const c = await h.applicantCase();
  const { answers } = await h.appointed(c.token, 'ap');
  const login = await h.appointeeLogin(answers.registrationNumber!, answers.email!);
  return { c, answers, ap: login.body.data.token };
}

describe('a holder changes their email', () => {
  it('needs the codes sent to the old and to the new email; later invitations and logins use the new one', async () => {
    const { answers, ap } = await holderLoggedIn();
    const next = `moved-${answers.mobile}@example.com`;
    const sent = await h.call('POST', '/api/appointee/contact/send', { token: ap, body: { contact: next } });
    expect(sent.status).toBe(200);
    const [oldCode, newCode] = [await codeTo(answers.email!), await codeTo(next)];

    const swapped = await h.call('POST', '/api/appointee/contact/verify', {
      token: ap,
      body: { contact: next, oldCode: newCode, newCode: oldCode },
    });
    expect(swapped.status).toBe(422);

    h.clock.advance({ minutes: 2 });
    await h.call('POST', '/api/appointee/contact/send', { token: ap, body: { contact: next } });
    const done = await h.call<{ email: string }>('POST', '/api/appointee/contact/verify', {
      token: ap,
      body: { contact: next, oldCode: await codeTo(answers.email!), newCode: await codeTo(next) },
    });
    expect(done.status).toBe(200);
    expect(done.body.data.email).toBe(next);
    const [holder] = await h.database.db
      .select()
      .from(registrationHolders)
      .where(eq(registrationHolders.registrationNumber, answers.registrationNumber!));
    expect(holder?.email).toBe(next);

    const other = await h.applicantCase();
    await h.act(other.token, 'appointment', { ...answers, email: 'typed@example.com' });
    expect(await h.invitationTo(next)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    h.clock.advance({ hours: 1 });
    expect((await h.appointeeLogin(answers.registrationNumber!, next)).status).toBe(200);
  });

  it('refuses the contact on file (409) and an applicant session (403), never a 500', async () => {
    const { c, answers, ap } = await holderLoggedIn();
    const same = await h.call('POST', '/api/appointee/contact/send', {
      token: ap,
      body: { contact: answers.email },
    });
    expect(same.status).toBe(409);
    expect(same.body.meta.code).toBe('CONTACT_UNCHANGED');
    const applicant = await h.call('POST', '/api/appointee/contact/send', {
      token: c.token,
      body: { contact: 'x@example.com' },
    });
    expect(applicant.status).toBe(403);
    const bad = await h.call('POST', '/api/appointee/contact/verify', {
      token: ap,
      body: { contact: 'nope', oldCode: '1', newCode: '2' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('the unhappy paths of a change of contact', () => {
  it('keeps the right code live when the other is wrong, and says which one was wrong', async () => {
    const { answers, ap } = await holderLoggedIn();
    const next = `typo-${answers.mobile}@example.com`;
    await h.call('POST', '/api/appointee/contact/send', { token: ap, body: { contact: next } });
    const [oldCode, newCode] = [await codeTo(answers.email!), await codeTo(next)];
    const wrong = newCode === '000000' ? '111111' : '000000';

    const typo = await h.call<{ attemptsLeft: number; field: string }>(
      'POST',
      '/api/appointee/contact/verify',
      { token: ap, body: { contact: next, oldCode, newCode: wrong } },
    );
    expect(typo.status).toBe(422);
    expect(typo.body.meta.code).toBe('OTP_WRONG');
    expect(typo.body.data).toEqual({ attemptsLeft: 4, field: 'newCode' });

    // The old contact's code was not used up by the refused try: the corrected one goes through.
    const done = await h.call<{ email: string }>('POST', '/api/appointee/contact/verify', {
      token: ap,
      body: { contact: next, oldCode, newCode },
    });
    expect(done.status).toBe(200);
    expect(done.body.data.email).toBe(next);
  });

  it("names the old contact's code when that one is wrong", async () => {
    const { answers, ap } = await holderLoggedIn();
    const next = `other-${answers.mobile}@example.com`;
    await h.call('POST', '/api/appointee/contact/send', { token: ap, body: { contact: next } });
    const [oldCode, newCode] = [await codeTo(answers.email!), await codeTo(next)];
    const wrong = oldCode === '000000' ? '111111' : '000000';
    const refused = await h.call<{ field: string }>('POST', '/api/appointee/contact/verify', {
      token: ap,
      body: { contact: next, oldCode: wrong, newCode },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.data.field).toBe('oldCode');
  });

  it('answers 410 for codes never sent or expired, 429 for a second send within the minute, 401 without a session', async () => {
    const { answers, ap } = await holderLoggedIn();
    const next = `late-${answers.mobile}@example.com`;
    const unsent = await h.call('POST', '/api/appointee/contact/verify', {
      token: ap,
      body: { contact: next, oldCode: '123456', newCode: '654321' },
    });
    expect(unsent.status).toBe(410);
    expect(unsent.body.meta.code).toBe('OTP_EXPIRED');

    expect(
      (await h.call('POST', '/api/appointee/contact/send', { token: ap, body: { contact: next } })).status,
    ).toBe(200);
    const again = await h.call('POST', '/api/appointee/contact/send', { token: ap, body: { contact: next } });
    expect(again.status).toBe(429);
    expect(again.body.meta.code).toBe('OTP_RESEND_TOO_SOON');

    const [oldCode, newCode] = [await codeTo(answers.email!), await codeTo(next)];
    h.clock.advance({ minutes: 11 });
    const late = await h.call('POST', '/api/appointee/contact/verify', {
      token: ap,
      body: { contact: next, oldCode, newCode },
    });
    expect(late.status).toBe(410);

    const anonymous = await h.call('POST', '/api/appointee/contact/send', { body: { contact: next } });
    expect(anonymous.status).toBe(401);
  });
});
