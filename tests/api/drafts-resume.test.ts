import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DraftCreatedData, DraftData, DraftResumedData } from '../../machines/rules/drafts';
import { codeIn } from '../support/login';
import { type DraftHarness, startDraftHarness } from './drafts-harness';

let h: DraftHarness;
let counter = 0;

beforeAll(async () => {
  h = await startDraftHarness();
});

afterAll(async () => {
  await h?.close();
});

beforeEach(() => {
  // Every test starts outside the previous one's rate-limit windows.
  h.clock.advance({ hours: 2 });
});

const SENT =
  'If the application number and the contact match a saved application, we have sent a one-time password to them. It is valid for 10 minutes.';

/** A draft saved at step 3 whose applicant email and mobile are fresh. */
async function savedDraft(): Promise<
  DraftCreatedData & { email: string; mobile: string; answers: Record<string, unknown> }
> {
  counter += 1;
  const email = `resume.${counter}.${process.pid}@example.hk`;
  const mobile = `6${String(counter).padStart(3, '0')}${String(process.pid % 10_000).padStart(4, '0')}`;
  const answers = { applicantNameEn: 'CHAN Tai Man', applicantEmail: email, applicantMobile: mobile };
  const draft = await h.createDraft({ formKey: 'a2', answers, step: 1 });
  await h.saveDraft(draft.applicationNo, draft.token, { version: 1, answers, step: 3 });
  return { ...draft, email, mobile, answers };
}

const send = (body: unknown) => h.request('POST', '/api/drafts/resume/send', { body });
const verify = (body: unknown) => h.request<DraftResumedData>('POST', '/api/drafts/resume/verify', { body });

/** Asks for a code to `email` and reads it from the mail the SMTP server received. */
async function codeFromMail(applicationNo: string, email: string): Promise<string> {
  const before = h.smtp.mails.length;
  const res = await send({ applicationNo, contact: email });
  expect(res.status).toBe(200);
  await h.messages.settled();
  const mail = h.smtp.mails.slice(before).find((m) => m.to.includes(email));
  if (!mail) throw new Error(`no mail to ${email}`);
  return codeIn(mail.text);
}

describe('resuming a saved application with a one-time password', () => {
  it('sends a code to the email in the draft; the code gives a token that opens the draft where it stopped', async () => {
    const draft = await savedDraft();

    const code = await codeFromMail(draft.applicationNo, draft.email);
    const res = await verify({ applicationNo: draft.applicationNo, contact: draft.email, code });
    const opened = await h.getDraft<DraftData>(draft.applicationNo, res.body.data.token);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      meta: { code: '200', message: 'Your saved application has been retrieved.' },
      data: {
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as unknown,
        applicationNo: draft.applicationNo,
        formKey: 'a2',
        step: 3,
        version: 2,
        validUntil: expect.any(String) as unknown,
      },
    });
    expect(res.body.data.token).not.toBe(draft.token);
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({ answers: draft.answers, step: 3, version: 2 });
  });

  it('keeps the first browser’s token working: both copies stay open, and versions keep them apart', async () => {
    const draft = await savedDraft();
    const code = await codeFromMail(draft.applicationNo, draft.email);
    const resumed = (await verify({ applicationNo: draft.applicationNo, contact: draft.email, code })).body
      .data;

    const fromNew = await h.saveDraft(resumed.applicationNo, resumed.token, {
      version: 2,
      answers: { step: 'new device' },
      step: 3,
    });
    const fromOld = await h.saveDraft(draft.applicationNo, draft.token, {
      version: 2,
      answers: { step: 'old device' },
      step: 1,
    });

    expect(fromNew.status).toBe(200);
    expect(fromOld.status).toBe(409);
    expect((await h.getDraft(draft.applicationNo, draft.token)).status).toBe(200);
  });

  it('writes the mail about resuming, not logging in, with the number and the validity of the code', async () => {
    const draft = await savedDraft();

    await codeFromMail(draft.applicationNo, draft.email);
    const mail = h.smtp.mails.at(-1);

    expect(mail?.subject).toBe('Your one-time password to resume your saved application');
    expect(mail?.text).toContain(`resume your saved application ${draft.applicationNo}`);
    expect(mail?.text).toContain('valid for 10 minutes');
    expect(mail?.text).toContain('2626 1616');
  });

  it('sends the code by SMS when the contact is the draft’s mobile', async () => {
    const draft = await savedDraft();

    const res = await send({ applicationNo: draft.applicationNo, contact: `+852 ${draft.mobile}` });
    await h.messages.settled();
    const sms = h.sms.at(-1);
    const resumed = await verify({
      applicationNo: draft.applicationNo,
      contact: draft.mobile,
      code: codeIn(sms?.text ?? ''),
    });

    expect(res.status).toBe(200);
    expect(sms?.to).toBe(`+852${draft.mobile}`);
    expect(sms?.text).toContain(`resume saved application ${draft.applicationNo}`);
    expect(resumed.status).toBe(200);
  });

  it('sends to the contact of the latest save', async () => {
    const draft = await savedDraft();
    await h.saveDraft(draft.applicationNo, draft.token, {
      version: 2,
      answers: { applicantEmail: `changed.${draft.email}` },
      step: 1,
    });

    const code = await codeFromMail(draft.applicationNo, `changed.${draft.email}`);
    const res = await verify({ applicationNo: draft.applicationNo, contact: `changed.${draft.email}`, code });

    expect(res.status).toBe(200);
  });

  it('answers a wrong code with 422 and the tries left, as the login does', async () => {
    const draft = await savedDraft();
    const code = await codeFromMail(draft.applicationNo, draft.email);

    const res = await verify({
      applicationNo: draft.applicationNo,
      contact: draft.email,
      code: code === '000000' ? '000001' : '000000',
    });

    expect(res.status).toBe(422);
    expect(res.body.data).toEqual({ attemptsLeft: 4 });
  });

  it('does not log in to Find my case with a code sent to resume, nor resume with a login code', async () => {
    const draft = await savedDraft();
    const code = await codeFromMail(draft.applicationNo, draft.email);

    const app = await h.addApplication();
    const loginCode = await h.codeByEmail(app.applicationNo, app.email);

    const login = await h.verify({ applicationNo: draft.applicationNo, contact: draft.email, code });
    const resume = await verify({ applicationNo: app.applicationNo, contact: app.email, code: loginCode });

    expect(login.status).toBe(410);
    expect(login.body.meta.code).toBe('OTP_EXPIRED');
    expect(resume.status).toBe(410);
    expect(resume.body.meta.code).toBe('OTP_EXPIRED');
  });
});

