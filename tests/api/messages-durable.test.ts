import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { SmtpEmailSender } from '../../api/adapters/email';
import { outboxSmsSender } from '../../api/adapters/sms';
import { systemClock } from '../../api/clock';
import { createJobQueue, type JobQueue } from '../../api/jobs/queue';
import { messageKey } from '../../api/jobs/seal';
import { createMessageService, type MessageService } from '../../api/modules/shared/messages';
import { openDatabase } from '../../drizzle/db';
import { applications, outbox } from '../../drizzle/schema';
import { startApiProcess } from '../support/api-process';
import { createTestDatabaseUrl } from '../support/fresh-postgres';
import { TEST_OTP_SECRET, codeIn, silent } from '../support/login';
import { startSmtpCapture } from '../support/smtp';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

/**
 * Every email and SMS is a durable job (pg-boss on the portal's Postgres): it survives the process that
 * queued it, a failed send is retried with backoff, and several processes send each message once.
 */
const texts = (n: number) => ({
  subject: `Message ${n}`,
  email: `This is message number ${n}.`,
  sms: `Message ${n}`,
});

async function waitFor(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function options(database: TestDatabase, jobs: JobQueue, smtpUrl: string) {
  return {
    db: database.db,
    jobs,
    key: messageKey(TEST_OTP_SECRET),
    email: new SmtpEmailSender(smtpUrl),
    sms: outboxSmsSender,
    clock: systemClock,
    logger: silent,
  };
}

function service(database: TestDatabase, jobs: JobQueue, smtpUrl: string, limit = 6): MessageService {
  return createMessageService({ ...options(database, jobs, smtpUrl), retry: { limit, delaySeconds: 1 } });
}

describe('messages are retried when the mail server fails', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('sends a message whose first two attempts the SMTP server refused, and records that it left', async () => {
    const smtp = await startSmtpCapture({ failFirst: 2 });
    const jobs = createJobQueue(database, { logger: silent, pollingIntervalSeconds: 0.5 });
    const messages = service(database, jobs, smtp.url);
    try {
      await messages.sendText({ channel: 'email', to: 'retry@example.hk', language: 'en', texts: texts(1) });
      await messages.settled();

      expect(smtp.mails.map((m) => m.subject)).toEqual(['Message 1']);
      const [row] = await database.db.select().from(outbox).where(eq(outbox.toAddress, 'retry@example.hk'));
      expect(row?.sentAt).toBeInstanceOf(Date);
      expect(row?.error).toBeNull();
    } finally {
      await jobs.stop(1_000);
      await smtp.close();
    }
  });

  it('shows a message that failed every attempt as failed, with the error, in the outbox and the failed jobs', async () => {
    const smtp = await startSmtpCapture({ failFirst: 100 });
    const jobs = createJobQueue(database, { logger: silent, pollingIntervalSeconds: 0.5 });
    const messages = service(database, jobs, smtp.url, 1);
    try {
      await messages.sendText({ channel: 'email', to: 'never@example.hk', language: 'en', texts: texts(2) });
      await messages.settled();

      expect(smtp.mails).toEqual([]);
      const entry = (await messages.latest(10)).find((m) => m.to === 'never@example.hk');
      expect(entry).toMatchObject({
        sentAt: null,
        error: expect.stringContaining('Try again later') as string,
      });
      const failed = await jobs.failed(10);
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ name: 'message.send', retryCount: 1 });
      expect(failed[0]?.error).toContain('Try again later');
    } finally {
      await jobs.stop(1_000);
      await smtp.close();
    }
  });

  it('does not keep a one-time code readable in the queue', async () => {
    const smtp = await startSmtpCapture();
    const jobs = createJobQueue(database, { logger: silent, workers: false });
    const messages = service(database, jobs, smtp.url);
    try {
      await messages.sendOtp({
        channel: 'email',
        to: 'sealed@example.hk',
        language: 'en',
        applicationNo: 'A2-2026-009999',
        code: '246813',
      });
      // Read as the login user, as an operator would: the app's own role has no access to pg-boss's schema
      // (docs/decisions/033-audit-log.md).
      const result: unknown = await database.db.transaction(async (tx) => {
        await tx.execute(sql.raw('SET LOCAL ROLE NONE'));
        return tx.execute(sql.raw(`select data::text as data from pgboss.job where name = 'message.send'`));
      });
      const rows = result as { data: string }[] | { rows: { data: string }[] };
      const data = (Array.isArray(rows) ? rows : rows.rows).map((r) => r.data).join('\n');
      expect(data).toContain('sealed@example.hk');
      expect(data).not.toContain('246813');
    } finally {
      await jobs.stop(1_000);
      await smtp.close();
    }
  });
});

