import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions } from '../../drizzle/schema';
import { type LoginHarness, startLoginHarness } from '../support/login';
import { grantsOf } from '../../machines/rules/grants';

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

const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('POST /api/auth/otp/verify', () => {
  it('logs in with the right code and answers the session', async () => {
    const app = await h.addApplication();
    const code = await h.codeByEmail(app.applicationNo, app.email);

    const res = await h.verify({ applicationNo: app.applicationNo, contact: app.email, code });

    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ code: '200', message: 'You have logged in.' });
    expect(res.body.data).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as unknown,
      applicationNo: app.applicationNo,
      role: 'applicant',
      userId: `applicant:${app.applicationNo}`,
      ...grantsOf('applicant'),
      idleTimeoutMinutes: 30,
      absoluteExpiresAt: new Date(h.clock.now().getTime() + 12 * 3600_000).toISOString(),
    });
  });

  it('counts the tries left down with each wrong code', async () => {
    const app = await h.addApplication();
    const code = await h.codeByEmail(app.applicationNo, app.email);
    const request = { applicationNo: app.applicationNo, contact: app.email, code: wrongOf(code) };

    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await h.verify(request));

    expect(answers.map((a) => a.status)).toEqual([422, 422, 422, 422]);
    expect(answers.map((a) => a.body.meta.code)).toEqual([
      'OTP_WRONG',
      'OTP_WRONG',
      'OTP_WRONG',
      'OTP_WRONG',
    ]);
    expect(answers.map((a) => a.body.data)).toEqual([
      { attemptsLeft: 4 },
      { attemptsLeft: 3 },
      { attemptsLeft: 2 },
      { attemptsLeft: 1 },
    ]);
    expect(answers[3]?.body.meta.message).toBe('The one-time password is not correct. You have 1 more try.');
  });

  it('burns the code at the fifth wrong try, after which even the right code is refused', async () => {
    const app = await h.addApplication();
    const code = await h.codeByEmail(app.applicationNo, app.email);
    const request = { applicationNo: app.applicationNo, contact: app.email };
    for (let i = 0; i < 4; i++) await h.verify({ ...request, code: wrongOf(code) });

    const fifth = await h.verify({ ...request, code: wrongOf(code) });
    const right = await h.verify({ ...request, code });

    expect(fifth.status).toBe(422);
    expect(fifth.body).toEqual({
      meta: {
        code: 'OTP_BURNT',
        message: 'The one-time password was entered wrongly too many times. Please ask for a new one.',
      },
      data: { attemptsLeft: 0 },
    });
    expect(right.status).toBe(410);
    expect(right.body.meta.code).toBe('OTP_EXPIRED');
  });

  it('accepts the code until just before 10 minutes', async () => {
    const app = await h.addApplication();
    const code = await h.codeByEmail(app.applicationNo, app.email);
    h.clock.advance({ minutes: 9, seconds: 59 });

    const res = await h.verify({ applicationNo: app.applicationNo, contact: app.email, code });

    expect(res.status).toBe(200);
  });

  it('refuses the code once 10 minutes have passed', async () => {
    const app = await h.addApplication();
    const code = await h.codeByEmail(app.applicationNo, app.email);
    h.clock.advance({ minutes: 10 });

    const res = await h.verify({ applicationNo: app.applicationNo, contact: app.email, code });

    expect(res.status).toBe(410);
    expect(res.body).toEqual({
      meta: {
        code: 'OTP_EXPIRED',
        message: 'The one-time password has expired or can no longer be used. Please ask for a new one.',
      },
      data: null,
    });
  });

  it('accepts a code only once', async () => {
    const app = await h.addApplication();
    const code = await h.codeByEmail(app.applicationNo, app.email);
    const request = { applicationNo: app.applicationNo, contact: app.email, code };

    const first = await h.verify(request);
    const second = await h.verify(request);

    expect(first.status).toBe(200);
    expect(second.status).toBe(410);
    expect(second.body.meta.code).toBe('OTP_EXPIRED');
  });

  it('answers 410 when no code was ever sent', async () => {
    const app = await h.addApplication();

    const res = await h.verify({ applicationNo: app.applicationNo, contact: app.email, code: '123456' });

    expect(res.status).toBe(410);
  });

  it('binds the code to its contact: the mobile on file cannot use the email’s code', async () => {
    const app = await h.addApplication();
    const code = await h.codeByEmail(app.applicationNo, app.email);

    const res = await h.verify({ applicationNo: app.applicationNo, contact: app.mobile, code });

    expect(res.status).toBe(410);
  });

  it('replaces the previous code with a new one', async () => {
    const app = await h.addApplication();
    const first = await h.codeByEmail(app.applicationNo, app.email);
    h.clock.advance({ seconds: 61 });
    let second = await h.codeByEmail(app.applicationNo, app.email);
    while (second === first) {
      // One chance in a million: ask again.
      h.clock.advance({ seconds: 61 });
      second = await h.codeByEmail(app.applicationNo, app.email);
    }

    const old = await h.verify({ applicationNo: app.applicationNo, contact: app.email, code: first });
    const current = await h.verify({ applicationNo: app.applicationNo, contact: app.email, code: second });

    expect(old.status).toBe(422);
    expect(current.status).toBe(200);
  });

  it('opens exactly one session when 20 requests verify the right code at once', async () => {
    const app = await h.addApplication();
    const code = await h.codeByEmail(app.applicationNo, app.email);
    const request = { applicationNo: app.applicationNo, contact: app.email, code };

    const answers = await Promise.all(Array.from({ length: 20 }, () => h.verify(request)));
    const rows = await h.database.db.select().from(sessions).where(eq(sessions.applicationId, app.id));

    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 410)).toHaveLength(19);
    expect(rows).toHaveLength(1);
  });

  it('accepts a code typed in full-width digits', async () => {
    const app = await h.addApplication();
    const code = await h.codeByEmail(app.applicationNo, app.email);
    const fullWidth = code.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)));

    const res = await h.verify({ applicationNo: app.applicationNo, contact: app.email, code: fullWidth });

    expect(res.status).toBe(200);
  });

  it('answers a wrong code in Traditional Chinese when asked with lang=tc', async () => {
    const app = await h.addApplication();
    const code = await h.codeByEmail(app.applicationNo, app.email);

    const res = await h.verify({
      applicationNo: app.applicationNo,
      contact: app.email,
      code: wrongOf(code),
      lang: 'tc',
    });

    expect(res.body.meta.message).toBe('一次性密碼不正確。你尚餘4次機會。');
  });

  it('answers an expired code in Simplified Chinese when Accept-Language asks for zh-CN', async () => {
    const app = await h.addApplication();

    const res = await h.verify(
      { applicationNo: app.applicationNo, contact: app.email, code: '123456' },
      { 'accept-language': 'zh-CN' },
    );

    expect(res.body.meta.message).toBe('一次性密码已过期或已失效，请重新获取。');
  });

  it('stores neither the code nor the token in the clear', async () => {
    const app = await h.addApplication();
    const code = await h.codeByEmail(app.applicationNo, app.email);
    const res = await h.verify({ applicationNo: app.applicationNo, contact: app.email, code });
    const token = (res.body.data as { token: string }).token;

    const dump = JSON.stringify(await h.database.db.select().from(sessions));

    expect(dump).not.toContain(token);
    expect(dump).toContain(createHash('sha256').update(token).digest('hex'));
  });
});
