import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { caseVersions, issuedDocuments, masterData } from '../../drizzle/schema';
import { holidaysBetween } from '../../api/modules/shared/calendar';
import { sealAnswers } from '../../api/modules/shared';
import { formatHkDate } from '../../machines/rules/dates';
import { addDays, hongKongDate, isWorkingDay } from '../../machines/rules/working-days';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';
import { LOR, pdfsig, pdfText } from './seal-harness';

/**
 * The parts of every issued letter (docs/decisions/041-letter-parts.md), read back from the PDFs as the
 * applicant downloads them: for a case in Traditional Chinese, one in English and one in Simplified
 * Chinese, each letter names the
 * addressee and their correspondence address, the school and premises, its reference, its legal basis,
 * the officer, the date, and "Page n of m" in the case's language; its file name is in that language; the
 * seal stays valid (pdfsig).
 */

let h: ConsoleHarness;
let officer: StaffUser;
let senior: StaffUser;

beforeAll(async () => {
  h = await startConsoleHarness();
  officer = await h.staff('caseOfficer', 'letters.officer');
  senior = await h.staff('seniorOfficer', 'letters.senior');
});

afterAll(async () => {
  await h?.close();
});

const ANSWERS = {
  applyingAs: 'individual',
  applicantNameEn: 'CHAN Tai Man',
  applicantNameZh: '陳大文',
  correspondenceAddress: 'Room 1201, 12/F, Central Plaza\n18 Harbour Road, Wan Chai, Hong Kong',
  schoolNameEn: 'Harbour Bay School',
  schoolNameZh: '海灣學校',
  premisesAddress: { en: '1 Harbour Road, Wan Chai', zh: '灣仔港灣道1號', floor: 'G/F' },
};

/** What each language's letters must say of the case (the letter's own title and reference aside). */
const EXPECTED = {
  tc: {
    addressee: ['陳大文', 'Room 1201, 12/F, Central Plaza'],
    school: '海灣學校',
    premises: 'G/F, 灣仔港灣道1號',
    law: '《教育條例》（第279章）第12條',
    officer: ['letters.officer主任', '屋宇測量師', '屋宇署署長（代行）'],
    page: (n: number, m: number) => `第 ${n} 頁，共 ${m} 頁`,
    notOther: 'Letter of Requirements',
  },
  // Simplified Chinese words; the names and addresses as the applicant wrote them.
  sc: {
    addressee: ['陳大文', 'Room 1201, 12/F, Central Plaza'],
    school: '海灣學校',
    premises: 'G/F, 灣仔港灣道1號',
    law: '《教育条例》（第279章）第12条',
    officer: ['letters.officer主任', '屋宇測量師', '屋宇署署长（代行）'],
    page: (n: number, m: number) => `第 ${n} 页，共 ${m} 页`,
    notOther: 'Letter of Requirements',
  },
  en: {
    addressee: ['CHAN Tai Man', 'Room 1201, 12/F, Central Plaza'],
    school: 'Harbour Bay School',
    premises: 'G/F, 1 Harbour Road, Wan Chai',
    law: 'section 12 of the Education Ordinance (Cap. 279)',
    officer: ['Officer letters.officer', 'Building Surveyor', 'for Director of Buildings'],
    page: (n: number, m: number) => `Page ${n} of ${m}`,
    notOther: '規定事項函件',
  },
} as const;

