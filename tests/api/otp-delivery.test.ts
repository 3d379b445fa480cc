import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { otpChallenges, outbox } from '../../drizzle/schema';
import type { OutboxEntry } from '../../api/modules/shared/messages';
import { type LoginHarness, codeIn, startLoginHarness } from '../support/login';

let h: LoginHarness;

beforeAll(async () => {
  h = await startLoginHarness();
});

afterAll(async () => {
  await h?.close();
});

beforeEach(() => {
  // Every test starts outside the previous one's rate-limit windows.
  h.clock.advance({ hours: 2 });
});

describe('POST /api/auth/otp/send delivers the code', () => {
  it('sends the code by SMTP to the email on file, and the code logs in', async () => {
    const app = await h.addApplication({ email: 'Owner.One@Example.HK' });

    const res = await h.send({ applicationNo: app.applicationNo, contact: 'owner.one@example.hk' });
    await h.messages.settled();
    const mail = h.smtp.mails.at(-1);

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ resendAfterSeconds: 60, expiresInSeconds: 600 });
    expect(mail?.to.map((to) => to.toLowerCase())).toEqual(['owner.one@example.hk']);
    expect(mail?.from).toBe('no-reply@bd.example.hk');
    expect(mail?.subject).toBe('Your one-time password for the Buildings Department portal');
    const code = codeIn(mail?.text ?? '');
    const login = await h.verify({ applicationNo: app.applicationNo, contact: 'OWNER.ONE@example.hk', code });
    expect(login.status).toBe(200);
  });

  it('writes what the code is for, how long it lasts, not to share it and whom to call', async () => {
    const app = await h.addApplication();

    await h.codeByEmail(app.applicationNo, app.email);
    const text = h.smtp.mails.at(-1)?.text ?? '';

    expect(text).toContain(`log in to Find my case for application ${app.applicationNo}`);
    expect(text).toContain('valid for 10 minutes');
    expect(text).toContain('Do not share this password');
    expect(text).toContain('will never ask you for it');
    expect(text).toContain('If you did not ask for this password, you can ignore this message');
    expect(text).toContain('2626 1616');
  });

  it('sends the code by SMS to the mobile on file, however the number is written', async () => {
    const app = await h.addApplication({ mobile: '91230001' });

    const res = await h.send({ applicationNo: app.applicationNo, contact: '+852 9123-0001' });
    await h.messages.settled();
    const sms = h.sms.at(-1);

    expect(res.status).toBe(200);
    expect(sms).toMatchObject({ to: '+85291230001', authorization: 'Bearer sms-test-token' });
    expect(sms?.text).toContain(app.applicationNo);
    const login = await h.verify({
      applicationNo: app.applicationNo,
      contact: '91230001',
      code: codeIn(sms?.text ?? ''),
    });
    expect(login.status).toBe(200);
  });

  it('records every message in the outbox with its transport, the code hidden when it really left', async () => {
    const app = await h.addApplication();

    await h.codeByEmail(app.applicationNo, app.email);
    const [row] = await h.database.db.select().from(outbox).where(eq(outbox.toAddress, app.email));

    expect(row).toMatchObject({ channel: 'email', transport: 'smtp', language: 'en', error: null });
    expect(row?.sentAt).toBeInstanceOf(Date);
    expect(row?.body).toContain('******');
    expect(row?.body).not.toMatch(/(?<![0-9-])[0-9]{6}(?![0-9])/);
  });

  it('marks the code delivered once the message left', async () => {
    const app = await h.addApplication();

    await h.codeByEmail(app.applicationNo, app.email);
    const rows = await h.database.db
      .select({ delivered: otpChallenges.delivered })
      .from(otpChallenges)
      .where(eq(otpChallenges.applicationId, app.id));

    expect(rows).toEqual([{ delivered: true }]);
  });

  it('writes the message in the applicant’s stored language: Traditional Chinese', async () => {
    const app = await h.addApplication({ language: 'tc' });

    await h.codeByEmail(app.applicationNo, app.email);
    const mail = h.smtp.mails.at(-1);

    expect(mail?.subject).toBe('你的屋宇署網站一次性密碼');
    expect(mail?.text).toContain(`你用以登入「查找我的個案」查閱申請 ${app.applicationNo} 的一次性密碼為`);
    expect(mail?.text).toContain('屋宇署絕不會');
    expect(mail?.headers.get('content-language')).toBe('zh-Hant-HK');
  });

  it('writes the message in the applicant’s stored language: Simplified Chinese, by SMS too', async () => {
    const app = await h.addApplication({ language: 'sc', mobile: '51230002' });

    await h.send({ applicationNo: app.applicationNo, contact: '51230002' });
    await h.messages.settled();

    expect(h.sms.at(-1)?.text).toContain('屋宇署：你登录“查找我的个案”');
  });
});

describe('the development outbox', () => {
  it('shows an SMS code when there is no SMS gateway, newest first', async () => {
    const local = await startLoginHarness({ smsTransport: 'outbox' });
    try {
      const first = await local.addApplication({ mobile: '61230003' });
      const second = await local.addApplication({ mobile: '61230004' });
      await local.send({ applicationNo: first.applicationNo, contact: '61230003' });
      await local.send({ applicationNo: second.applicationNo, contact: '61230004' });
      await local.messages.settled();

      const res = await local.get<OutboxEntry[]>('/api/dev/outbox');

      expect(res.status).toBe(200);
      expect(res.body.data.map((m) => m.to)).toEqual(['61230004', '61230003']);
      expect(res.body.data[0]).toMatchObject({ channel: 'sms', transport: 'outbox', subject: null });
      const code = codeIn(res.body.data[0]?.body ?? '');
      const login = await local.verify({ applicationNo: second.applicationNo, contact: '61230004', code });
      expect(login.status).toBe(200);
    } finally {
      await local.close();
    }
  });
});
