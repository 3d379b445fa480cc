import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  ContactCodeSentData,
  ContactVerifiedData,
  DraftCreatedData,
  DraftData,
  DraftSavedData,
} from '../../machines/rules/drafts';
import { verifiedContactsOf } from '../../machines/rules/contacts';
import type { EnvelopeBody } from '../support/http';
import { type LoginHarness, codeIn, startLoginHarness } from '../support/login';

/**
 * Confirming a draft's applicant email or mobile by a one-time code (purpose 'contact'). Email goes
 * through a real SMTP server; SMS goes to the outbox (the harness's `smsTransport: 'outbox'`), where the
 * stored body keeps the code.
 */

type Reply<T> = { status: number; headers: Headers; body: EnvelopeBody<T> };

let h: LoginHarness;
let counter = 0;

beforeAll(async () => {
  h = await startLoginHarness({ smsTransport: 'outbox' });
});

afterAll(async () => {
  await h?.close();
});

beforeEach(() => {
  // Every test starts outside the previous one's rate-limit windows.
  h.clock.advance({ hours: 2 });
});

async function request<T = unknown>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<Reply<T>> {
  const response = await fetch(`${h.baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as EnvelopeBody<T>,
  };
}

const draftPath = (no: string) => `/api/drafts/${encodeURIComponent(no)}`;
const sendCode = (no: string, token: string | undefined, body: unknown) =>
  request<ContactCodeSentData>('POST', `${draftPath(no)}/contact/send`, { token, body });
const verifyCode = (no: string, token: string | undefined, body: unknown) =>
  request<ContactVerifiedData>('POST', `${draftPath(no)}/contact/verify`, { token, body });
const getDraft = (no: string, token: string) => request<DraftData>('GET', draftPath(no), { token });

/** A draft whose applicant email (typed in mixed case) and mobile (typed with +852) are fresh. */
async function newDraft(
  answers?: Record<string, unknown>,
): Promise<
  DraftCreatedData & { email: string; mobile: string; version: number; answers: Record<string, unknown> }
> {
  counter += 1;
  const email = `contact.${counter}.${process.pid}@example.hk`;
  const mobile = `9${String(counter).padStart(3, '0')}${String(process.pid % 10_000).padStart(4, '0')}`;
  const given = answers ?? {
    applicantNameEn: 'CHAN Tai Man',
    applicantEmail: email.replace('contact', 'Contact').replace('example.hk', 'Example.HK'),
    applicantMobile: `+852 ${mobile}`,
  };
  const res = await request<DraftCreatedData>('POST', '/api/drafts', {
    body: { formKey: 'a2', answers: given, step: 1, lang: 'en' },
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { ...res.body.data, email, mobile, version: 1, answers: given };
}

async function save(
  draft: { applicationNo: string; token: string; version: number },
  answers: Record<string, unknown>,
) {
  const res = await request<DraftSavedData>('PUT', draftPath(draft.applicationNo), {
    token: draft.token,
    body: { version: draft.version, answers, step: 1 },
  });
  expect(res.status).toBe(200);
  draft.version = res.body.data.version;
}

/** Sends a code to the draft's email and reads it from the mail the SMTP server received. */
async function codeFromMail(draft: { applicationNo: string; token: string; email: string }): Promise<string> {
  const before = h.smtp.mails.length;
  const res = await sendCode(draft.applicationNo, draft.token, { channel: 'email' });
  expect(res.status).toBe(200);
  await h.messages.settled();
  const mail = h.smtp.mails.slice(before).find((m) => m.to.includes(draft.email));
  if (!mail) throw new Error(`no mail to ${draft.email}`);
  return codeIn(mail.text);
}

/** Sends a code to the draft's mobile and reads it from the outbox. */
async function codeFromOutbox(draft: {
  applicationNo: string;
  token: string;
  mobile: string;
}): Promise<string> {
  const res = await sendCode(draft.applicationNo, draft.token, { channel: 'mobile' });
  expect(res.status).toBe(200);
  await h.messages.settled();
  const sms = (await h.messages.latest(10)).find((m) => m.channel === 'sms' && m.to.endsWith(draft.mobile));
  if (!sms) throw new Error(`no SMS to ${draft.mobile}`);
  return codeIn(sms.body);
}

const wrong = (code: string) => (code === '000000' ? '000001' : '000000');

describe('confirming a draft’s contact with a one-time code', () => {
  it('sends a code by SMTP to the draft’s email, and the right code verifies that email', async () => {
    const draft = await newDraft();
    const before = h.smtp.mails.length;

    const sent = await sendCode(draft.applicationNo, draft.token, { channel: 'email' });
    await h.messages.settled();
    const mail = h.smtp.mails.slice(before).find((m) => m.to.includes(draft.email));
    const verified = await verifyCode(draft.applicationNo, draft.token, {
      channel: 'email',
      code: codeIn(mail?.text ?? ''),
    });
    const read = await getDraft(draft.applicationNo, draft.token);

    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      meta: {
        code: '200',
        message:
          'We have sent a one-time password to the address in your application. It is valid for 10 minutes.',
      },
      data: { resendAfterSeconds: 60, expiresInSeconds: 600, to: 'c***@example.hk' },
    });
    expect(mail?.subject).toBe('Your one-time password to confirm your contact details');
    expect(mail?.text).toContain(`confirm this email address for application ${draft.applicationNo}`);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      meta: { code: '200', message: 'Your contact details have been confirmed.' },
      data: { verifiedContacts: { email: draft.email } },
    });
    expect(read.body.data.verifiedContacts).toEqual({ email: draft.email });
  });

  it('sends a code by SMS (read from the outbox) to the draft’s mobile, and both contacts end up verified', async () => {
    const draft = await newDraft();
    await verifyCode(draft.applicationNo, draft.token, { channel: 'email', code: await codeFromMail(draft) });
    h.clock.advance({ minutes: 2 });

    const sent = await sendCode(draft.applicationNo, draft.token, { channel: 'mobile' });
    await h.messages.settled();
    const sms = (await h.messages.latest(10)).find((m) => m.channel === 'sms' && m.to.endsWith(draft.mobile));
    const verified = await verifyCode(draft.applicationNo, draft.token, {
      channel: 'mobile',
      code: codeIn(sms?.body ?? ''),
    });

    expect(sent.status).toBe(200);
    expect(sent.body.data.to).toBe(`****${draft.mobile.slice(-4)}`);
    expect(sms?.body).toContain(`confirm this mobile number for application ${draft.applicationNo}`);
    expect(verified.status).toBe(200);
    expect(verified.body.data).toEqual({ verifiedContacts: { email: draft.email, mobile: draft.mobile } });
    expect((await getDraft(draft.applicationNo, draft.token)).body.data.verifiedContacts).toEqual({
      email: draft.email,
      mobile: draft.mobile,
    });
  });

  it('writes the message in the language of the draft’s last save', async () => {
    const draft = await newDraft();
    await request('PUT', `${draftPath(draft.applicationNo)}?lang=tc`, {
      token: draft.token,
      body: { version: 1, answers: draft.answers, step: 1, lang: 'tc' },
    });
    const before = h.smtp.mails.length;

    await sendCode(draft.applicationNo, draft.token, { channel: 'email' });
    await h.messages.settled();
    const mail = h.smtp.mails.slice(before).find((m) => m.to.includes(draft.email));

    expect(mail?.subject).toBe('你的屋宇署網站一次性密碼（確認聯絡資料）');
    expect(mail?.text).toContain(`確認申請 ${draft.applicationNo} 的此電郵地址`);
  });

  it('shows a new draft with no verified contacts', async () => {
    const draft = await newDraft();

    const read = await getDraft(draft.applicationNo, draft.token);

    expect(read.status).toBe(200);
    expect(read.body.data.verifiedContacts).toEqual({});
  });
});

describe('what a contact code cannot do', () => {
  it('answers 400 CONTACT_MISSING when the draft has no email or mobile answer', async () => {
    const draft = await newDraft({ applicantNameEn: 'CHAN Tai Man' });

    const email = await sendCode(draft.applicationNo, draft.token, { channel: 'email' });
    const mobile = await verifyCode(draft.applicationNo, draft.token, { channel: 'mobile', code: '123456' });

    expect(email.status).toBe(400);
    expect(email.body.meta.code).toBe('CONTACT_MISSING');
    expect(email.body.data).toEqual({ channel: 'email' });
    expect(mobile.status).toBe(400);
    expect(mobile.body.meta.code).toBe('CONTACT_MISSING');
  });

  it('answers a bad body with 400 and field errors', async () => {
    const draft = await newDraft();

    const res = await verifyCode(draft.applicationNo, draft.token, { channel: 'fax', code: '12' });

    expect(res.status).toBe(400);
    expect(res.body.meta.code).toBe('BAD_REQUEST');
    expect((res.body.data as unknown as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
      'channel',
      'code',
    ]);
  });

  it('answers a wrong code with 422 and the tries left, and verifies nothing', async () => {
    const draft = await newDraft();
    const code = await codeFromMail(draft);

    const res = await verifyCode(draft.applicationNo, draft.token, { channel: 'email', code: wrong(code) });

    expect(res.status).toBe(422);
    expect(res.body.meta.code).toBe('OTP_WRONG');
    expect(res.body.data).toEqual({ attemptsLeft: 4 });
    expect((await getDraft(draft.applicationNo, draft.token)).body.data.verifiedContacts).toEqual({});
  });

  it('burns the code at the fifth wrong try', async () => {
    const draft = await newDraft();
    const code = await codeFromMail(draft);

    const answers: Reply<unknown>[] = [];
    for (let i = 0; i < 5; i++)
      answers.push(
        await verifyCode(draft.applicationNo, draft.token, { channel: 'email', code: wrong(code) }),
      );
    const right = await verifyCode(draft.applicationNo, draft.token, { channel: 'email', code });

    expect(answers.map((a) => a.body.meta.code)).toEqual([
      'OTP_WRONG',
      'OTP_WRONG',
      'OTP_WRONG',
      'OTP_WRONG',
      'OTP_BURNT',
    ]);
    expect(right.status).toBe(410);
    expect(right.body.meta.code).toBe('OTP_EXPIRED');
  });

  it('refuses another draft’s token with 403 and no token with 401, and sends nothing', async () => {
    const mine = await newDraft();
    const other = await newDraft();
    await h.messages.settled();
    const before = h.smtp.mails.length;

    const send = await sendCode(mine.applicationNo, other.token, { channel: 'email' });
    const verify = await verifyCode(mine.applicationNo, other.token, { channel: 'email', code: '123456' });
    const anonymous = await sendCode(mine.applicationNo, undefined, { channel: 'email' });
    await h.messages.settled();

    expect(send.status).toBe(403);
    expect(verify.status).toBe(403);
    expect(anonymous.status).toBe(401);
    expect(h.smtp.mails.length).toBe(before);
  });

  it('answers 410 for an expired draft', async () => {
    const draft = await newDraft();
    h.clock.advance({ hours: 15 * 24 });

    const res = await sendCode(draft.applicationNo, draft.token, { channel: 'email' });

    expect(res.status).toBe(410);
    expect(res.body.meta.code).toBe('DRAFT_EXPIRED');
  });

  it('does not verify the mobile with a code sent to the email', async () => {
    const draft = await newDraft();
    const code = await codeFromMail(draft);

    const res = await verifyCode(draft.applicationNo, draft.token, { channel: 'mobile', code });

    expect(res.status).toBe(410);
    expect(res.body.meta.code).toBe('OTP_EXPIRED');
  });

  it('does not verify a contact with a code sent to resume the draft', async () => {
    const draft = await newDraft();
    const before = h.smtp.mails.length;
    await request('POST', '/api/drafts/resume/send', {
      body: { applicationNo: draft.applicationNo, contact: draft.email },
    });
    await h.messages.settled();
    const mail = h.smtp.mails.slice(before).find((m) => m.to.includes(draft.email));

    const res = await verifyCode(draft.applicationNo, draft.token, {
      channel: 'email',
      code: codeIn(mail?.text ?? ''),
    });

    expect(mail?.subject).toBe('Your one-time password to resume your saved application');
    expect(res.status).toBe(410);
    expect(res.body.meta.code).toBe('OTP_EXPIRED');
  });

  it('does not resume a draft with a code sent to confirm its contact', async () => {
    const draft = await newDraft();
    const code = await codeFromMail(draft);

    const res = await request('POST', '/api/drafts/resume/verify', {
      body: { applicationNo: draft.applicationNo, contact: draft.email, code },
    });

    expect(res.status).toBe(410);
    expect(res.body.meta.code).toBe('OTP_EXPIRED');
  });

  it('answers a second code asked for within a minute with 429 and Retry-After', async () => {
    const draft = await newDraft();
    await sendCode(draft.applicationNo, draft.token, { channel: 'email' });
    h.clock.advance({ seconds: 20 });

    const again = await sendCode(draft.applicationNo, draft.token, { channel: 'mobile' });

    expect(again.status).toBe(429);
    expect(again.body.meta.code).toBe('OTP_RESEND_TOO_SOON');
    expect(again.headers.get('retry-after')).toBe('40');
    expect(again.body.data).toEqual({ retryAfterSeconds: 40 });
  });

  it('sends a contact code at once after a code to resume the draft (the minute is per purpose)', async () => {
    const draft = await newDraft();
    const resumed = await request('POST', '/api/drafts/resume/send', {
      body: { applicationNo: draft.applicationNo, contact: draft.email },
    });
    h.clock.advance({ seconds: 5 });

    const contact = await sendCode(draft.applicationNo, draft.token, { channel: 'email' });
    const resumeAgain = await request('POST', '/api/drafts/resume/send', {
      body: { applicationNo: draft.applicationNo, contact: draft.email },
    });

    expect(resumed.status).toBe(200);
    expect(contact.status).toBe(200);
    // The resume code itself still waits its minute.
    expect(resumeAgain.status).toBe(429);
    expect(resumeAgain.body.meta.code).toBe('OTP_RESEND_TOO_SOON');
  });
});

describe('a verified contact lapses when its answer changes', () => {
  it('drops the email from verifiedContacts once the answer changes, and takes it back when it returns', async () => {
    const draft = await newDraft();
    await verifyCode(draft.applicationNo, draft.token, { channel: 'email', code: await codeFromMail(draft) });

    await save(draft, { ...draft.answers, applicantEmail: `other.${draft.email}` });
    const changed = await getDraft(draft.applicationNo, draft.token);
    await save(draft, { ...draft.answers, applicantEmail: draft.email.toUpperCase() });
    const back = await getDraft(draft.applicationNo, draft.token);

    expect(changed.body.data.verifiedContacts).toEqual({});
    expect(back.body.data.verifiedContacts).toEqual({ email: draft.email });
  });

  it('drops the mobile once its answer changes, and keeps the email verified', async () => {
    const draft = await newDraft();
    await verifyCode(draft.applicationNo, draft.token, {
      channel: 'mobile',
      code: await codeFromOutbox(draft),
    });
    h.clock.advance({ minutes: 2 });
    await verifyCode(draft.applicationNo, draft.token, { channel: 'email', code: await codeFromMail(draft) });

    await save(draft, { ...draft.answers, applicantMobile: '61234567' });
    const read = await getDraft(draft.applicationNo, draft.token);

    expect(read.body.data.verifiedContacts).toEqual({ email: draft.email });
  });

  it('does not verify the new address with a code sent to the old one', async () => {
    const draft = await newDraft();
    const code = await codeFromMail(draft);
    await save(draft, { ...draft.answers, applicantEmail: `other.${draft.email}` });

    const res = await verifyCode(draft.applicationNo, draft.token, { channel: 'email', code });

    expect(res.status).toBe(410);
    expect(res.body.meta.code).toBe('OTP_EXPIRED');
    expect((await getDraft(draft.applicationNo, draft.token)).body.data.verifiedContacts).toEqual({});
  });
});

describe('verifiedContactsOf', () => {
  const stored = {
    email: { value: 'chan@example.hk', at: '2026-11-22T00:00:00.000Z' },
    mobile: { value: '91234567', at: '2026-11-22T00:00:00.000Z' },
  };

  it('keeps the contacts whose normalised answer equals the confirmed value', () => {
    expect(
      verifiedContactsOf({ applicantEmail: ' Chan@Example.HK ', applicantMobile: '+852 9123 4567' }, stored),
    ).toEqual({ email: 'chan@example.hk', mobile: '91234567' });
  });

  it('drops a contact whose answer changed, is missing or is not valid', () => {
    expect(
      verifiedContactsOf({ applicantEmail: 'wong@example.hk', applicantMobile: '9123' }, stored),
    ).toEqual({});
    expect(verifiedContactsOf({}, stored)).toEqual({});
  });

  it('verifies nothing when nothing was confirmed', () => {
    expect(verifiedContactsOf({ applicantEmail: 'chan@example.hk' }, {})).toEqual({});
    expect(verifiedContactsOf({ applicantEmail: 'chan@example.hk' }, null)).toEqual({});
  });
});

describe("the contact person's email and mobile (spec §4)", () => {
  /** A draft whose contact person has an email of their own. */
  async function withContactPerson() {
    const draft = await newDraft();
    const contactEmail = `person.${counter}.${process.pid}@example.hk`;
    const answers = { ...draft.answers, contactName: 'LEE Siu Ming', contactEmail };
    await save(draft, answers);
    return { ...draft, answers, contactEmail };
  }

  it('sends a code to the contact person, addressed to them, without waiting for the applicant’s minute', async () => {
    const draft = await withContactPerson();
    await codeFromMail(draft);
    const before = h.smtp.mails.length;

    const sent = await sendCode(draft.applicationNo, draft.token, {
      channel: 'contactPersonEmail',
      lang: 'en',
    });
    await h.messages.settled();

    expect(sent.status).toBe(200);
    expect(sent.body.data.to).toBe(`p***@example.hk`);
    const mail = h.smtp.mails.slice(before).find((m) => m.to.includes(draft.contactEmail));
    expect(mail?.text).toContain('Dear contact person,');
  });

  it('records the contact person’s email as verified by its own code', async () => {
    const draft = await withContactPerson();
    const before = h.smtp.mails.length;
    await sendCode(draft.applicationNo, draft.token, { channel: 'contactPersonEmail' });
    await h.messages.settled();
    const mail = h.smtp.mails.slice(before).find((m) => m.to.includes(draft.contactEmail));
    if (!mail) throw new Error('no mail to the contact person');

    const res = await verifyCode(draft.applicationNo, draft.token, {
      channel: 'contactPersonEmail',
      code: codeIn(mail.text),
    });

    expect(res.status).toBe(200);
    expect(res.body.data.verifiedContacts).toEqual({ contactPersonEmail: draft.contactEmail });
  });

  it('answers 400 CONTACT_MISSING when the contact person gave no mobile', async () => {
    const draft = await withContactPerson();

    const res = await sendCode(draft.applicationNo, draft.token, { channel: 'contactPersonMobile' });

    expect(res.status).toBe(400);
    expect(res.body.meta.code).toBe('CONTACT_MISSING');
  });

  it('does not accept the applicant’s code for the contact person', async () => {
    const draft = await withContactPerson();
    const code = await codeFromMail(draft);

    const res = await verifyCode(draft.applicationNo, draft.token, { channel: 'contactPersonEmail', code });

    expect(res.status).toBe(410);
    expect((await getDraft(draft.applicationNo, draft.token)).body.data.verifiedContacts).toEqual({});
  });
});