/** The file name of a letter of each kind, in each language, as the download names it. */
const FILE_WORDS = {
  tc: {
    LETTER_OF_REQUIREMENTS: '規定事項函件',
    LOR_WITHDRAWAL: '撤回規定事項函件通知書',
    REJECTION_NOTICE: '拒絕申請通知書',
    CASE_REOPENED: '重新處理申請通知書',
    CERTIFICATE: '樓宇安全證明書',
    CERTIFICATE_REVOCATION: '撤銷證明書通知書',
  },
  sc: {
    LETTER_OF_REQUIREMENTS: '规定事项函件',
    LOR_WITHDRAWAL: '撤回规定事项函件通知书',
    REJECTION_NOTICE: '拒绝申请通知书',
    CASE_REOPENED: '重新处理申请通知书',
    CERTIFICATE: '楼宇安全证明书',
    CERTIFICATE_REVOCATION: '撤销证明书通知书',
  },
  en: {
    LETTER_OF_REQUIREMENTS: 'Letter of Requirements',
    LOR_WITHDRAWAL: 'Withdrawal of Letter of Requirements',
    REJECTION_NOTICE: 'Rejection letter',
    CASE_REOPENED: 'Reopening of application',
    CERTIFICATE: 'Certificate of Building Safety',
    CERTIFICATE_REVOCATION: 'Revocation of certificate',
  },
} as const;

type Lang = keyof typeof EXPECTED;
type DocumentType = keyof (typeof FILE_WORDS)['en'];

/** Text compared without its spaces and line breaks (pdftotext wraps a long line where the PDF does). */
const flat = (s: string) => s.replace(/\s+/g, '');

function pageCount(bytes: Uint8Array): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'letters-'));
  const file = path.join(dir, 'letter.pdf');
  writeFileSync(file, bytes);
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  return Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
}

/** A case in `lang` with its information (version 1) and its officer assigned. */
async function caseIn(status: 'UNDER_EXAMINATION' | 'INSPECTED', lang: Lang) {
  const app = await h.loggedInCase(status, lang);
  await h.database.db.insert(caseVersions).values({
    applicationId: app.id,
    version: 1,
    answers: sealAnswers(ANSWERS),
    reference: app.applicationNo,
    submittedBy: 'APPLICANT',
    createdAt: h.clock.now(),
  });
  const assigned = await h.staffAct(senior.token, app.applicationNo, 'case.assign', status, {
    staffId: officer.id,
  });
  expect(assigned.status).toBe(200);
  return app;
}

/** The newest letter of a history row of that type, as the applicant downloads it, with its file name. */
async function letterOf(token: string, documentType: DocumentType) {
  const current = await h.current(token);
  const doc = current.body.data.history.find((r) => r.documentType === documentType)?.documents[0];
  if (!doc) throw new Error(`no ${documentType} document`);
  const file = await h.download(`/api/cases/current/documents/${doc.id}`, token);
  expect(file.status).toBe(200);
  const disposition = file.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  const ascii = /filename="([^"]*)"/.exec(disposition)?.[1];
  return { bytes: file.bytes, fileName: decodeURIComponent(utf8 ?? ''), ascii: ascii ?? '' };
}

/** Every part a letter has, in the case's language, and its file name. */
function expectLetterParts(
  letter: Awaited<ReturnType<typeof letterOf>>,
  lang: Lang,
  documentType: DocumentType,
  applicationNo: string,
  reference: string,
) {
  const e = EXPECTED[lang];
  const text = pdfText(letter.bytes);
  const pages = pageCount(letter.bytes);
  const has = (needle: string) => expect(flat(text), needle).toContain(flat(needle));
  for (const part of [
    '屋宇署',
    'Buildings Department',
    ...e.addressee,
    e.school,
    e.premises,
    applicationNo,
    reference,
    e.law,
    ...e.officer,
    '2626 1616',
    'letters.officer@bd.gov.hk',
    formatHkDate(h.clock.now(), lang),
  ])
    has(part);
  for (let n = 1; n <= pages; n += 1) has(e.page(n, pages));
  expect(flat(text)).not.toContain(flat(e.notOther));
  expect(letter.fileName).toBe(`${applicationNo} ${FILE_WORDS[lang][documentType]} ${reference}.pdf`);
  expect(letter.ascii).toMatch(/^[\x20-\x7e]+$/);
  expect(letter.ascii).toContain(reference);
  const sig = pdfsig(letter.bytes);
  expect(sig.output).toContain('Signature Validation: Signature is Valid.');
  return text;
}

