import MailComposer from 'nodemailer/lib/mail-composer';
import { type ConnectionUrlOptions, parseConnectionUrl } from 'nodemailer/lib/shared';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { Language } from '../../machines/rules/language';

/** How a message left: by SMTP, to the SMS gateway, or only into the outbox table. */
export type Transport = 'smtp' | 'outbox' | 'sms-gateway';

export interface EmailMessage {
  to: string;
  subject: string;
  /** Plain text. */
  text: string;
  language: Language;
}

/**
 * The moment a message leaves, for sending it once (api/modules/shared/messages.ts, decision 032).
 * `begin` is awaited just before the message is handed over, once the server is reached (an SMTP
 * session open, the gateway about to be called); when it rejects, nothing is sent.
 */
export interface Handover {
  /** The same on every attempt of one message: the email's Message-ID, the gateway's idempotency key. */
  messageId: string;
  begin(): Promise<void>;
}

/**
 * A failure where the server answered that it did not take the message (an SMTP 4xx/5xx reply, a
 * gateway's error status): trying again cannot make a second copy. Any other failure after
 * `Handover.begin` (a cut connection, no reply) leaves it unknown whether the message left.
 */
export function isRefusal(error: unknown): boolean {
  return (error as { refused?: unknown } | null)?.refused === true;
}

/**
 * Sends email. Every message is also recorded in the `outbox` table (api/modules/shared/messages.ts) with
 * the sender's `transport`; with the outbox sender that row is the only delivery.
 */
export interface EmailSender {
  readonly transport: Extract<Transport, 'smtp' | 'outbox'>;
  /** Resolves once the message is handed over (SMTP server accepted it); rejects otherwise. */
  send(message: EmailMessage, handover?: Handover): Promise<void>;
  close?(): void;
}

export const DEFAULT_MAIL_FROM = 'Buildings Department <no-reply@bd.example.hk>';

const CONTENT_LANGUAGE: Record<Language, string> = { en: 'en', sc: 'zh-Hans', tc: 'zh-Hant-HK' };

/** A reply of the server's (`responseCode`) marks a refusal: the server said it did not take the message. */
function refusalOf(err: Error): Error {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' ? Object.assign(err, { refused: true }) : err;
}

/** One step of an SMTP session as a promise; a `connection` error rejects it too. */
function step<T>(
  failed: Promise<never>,
  run: (done: (err: Error | null | undefined, value?: T) => void) => void,
): Promise<T> {
  return Promise.race([
    failed,
    new Promise<T>((resolve, reject) =>
      run((err, value) => (err ? reject(refusalOf(err)) : resolve(value as T))),
    ),
  ]);
}

/**
 * Email through an SMTP server, e.g. `smtp://127.0.0.1:2525` or `smtps://user:pass@host`: one session per
 * message (nodemailer's SMTP connection and mail composer), so that the hand-over begins only once the
 * server has answered its greeting (and the login): a failure to reach it is retried freely.
 */
export class SmtpEmailSender implements EmailSender {
  readonly transport = 'smtp';
  private readonly options: ConnectionUrlOptions;

  constructor(
    url: string,
    private readonly from: string = DEFAULT_MAIL_FROM,
    private readonly timeoutMs = 30_000,
  ) {
    this.options = parseConnectionUrl(url);
  }

  async send(message: EmailMessage, handover?: Handover): Promise<void> {
    const mail = new MailComposer({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      headers: { 'Content-Language': CONTENT_LANGUAGE[message.language] },
      ...(handover ? { messageId: handover.messageId } : {}),
    }).compile();
    const raw = await mail.build();
    const { auth, host, port, secure, tls } = this.options;
    const connection = new SMTPConnection({
      host,
      port,
      secure,
      ...(tls ? { tls } : {}),
      connectionTimeout: this.timeoutMs,
      greetingTimeout: this.timeoutMs,
      socketTimeout: this.timeoutMs,
    });
    const failed = new Promise<never>((_, reject) =>
      connection.once('error', (err: Error) => reject(refusalOf(err))),
    );
    failed.catch(() => undefined);
    try {
      await step<void>(failed, (done) => connection.connect((err) => done(err)));
      if (auth?.user) await step<boolean>(failed, (done) => connection.login(auth, done));
      await handover?.begin();
      await step<unknown>(failed, (done) => connection.send(mail.getEnvelope(), raw, done));
    } catch (error) {
      connection.close();
      throw error;
    }
    connection.quit();
  }

  /** Nothing is kept open between messages. */
  close(): void {}
}

/** No transport: the row in the outbox table is the message (development; read it at /api/dev/outbox). */
export const outboxEmailSender: EmailSender = {
  transport: 'outbox',
  send: async (_message, handover) => {
    await handover?.begin();
  },
};

/** SMTP when `SMTP_URL` is set (from `MAIL_FROM`), otherwise the outbox. */
export function emailSenderFromEnv(env: NodeJS.ProcessEnv = process.env): EmailSender {
  return env.SMTP_URL
    ? new SmtpEmailSender(env.SMTP_URL, env.MAIL_FROM || DEFAULT_MAIL_FROM)
    : outboxEmailSender;
}
