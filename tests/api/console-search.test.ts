import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { applications, caseVersions } from '../../drizzle/schema';
import type { CaseStatus } from '../../machines/rules/case-lifecycle';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';

/**
 * The work queue's search, order, officer filter and CSV (docs/console.md, "The work queue";
 * docs/decisions/034-console-search.md), on PGlite or on Postgres (DATABASE_URL).
 */
let h: ConsoleHarness;
let officer: StaffUser;
let colleague: StaffUser;
let senior: StaffUser;
let admin: StaffUser;

beforeAll(async () => {
  h = await startConsoleHarness();
  officer = await h.staff('caseOfficer', 'search.officer');
  colleague = await h.staff('caseOfficer', 'search.colleague');
  senior = await h.staff('seniorOfficer', 'search.senior');
  admin = await h.staff('admin', 'search.admin');
});

afterAll(async () => {
  await h?.close();
});

/** A submitted case whose information (version 1 of its answers) is `answers`, in `form` when given. */
async function caseWith(
  answers: Record<string, unknown>,
  opts: { status?: CaseStatus; submittedAt?: Date; form?: string } = {},
) {
  const app = await h.submittedCase(opts.status ?? 'SUBMITTED', opts.submittedAt ?? h.clock.now());
  await h.database.db
    .update(applications)
    .set({
      applicantNameEn: (answers.applicantNameEn as string | undefined) ?? null,
      applicantNameZh: (answers.applicantNameZh as string | undefined) ?? null,
      ...(opts.form ? { formCode: opts.form } : {}),
    })
    .where(eq(applications.id, app.id));
  await h.database.db.insert(caseVersions).values({
    applicationId: app.id,
    version: 1,
    answers,
    reference: app.applicationNo,
    submittedBy: 'APPLICANT',
    createdAt: h.clock.now(),
  });
  return app;
}

/** The application numbers the queue finds for `q` (with more filters in `more`). */
async function found(q: string, more = '', token = officer.token): Promise<string[]> {
  const reply = await h.queue(token, `?q=${encodeURIComponent(q)}${more}`);
  expect(reply.status, q).toBe(200);
  return reply.body.data.cases.map((r) => r.applicationNo);
}