/** The latest working day before today (an inspection already held). */
function pastWorkingDay(): string {
  const today = hongKongDate(h.clock.now());
  const holidays = new Set(holidaysBetween(addDays(today, -30), today));
  let day = addDays(today, -1);
  while (!isWorkingDay(day, holidays)) day = addDays(day, -1);
  return day;
}

async function insertIssued(applicationId: number, event: string, data: object, createdAt = h.clock.now()) {
  await h.database.db.insert(issuedDocuments).values({
    applicationId,
    event,
    reference: `T-${event}-${applicationId}-${createdAt.getTime()}`,
    data,
    staffId: officer.id,
    createdAt,
  });
}

describe.each(['tc', 'en', 'sc'] as const)('the letters of a case in %s', (lang) => {
  it('the Letter of Requirements, its withdrawal, the rejection and the reopening have every part', async () => {
    const app = await caseIn('UNDER_EXAMINATION', lang);
    const no = app.applicationNo;
    const lor = await h.staffAct(officer.token, no, 'lor.issue', 'UNDER_EXAMINATION', LOR);
    expect(lor.status, JSON.stringify(lor.body)).toBe(200);
    const lorText = expectLetterParts(
      await letterOf(app.token, 'LETTER_OF_REQUIREMENTS'),
      lang,
      'LETTER_OF_REQUIREMENTS',
      no,
      lor.body.data.reference,
    );
    for (const item of [LOR.bdReference, ...LOR.category1, ...LOR.category2, 'MW01234567'])
      expect(flat(lorText)).toContain(flat(item));

    const steps = [
      ['lor.withdraw', 'LOR_ISSUED', 'LOR_WITHDRAWAL'],
      ['case.reject', 'UNDER_EXAMINATION', 'REJECTION_NOTICE'],
      ['case.reopen', 'REJECTED', 'CASE_REOPENED'],
    ] as const;
    for (const [event, from, documentType] of steps) {
      const reason = `The reason for ${event}.`;
      // A rejection is decided by two people (decision 040): proposed by the officer, approved by a senior.
      const done =
        event === 'case.reject'
          ? await h.decide(officer.token, senior.token, no, event, from, { reason })
          : await h.staffAct(senior.token, no, event, from, { reason });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      const text = expectLetterParts(
        await letterOf(app.token, documentType),
        lang,
        documentType,
        no,
        done.body.data.reference,
      );
      expect(flat(text)).toContain(flat(reason));
    }
  });

  it('the certificate says the day of the recorded inspection, and its revocation has every part', async () => {
    const app = await caseIn('INSPECTED', lang);
    const no = app.applicationNo;
    const held = pastWorkingDay();
    await insertIssued(app.id, 'inspection.schedule', { date: held, window: 'AM', officerId: officer.id });
    await insertIssued(app.id, 'inspection.record', { result: 'PASS' });
    const cert = await h.decide(officer.token, senior.token, no, 'certificate.issue', 'INSPECTED', {
      kind: 'CERTIFICATE',
    });
    expect(cert.status, JSON.stringify(cert.body)).toBe(200);
    const text = expectLetterParts(
      await letterOf(app.token, 'CERTIFICATE'),
      lang,
      'CERTIFICATE',
      no,
      cert.body.data.reference,
    );
    const inspectedOn = lang === 'en' ? 'Inspected on: ' : '巡查日期：';
    expect(flat(text)).toContain(flat(`${inspectedOn}${formatHkDate(held, lang)}`));

    const revoked = await h.decide(
      officer.token,
      senior.token,
      no,
      'certificate.revoke',
      'CERTIFICATE_ISSUED',
      {
        reason: 'Unauthorised works were found.',
      },
    );
    expect(revoked.status).toBe(200);
    expectLetterParts(
      await letterOf(app.token, 'CERTIFICATE_REVOCATION'),
      lang,
      'CERTIFICATE_REVOCATION',
      no,
      revoked.body.data.reference,
    );
  });
});