describe('resuming does not tell whether a draft exists', () => {
  it('answers an unknown number and a contact not in the draft exactly as the right ones, and sends nothing to them', async () => {
    const draft = await savedDraft();
    const other = await savedDraft();
    await h.messages.settled();
    const mailsBefore = h.smtp.mails.length;

    const right = await send({ applicationNo: draft.applicationNo, contact: draft.email });
    const unknown = await send({ applicationNo: 'A2-2026-999998', contact: draft.email });
    const mismatch = await send({ applicationNo: other.applicationNo, contact: 'someone.else@example.hk' });
    await h.messages.settled();

    expect(right.status).toBe(200);
    expect(right.body).toEqual({
      meta: { code: '200', message: SENT },
      data: { resendAfterSeconds: 60, expiresInSeconds: 600 },
    });
    expect(unknown.body).toEqual(right.body);
    expect(mismatch.body).toEqual(right.body);
    expect(h.smtp.mails.length).toBe(mailsBefore + 1);
  });

  it('answers a wrong code for an unknown number exactly as for a real draft', async () => {
    const draft = await savedDraft();
    await send({ applicationNo: draft.applicationNo, contact: draft.email });
    await send({ applicationNo: 'A2-2026-999997', contact: draft.email });

    const real = await verify({ applicationNo: draft.applicationNo, contact: draft.email, code: '000000' });
    const unknown = await verify({ applicationNo: 'A2-2026-999997', contact: draft.email, code: '000000' });

    expect(unknown.status).toBe(real.status);
    expect(unknown.body).toEqual(real.body);
  });

  it('applies the resend limit to an unknown number exactly as to a known one', async () => {
    const draft = await savedDraft();
    await send({ applicationNo: draft.applicationNo, contact: draft.email });
    await send({ applicationNo: 'A2-2026-999996', contact: draft.email });

    const known = await send({ applicationNo: draft.applicationNo, contact: draft.email });
    const unknown = await send({ applicationNo: 'A2-2026-999996', contact: draft.email });

    expect(known.status).toBe(429);
    expect(unknown.body).toEqual(known.body);
  });

  it('sends a code for an expired draft too, and tells of the expiry only after the right code', async () => {
    const draft = await savedDraft();
    h.clock.advance({ hours: 15 * 24 });
    const code = await codeFromMail(draft.applicationNo, draft.email);

    const wrong = await verify({
      applicationNo: draft.applicationNo,
      contact: draft.email,
      code: code === '000000' ? '000001' : '000000',
    });
    const right = await verify({ applicationNo: draft.applicationNo, contact: draft.email, code });
    const again = await verify({ applicationNo: draft.applicationNo, contact: draft.email, code });

    expect(wrong.status).toBe(422);
    expect(right.status).toBe(410);
    expect(right.body.meta.code).toBe('DRAFT_EXPIRED');
    expect(again.status).toBe(410);
    expect(again.body.meta.code).toBe('OTP_EXPIRED');
  });

  it('answers bad bodies with 400 and field errors', async () => {
    const res = await verify({ applicationNo: 'x', contact: 'not a contact', code: '12' });

    expect(res.status).toBe(400);
    expect((res.body.data as unknown as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual([
      'applicationNo',
      'contact',
      'code',
    ]);
  });
});
