import type { Handover, Transport } from './email';

export interface SmsMessage {
  /** A Hong Kong mobile, 8 digits. */
  to: string;
  text: string;
}

/**
 * Sends SMS. Every message is also recorded in the `outbox` table (api/modules/shared/messages.ts) with the
 * sender's `transport`; with the outbox sender that row is the only delivery.
 */
export interface SmsSender {
  readonly transport: Extract<Transport, 'sms-gateway' | 'outbox'>;
  /** Resolves once the gateway accepted the message; rejects otherwise (decision 032: `handover`). */
  send(message: SmsMessage, handover?: Handover): Promise<void>;
}

/**
 * An HTTP SMS gateway. The request:
 *
 * ```http
 * POST <SMS_GATEWAY_URL>
 * Authorization: Bearer <SMS_GATEWAY_TOKEN>
 * Content-Type: application/json
 *
 * { "to": "+85291234567", "text": "123456 is your BD one-time password ..." }
 * ```
 *
 * `to` is E.164 (+852 and the 8 digits); `text` is UTF-8 (Chinese texts go as UCS-2, so 70 characters a
 * segment). Any 2xx answer means accepted; anything else, or no answer within `timeoutMs`, is a failure
 * (recorded in the outbox row's `error`). A gateway with another shape gets an adapter of its own.
 */
export class HttpSmsGateway implements SmsSender {
  readonly transport = 'sms-gateway';

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(message: SmsMessage, handover?: Handover): Promise<void> {
    await handover?.begin();
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.token}`,
        'content-type': 'application/json',
        // The same on every attempt of one message: a gateway that keeps them can refuse a second copy.
        ...(handover ? { 'idempotency-key': handover.messageId } : {}),
      },
      body: JSON.stringify({ to: `+852${message.to}`, text: message.text }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    // Drain the body so the connection can be reused; its content is not needed.
    await response.arrayBuffer().catch(() => undefined);
    // The gateway answered that it did not take the message: a refusal (api/adapters/email.ts `isRefusal`).
    if (!response.ok)
      throw Object.assign(new Error(`SMS gateway answered ${response.status}`), { refused: true });
  }
}

/** No gateway: the row in the outbox table is the message (development; read it at /api/dev/outbox). */
export const outboxSmsSender: SmsSender = {
  transport: 'outbox',
  send: async (_message, handover) => {
    await handover?.begin();
  },
};

/** The HTTP gateway when `SMS_GATEWAY_URL` is set (with `SMS_GATEWAY_TOKEN`), otherwise the outbox. */
export function smsSenderFromEnv(env: NodeJS.ProcessEnv = process.env): SmsSender {
  return env.SMS_GATEWAY_URL
    ? new HttpSmsGateway(env.SMS_GATEWAY_URL, env.SMS_GATEWAY_TOKEN ?? '')
    : outboxSmsSender;
}
