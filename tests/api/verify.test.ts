import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, issuedDocuments } from '../../drizzle/schema';
import type { VerifyAnswer } from '../../machines/rules/verify';
import { hongKongDate } from '../../machines/rules/working-days';
import { formatHkDate } from '../../machines/rules/dates';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';
import { caseWithLetter, downloadLatest, LOR } from './seal-harness';

/**
 * The public check of issued letters, GET and POST /api/verify (docs/decisions/038-sealed-letters.md):
 * issued or not, still standing or not, and never anything about the people of the case.
 */

let h: ConsoleHarness;
let officer: StaffUser;
let senior: StaffUser;

beforeAll(async () => {
  h = await startConsoleHarness();
  officer = await h.staff('caseOfficer', 'verify.officer');
  senior = await h.staff('seniorOfficer', 'verify.senior');
});

afterAll(async () => {
  await h?.close();
});

const KEYS = ['fileMatches', 'issued', 'issuedOn', 'kind', 'reference', 'standing', 'standingSince'];

const byReference = (reference: string, lang = 'en') =>
  h.call<VerifyAnswer>('GET', `/api/verify?reference=${encodeURIComponent(reference)}&lang=${lang}`);

function byFile(bytes: Uint8Array, reference?: string, lang = 'en') {
  const form = new FormData();
  if (reference !== undefined) form.append('reference', reference);
  form.append('file', new Blob([bytes.slice()], { type: 'application/pdf' }), 'letter.pdf');
  return h.call<VerifyAnswer>('POST', `/api/verify?lang=${lang}`, { body: form });
}

/** Nothing of the people or the premises of the case: only the answer's own fields. */
async function expectNoPersonalData(answer: unknown, applicationNo: string) {
  const [row] = await h.database.db
    .select()
    .from(applications)
    .where(eq(applications.applicationNo, applicationNo));
  const text = JSON.stringify(answer);
  for (const value of [
    row?.applicantNameEn,
    row?.applicantNameZh,
    row?.email,
    row?.mobile,
    row?.premisesAddressEn,
    'verify.officer',
    'verify.senior',
    '@',
  ])
    if (typeof value === 'string' && value !== '') expect(text).not.toContain(value);
  expect(Object.keys((answer as { data: object }).data).sort()).toEqual(KEYS);
}

describe('GET /api/verify', () => {
  it('finds a Letter of Requirements by its reference: issued, when (Hong Kong), still standing', async () => {
    const app = await caseWithLetter(h, officer, senior);
    const today = hongKongDate(h.clock.now());
    // Typed as people type: lower case, spaces around.
    const reply = await byReference(`  ${app.reference.toLowerCase()} `);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      reference: app.reference,
      issued: true,
      kind: 'LETTER_OF_REQUIREMENTS',
      issuedOn: today,
      standing: 'STANDS',
      standingSince: null,
      fileMatches: null,
    });
    expect(reply.body.meta.message).toBe(
      `The Buildings Department issued this letter on ${formatHkDate(today, 'en')}. It still stands.`,
    );
    expect((await byReference(app.reference, 'tc')).body.meta.message).toContain('仍然有效');
    expect((await byReference(app.reference, 'sc')).body.meta.message).toContain('仍然有效');
    await expectNoPersonalData(reply.body, app.applicationNo);
  });

  it('says a reference the department never issued is unknown', async () => {
    const reply = await byReference('LOR-A2-2026-999999-1');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ issued: false, kind: null, standing: null });
    expect(reply.body.meta.message).toBe(
      'The Buildings Department has issued no letter with this reference.',
    );
  });

  it('says a withdrawn letter no longer stands, with the day it was withdrawn (Hong Kong)', async () => {
    const app = await caseWithLetter(h, officer, senior);
    h.clock.advance({ hours: 24 });
    // A day on, the officers sign in again (staff sessions end).
    officer = await h.signInAgain(officer);
    senior = await h.signInAgain(senior);
    const withdrawn = await h.staffAct(senior.token, app.applicationNo, 'lor.withdraw', 'LOR_ISSUED', {
      reason: 'The letter named the wrong premises.',
    });
    expect(withdrawn.status).toBe(200);
    const since = hongKongDate(h.clock.now());
    const reply = await byReference(app.reference);
    expect(reply.body.data).toMatchObject({ issued: true, standing: 'WITHDRAWN', standingSince: since });
    expect(reply.body.meta.message).toContain(
      `It no longer stands: withdrawn on ${formatHkDate(since, 'en')}.`,
    );
    // The withdrawal's own letter stands.
    const letter = (await byReference(withdrawn.body.data.reference)).body.data;
    expect(letter).toMatchObject({ issued: true, kind: 'LOR_WITHDRAWAL', standing: 'STANDS' });
    await expectNoPersonalData(reply.body, app.applicationNo);
  });

  it('says a Letter of Requirements replaced by a revision no longer stands, and the revision does', async () => {
    const app = await caseWithLetter(h, officer, senior);
    const revision = await h.staffAct(officer.token, app.applicationNo, 'lor.issue', 'LOR_ISSUED', {
      ...LOR,
      category2: [],
    });
    expect(revision.status).toBe(200);
    expect((await byReference(app.reference)).body.data).toMatchObject({ issued: true, standing: 'REVISED' });
    expect((await byReference(revision.body.data.reference)).body.data).toMatchObject({ standing: 'STANDS' });
  });

  it('says a revoked certificate no longer stands', async () => {
    const app = await h.loggedInCase('INSPECTION_SCHEDULED');
    await h.staffAct(senior.token, app.applicationNo, 'case.assign', 'INSPECTION_SCHEDULED', {
      staffId: officer.id,
    });
    // An inspection scheduled for today (as inspection.schedule records it), passed.
    await h.database.db.insert(issuedDocuments).values({
      applicationId: app.id,
      event: 'inspection.schedule',
      reference: `ISN-${app.applicationNo}-T`,
      data: { date: hongKongDate(h.clock.now()), window: 'AM', officerId: officer.id },
      staffId: officer.id,
      createdAt: h.clock.now(),
    });
    const passed = await h.staffAct(
      officer.token,
      app.applicationNo,
      'inspection.record',
      'INSPECTION_SCHEDULED',
      {
        result: 'PASS',
      },
    );
    expect(passed.status, JSON.stringify(passed.body)).toBe(200);
    const cert = await h.decide(
      officer.token,
      senior.token,
      app.applicationNo,
      'certificate.issue',
      'INSPECTED',
      {
        kind: 'CERTIFICATE',
      },
    );
    expect(cert.status, JSON.stringify(cert.body)).toBe(200);
    expect((await byReference(cert.body.data.reference)).body.data).toMatchObject({
      kind: 'CERTIFICATE',
      standing: 'STANDS',
    });
    const revoked = await h.decide(
      officer.token,
      senior.token,
      app.applicationNo,
      'certificate.revoke',
      'CERTIFICATE_ISSUED',
      {
        reason: 'Unauthorised works were found at the premises.',
      },
    );
    expect(revoked.status).toBe(200);
    const reply = await byReference(cert.body.data.reference, 'tc');
    expect(reply.body.data).toMatchObject({
      issued: true,
      kind: 'CERTIFICATE',
      standing: 'REVOKED',
      standingSince: hongKongDate(h.clock.now()),
    });
    expect(reply.body.meta.message).toContain('已不再有效');
    expect(reply.body.meta.message).toContain('撤銷');
    await expectNoPersonalData(reply.body, app.applicationNo);
  });

  it.each([
    ['', 'Type the reference printed on the letter', '請輸入函件上的參考編號', '请输入函件上的参考编号'],
    ['hello', 'This is not a reference of a letter', '這不是函件的參考編號', '这不是函件的参考编号'],
    [
      'LOR-' + 'A'.repeat(100),
      'This is not a reference of a letter',
      '這不是函件的參考編號',
      '这不是函件的参考编号',
    ],
  ])('refuses the reference %j with 400, in English and Chinese', async (reference, en, tc, sc) => {
    for (const [lang, message] of [
      ['en', en],
      ['tc', tc],
      ['sc', sc],
    ] as const) {
      const reply = await byReference(reference, lang);
      expect(reply.status).toBe(400);
      expect(reply.body.meta.code).toBe('BAD_REQUEST');
      expect(reply.body.meta.message).toContain(message);
    }
    const none = await h.call('GET', '/api/verify');
    expect(none.status).toBe(400);
  });
});

