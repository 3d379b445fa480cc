import { request } from 'node:http';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeApp, createApp } from '../../api/app';
import { passwordTotpProvider, type StaffIdentityProvider } from '../../api/modules/auth';
import { createSignInGate } from '../../api/modules/auth/staff-sign-in-limits';
import {
  SIGN_IN_ADDRESS_ATTEMPTS,
  SIGN_IN_ATTEMPTS,
  SIGN_IN_SLOW_AFTER,
} from '../../machines/rules/staff-sign-in';
import { type TestServer, listen } from '../support/http';
import { TEST_OTP_SECRET } from '../support/login';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';

/**
 * The limits of staff sign-in (docs/decisions/030-sign-in-lockouts.md) over real HTTP, each caller from
 * its own loopback address (127.0.0.x, the socket's source address: what `req.ip` is). The identity
 * provider is the real password-and-TOTP one, wrapped to count how many sign-ins reached the password check.
 */

let h: ConsoleHarness;
let app: ReturnType<typeof createApp>;
let server: TestServer;
let checks = 0;

/** The real provider, counting its calls: each is one argon2 password check. */
const counting = (inner: StaffIdentityProvider): StaffIdentityProvider => ({
  authenticate(input, now) {
    checks += 1;
    return inner.authenticate(input, now);
  },
});

beforeAll(async () => {
  h = await startConsoleHarness();
  app = createApp({
    db: h.database,
    logger: pino({ level: 'silent' }),
    clock: h.clock,
    auth: {
      otpSecret: TEST_OTP_SECRET,
      minSendDurationMs: 0,
      staffIdentity: (db) => counting(passwordTotpProvider(db)),
      // One try every 3 s once an account is slowed (default 30 s), so that a test need not wait long.
      staffSignInLimits: { slowSeconds: 3 },
    },
    rateLimits: false,
  });
  server = await listen(app);
});

afterAll(async () => {
  await server?.close();
  if (app) await closeApp(app);
  await h?.close();
});

interface Answer {
  status: number;
  code: string;
  message: string;
  retryAfter: number;
}