async function csv(query: string, token = officer.token) {
  const response = await fetch(`${h.baseUrl}/api/staff/cases.csv${query}`, {
    headers: { cookie: `bd_staff=${token}` },
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('the search box', () => {
  it('finds a case by part of its application number, in any case of letters; applicationNo= stays exact', async () => {
    const app = await caseWith({ applicantNameEn: 'NUMBER Test' });
    const digits = app.applicationNo.slice(-6);
    expect(await found(digits)).toEqual([app.applicationNo]);
    expect(await found(app.applicationNo.slice(1).toLowerCase())).toEqual([app.applicationNo]);
    expect((await h.queue(officer.token, `?applicationNo=${digits}`)).body.data.total).toBe(0);
  });

  it('finds a Traditional school name by a Simplified query, and a Simplified one by a Traditional query', async () => {
    const traditional = await caseWith({ schoolNameEn: 'Lingnan Academy', schoolNameZh: '嶺南書院學習中心' });
    const simplified = await caseWith({ centreNameEn: 'Hung Hom Nursery', centreNameZh: '红磡幼儿护理中心' });
    expect(await found('岭南书院')).toEqual([traditional.applicationNo]);
    expect(await found('嶺南書院')).toEqual([traditional.applicationNo]);
    expect(await found('书院学习')).toEqual([traditional.applicationNo]);
    expect(await found('紅磡幼兒護理')).toEqual([simplified.applicationNo]);
    expect(await found('LINGNAN academy')).toEqual([traditional.applicationNo]);
  });

  it('finds the premises by an English fragment in any case, and by its Chinese address', async () => {
    const app = await caseWith({
      applicantNameEn: 'WONG Siu Ming',
      applicantNameZh: '黃小明',
      premisesAddress: {
        en: 'Sunrise Industrial Building, 88 Tsat Tsz Mui Road, North Point',
        zh: '北角七姊妹道88號旭日工業大廈',
        floor: '7/F',
      },
    });
    expect(await found('tsat tsz MUI road')).toEqual([app.applicationNo]);
    expect(await found('七姊妹道88号')).toEqual([app.applicationNo]);
    expect(await found('wong siu ming')).toEqual([app.applicationNo]);
    expect(await found('黄小明')).toEqual([app.applicationNo]);
  });

  it('finds a self-certification by the BD reference it quotes, with or without the space', async () => {
    const app = await caseWith({ applicantNameEn: 'SELF Cert', lorReference: 'BD 4/5123/26' });
    expect(await found('bd 4/5123/26')).toEqual([app.applicationNo]);
    expect(await found('BD4/5123')).toEqual([app.applicationNo]);
  });

  it('finds the case by the BD reference of a Letter of Requirements issued after it was indexed', async () => {
    const app = await caseWith({ applicantNameEn: 'LETTER Test' }, { status: 'UNDER_EXAMINATION' });
    expect(await found('BD 3/7788/26')).toEqual([]);
    await h.staffAct(senior.token, app.applicationNo, 'case.assign', 'UNDER_EXAMINATION', {
      staffId: officer.id,
    });
    const issued = await h.staffAct(officer.token, app.applicationNo, 'lor.issue', 'UNDER_EXAMINATION', {
      bdReference: 'BD 3/7788/26',
      date: '2026-01-05',
      category1: ['Provide a means of escape from the first floor.'],
      category2: [],
      minorWorks: [],
    });
    expect(issued.status).toBe(200);
    expect(await found('3/7788/26')).toEqual([app.applicationNo]);
  });

  it('finds a case by its updated name, no longer by the name it had', async () => {
    const app = await caseWith({ schoolNameEn: 'Old Harbour School', schoolNameZh: '舊海港學校' });
    expect(await found('old harbour school')).toEqual([app.applicationNo]);
    await h.database.db.insert(caseVersions).values({
      applicationId: app.id,
      version: 2,
      answers: { schoolNameEn: 'New Peak School', schoolNameZh: '新山頂學校' },
      reference: `UPD-${app.applicationNo}-1`,
      submittedBy: 'APPLICANT',
      createdAt: h.clock.now(),
    });
    expect(await found('old harbour school')).toEqual([]);
    expect(await found('新山顶')).toEqual([app.applicationNo]);
  });

  it('takes % and _ as themselves, and combines with the other filters', async () => {
    await caseWith({ schoolNameEn: 'Percent Free School' });
    expect(await found('%')).toEqual([]);
    expect(await found('_')).toEqual([]);
    const app = await caseWith({ schoolNameEn: 'Filtered Combo School' }, { status: 'ACKNOWLEDGED' });
    expect(await found('combo school', '&status=ACKNOWLEDGED')).toEqual([app.applicationNo]);
    expect(await found('combo school', '&status=SUBMITTED')).toEqual([]);
  });

  it.each([
    ['en', 'Search for at most 100 characters.'],
    ['tc', '搜尋內容最多 100 個字元。'],
    ['sc', '搜索内容最多 100 个字符。'],
  ])('refuses a search too long with 400 in the envelope (%s)', async (lang, message) => {
    const reply = await h.queue(officer.token, `?q=${'a'.repeat(101)}&lang=${lang}`);
    expect(reply.status).toBe(400);
    expect(reply.body.meta.code).toBe('BAD_REQUEST');
    expect(reply.body.data).toEqual({ errors: [{ path: 'q', message }] });
  });

  it('refuses control characters and a repeated q with 400, the CSV too', async () => {
    for (const bad of ['?q=a%07b', '?q=a%00', '?q=a&q=b']) {
      const reply = await h.queue(officer.token, bad);
      expect(reply.status, bad).toBe(400);
      expect(reply.body.meta.code, bad).toBe('BAD_REQUEST');
    }
    const { response, bytes } = await csv('?q=a%07b&lang=sc');
    expect(response.status).toBe(400);
    const body = JSON.parse(new TextDecoder().decode(bytes)) as { meta: { message: string } };
    expect(body.meta.message).toBe('只可搜索英文字母、数字、中文字或标点符号。');
  });
});

describe('the order and the officer filter', () => {
  it('lists the open cases first by due date, then the finished ones by due date', async () => {
    const form = 'ORDER-Q';
    const day = (d: number) => new Date(Date.UTC(2026, 0, d, 2));
    const closed = await caseWith({}, { form, status: 'CLOSED', submittedAt: day(5) });
    const openLate = await caseWith({}, { form, status: 'UNDER_EXAMINATION', submittedAt: day(20) });
    const certified = await caseWith({}, { form, status: 'CERTIFICATE_ISSUED', submittedAt: day(6) });
    const openEarly = await caseWith({}, { form, status: 'SUBMITTED', submittedAt: day(12) });
    const rejected = await caseWith({}, { form, status: 'REJECTED', submittedAt: day(7) });
    const withdrawn = await caseWith({}, { form, status: 'WITHDRAWN', submittedAt: day(8) });
    const page = (await h.queue(officer.token, `?form=${form}`)).body.data;
    expect(page.cases.map((r) => [r.applicationNo, r.finished])).toEqual([
      [openEarly.applicationNo, false],
      [openLate.applicationNo, false],
      [closed.applicationNo, true],
      [certified.applicationNo, true],
      [rejected.applicationNo, true],
      [withdrawn.applicationNo, true],
    ]);
  });

  it('filters by a named colleague, and names every officer (no admin) for the filter', async () => {
    const form = 'OFFICER-Q';
    const theirs = await caseWith({}, { form });
    await caseWith({}, { form });
    await h.staffAct(senior.token, theirs.applicationNo, 'case.assign', 'SUBMITTED', {
      staffId: colleague.id,
    });
    const page = (await h.queue(officer.token, `?form=${form}&officer=${colleague.id}`)).body.data;
    expect(page.cases.map((r) => [r.applicationNo, r.officer?.nameEn])).toEqual([
      [theirs.applicationNo, 'Officer search.colleague'],
    ]);
    expect(page.officers.map((o) => o.id).sort()).toEqual(
      [officer.id, colleague.id, senior.id].sort((a, b) => a - b),
    );
    expect(page.officers.find((o) => o.id === colleague.id)).toMatchObject({
      nameEn: 'Officer search.colleague',
      nameZh: 'search.colleague主任',
    });
  });
});

describe('the CSV export', () => {
  it('has the queue’s filters and order, a BOM, the officer’s language, Hong Kong dates and no formula', async () => {
    const form = 'CSV-Q';
    const late = await caseWith(
      { applicantNameEn: '=HYPERLINK("x")', premisesAddress: { en: '1 Queen’s Road, Central' } },
      { form, submittedAt: new Date('2025-12-30T15:30:00Z') },
    );
    await h.database.db
      .update(applications)
      .set({ premisesAddressEn: '1 Queen’s Road, Central' })
      .where(eq(applications.id, late.id));
    const done = await caseWith(
      { applicantNameEn: 'CHAN Tai Man' },
      { form, status: 'CLOSED', submittedAt: new Date('2025-12-22T02:00:00Z') },
    );
    await h.staffAct(senior.token, late.applicationNo, 'case.assign', 'SUBMITTED', { staffId: colleague.id });
    const { response, bytes } = await csv(`?form=${form}&lang=tc`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="work-queue-.+\.csv"/);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1).split('\r\n');
    expect(lines).toEqual([
      '"申請編號","表格","狀況","申請人","處所地址","提交日期","聯絡資料到期日","聯絡資料已逾期","補交資料要求已逾期","人員"',
      `"${late.applicationNo}","${form}","已提交","'=HYPERLINK(""x"")","1 Queen’s Road, Central","2025年12月30日","2026年1月2日","是","","search.colleague主任"`,
      `"${done.applicationNo}","${form}","已結案","CHAN Tai Man","","2025年12月22日","2025年12月24日","","",""`,
      '',
    ]);
  });

  it('searches as the queue does, and is every case, not a page', async () => {
    const form = 'CSV-ALL';
    for (let i = 0; i < 52; i++) await caseWith({ schoolNameZh: '海濱補習社' }, { form });
    const text = new TextDecoder().decode(
      (await csv(`?form=${form}&q=${encodeURIComponent('海滨补习')}&page=1`)).bytes,
    );
    expect(text.split('\r\n').filter(Boolean)).toHaveLength(53);
  });
});

describe('who may see the queue and its CSV', () => {
  it.each([
    ['a case officer', () => officer.token],
    ['a senior officer', () => senior.token],
    ['an admin, who reads the queue and acts on no case', () => admin.token],
  ])('%s: 200', async (_who, token) => {
    expect((await h.queue(token(), '?q=school')).status).toBe(200);
    expect((await csv('?q=school', token())).response.status).toBe(200);
  });

  it('an applicant’s session and no session: 401', async () => {
    const login = await h.loggedInCase('SUBMITTED');
    for (const path of ['/api/staff/cases?q=school', '/api/staff/cases.csv?q=school']) {
      const withBearer = await fetch(`${h.baseUrl}${path}`, {
        headers: { authorization: `Bearer ${login.token}` },
      });
      expect(withBearer.status, path).toBe(401);
      expect((await fetch(`${h.baseUrl}${path}`)).status, path).toBe(401);
    }
  });
});
