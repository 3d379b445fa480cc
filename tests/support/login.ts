import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { type AppOptions, closeApp, createApp } from '../../api/app';
import { SmtpEmailSender } from '../../api/adapters/email';
import { HttpSmsGateway, outboxSmsSender } from '../../api/adapters/sms';
import { type MessageService, createMessageService } from '../../api/modules/shared/messages';
import { createJobQueue, type JobQueue } from '../../api/jobs/queue';
import { messageKey } from '../../api/jobs/seal';
import { type NewApplicationRow, applications } from '../../drizzle/schema';
import type { LoginData } from '../../machines/rules/otp';
import { TestClock } from './clock';
import { type EnvelopeBody, type TestServer, getJson, listen, postJson } from './http';
import { type SmtpCapture, startSmtpCapture } from './smtp';
import { type TestDatabase, createTestDatabase } from './test-db';

export const TEST_OTP_SECRET = 'test-only-otp-secret-0123456789abcdef';
export const silent = pino({ level: 'silent' });

export interface CapturedSms {
  authorization: string | undefined;
  to: string;
  text: string;
}

/** A tiny HTTP SMS gateway that keeps what it is sent. */
export async function startSmsGateway(): Promise<{
  url: string;
  received: CapturedSms[];
  close(): Promise<void>;
}> {
  const received: CapturedSms[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const { to, text } = JSON.parse(body) as { to: string; text: string };
      received.push({ authorization: req.headers.authorization, to, text });
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Reply<T = unknown> = { status: number; headers: Headers; body: EnvelopeBody<T> };

export interface LoginHarness {
  database: TestDatabase;
  clock: TestClock;
  smtp: SmtpCapture;
  sms: CapturedSms[];
  messages: MessageService;
  /** The app's job queue (pg-boss on the test database). */
  jobs: JobQueue;
  baseUrl: string;
  /** Inserts an application with a fresh number, email and mobile (or the ones given). */
  addApplication(
    values?: Partial<NewApplicationRow>,
  ): Promise<{ id: number; applicationNo: string; email: string; mobile: string }>;
  send(body: unknown, headers?: Record<string, string>): Promise<Reply>;
  verify(body: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Sends a code to the email on file and reads it from the mail the SMTP server received. */
  codeByEmail(applicationNo: string, email: string): Promise<string>;
  /** Sends, reads the code by email and verifies it: a logged-in session. */
  login(applicationNo: string, email: string): Promise<LoginData>;
  get<T = unknown>(path: string, token?: string): Promise<Reply<T>>;
  post<T = unknown>(path: string, token?: string, body?: unknown): Promise<Reply<T>>;
  close(): Promise<void>;
}

let counter = 0;

/** The code in a message: the first 6 digits standing alone (not the end of an application number). */
export function codeIn(text: string): string {
  const match = /(?<![0-9-])[0-9]{6}(?![0-9])/.exec(text);
  if (!match) throw new Error(`no code in: ${text}`);
  return match[0];
}

export interface LoginHarnessOptions {
  smsTransport?: 'gateway' | 'outbox';
  minSendDurationMs?: number;
  /** The clock the app runs on (default: a new TestClock), for fixtures made before the app starts. */
  clock?: TestClock;
  /** Documents and signing options of the app (default: the app's own defaults). */
  app?: Pick<AppOptions, 'documents' | 'signing' | 'logger' | 'devRoutes' | 'rateLimits' | 'metrics'>;
}

/**
 * The app over a fresh database with a test clock, a real SMTP server for email and a local HTTP SMS
 * gateway (or the outbox), and no padding of the send answer unless asked.
 */
export async function startLoginHarness(options: LoginHarnessOptions = {}): Promise<LoginHarness> {
  const database = await createTestDatabase({ seed: true });
  const clock = options.clock ?? new TestClock();
  const smtp = await startSmtpCapture();
  const gateway = await startSmsGateway();
  const email = new SmtpEmailSender(smtp.url);
  const jobs = createJobQueue(database, { logger: silent, pollingIntervalSeconds: 0.5 });
  const messages = createMessageService({
    db: database.db,
    jobs,
    key: messageKey(TEST_OTP_SECRET),
    retry: { delaySeconds: 1 },
    clock,
    logger: silent,
    email,
    sms:
      options.smsTransport === 'outbox' ? outboxSmsSender : new HttpSmsGateway(gateway.url, 'sms-test-token'),
  });
  const app = createApp({
    db: database,
    logger: silent,
    clock,
    devRoutes: true,
    masterDataCacheSeconds: 0,
    // Tests send far more from one address than a person would; tests/api/rate-limits.test.ts sets its own.
    rateLimits: false,
    auth: { otpSecret: TEST_OTP_SECRET, minSendDurationMs: options.minSendDurationMs ?? 0, messages },
    jobs: { queue: jobs, schedule: false },
    ...options.app,
  });
  const server: TestServer = await listen(app);
  const baseUrl = server.baseUrl;
  const bearer = (token?: string): Record<string, string> =>
    token ? { authorization: `Bearer ${token}` } : {};

  const harness: LoginHarness = {
    database,
    clock,
    smtp,
    sms: gateway.received,
    messages,
    jobs,
    baseUrl,
    async addApplication(values = {}) {
      counter += 1;
      const n = String(counter).padStart(6, '0');
      const row = {
        applicationNo: `T${process.pid % 1000}-2026-${n}`,
        formCode: 'A2',
        applicationType: 'NEWSCH',
        status: 'SUBMITTED',
        email: `applicant.${n}@example.hk`,
        mobile: `9${String(counter).padStart(7, '0')}`,
        language: 'en',
        ...values,
      };
      const [inserted] = await database.db
        .insert(applications)
        .values(row)
        .returning({ id: applications.id });
      return {
        id: inserted!.id,
        applicationNo: row.applicationNo,
        email: row.email ?? '',
        mobile: row.mobile ?? '',
      };
    },
    send: (body, headers) => postJson(`${baseUrl}/api/auth/otp/send`, body, headers),
    verify: (body, headers) => postJson(`${baseUrl}/api/auth/otp/verify`, body, headers),
    async codeByEmail(applicationNo, address) {
      const before = smtp.mails.length;
      const res = await harness.send({ applicationNo, contact: address });
      if (res.status !== 200) throw new Error(`send answered ${res.status}: ${JSON.stringify(res.body)}`);
      await messages.settled();
      const mail = smtp.mails
        .slice(before)
        .find((m) => m.to.some((to) => to.toLowerCase() === address.toLowerCase()));
      if (!mail) throw new Error(`no mail to ${address}`);
      return codeIn(mail.text);
    },
    async login(applicationNo, address) {
      const code = await harness.codeByEmail(applicationNo, address);
      const res = await harness.verify({ applicationNo, contact: address, code });
      if (res.status !== 200) throw new Error(`verify answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.data as LoginData;
    },
    get: (path, token) => getJson(`${baseUrl}${path}`, bearer(token)),
    async post(path, token, body) {
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as EnvelopeBody<never>,
      };
    },
    async close() {
      await messages.settled();
      await server.close();
      await jobs.stop(1_000);
      await closeApp(app);
      email.close();
      await smtp.close();
      await gateway.close();
      await database.drop();
    },
  };
  return harness;
}