/** POST /api/staff/session from the loopback address `from`. */
function signInFrom(from: string, body: unknown, lang = 'en'): Promise<Answer> {
  const url = new URL(`${server.baseUrl}/api/staff/session?lang=${lang}`);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const body = JSON.parse(text) as { meta: { code: string; message: string } };
          resolve({
            status: res.statusCode ?? 0,
            code: body.meta.code,
            message: body.meta.message,
            retryAfter: Number(res.headers['retry-after'] ?? 0),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const right = (user: StaffUser) => ({
  username: user.username,
  password: user.password,
  code: h.totp(user.totpSecret),
});
const wrong = (user: StaffUser, n = 0) => ({
  username: user.username,
  password: `wrong password ${n}`,
  code: '123456',
});
const tally = (answers: Answer[]) =>
  answers.reduce<Record<string, number>>((t, a) => ({ ...t, [a.code]: (t[a.code] ?? 0) + 1 }), {});

describe('staff sign-in limits', () => {
  it('counts an attempt before the password check: of 200 parallel guesses, at most SIGN_IN_ATTEMPTS reach it, and the right password after them is refused', async () => {
    const user = await h.staff('caseOfficer', 'parallel.officer');
    h.clock.advance({ seconds: 60 });
    checks = 0;

    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => signInFrom('127.0.0.21', wrong(user, i))),
    );
    const reached = checks;
    console.log(
      `staff sign-in: of 200 parallel guesses, ${reached} reached the password check`,
      tally(answers),
    );

    expect(reached).toBeLessThanOrEqual(SIGN_IN_ATTEMPTS);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(reached);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(200 - reached);
    const after = await signInFrom('127.0.0.21', right(user));
    expect(after.status).toBe(429);
    expect(after.retryAfter).toBeGreaterThan(0);
    expect(checks).toBe(reached);
  });

  it('locks the account only from the stranger’s address: the officer still signs in from another', async () => {
    const user = await h.staff('caseOfficer', 'stranger.target');
    h.clock.advance({ seconds: 60 });

    const stranger: Answer[] = [];
    for (let i = 0; i < 20; i += 1) stranger.push(await signInFrom('127.0.0.31', wrong(user, i)));
    const officer = await signInFrom('127.0.0.32', right(user));
    console.log('staff sign-in: stranger at A', tally(stranger), `then the officer at B: ${officer.status}`);

    expect(stranger.slice(0, SIGN_IN_ATTEMPTS).map((a) => a.status)).toEqual(
      Array<number>(SIGN_IN_ATTEMPTS).fill(401),
    );
    expect(new Set(stranger.slice(SIGN_IN_ATTEMPTS).map((a) => a.code))).toEqual(new Set(['STAFF_LOCKED']));
    expect(stranger[SIGN_IN_ATTEMPTS]!.retryAfter).toBeGreaterThan(0);
    expect(officer.status).toBe(200);
    // The stranger's address stays locked for this account, right password or not.
    h.clock.advance({ seconds: 60 });
    expect((await signInFrom('127.0.0.31', right(user))).code).toBe('STAFF_LOCKED');
  });

  it('limits one address across user names, and only that address', async () => {
    const user = await h.staff('caseOfficer', 'address.neighbour');
    h.clock.advance({ seconds: 60 });
    checks = 0;

    const answers = await Promise.all(
      Array.from({ length: SIGN_IN_ADDRESS_ATTEMPTS + 10 }, (_, i) =>
        signInFrom('127.0.0.41', { username: `nobody.${i}`, password: 'guess', code: '123456' }),
      ),
    );

    expect(checks).toBeLessThanOrEqual(SIGN_IN_ADDRESS_ATTEMPTS);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(checks);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(SIGN_IN_ADDRESS_ATTEMPTS + 10 - checks);
    expect(refused[0]!.code).toBe('RATE_LIMITED');
    expect(refused[0]!.message).toBe(
      `Too many requests. Please try again in ${refused[0]!.retryAfter} seconds.`,
    );
    expect((await signInFrom('127.0.0.41', right(user), 'tc')).message).toMatch(/^請求過於頻繁/);
    expect((await signInFrom('127.0.0.42', right(user))).status).toBe(200);
  });

  it('slows an account under attack from many addresses, but never from an address its officer signed in from', async () => {
    const user = await h.staff('caseOfficer', 'many.addresses');
    expect((await signInFrom('127.0.0.51', right(user))).status).toBe(200);
    h.clock.advance({ seconds: 60 });

    const attack: Answer[] = [];
    for (let i = 0; i <= SIGN_IN_SLOW_AFTER + 2; i += 1)
      attack.push(await signInFrom(`127.0.1.${i + 1}`, wrong(user, i)));
    const fromNew = await signInFrom('127.0.0.52', right(user));
    const fromKnown = await signInFrom('127.0.0.51', right(user));

    // Ten failures, then one more through the slow lane, then the lane is shut for its seconds.
    expect(attack.slice(0, SIGN_IN_SLOW_AFTER + 1).map((a) => a.status)).toEqual(
      Array<number>(SIGN_IN_SLOW_AFTER + 1).fill(401),
    );
    expect(attack.slice(SIGN_IN_SLOW_AFTER + 1).map((a) => a.code)).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
    expect(fromNew.code).toBe('RATE_LIMITED');
    expect(fromNew.retryAfter).toBeLessThanOrEqual(3);
    expect(fromKnown.status).toBe(200);
  });
});

describe('staff sign-in gate', () => {
  it('refuses addresses the account never signed in from past the ceiling, not one it signed in from', async () => {
    const gate = createSignInGate({
      db: h.database.db,
      secret: 'gate-test',
      limits: { slowAfter: 100, ceiling: 3 },
    });
    const first = await gate.reserve('ceiling.officer', 'home');
    await first.succeeded();

    for (let i = 0; i < 3; i += 1) await gate.reserve('ceiling.officer', `stranger-${i}`);
    await expect(gate.reserve('ceiling.officer', 'stranger-9')).rejects.toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
    });
    await expect(gate.reserve('ceiling.officer', 'home')).resolves.toBeDefined();
  });
});
