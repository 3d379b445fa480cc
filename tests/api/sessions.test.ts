import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { masterData } from '../../drizzle/schema';
import type { SessionData } from '../../machines/rules/otp';
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

async function loggedIn(): Promise<{ token: string; applicationNo: string }> {
  const app = await h.addApplication();
  const login = await h.login(app.applicationNo, app.email);
  return { token: login.token, applicationNo: app.applicationNo };
}

const ended = {
  meta: { code: 'UNAUTHORIZED', message: 'Your session has ended. Please log in again.' },
  data: null,
};

async function setIdleMinutes(value: string): Promise<void> {
  await h.database.db
    .update(masterData)
    .set({ dataValue: value })
    .where(and(eq(masterData.type, 'admin_setting'), eq(masterData.code, 'logout_idletime_frontend')));
}

describe('GET /api/auth/session', () => {
  it('answers the session of a bearer token', async () => {
    const { token, applicationNo } = await loggedIn();
    const now = h.clock.now().getTime();

    const res = await h.get<SessionData>('/api/auth/session', token);

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      applicationNo,
      role: 'applicant',
      userId: `applicant:${applicationNo}`,
      ...grantsOf('applicant'),
      idleExpiresAt: new Date(now + 30 * 60_000).toISOString(),
      absoluteExpiresAt: new Date(now + 12 * 3600_000).toISOString(),
    });
  });

  it('answers 401 without a token', async () => {
    const res = await h.get('/api/auth/session');

    expect(res.status).toBe(401);
    expect(res.body).toEqual(ended);
  });

  it.each([
    ['an unknown token', 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a token of the wrong shape', 'Bearer not-a-token'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer', 'Bearer '],
  ])('answers 401 for %s', async (_case, authorization) => {
    const response = await fetch(`${h.baseUrl}/api/auth/session`, { headers: { authorization } });

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(ended);
  });

  it('says the session has ended in Traditional Chinese when asked', async () => {
    const res = await h.get('/api/auth/session?lang=tc');

    expect(res.body.meta.message).toBe('你的登入時段已結束，請重新登入。');
  });
});

describe('the idle limit', () => {
  it('ends a session left alone for 30 minutes', async () => {
    const { token } = await loggedIn();
    h.clock.advance({ minutes: 30 });

    const res = await h.get('/api/auth/session', token);

    expect(res.status).toBe(401);
    expect(res.body).toEqual(ended);
  });

  it('counts from the last request, so an active session lives on', async () => {
    const { token } = await loggedIn();
    h.clock.advance({ minutes: 29 });
    const before = await h.get('/api/application/history', token);
    h.clock.advance({ minutes: 29 });

    const res = await h.get('/api/auth/session', token);

    expect(before.status).toBe(200);
    expect(res.status).toBe(200);
  });

  it('takes the idle time-out from master data when the session begins, and keeps it', async () => {
    await setIdleMinutes('5');
    try {
      const app = await h.addApplication();
      const login = await h.login(app.applicationNo, app.email);
      await setIdleMinutes('60');
      h.clock.advance({ minutes: 5 });

      const res = await h.get('/api/auth/session', login.token);

      expect(login.idleTimeoutMinutes).toBe(5);
      expect(res.status).toBe(401);
    } finally {
      await setIdleMinutes('30');
    }
  });
});

describe('the absolute limit', () => {
  it('ends a session 12 hours after login however active it is', async () => {
    const { token } = await loggedIn();
    const statuses = [];
    for (let elapsed = 0; elapsed < 12 * 60 - 20; elapsed += 20) {
      h.clock.advance({ minutes: 20 });
      statuses.push((await h.post('/api/auth/keepalive', token)).status);
    }
    h.clock.advance({ minutes: 20 });

    const res = await h.get('/api/auth/session', token);

    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(res.status).toBe(401);
  });

  it('never answers an idle end later than the absolute end', async () => {
    const { token } = await loggedIn();
    for (let i = 0; i < 12 * 3 - 1; i++) {
      h.clock.advance({ minutes: 20 });
      await h.post('/api/auth/keepalive', token);
    }
    h.clock.advance({ minutes: 10 });

    const res = await h.get<SessionData>('/api/auth/session', token);

    expect(res.body.data.idleExpiresAt).toBe(res.body.data.absoluteExpiresAt);
  });
});

describe('POST /api/auth/keepalive', () => {
  it('extends the idle limit from now', async () => {
    const { token } = await loggedIn();
    h.clock.advance({ minutes: 20 });

    const res = await h.post<{ idleExpiresAt: string }>('/api/auth/keepalive', token);
    h.clock.advance({ minutes: 20 });
    const later = await h.get('/api/auth/session', token);

    expect(res.status).toBe(200);
    expect(res.body.meta.message).toBe('You are still logged in.');
    expect(res.body.data.idleExpiresAt).toBe(new Date(h.clock.now().getTime() + 10 * 60_000).toISOString());
    expect(later.status).toBe(200);
  });

  it('answers 401 for a session that is already over', async () => {
    const { token } = await loggedIn();
    h.clock.advance({ minutes: 31 });

    const res = await h.post('/api/auth/keepalive', token);

    expect(res.status).toBe(401);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the token: the next request answers 401', async () => {
    const { token } = await loggedIn();

    const res = await h.post('/api/auth/logout', token);
    const after = await h.get('/api/auth/session', token);
    const again = await h.post('/api/auth/logout', token);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ meta: { code: '200', message: 'You have logged out.' }, data: null });
    expect(after.status).toBe(401);
    expect(again.status).toBe(401);
  });

  it('ends only its own session', async () => {
    const app = await h.addApplication();
    const first = await h.login(app.applicationNo, app.email);
    h.clock.advance({ minutes: 1 });
    const second = await h.login(app.applicationNo, app.email);

    await h.post('/api/auth/logout', first.token);
    const res = await h.get('/api/auth/session', second.token);

    expect(res.status).toBe(200);
  });
});
