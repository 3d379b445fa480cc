import { request as httpRequest } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../api/server';
import { applications } from '../../drizzle/schema';
import { hongKongToday } from '../../machines/rules/hk-date';
import { findRoute } from '../../machines/routes';
import { addDays } from '../../machines/rules/working-days';
import { postJson } from '../support/http';
import { codeIn, silent } from '../support/login';
import { type CapturedMail, type SmtpCapture, startSmtpCapture } from '../support/smtp';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

/**
 * The links in messages point to the address the portal runs on (api/http/portal-address.ts,
 * docs/operations.md): here the real server (startServer, as `npm start` runs it) on a port that is not
 * the default, without PUBLIC_ORIGIN, and the invitation email read from the SMTP server it sends to.
 */

const SPA_MARKER = 'portal-links test SPA';

let smtp: SmtpCapture;
let running: RunningServer;
let port: number;
let dataDir: string;
let staticDir: string;
let testDatabase: TestDatabase | undefined;
const saved: Record<string, string | undefined> = {};

/** A port nothing listens on now (the default, 3000, never). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port: found } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return found === 3000 ? freePort() : found;
}

async function mailTo(address: string, pattern: RegExp): Promise<CapturedMail> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = [...smtp.mails]
      .reverse()
      .find((m) => m.to.includes(address.toLowerCase()) && pattern.test(m.text));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${address} matching ${pattern}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A POST by node:http, whose Host header is the caller's to choose (fetch would not let us). */
function postWithHost(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
        ...headers,
      },
    });
    req.on('response', (res) => {
      let answer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (answer += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: answer }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

beforeAll(async () => {
  for (const name of ['SMTP_URL', 'PUBLIC_ORIGIN', 'DEV_TOOLS']) saved[name] = process.env[name];
  smtp = await startSmtpCapture();
  process.env.SMTP_URL = smtp.url;
  delete process.env.PUBLIC_ORIGIN;
  delete process.env.DEV_TOOLS;
  dataDir = await mkdtemp(path.join(tmpdir(), 'bd-pglite-'));
  staticDir = await mkdtemp(path.join(tmpdir(), 'bd-spa-'));
  await writeFile(path.join(staticDir, 'index.html'), `<!doctype html><title>${SPA_MARKER}</title>`);
  if (process.env.DATABASE_URL) testDatabase = await createTestDatabase();
  port = await freePort();
  running = await startServer({
    port,
    host: '127.0.0.1',
    logger: silent,
    demoData: false,
    staticDir,
    ...(testDatabase?.url ? { databaseUrl: testDatabase.url } : { dataDir }),
  });
}, 60_000);

afterAll(async () => {
  await running?.close();
  await smtp?.close();
  await testDatabase?.drop();
  await rm(dataDir, { recursive: true, force: true });
  await rm(staticDir, { recursive: true, force: true });
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('the invitation link of an AP/RSE', () => {
  it('opens the acceptance page on the port the server runs on, whatever Host the request named', async () => {
    expect(port).not.toBe(3000);
    const applicationNo = `T${process.pid % 1000}-2026-310500`;
    const applicantEmail = 'applicant.310500@example.hk';
    await running.database.db.insert(applications).values({
      applicationNo,
      formCode: 'A2',
      applicationType: 'NEWSCH',
      status: 'LOR_ISSUED',
      email: applicantEmail,
      mobile: '93105000',
      language: 'en',
      applicantNameEn: 'CHAN Tai Man',
    });

    // The applicant logs in to Find my case with a code from their email.
    const sent = await postJson(`${running.url}/api/auth/otp/send`, {
      applicationNo,
      contact: applicantEmail,
    });
    expect(sent.status).toBe(200);
    const code = codeIn((await mailTo(applicantEmail, /one-time password/i)).text);
    const login = await postJson<{ token: string }>(`${running.url}/api/auth/otp/verify`, {
      applicationNo,
      contact: applicantEmail,
      code,
    });
    expect(login.status).toBe(200);

    // The appointment, sent with a Host header (and a forwarded one) of another site: the link ignores them.
    const appointee = 'ap-310500@example.hk';
    const made = await postWithHost(
      `${running.url}/api/cases/current/actions/appointment`,
      {
        answers: {
          identity: 'ap',
          nameEn: 'CHAN TAI MAN',
          nameZh: '陳大文',
          registrationNumber: 'AP(A) 3105',
          expiryDate: addDays(hongKongToday(), 365),
          email: appointee,
          mobile: '93105001',
        },
      },
      {
        authorization: `Bearer ${login.body.data.token}`,
        'idempotency-key': `portal-links-${process.pid}-${Date.now()}-abcdef`,
        host: 'evil.example:666',
        'x-forwarded-host': 'evil.example',
      },
    );
    expect(made.status, made.text).toBe(200);

    const mail = await mailTo(appointee, /appointment-accept#/);
    const link = /(https?:\/\/\S+?\/appointment-accept#[A-Za-z0-9_-]{43})/.exec(mail.text)?.[1] ?? '';
    const url = new URL(link);

    expect(url.origin).toBe(`http://127.0.0.1:${port}`);
    expect(url.pathname).toBe('/appointment-accept');
    expect(findRoute(url.pathname)?.page).toBe('appointmentAccept');
    expect(mail.text).not.toContain('evil.example');
    expect(mail.text).not.toContain('localhost:3000');

    // The link opens the portal's acceptance page (the SPA) on that port, and its token the invitation.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(SPA_MARKER);
    const invitation = await postJson<{ applicationNo: string }>(
      `${url.origin}/api/appointments/invitation`,
      {
        token: url.hash.slice(1),
      },
    );
    expect(invitation.status).toBe(200);
    expect(invitation.body.data.applicationNo).toBe(applicationNo);
  }, 60_000);
});
