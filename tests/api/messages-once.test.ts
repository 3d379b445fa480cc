import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SmtpEmailSender } from '../../api/adapters/email';
import { outboxSmsSender } from '../../api/adapters/sms';
import { systemClock } from '../../api/clock';
import { createJobQueue, type JobQueue } from '../../api/jobs/queue';
import { messageKey } from '../../api/jobs/seal';
import { UNCERTAIN_DELIVERY } from '../../api/modules/shared/message-delivery';
import { createMessageService } from '../../api/modules/shared/messages';
import { messageDeliveries, outbox } from '../../drizzle/schema';
import { TEST_OTP_SECRET, silent } from '../support/login';
import { startSmtpCapture } from '../support/smtp';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

/**
 * A message is handed over once (docs/decisions/032-runtime-limits.md): a worker that stops after the mail
 * server took the message, before the outbox row says sent and before its job completes, leaves the
 * message to a retry that does not send it again.
 */
async function waitFor(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function service(database: TestDatabase, jobs: JobQueue, smtpUrl: string) {
  return createMessageService({
    db: database.db,
    jobs,
    key: messageKey(TEST_OTP_SECRET),
    email: new SmtpEmailSender(smtpUrl),
    sms: outboxSmsSender,
    clock: systemClock,
    logger: silent,
    retry: { delaySeconds: 1, attemptSeconds: 2 },
  });
}

describe('a message whose worker stops between the hand-over and its completion', () => {
  it('is not sent again by the retry: one copy arrives, and the outbox says the delivery is uncertain', async () => {
    const database = await createTestDatabase();
    // The first mail server keeps the message and withholds its reply: the worker is past the point of
    // no return when its process goes. The retry's worker reaches another server of the same mailbox.
    const taking = await startSmtpCapture({ withholdReply: true });
    const other = await startSmtpCapture();
    const first = createJobQueue(database, { logger: silent, pollingIntervalSeconds: 0.5 });
    const second = createJobQueue(database, {
      logger: silent,
      pollingIntervalSeconds: 0.5,
      maintenanceIntervalSeconds: 1,
    });
    try {
      const dying = service(database, first, taking.url);
      await dying.sendText({
        channel: 'email',
        to: 'once@example.hk',
        language: 'en',
        texts: { subject: 'Once', email: 'Sent once.', sms: 'Once' },
      });
      await waitFor(() => taking.mails.length === 1); // the server has the message
      await first.stop(500); // and the worker's process is gone: its job stays "active"

      service(database, second, other.url);
      await second.start();
      const row = async () =>
        (await database.db.select().from(outbox).where(eq(outbox.toAddress, 'once@example.hk')))[0];
      await waitFor(async () => (await row())?.error === UNCERTAIN_DELIVERY);
      await new Promise((resolve) => setTimeout(resolve, 2_500)); // any further attempt would have run
      const received = [...taking.mails, ...other.mails];
      const [delivery] = await database.db.select().from(messageDeliveries);
      console.info(
        `message after a crash between hand-over and completion: ${received.length} cop${received.length === 1 ? 'y' : 'ies'} received`,
      );

      expect(received.map((m) => m.to)).toEqual([['once@example.hk']]);
      expect(received[0]?.headers.get('message-id')).toBe(delivery?.messageId);
      expect(delivery).toMatchObject({ state: 'handing-over', sentAt: null });
      expect(await row()).toMatchObject({ sentAt: null, error: UNCERTAIN_DELIVERY });
    } finally {
      await second.stop(1_000);
      await taking.close();
      await other.close();
      await database.drop();
    }
  }, 60_000);
});