describe('the inspection date on a certificate', () => {
  it('is never a date still to come: a result recorded before the scheduled day prints the day it was recorded', async () => {
    const app = await caseIn('INSPECTED', 'en');
    const today = hongKongDate(h.clock.now());
    // Records as stored data may hold them: scheduled on a Sunday still to come, the result recorded today.
    let sunday = addDays(today, 1);
    while (new Date(`${sunday}T00:00:00Z`).getUTCDay() !== 0) sunday = addDays(sunday, 1);
    await insertIssued(app.id, 'inspection.schedule', { date: sunday, window: 'AM', officerId: officer.id });
    await insertIssued(app.id, 'inspection.record', { result: 'PASS' });
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
    const text = flat(pdfText((await letterOf(app.token, 'CERTIFICATE')).bytes));
    expect(text).toContain(flat(`Inspected on: ${formatHkDate(today, 'en')}`));
    expect(text).not.toContain(flat(formatHkDate(sunday, 'en')));
  });
});

describe('a long letter', () => {
  it('numbers every page "第 n 頁，共 m 頁" in Traditional Chinese', async () => {
    const app = await caseIn('UNDER_EXAMINATION', 'tc');
    const items = Array.from({ length: 40 }, (_, i) => `第 ${i + 1} 項：於一樓提供足夠的逃生途徑及防火門。`);
    const lor = await h.staffAct(officer.token, app.applicationNo, 'lor.issue', 'UNDER_EXAMINATION', {
      ...LOR,
      category1: items,
    });
    expect(lor.status, JSON.stringify(lor.body)).toBe(200);
    const letter = await letterOf(app.token, 'LETTER_OF_REQUIREMENTS');
    const pages = pageCount(letter.bytes);
    expect(pages).toBeGreaterThan(1);
    expectLetterParts(letter, 'tc', 'LETTER_OF_REQUIREMENTS', app.applicationNo, lor.body.data.reference);
  });
});

describe('the letterhead', () => {
  it('is read from master data when the department sets it', async () => {
    await h.database.db.insert(masterData).values([
      { type: 'letterhead', code: 'website', dataValue: 'www.bd.gov.hk/letters' },
      { type: 'letterhead', code: 'address_tc', dataValue: '香港九龍測試道1號' },
    ]);
    try {
      const app = await caseIn('UNDER_EXAMINATION', 'tc');
      const lor = await h.staffAct(officer.token, app.applicationNo, 'lor.issue', 'UNDER_EXAMINATION', LOR);
      expect(lor.status).toBe(200);
      const text = flat(pdfText((await letterOf(app.token, 'LETTER_OF_REQUIREMENTS')).bytes));
      expect(text).toContain('www.bd.gov.hk/letters');
      expect(text).toContain('香港九龍測試道1號');
    } finally {
      await h.database.db.delete(masterData).where(eq(masterData.type, 'letterhead'));
    }
  });
});

describe('the contact details email', () => {
  it.each([
    ['tc', '屋宇署\n此訊息由系統自動發出，請勿回覆。'],
    ['en', 'Buildings Department\nThis message was sent automatically. Please do not reply to it.'],
  ] as const)('ends with the department’s sign-off, as the other emails do (%s)', async (lang, signOff) => {
    const app = await h.loggedInCase('SUBMITTED', lang);
    const no = app.applicationNo;
    expect(
      (await h.staffAct(officer.token, no, 'case.assign', 'SUBMITTED', { staffId: officer.id })).status,
    ).toBe(200);
    const before = h.smtp.mails.length;
    expect((await h.staffAct(officer.token, no, 'case.acknowledge', 'SUBMITTED')).status).toBe(200);
    await h.messages.settled();
    const mail = h.smtp.mails.slice(before).find((m) => m.to.includes(app.email));
    const text = (mail?.text ?? '').replace(/\r\n/g, '\n').trim();
    expect(text).toContain('letters.officer@bd.gov.hk');
    expect(text.endsWith(signOff), text).toBe(true);
  });
});