// Several processes mean real Postgres (embedded PGlite belongs to one process).
describe.skipIf(!process.env.DATABASE_URL)('two workers on one database', () => {
  it('send each of 20 messages exactly once', async () => {
    const database = await createTestDatabase();
    const smtp = await startSmtpCapture();
    const queues = [0, 1].map(() =>
      createJobQueue(database, { logger: silent, pollingIntervalSeconds: 0.5 }),
    );
    const services = queues.map((jobs) => service(database, jobs, smtp.url));
    try {
      await Promise.all(queues.map((q) => q.start()));
      for (let n = 0; n < 20; n++) {
        await services[n % 2]!.sendText({
          channel: 'email',
          to: `once.${n}@example.hk`,
          language: 'en',
          texts: texts(n),
        });
      }
      await Promise.all(services.map((s) => s.settled()));
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // a second send would show by now

      const recipients = smtp.mails.flatMap((m) => m.to).sort();
      expect(recipients).toHaveLength(20);
      expect(new Set(recipients).size).toBe(20);
    } finally {
      await Promise.all(queues.map((q) => q.stop(1_000)));
      await smtp.close();
      await database.drop();
    }
  });
});

describe('a message whose worker dies while sending', () => {
  it('goes back to the queue once its attempt times out, and another worker sends it, once', async () => {
    const database = await createTestDatabase();
    // A mail server that accepts the connection and never answers: the first worker hangs in the send.
    const sockets: Socket[] = [];
    const blackHole = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const hangingUrl = `smtp://127.0.0.1:${(blackHole.address() as AddressInfo).port}`;
    const smtp = await startSmtpCapture();
    const first = createJobQueue(database, { logger: silent, pollingIntervalSeconds: 0.5 });
    const second = createJobQueue(database, {
      logger: silent,
      pollingIntervalSeconds: 0.5,
      maintenanceIntervalSeconds: 1,
    });
    const retry = { delaySeconds: 1, attemptSeconds: 2 };
    try {
      const dying = createMessageService({
        ...options(database, first, hangingUrl),
        retry,
      });
      await dying.sendText({ channel: 'email', to: 'dies@example.hk', language: 'en', texts: texts(7) });
      await waitFor(() => sockets.length > 0); // the first worker is sending
      await first.stop(1_000); // and its process is gone: the job stays "active"

      createMessageService({ ...options(database, second, smtp.url), retry });
      await second.start();
      await waitFor(() => smtp.mails.length > 0);
      await new Promise((resolve) => setTimeout(resolve, 1_500));

      expect(smtp.mails.map((m) => m.to)).toEqual([['dies@example.hk']]);
      const [row] = await database.db.select().from(outbox).where(eq(outbox.toAddress, 'dies@example.hk'));
      expect(row?.sentAt).toBeInstanceOf(Date);
    } finally {
      await second.stop(1_000);
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => blackHole.close(resolve));
      await smtp.close();
      await database.drop();
    }
  }, 60_000);
});

describe.skipIf(!process.env.DATABASE_URL)('a message queued by a process that then dies', () => {
  it('is sent by the next process (kill -9 before it was sent), once, and its code logs in', async () => {
    const fresh = await createTestDatabaseUrl(process.env.DATABASE_URL ?? '', 'bd_test');
    const database = await openDatabase({ url: fresh.url });
    const smtp = await startSmtpCapture();
    const env = { DATABASE_URL: fresh.url, OTP_SECRET: TEST_OTP_SECRET, SMTP_URL: smtp.url };
    const port = Number(process.env.E2E_PORT ?? 3300);
    try {
      // The first process only queues (JOB_WORKERS=0): whatever it queued, it never sends.
      const first = await startApiProcess(port + 11, { ...env, JOB_WORKERS: '0' });
      await database.db.insert(applications).values({
        applicationNo: 'A2-2026-777001',
        formCode: 'A2',
        applicationType: 'NEWSCH',
        status: 'SUBMITTED',
        email: 'crash@example.hk',
        language: 'en',
      });
      const sent = await fetch(`${first.url}/api/auth/otp/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ applicationNo: 'A2-2026-777001', contact: 'crash@example.hk' }),
      });
      expect(sent.status).toBe(200);
      await first.crash();
      expect(smtp.mails).toEqual([]);

      const second = await startApiProcess(port + 12, env);
      try {
        await waitFor(() => smtp.mails.length > 0);
        await new Promise((resolve) => setTimeout(resolve, 2_500)); // one more poll: no second copy
        expect(smtp.mails.map((m) => m.to)).toEqual([['crash@example.hk']]);
        const verify = await fetch(`${second.url}/api/auth/otp/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            applicationNo: 'A2-2026-777001',
            contact: 'crash@example.hk',
            code: codeIn(smtp.mails[0]?.text ?? ''),
          }),
        });
        expect(verify.status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      await smtp.close();
      await database.close();
      await fresh.drop();
    }
  }, 60_000);
});
