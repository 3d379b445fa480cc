import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../../drizzle/db';
import { messageDeliveries, outbox } from '../../../drizzle/schema';
import { type Handover, isRefusal } from '../../adapters/email';
import type { Clock } from '../../clock';

/**
 * Each outbox message is handed over to its mail server or SMS gateway at most once, across retries,
 * expired attempts and processes killed with kill -9 (docs/decisions/032-runtime-limits.md). The claim is a
 * row of `message_deliveries`, inserted by one attempt only, just before the message leaves (once the
 * server is reached); it becomes `sent` with the outbox row in one transaction once the server took the
 * message. A claim left `handing-over` means an attempt stopped in the middle of the hand-over: whether the
 * message left cannot be known, so it is not sent again and the outbox row says so.
 */
export type DeliveryOutcome = 'sent' | 'already-sent' | 'uncertain' | 'taken';

/** The outbox row's error when an attempt stopped during the hand-over (docs/operations.md, "Jobs"). */
export const UNCERTAIN_DELIVERY =
  'delivery uncertain: an earlier attempt stopped while handing the message over; not sent again';

class ClaimTaken extends Error {
  constructor() {
    super('another attempt is handing this message over');
  }
}

export interface DeliverOnceOptions {
  db: Db;
  clock: Clock;
  logger: Pick<Logger, 'warn'>;
  outboxId: number;
  /** The job attempt (`<job id>/<retry>`), recorded with the claim. */
  attempt: string;
  /** The same on every attempt: the email's Message-ID, the gateway's idempotency key. */
  messageId: string;
  /** Sends the message, awaiting `handover.begin()` just before it leaves. */
  send(handover: Handover): Promise<void>;
  /** Writes what follows a sent message (the outbox row's `sent_at` ...), in the claim's transaction. */
  onSent(tx: Db): Promise<void>;
}

export async function deliverOnce(o: DeliverOnceOptions): Promise<DeliveryOutcome> {
  const [earlier] = await o.db
    .select({ state: messageDeliveries.state })
    .from(messageDeliveries)
    .where(eq(messageDeliveries.outboxId, o.outboxId));
  if (earlier?.state === 'sent') {
    // Sent, and the attempt that sent it stopped before its job was marked done.
    await o.db.transaction((tx) => o.onSent(tx as unknown as Db));
    return 'already-sent';
  }
  if (earlier) {
    o.logger.warn({ outboxId: o.outboxId }, 'message delivery uncertain: not sent again');
    await o.db.update(outbox).set({ error: UNCERTAIN_DELIVERY }).where(eq(outbox.id, o.outboxId));
    return 'uncertain';
  }
  let claimed = false;
  const handover: Handover = {
    messageId: o.messageId,
    async begin() {
      const won = await o.db
        .insert(messageDeliveries)
        .values({
          outboxId: o.outboxId,
          state: 'handing-over',
          messageId: o.messageId,
          attempt: o.attempt,
          claimedAt: o.clock.now(),
        })
        .onConflictDoNothing()
        .returning({ outboxId: messageDeliveries.outboxId });
      if (won.length === 0) throw new ClaimTaken();
      claimed = true;
    },
  };
  try {
    await o.send(handover);
  } catch (error) {
    if (error instanceof ClaimTaken) return 'taken';
    if (claimed && !isRefusal(error)) {
      // Cut off during the hand-over (no reply, a lost connection): it may have left. Not sent again,
      // and the outbox row says so, with the failure.
      const why = error instanceof Error ? error.message : String(error);
      o.logger.warn({ outboxId: o.outboxId }, 'message delivery uncertain: not sent again');
      await o.db
        .update(outbox)
        .set({ error: `${UNCERTAIN_DELIVERY} (${why})`.slice(0, 1000) })
        .where(eq(outbox.id, o.outboxId));
      return 'uncertain';
    }
    // The server said no: nothing left, so the next attempt may hand it over again.
    if (claimed) await o.db.delete(messageDeliveries).where(eq(messageDeliveries.outboxId, o.outboxId));
    throw error;
  }
  await o.db.transaction(async (tx) => {
    await tx
      .update(messageDeliveries)
      .set({ state: 'sent', sentAt: o.clock.now() })
      .where(eq(messageDeliveries.outboxId, o.outboxId));
    await o.onSent(tx);
  });
  return 'sent';
}
