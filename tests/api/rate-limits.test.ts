import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { closeApp, createApp } from '../../api/app';
import { DEFAULT_RATE_LIMITS } from '../../api/http/rate-limit';
import { rateLimits } from '../../drizzle/schema';
import { type TestServer, listen } from '../support/http';
import { TEST_OTP_SECRET } from '../support/login';
import {
  type ApplicationHarness,
  type DraftState,
  draftPath,
  startApplicationHarness,
} from './application-harness';

/**
 * The rate limits of the endpoints that cost CPU or storage: 429 RATE_LIMITED with Retry-After and a
 * message in three languages, counted in Postgres so that two app instances on one database (as two
 * processes behind a load balancer) share the count. Small limits here; the defaults are in
 * api/http/rate-limit.ts.
 */

const SMALL = {
  pdf: { points: 3, seconds: 600 },
  signing: { points: 2, seconds: 600 },
  upload: { points: 2, seconds: 600 },
  draftCreate: { points: 1000, seconds: 600 },
};

let h: ApplicationHarness;
let second: TestServer;
let secondApp: ReturnType<typeof createApp>;

beforeAll(async () => {
  h = await startApplicationHarness({ rateLimits: SMALL });
  // A second app on the same database: another process, as far as the limits can tell.
  secondApp = createApp({
    db: h.database,
    logger: pino({ level: 'silent' }),
    clock: h.clock,
    auth: { otpSecret: TEST_OTP_SECRET, minSendDurationMs: 0 },
    rateLimits: SMALL,
  });
  second = await listen(secondApp);
});

afterAll(async () => {
  await second?.close();
  await closeApp(secondApp);
  await h?.close();
});

const pdf = (base: string, draft: DraftState, lang = 'en') =>
  fetch(`${base}${draftPath(draft.applicationNo)}/pdf?lang=${lang}`, {
    headers: { authorization: `Bearer ${draft.token}` },
  });

describe('rate limits', () => {
  it('answer the PDF past its limit with 429, Retry-After and a message, counting across two processes', async () => {
    await h.database.db.delete(rateLimits);
    const draft = await h.newDraft();

    const answers = [
      await pdf(h.baseUrl, draft),
      await pdf(second.baseUrl, draft),
      await pdf(h.baseUrl, draft),
      await pdf(second.baseUrl, draft),
    ];

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    const refused = answers[3]!;
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    const body = (await refused.json()) as { meta: { code: string; message: string }; data: unknown };
    expect(body.meta.code).toBe('RATE_LIMITED');
    expect(body.meta.message).toBe(`Too many requests. Please try again in ${retryAfter} seconds.`);
    expect(body.data).toEqual({ retryAfterSeconds: retryAfter });
  });

  it('say so in Traditional and Simplified Chinese', async () => {
    const draft = await h.newDraft();

    const tc = (await (await pdf(h.baseUrl, draft, 'tc')).json()) as { meta: { message: string } };
    const sc = (await (await pdf(h.baseUrl, draft, 'sc')).json()) as { meta: { message: string } };

    expect(tc.meta.message).toMatch(/^請求過於頻繁，請於 \d+ 秒後再試。$/);
    expect(sc.meta.message).toMatch(/^请求过于频繁，请于 \d+ 秒后再试。$/);
  });

  it('limit signing starts', async () => {
    await h.database.db.delete(rateLimits);
    const draft = await h.readyDraft();

    const statuses = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await h.call('POST', `${draftPath(draft.applicationNo)}/signing/iamsmart`, {
        token: draft.token,
        body: {},
      });
      statuses.push(res.status);
    }

    expect(statuses).toEqual([201, 201, 429]);
  });

  it('limit uploads, before the body is read', async () => {
    await h.database.db.delete(rateLimits);
    const draft = await h.newDraft();
    const file = new Uint8Array(10);

    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await h.upload(draft, 'layoutPlans', file)).status);

    expect(statuses).toEqual([422, 422, 429]);
  });

  it('limit the one-time codes sent from one address, whatever the number, the contact or the route', async () => {
    await h.database.db.delete(rateLimits);
    const send = (i: number, route = '/api/auth/otp/send', lang = 'en') =>
      h.call('POST', `${route}?lang=${lang}`, {
        body: { applicationNo: `RL-${i}-X`, contact: `person.${i}@example.com` },
      });

    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => send(i)));
    const sent = answers.filter((a) => a.status === 200).length;
    console.log(`one-time codes: ${sent} of 30 parallel sends from one address answered 200 before 429`);

    expect(sent).toBe(DEFAULT_RATE_LIMITS.otpSend.points);
    const refused = answers.find((a) => a.status === 429)!;
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(refused.body.meta.code).toBe('RATE_LIMITED');
    expect(refused.body.meta.message).toBe(`Too many requests. Please try again in ${retryAfter} seconds.`);
    // The same count for every route that sends a code, before its body is read.
    const resume = await send(40, '/api/drafts/resume/send', 'tc');
    expect(resume.status).toBe(429);
    expect(resume.body.meta.message).toMatch(/^請求過於頻繁，請於 \d+ 秒後再試。$/);
    const appointee = await h.call('POST', '/api/auth/appointee/otp/send?lang=sc', { body: {} });
    expect(appointee.status).toBe(429);
    expect(appointee.body.meta.message).toMatch(/^请求过于频繁，请于 \d+ 秒后再试。$/);
  });
});
