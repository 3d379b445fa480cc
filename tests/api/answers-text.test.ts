import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import express from 'express';
import { pino } from 'pino';
import { pinoHttp } from 'pino-http';
import { errorHandler } from '../../api/http/error-handler';
import { listen } from '../support/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appLogger } from '../../api/logging';
import { drafts } from '../../drizzle/schema';
import { type ApplicationHarness, draftPath, startApplicationHarness } from './application-harness';

/**
 * Text Postgres cannot store (NUL, a UTF-16 surrogate without its pair) is refused as a field error
 * (400), never a 500; and whatever fails, the logs hold no SQL parameters, no personal data and no
 * signature of a download link.
 */

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});
const log = () => lines.join('');

let h: ApplicationHarness;

beforeAll(async () => {
  h = await startApplicationHarness({ logger: pino({ level: 'info' }, sink) });
});

afterAll(async () => {
  await h?.close();
});

const HKIC = 'A1234563';

describe('text Postgres cannot store', () => {
  it.each([
    ['a NUL character', 'CHAN\u0000Tai Man'],
    ['a lone high surrogate', 'CHAN \ud83d Tai Man'],
    ['a lone low surrogate', 'CHAN \ude00 Tai Man'],
  ])('answers %s in an answer with a 400 field error on save', async (_name, text) => {
    const draft = await h.newDraft();
    const res = await h.save(draft, { ...draft.answers, applicantNameEn: text });

    expect(res.status).toBe(400);
    expect(res.body.meta.code).toBe('BAD_REQUEST');
    expect((res.body.data as unknown as { errors: { path: string }[] }).errors[0]?.path).toBe(
      'answers.applicantNameEn',
    );
  });

  it('answers a NUL character when a draft is created with a 400 in Traditional Chinese', async () => {
    const res = await h.call('POST', '/api/drafts?lang=tc', {
      body: { formKey: 'a2', answers: { ...h.completeAnswers(), applicantNameZh: '陳\u0000大文' } },
    });

    expect(res.status).toBe(400);
    expect(res.body.meta.message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('answers a NUL character in other text (a resume request, an address search) with a 4xx, never a 500', async () => {
    const resume = await h.call('POST', '/api/drafts/resume/send', {
      body: { applicationNo: 'A2-2026-\u0000', contact: 'x\u0000@example.hk' },
    });
    const address = await h.call('GET', `/api/address?q=${encodeURIComponent('Hoi\u0000Ting')}`);

    expect(resume.status).toBeLessThan(500);
    expect(address.status).toBeLessThan(500);
  });

  it('logs no answer, email or HKIC of a refused save', async () => {
    const draft = await h.newDraft();
    await h.save(draft, { ...draft.answers, applicantHkic: HKIC, applicantNameEn: 'X\u0000' });

    expect(log()).not.toContain(draft.email);
    expect(log()).not.toContain(HKIC);
  });
});

describe('the logs', () => {
  it('hold the SQL of a failed query but not its parameters', async () => {
    let failure: unknown;
    try {
      await h.database.db.execute(sql`select ${`${HKIC} applicant@example.hk \u0000`}::text as x`);
    } catch (e) {
      failure = e;
    }
    expect(String(failure)).toContain(HKIC); // the error itself carries the parameters ...

    appLogger(pino({ level: 'info' }, sink)).error({ err: failure }, 'query failed');

    expect(log()).toContain('query failed');
    expect(log()).toContain('select $1::text'); // ... its log line only the SQL
    expect(log()).not.toContain(HKIC);
    expect(log()).not.toContain('applicant@example.hk');
  });

  it('redact personal fields passed to a log call', () => {
    appLogger(pino({ level: 'info' }, sink)).warn(
      { draft: { applicantEmail: 'someone@example.hk', applicantHkic: HKIC } },
      'a draft',
    );

    expect(log()).toContain('a draft');
    expect(log()).not.toContain('someone@example.hk');
  });

  it('keep no query string of a signed download link', async () => {
    await h.download(
      '/api/submissions/A2-2026-000001/files/application?expires=99999999999&signature=s3cr3tsig',
    );

    expect(log()).toContain('/api/submissions/A2-2026-000001/files/application');
    expect(log()).not.toContain('s3cr3tsig');
  });

  it('never log a draft token', async () => {
    const draft = await h.newDraft();
    await h.call('GET', `${draftPath(draft.applicationNo)}/documents`, { token: draft.token });

    expect(log()).not.toContain(draft.token);
  });
});

describe('a database refusal of text a schema let through', () => {
  it('is a 400 envelope, not a 500', async () => {
    const app = express();
    app.use(pinoHttp({ logger: appLogger(pino({ level: 'info' }, sink)) }));
    app.get('/nul', async () => {
      await h.database.db.execute(sql`select ${'CHAN\u0000'}::text`);
    });
    app.use(errorHandler);
    const server = await listen(app);
    try {
      const res = await fetch(`${server.baseUrl}/nul`);

      expect(res.status).toBe(400);
      expect(((await res.json()) as { meta: { code: string } }).meta.code).toBe('BAD_REQUEST');
    } finally {
      await server.close();
    }
  });
});

describe('characters the application PDF cannot print', () => {
  it.each([
    ['an emoji', '😀', '"😀" (U+1F600)'],
    ['Devanagari', 'क', '"क" (U+0915)'],
    ['Thai', 'ส', '"ส" (U+0E2A)'],
    ['a zero-width space', '\u200B', 'U+200B'],
  ])('refuses %s on save with a field error naming it', async (_name, char, label) => {
    const draft = await h.newDraft();

    const res = await h.save(draft, { ...draft.answers, applicantNameEn: `CHAN${char}Tai Man` });

    expect(res.status).toBe(400);
    const errors = (res.body.data as unknown as { errors: { path: string; message: string }[] }).errors;
    expect(errors[0]?.path).toBe('answers.applicantNameEn');
    expect(errors[0]?.message).toContain(label);
  });

  it('names the character in Traditional and Simplified Chinese', async () => {
    const draft = await h.newDraft();
    const answers = { ...draft.answers, applicantNameZh: '陳😀大文' };

    const tc = await h.call('PUT', `${draftPath(draft.applicationNo)}?lang=tc`, {
      token: draft.token,
      body: { version: draft.version, answers, step: 1 },
    });
    const sc = await h.call('PUT', `${draftPath(draft.applicationNo)}?lang=sc`, {
      token: draft.token,
      body: { version: draft.version, answers, step: 1 },
    });

    expect(tc.body.meta.message).toContain('此字元無法列印在申請表上');
    expect(tc.body.meta.message).toContain('U+1F600');
    expect(sc.body.meta.message).toContain('此字符无法打印在申请表上');
  });

  it('never leaves signing impossible: a draft saved with one before answers 422 naming the field, not 500', async () => {
    const draft = await h.readyDraft();
    await h.database.db
      .update(drafts)
      .set({ answers: { ...draft.answers, applicantNameEn: 'CHAN 😀 Tai Man' } })
      .where(eq(drafts.applicationNo, draft.applicationNo));

    const res = await h.call('POST', `${draftPath(draft.applicationNo)}/signing/iamsmart`, {
      token: draft.token,
      body: {},
    });

    expect(res.status).toBe(422);
    expect(res.body.meta.code).toBe('APPLICATION_INCOMPLETE');
    expect(JSON.stringify(res.body.data)).toContain('applicantNameEn');
    const pdf = await h.download(`${draftPath(draft.applicationNo)}/pdf`, draft.token);
    expect(pdf.status).toBe(422);
    expect(pdf.body?.meta.code).toBe('APPLICATION_INCOMPLETE');
  });
});