describe('POST /api/verify with the file', () => {
  it('finds the letter by its file alone, and with its reference', async () => {
    const app = await caseWithLetter(h, officer, senior);
    const alone = await byFile(app.pdf);
    expect(alone.status).toBe(200);
    expect(alone.body.data).toMatchObject({
      reference: app.reference,
      issued: true,
      kind: 'LETTER_OF_REQUIREMENTS',
      standing: 'STANDS',
      fileMatches: true,
    });
    expect((await byFile(app.pdf, app.reference)).body.data.fileMatches).toBe(true);
    await expectNoPersonalData(alone.body, app.applicationNo);
    // The same file downloaded again is the same bytes.
    expect(
      (await byFile(await downloadLatest(h, app.token, 'LETTER_OF_REQUIREMENTS'))).body.data.issued,
    ).toBe(true);
  });

  it('says a file with one byte changed is not the letter issued', async () => {
    const app = await caseWithLetter(h, officer, senior);
    const changed = Uint8Array.from(app.pdf);
    changed[200] = changed[200]! ^ 1;
    const alone = await byFile(changed);
    expect(alone.body.data).toMatchObject({ reference: null, issued: false, fileMatches: false });
    expect(alone.body.meta.message).toBe(
      'This file is not a letter the Buildings Department issued, or it was changed after it was issued.',
    );
    const named = await byFile(changed, app.reference, 'sc');
    expect(named.body.data).toMatchObject({
      reference: app.reference,
      issued: false,
      kind: 'LETTER_OF_REQUIREMENTS',
      fileMatches: false,
    });
    expect(named.body.meta.message).toContain('此档案并非该函件');
  });

  it('refuses no file, a bad reference, a file too large and a body that is not multipart', async () => {
    for (const [lang, message] of [
      ['en', 'Choose the PDF file of the letter.'],
      ['tc', '請選擇函件的 PDF 檔案。'],
      ['sc', '请选择函件的 PDF 档案。'],
    ] as const) {
      const form = new FormData();
      form.append('reference', 'LOR-A2-2026-000001-1');
      const reply = await h.call('POST', `/api/verify?lang=${lang}`, { body: form });
      expect(reply.status).toBe(400);
      expect(reply.body.meta.message).toBe(message);
    }
    const bad = await byFile(new Uint8Array([37, 80, 68, 70]), 'nope');
    expect([bad.status, bad.body.meta.message]).toEqual([400, expect.stringContaining('not a reference')]);
    const big = await byFile(new Uint8Array(300 * 1024));
    expect(big.status).toBe(413);
    expect(big.body.meta.message).toContain('The file is too large');
    const json = await h.call('POST', '/api/verify', { body: { reference: 'LOR-A2-2026-000001-1' } });
    expect(json.status).toBe(415);
  });
});
