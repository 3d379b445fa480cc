import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { createOtpHasher } from '../../api/modules/auth/otp';
import { otpChallenges, outbox } from '../../drizzle/schema';
import { parseContact } from '../../machines/rules/otp';
import { type LoginHarness, TEST_OTP_SECRET, startLoginHarness } from '../support/login';

let h: LoginHarness;

beforeAll(async () => {
  h = await startLoginHarness();
});

afterAll(async () => {
  await h?.close();
});

beforeEach(() => {
  h.clock.advance({ hours: 2 });
});

async function outboxSize(): Promise<number> {
  return (await h.database.db.select({ id: outbox.id }).from(outbox)).length;
}

describe('POST /api/auth/otp/send does not tell whether an application exists', () => {
  it('answers an unknown application number exactly as a known one with its own contact', async () => {
    const app = await h.addApplication();

    const known = await h.send({ applicationNo: app.applicationNo, contact: app.email });
    const unknown = await h.send({ applicationNo: 'ZZ-2026-999999', contact: app.email });

    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({
      meta: {
        code: '200',
        message:
          'If the application number and the contact match our records, we have sent a one-time password to them. It is valid for 10 minutes.',
      },
      data: { resendAfterSeconds: 60, expiresInSeconds: 600 },
    });
  });

  it('answers a contact that is not the one on file exactly as the right one, and sends nothing to it', async () => {
    const app = await h.addApplication();
    const other = await h.addApplication();
    await h.messages.settled();
    const mailsBefore = h.smtp.mails.length;
    const smsBefore = h.sms.length;
    const outboxBefore = await outboxSize();

    const wrongEmail = await h.send({ applicationNo: app.applicationNo, contact: 'someone.else@example.hk' });
    const wrongMobile = await h.send({ applicationNo: other.applicationNo, contact: '98765432' });
    await h.messages.settled();
    h.clock.advance({ seconds: 61 }); // past the resend limit of this application number
    const right = await h.send({ applicationNo: app.applicationNo.toLowerCase(), contact: app.mobile });
    await h.messages.settled();

    expect(wrongEmail.status).toBe(200);
    expect(wrongEmail.body).toEqual(right.body);
    expect(wrongMobile.body).toEqual(right.body);
    expect(h.smtp.mails.length).toBe(mailsBefore);
    expect(h.sms.length).toBe(smsBefore + 1);
    expect(h.sms.at(-1)?.to).toBe(`+852${app.mobile}`);
    expect(await outboxSize()).toBe(outboxBefore + 1);
  });

  it('answers a wrong code after a non-matching send exactly as after a real one', async () => {
    const app = await h.addApplication();
    await h.send({ applicationNo: app.applicationNo, contact: app.email });
    await h.send({ applicationNo: 'ZZ-2026-888888', contact: app.email });
    h.clock.advance({ seconds: 61 });
    await h.send({ applicationNo: app.applicationNo, contact: 'not.on.file@example.hk' });

    const real = await h.verify({ applicationNo: app.applicationNo, contact: app.email, code: '000000' });
    const unknown = await h.verify({ applicationNo: 'ZZ-2026-888888', contact: app.email, code: '000000' });
    const mismatch = await h.verify({
      applicationNo: app.applicationNo,
      contact: 'not.on.file@example.hk',
      code: '000000',
    });

    expect(real.status).toBe(422);
    expect(real.body).toEqual({
      meta: { code: 'OTP_WRONG', message: 'The one-time password is not correct. You have 4 more tries.' },
      data: { attemptsLeft: 4 },
    });
    expect(unknown.body).toEqual(real.body);
    expect(mismatch.body).toEqual(real.body);
  });

  it('never logs in with the never-sent code of a non-matching request, even when it is guessed', async () => {
    const app = await h.addApplication();
    const request = { applicationNo: app.applicationNo, contact: 'guesser@example.hk' };
    await h.send(request);
    // Plant a known code in the decoy row, as a lucky guess would find it.
    const { keysOf, codeHash } = createOtpHasher(TEST_OTP_SECRET);
    const keys = keysOf(
      { applicationNo: app.applicationNo, contact: parseContact(request.contact)! },
      'login',
    );
    const [decoy] = await h.database.db
      .select({ id: otpChallenges.id, applicationId: otpChallenges.applicationId })
      .from(otpChallenges)
      .where(eq(otpChallenges.keyHash, keys.challenge))
      .orderBy(desc(otpChallenges.id));
    await h.database.db
      .update(otpChallenges)
      .set({ codeHash: codeHash(keys.challenge, '123456') })
      .where(and(eq(otpChallenges.id, decoy!.id)));

    const res = await h.verify({ ...request, code: '123456' });

    expect(decoy?.applicationId).toBeNull();
    expect(res.status).toBe(422);
    expect(res.body.meta.code).toBe('OTP_WRONG');
  });

  it('applies the resend limit to an unknown number exactly as to a known one', async () => {
    const app = await h.addApplication();
    await h.send({ applicationNo: app.applicationNo, contact: app.email });
    await h.send({ applicationNo: 'ZZ-2026-777777', contact: app.email });

    const known = await h.send({ applicationNo: app.applicationNo, contact: 'another@example.hk' });
    const unknown = await h.send({ applicationNo: 'ZZ-2026-777777', contact: 'another@example.hk' });

    expect(known.status).toBe(429);
    expect(unknown.status).toBe(429);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers.get('retry-after')).toBe(known.headers.get('retry-after'));
  });
});

describe('the send answer’s duration', () => {
  it('is padded to the configured minimum whether or not the application exists', async () => {
    const padded = await startLoginHarness({ minSendDurationMs: 300 });
    try {
      const app = await padded.addApplication();
      const timed = async (body: unknown) => {
        const started = performance.now();
        const res = await padded.send(body);
        return { status: res.status, ms: performance.now() - started };
      };

      const known = await timed({ applicationNo: app.applicationNo, contact: app.email });
      const unknown = await timed({ applicationNo: 'ZZ-2026-666666', contact: app.email });
      const mismatch = await timed({ applicationNo: 'ZZ-2026-555555', contact: 'x@example.hk' });

      for (const answer of [known, unknown, mismatch]) {
        expect(answer.status).toBe(200);
        expect(answer.ms).toBeGreaterThanOrEqual(295);
      }
    } finally {
      await padded.close();
    }
  });
});
