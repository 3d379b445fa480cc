import nodemailer, { type Transporter } from 'nodemailer';
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
 * Sends email. Every message is also recorded in the `outbox` table (api/modules/shared/messages.ts) with
 * the sender's `transport`; with the outbox sender that row is the only delivery.
 */
export interface EmailSender {
  readonly transport: Extract<Transport, 'smtp' | 'outbox'>;
  /** Resolves once the message is handed over (SMTP server accepted it); rejects otherwise. */
  send(message: EmailMessage): Promise<void>;
  close?(): void;
}

export const DEFAULT_MAIL_FROM = 'Buildings Department <no-reply@bd.example.hk>';

const CONTENT_LANGUAGE: Record<Language, string> = { en: 'en', sc: 'zh-Hans', tc: 'zh-Hant-HK' };

/** Email through an SMTP server (nodemailer), e.g. `smtp://127.0.0.1:2525` or `smtps://user:pass@host`. */
export class SmtpEmailSender implements EmailSender {
  readonly transport = 'smtp';
  private readonly transporter: Transporter;

  constructor(
    url: string,
    private readonly from: string = DEFAULT_MAIL_FROM,
  ) {
    this.transporter = nodemailer.createTransport(url);
  }

  async send(message: EmailMessage): Promise<void> {
    await this.transporter.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      headers: { 'Content-Language': CONTENT_LANGUAGE[message.language] },
    });
  }

  close(): void {
    this.transporter.close();
  }
}

/** No transport: the row in the outbox table is the message (development; read it at /api/dev/outbox). */
export const outboxEmailSender: EmailSender = {
  transport: 'outbox',
  send: () => Promise.resolve(),
};

/** SMTP when `SMTP_URL` is set (from `MAIL_FROM`), otherwise the outbox. */
export function emailSenderFromEnv(env: NodeJS.ProcessEnv = process.env): EmailSender {
  return env.SMTP_URL
    ? new SmtpEmailSender(env.SMTP_URL, env.MAIL_FROM || DEFAULT_MAIL_FROM)
    : outboxEmailSender;
}
