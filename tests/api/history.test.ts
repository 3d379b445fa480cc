import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { demoDataFromEnv } from '../../api/server';
import { demoApplications, seedDemo } from '../../drizzle/demo';
import { applicationHistory, applications } from '../../drizzle/schema';
import type { HistoryData } from '../../machines/rules/history';
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

async function withHistory() {
  const app = await h.addApplication();
  await h.database.db.insert(applicationHistory).values([
    {
      applicationId: app.id,
      submissionDate: new Date('2026-01-02T02:00:00Z'),
      documentType: 'APPLICATION_FORM',
      status: 'SUBMITTED',
      submittedBy: 'APPLICANT',
      date: new Date('2026-01-02T02:00:00Z'),
    },
    {
      applicationId: app.id,
      submissionDate: new Date('2026-01-20T08:00:00Z'),
      documentType: 'LETTER_OF_REQUIREMENTS',
      status: 'LOR_ISSUED',
      submittedBy: 'BD',
      date: new Date('2026-01-21T01:00:00Z'),
    },
    {
      applicationId: app.id,
      submissionDate: new Date('2026-01-05T03:00:00Z'),
      documentType: 'ACKNOWLEDGEMENT',
      status: 'ACKNOWLEDGED',
      submittedBy: 'BD',
      date: new Date('2026-01-05T03:00:00Z'),
    },
  ]);
  const login = await h.login(app.applicationNo, app.email);
  return { ...app, token: login.token };
}

describe('GET /api/application/history', () => {
  it('answers the history of the session’s application, newest first, in codes', async () => {
    const app = await withHistory();

    const res = await h.get<HistoryData>('/api/application/history', app.token);

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      applicationNo: app.applicationNo,
      rows: [
        {
          submissionDate: '2026-01-20T08:00:00.000Z',
          documentType: 'LETTER_OF_REQUIREMENTS',
          status: 'LOR_ISSUED',
          submittedBy: 'BD',
          date: '2026-01-21T01:00:00.000Z',
        },
        {
          submissionDate: '2026-01-05T03:00:00.000Z',
          documentType: 'ACKNOWLEDGEMENT',
          status: 'ACKNOWLEDGED',
          submittedBy: 'BD',
          date: '2026-01-05T03:00:00.000Z',
        },
        {
          submissionDate: '2026-01-02T02:00:00.000Z',
          documentType: 'APPLICATION_FORM',
          status: 'SUBMITTED',
          submittedBy: 'APPLICANT',
          date: '2026-01-02T02:00:00.000Z',
        },
      ],
    });
  });

  it('accepts the session’s own number in the query, however it is written', async () => {
    const app = await withHistory();

    const res = await h.get<HistoryData>(
      `/api/application/history?applicationNo=${encodeURIComponent(` ${app.applicationNo.toLowerCase()} `)}`,
      app.token,
    );

    expect(res.status).toBe(200);
    expect(res.body.data.rows).toHaveLength(3);
  });

  it('answers 403 FORBIDDEN for another application’s number', async () => {
    const mine = await withHistory();
    const theirs = await h.addApplication();

    const res = await h.get(`/api/application/history?applicationNo=${theirs.applicationNo}`, mine.token);

    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      meta: { code: 'FORBIDDEN', message: 'You cannot see this application.' },
      data: null,
    });
  });

  it('answers 403 in Simplified Chinese when asked', async () => {
    const mine = await withHistory();

    const res = await h.get('/api/application/history?applicationNo=OTHER-2026-1&lang=sc', mine.token);

    expect(res.body.meta.message).toBe('你无权查阅此申请。');
  });

  it('answers 400 for a malformed application number in the query', async () => {
    const mine = await withHistory();

    const res = await h.get('/api/application/history?applicationNo=%3Cscript%3E', mine.token);

    expect(res.status).toBe(400);
    expect(res.body.meta.code).toBe('BAD_REQUEST');
  });

  it('answers 401 without a token', async () => {
    const res = await h.get('/api/application/history');

    expect(res.status).toBe(401);
    expect(res.body.meta.code).toBe('UNAUTHORIZED');
  });

  it('answers an empty list for an application without history', async () => {
    const app = await h.addApplication();
    const login = await h.login(app.applicationNo, app.email);

    const res = await h.get<HistoryData>('/api/application/history', login.token);

    expect(res.body.data).toEqual({ applicationNo: app.applicationNo, rows: [] });
  });
});

describe('the demo data', () => {
  const numbers = demoApplications.map((d) => d.application.applicationNo);

  it('loads the demo applications with their history, once however often it runs', async () => {
    await seedDemo(h.database.db);
    await seedDemo(h.database.db);

    const apps = await h.database.db
      .select({ id: applications.id })
      .from(applications)
      .where(inArray(applications.applicationNo, numbers));
    const rows = await h.database.db
      .select({ id: applicationHistory.id })
      .from(applicationHistory)
      .where(
        inArray(
          applicationHistory.applicationId,
          apps.map((a) => a.id),
        ),
      );

    expect(apps).toHaveLength(4);
    expect(rows).toHaveLength(demoApplications.reduce((n, d) => n + d.history.length, 0));
  });

  it('lets you log in to A2-2026-000123 with its email and see its history', async () => {
    await seedDemo(h.database.db);

    const login = await h.login('a2-2026-000123', 'applicant.a2@example.hk');
    const res = await h.get<HistoryData>('/api/application/history', login.token);

    expect(res.body.data.applicationNo).toBe('A2-2026-000123');
    expect(res.body.data.rows.map((r) => r.status)).toEqual(['ACKNOWLEDGED', 'SUBMITTED', 'SUBMITTED']);
  });

  it('gives each demo application three to six history rows and a contact', async () => {
    await seedDemo(h.database.db);
    for (const { application, history } of demoApplications) {
      expect(history.length).toBeGreaterThanOrEqual(3);
      expect(history.length).toBeLessThanOrEqual(6);
      expect(application.email ?? application.mobile).toBeTruthy();
    }
    const [ccc] = await h.database.db
      .select({ mobile: applications.mobile })
      .from(applications)
      .where(eq(applications.applicationNo, 'CCCAI-C2-2026-000045'));
    expect(ccc?.mobile).toBe('91234567');
  });

  it.each([
    [{}, true],
    [{ NODE_ENV: 'test' }, true],
    [{ DEMO_DATA: '0' }, false],
    [{ NODE_ENV: 'production' }, false],
  ])('is loaded at start with env %j: %s', (env, expected) => {
    expect(demoDataFromEnv(env)).toBe(expected);
  });
});
