import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LoginHarness, startLoginHarness } from '../support/login';

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

/** Asks for a code and gets it burnt by five wrong tries. */
async function burnOne(applicationNo: string, email: string): Promise<void> {
  const code = await h.codeByEmail(applicationNo, email);
  for (let i = 0; i < 5; i++) await h.verify({ applicationNo, contact: email, code: wrongOf(code) });
}

describe('the resend limit', () => {
  it('answers 429 OTP_RESEND_TOO_SOON with Retry-After until 60 seconds have passed', async () => {
    const app = await h.addApplication();
    const body = { applicationNo: app.applicationNo, contact: app.email };
    await h.send(body);
    h.clock.advance({ seconds: 20 });

    const tooSoon = await h.send(body);
    h.clock.advance({ seconds: 40 });
    const onTime = await h.send(body);

    expect(tooSoon.status).toBe(429);
    expect(tooSoon.headers.get('retry-after')).toBe('40');
    expect(tooSoon.body).toEqual({
      meta: {
        code: 'OTP_RESEND_TOO_SOON',
        message: 'Please wait 40 seconds before asking for another one-time password.',
      },
      data: { retryAfterSeconds: 40 },
    });
    expect(onTime.status).toBe(200);
  });

  it('says when to try again in Traditional Chinese', async () => {
    const app = await h.addApplication();
    await h.send({ applicationNo: app.applicationNo, contact: app.email });

    const res = await h.send({ applicationNo: app.applicationNo, contact: app.email, lang: 'tc' });

    expect(res.body.meta.message).toBe('請於60秒後再索取新的一次性密碼。');
  });

  it('counts the application number, whatever contact is given', async () => {
    const app = await h.addApplication();
    await h.send({ applicationNo: app.applicationNo, contact: app.email });

    const res = await h.send({ applicationNo: app.applicationNo, contact: app.mobile });

    expect(res.status).toBe(429);
    expect(res.body.meta.code).toBe('OTP_RESEND_TOO_SOON');
  });
});

describe('the hourly limit per application', () => {
  it('refuses the sixth code within an hour with 429 OTP_RATE_LIMITED, until the first leaves the hour', async () => {
    const app = await h.addApplication();
    const body = { applicationNo: app.applicationNo, contact: app.email };
    const sent = [];
    for (let i = 0; i < 5; i++) {
      sent.push((await h.send(body)).status);
      h.clock.advance({ minutes: 2 });
    }

    const sixth = await h.send(body);
    // The first send was 10 minutes ago: it leaves the window in 50 minutes.
    h.clock.advance({ minutes: 50 });
    const later = await h.send(body);

    expect(sent).toEqual([200, 200, 200, 200, 200]);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBe(String(50 * 60));
    expect(sixth.body).toEqual({
      meta: {
        code: 'OTP_RATE_LIMITED',
        message: 'You have asked for too many one-time passwords. Please try again in 50 minutes.',
      },
      data: { retryAfterSeconds: 3000 },
    });
    expect(later.status).toBe(200);
  });
});

describe('the hourly limit per contact address', () => {
  it('refuses the eleventh code to one address within an hour, across applications', async () => {
    const address = 'shared.inbox@example.hk';
    const statuses = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await h.send({ applicationNo: `ADDR-${i}-2026`, contact: address })).status);
    }

    const eleventh = await h.send({ applicationNo: 'ADDR-10-2026', contact: 'Shared.Inbox@example.hk' });
    const otherAddress = await h.send({ applicationNo: 'ADDR-11-2026', contact: 'other.inbox@example.hk' });
    h.clock.advance({ hours: 1 });
    const nextHour = await h.send({ applicationNo: 'ADDR-12-2026', contact: address });

    expect(statuses).toEqual(Array(10).fill(200));
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.meta.code).toBe('OTP_RATE_LIMITED');
    expect(eleventh.headers.get('retry-after')).toBe('3600');
    expect(otherAddress.status).toBe(200);
    expect(nextHour.status).toBe(200);
  });
});

describe('the lockout after three burnt codes', () => {
  it('locks sending and verifying for 15 minutes with 429 OTP_LOCKED, and unlocks after', async () => {
    const app = await h.addApplication();
    for (let i = 0; i < 3; i++) {
      await burnOne(app.applicationNo, app.email);
      h.clock.advance({ minutes: 1 });
    }

    const send = await h.send({ applicationNo: app.applicationNo, contact: app.email });
    const verify = await h.verify({ applicationNo: app.applicationNo, contact: app.email, code: '123456' });
    h.clock.advance({ minutes: 14 });
    const afterLock = await h.codeByEmail(app.applicationNo, app.email);
    const login = await h.verify({ applicationNo: app.applicationNo, contact: app.email, code: afterLock });

    expect(send.status).toBe(429);
    expect(send.headers.get('retry-after')).toBe(String(14 * 60));
    expect(send.body).toEqual({
      meta: {
        code: 'OTP_LOCKED',
        message:
          'For your security, logging in to this application is paused after too many wrong one-time passwords. Please try again in 14 minutes.',
      },
      data: { retryAfterSeconds: 840 },
    });
    expect(verify.status).toBe(429);
    expect(verify.body.meta.code).toBe('OTP_LOCKED');
    expect(verify.headers.get('retry-after')).toBe('840');
    expect(login.status).toBe(200);
  });

  it('does not lock after two burnt codes', async () => {
    const app = await h.addApplication();
    for (let i = 0; i < 2; i++) {
      await burnOne(app.applicationNo, app.email);
      h.clock.advance({ minutes: 1 });
    }

    const res = await h.send({ applicationNo: app.applicationNo, contact: app.email });

    expect(res.status).toBe(200);
  });

  it('locks an unknown application number the same way', async () => {
    const applicationNo = 'ZZ-LOCK-2026';
    for (let i = 0; i < 3; i++) {
      await h.send({ applicationNo, contact: 'nobody@example.hk' });
      for (let j = 0; j < 5; j++)
        await h.verify({ applicationNo, contact: 'nobody@example.hk', code: '000000' });
      h.clock.advance({ minutes: 1 });
    }

    const res = await h.send({ applicationNo, contact: 'nobody@example.hk', lang: 'sc' });

    expect(res.status).toBe(429);
    expect(res.body.meta).toEqual({
      code: 'OTP_LOCKED',
      message: '由于一次性密码输入错误的次数过多，为保障你的安全，此申请的登录已暂停。请于14分钟后再试。',
    });
  });
});
