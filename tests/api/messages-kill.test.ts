import { like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { UNCERTAIN_DELIVERY } from '../../api/modules/shared/message-delivery';
import { openDatabase } from '../../drizzle/db';
import { applications, outbox } from '../../drizzle/schema';
import { type ApiProcess, startApiProcess } from '../support/api-process';
import { createTestDatabaseUrl } from '../support/fresh-postgres';
import { TEST_OTP_SECRET } from '../support/login';
import { startSmtpCapture } from '../support/smtp';

/**
 * Messages across `kill -9` of every process (docs/decisions/032-runtime-limits.md, "Messages once"): two
 * API processes send 20 one-time codes through a mail server that answers each message 300 ms after it
 * arrived; both are killed with SIGKILL while a message is in that gap (the server has it, its sender does
 * not know), then started again. No message arrives twice; a message either arrives once or, when its
 * sender died in the middle of the hand-over, is marked uncertain in the outbox and not sent again.
 */
const COUNT = 20;
const port = Number(process.env.E2E_PORT ?? 3300) + 40;

async function waitFor(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(!process.env.DATABASE_URL)('messages when every process is killed with kill -9', () => {
  it('are never sent twice: each arrives once, or is marked uncertain where its sender died handing it over', async () => {
    const fresh = await createTestDatabaseUrl(process.env.DATABASE_URL ?? '', 'bd_test');
    const database = await openDatabase({ url: fresh.url });
    const smtp = await startSmtpCapture({ replyDelayMs: 300 });
    const env = {
      DATABASE_URL: fresh.url,
      OTP_SECRET: TEST_OTP_SECRET,
      SMTP_URL: smtp.url,
      // An attempt cut off by the kill goes back to the queue after 3 s, and is retried a second later.
      MESSAGE_ATTEMPT_SECONDS: '3',
      MESSAGE_RETRY_SECONDS: '1',
      JOB_MAINTENANCE_SECONDS: '1',
    };
    let running: ApiProcess[] = [];
    try {
      running = await Promise.all([startApiProcess(port + 1, env), startApiProcess(port + 2, env)]);
      const contacts = Array.from({ length: COUNT }, (_, n) => `kill.${n}@example.hk`);
      await database.db.insert(applications).values(
        contacts.map((email, n) => ({
          applicationNo: `A2-2026-78${String(n).padStart(4, '0')}`,
          formCode: 'A2',
          applicationType: 'NEWSCH',
          status: 'SUBMITTED',
          email,
          language: 'en' as const,
        })),
      );
      const answers = await Promise.all(
        contacts.map((contact, n) =>
          fetch(`${running[n % 2]!.url}/api/auth/otp/send`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ applicationNo: `A2-2026-78${String(n).padStart(4, '0')}`, contact }),
          }).then((r) => r.status),
        ),
      );
      expect(answers).toEqual(contacts.map(() => 200));

      // A third of the messages are through: the last of them is still waiting for the server's reply.
      await waitFor(() => smtp.mails.length >= COUNT / 3, 30_000, 'a third of the messages');
      await Promise.all(running.map((p) => p.crash()));
      const arrivedBeforeKill = smtp.mails.length;

      running = await Promise.all([startApiProcess(port + 1, env), startApiProcess(port + 2, env)]);
      const settled = async () => {
        const rows = await database.db
          .select({ sentAt: outbox.sentAt, error: outbox.error })
          .from(outbox)
          .where(like(outbox.toAddress, 'kill.%'));
        return rows.length === COUNT && rows.every((r) => r.sentAt || r.error === UNCERTAIN_DELIVERY);
      };
      await waitFor(settled, 60_000, 'every message sent or marked uncertain');
      await new Promise((resolve) => setTimeout(resolve, 4_000)); // a retry past its time would show by now

      const rows = await database.db
        .select({ to: outbox.toAddress, sentAt: outbox.sentAt, error: outbox.error })
        .from(outbox)
        .where(like(outbox.toAddress, 'kill.%'));
      const copies = new Map(contacts.map((c) => [c, 0]));
      for (const mail of smtp.mails) for (const to of mail.to) copies.set(to, (copies.get(to) ?? 0) + 1);
      const uncertain = rows.filter((r) => r.error === UNCERTAIN_DELIVERY).map((r) => r.to);
      const once = contacts.filter((c) => copies.get(c) === 1);
      const twice = contacts.filter((c) => (copies.get(c) ?? 0) > 1);
      const lost = contacts.filter((c) => copies.get(c) === 0);
      console.log(
        `messages after kill -9 of both processes: ${COUNT} queued, ${arrivedBeforeKill} arrived before the kill; ` +
          `arrived once ${once.length}, twice or more ${twice.length}, not at all ${lost.length}; ` +
          `marked uncertain ${uncertain.length} (of them arrived once: ${uncertain.filter((c) => copies.get(c) === 1).length})`,
      );
      expect(twice).toEqual([]);
      // A message that did not arrive is one whose sender died handing it over, and the outbox says so.
      expect(lost.filter((c) => !uncertain.includes(c))).toEqual([]);
      // The kill came while a message waited for the server's reply: that one arrived and was not sent again.
      expect(uncertain.filter((c) => copies.get(c) === 1).length).toBeGreaterThanOrEqual(1);
      // Everything else was sent once, by the processes started after the kill.
      expect(once.length + lost.length).toBe(COUNT);
    } finally {
      await Promise.all(running.map((p) => p.stop()));
      await smtp.close();
      await database.close();
      await fresh.drop();
    }
  }, 150_000);
});
