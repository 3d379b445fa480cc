import { desc, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../drizzle/db';
import { outbox } from '../../drizzle/schema';
import type { Language } from '../../machines/rules/language';
import { OTP_TTL_SECONDS } from '../../machines/rules/otp';
import type { EmailSender, Transport } from '../adapters/email';
import type { SmsSender } from '../adapters/sms';
import type { Clock } from '../clock';
import { translate } from '../i18n';

export interface OtpMessage {
  channel: 'email' | 'sms';
  /** The address on file (never the one typed, although they match). */
  to: string;
  language: Language;
  applicationNo: string;
  code: string;
  /**
   * What the code is for: 'resume' (a saved draft) and 'contact' (confirming a draft's email or mobile)
   * have their own wording; anything else is the login's.
   */
  purpose?: string;
}

/** A message as GET /api/dev/outbox lists it. */
/** The acknowledgement of a submitted application (spec §4), to the applicant's verified contact. */
export interface AcknowledgementMessage {
  channel: 'email' | 'sms';
  to: string;
  language: Language;
  applicationNo: string;
  /** The form's code ('A2') and the submission time, shown in the message. */
  formCode: string;
  submittedAt: Date;
}

export interface OutboxEntry {
  id: number;
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  createdAt: string;
  transport: string;
}

export interface MessageService {
  /**
   * Writes the one-time password message in the applicant's language, records it in the outbox and
   * hands it to the email or SMS sender. Resolves true when it left, false when the sender failed (the
   * failure is logged and kept in the outbox row); never rejects.
   */
  sendOtp(message: OtpMessage): Promise<boolean>;
  /**
   * The acknowledgement of a submission: the application number and that the case officer's contact
   * details follow within 1 to 2 working days. Recorded and sent like `sendOtp`; never rejects.
   */
  sendAcknowledgement(message: AcknowledgementMessage): Promise<boolean>;
  /**
   * Runs `task` after the current request, so that the answer's timing does not depend on whether a
   * message is sent (or on how fast SMTP is). Tasks run one after another.
   */
  inBackground(task: () => Promise<void>): void;
  /** Resolves when every background task started so far has finished (tests, graceful shutdown). */
  settled(): Promise<void>;
  /** The newest messages first (the development outbox page). */
  latest(limit: number): Promise<OutboxEntry[]>;
}

export interface MessageServiceOptions {
  db: Db;
  email: EmailSender;
  sms: SmsSender;
  clock: Clock;
  logger: Logger;
}

/** The one-time password texts in `language` (i18n/<lang>/api.json, message.otp.*, message.resume.* or message.contact.*). */
export function otpTexts(message: Pick<OtpMessage, 'language' | 'applicationNo' | 'code' | 'purpose'>): {
  subject: string;
  email: string;
  sms: string;
} {
  const params = {
    applicationNo: message.applicationNo,
    code: message.code,
    minutes: OTP_TTL_SECONDS / 60,
  };
  const texts =
    message.purpose === 'resume'
      ? 'message.resume'
      : message.purpose === 'contact'
        ? 'message.contact'
        : message.purpose === 'contactPerson'
          ? 'message.contactPerson'
          : 'message.otp';
  return {
    subject: translate(message.language, `${texts}.subject`),
    email: translate(message.language, `${texts}.email`, params),
    sms: translate(message.language, `${texts}.sms`, params),
  };
}

/** The acknowledgement's subject, email and SMS text in the applicant's language. */
export function acknowledgementTexts(message: AcknowledgementMessage): {
  subject: string;
  email: string;
  sms: string;
} {
  // Hong Kong time, as the department writes dates: 2026-11-22 14:05.
  const local = new Date(message.submittedAt.getTime() + 8 * 3_600_000).toISOString();
  const params = {
    applicationNo: message.applicationNo,
    formCode: message.formCode,
    submittedAt: `${local.slice(0, 10)} ${local.slice(11, 16)}`,
  };
  return {
    subject: translate(message.language, 'message.acknowledgement.subject', params),
    email: translate(message.language, 'message.acknowledgement.email', params),
    sms: translate(message.language, 'message.acknowledgement.sms', params),
  };
}

/** What the outbox row shows instead of a code that was sent by SMTP or the SMS gateway. */
export const REDACTED_CODE = '******';

export function createMessageService({
  db,
  email,
  sms,
  clock,
  logger,
}: MessageServiceOptions): MessageService {
  let queue: Promise<void> = Promise.resolve();

  async function record(row: {
    channel: 'email' | 'sms';
    to: string;
    subject: string | null;
    body: string;
    language: Language;
    transport: Transport;
    send: () => Promise<void>;
  }): Promise<boolean> {
    const [entry] = await db
      .insert(outbox)
      .values({
        channel: row.channel,
        toAddress: row.to,
        subject: row.subject,
        body: row.body,
        language: row.language,
        transport: row.transport,
        createdAt: clock.now(),
      })
      .returning({ id: outbox.id });
    try {
      await row.send();
      if (entry) await db.update(outbox).set({ sentAt: clock.now() }).where(eq(outbox.id, entry.id));
      return true;
    } catch (err) {
      logger.error({ err, channel: row.channel, transport: row.transport }, 'message not sent');
      const error = err instanceof Error ? err.message : String(err);
      if (entry)
        await db
          .update(outbox)
          .set({ error: error.slice(0, 1000) })
          .where(eq(outbox.id, entry.id));
      return false;
    }
  }

  /** Records the message (`kept`: the text the outbox row keeps) and hands `texts` to the sender. */
  async function deliver(
    message: { channel: 'email' | 'sms'; to: string; language: Language },
    texts: { subject: string; email: string; sms: string },
    kept: { email: string; sms: string },
  ): Promise<boolean> {
    try {
      if (message.channel === 'email') {
        return await record({
          channel: 'email',
          to: message.to,
          subject: texts.subject,
          body: email.transport === 'outbox' ? texts.email : kept.email,
          language: message.language,
          transport: email.transport,
          send: () =>
            email.send({
              to: message.to,
              subject: texts.subject,
              text: texts.email,
              language: message.language,
            }),
        });
      }
      return await record({
        channel: 'sms',
        to: message.to,
        subject: null,
        body: sms.transport === 'outbox' ? texts.sms : kept.sms,
        language: message.language,
        transport: sms.transport,
        send: () => sms.send({ to: message.to, text: texts.sms }),
      });
    } catch (err) {
      logger.error({ err }, 'message not recorded');
      return false;
    }
  }

  return {
    async sendOtp(message) {
      const texts = otpTexts(message);
      // A code that really leaves (SMTP, gateway) is not kept readable in the database; only the
      // outbox transport, where the row is the delivery, stores it.
      const hidden = otpTexts({ ...message, code: REDACTED_CODE });
      return deliver(message, texts, hidden);
    },

    sendAcknowledgement(message) {
      const texts = acknowledgementTexts(message);
      return deliver(message, texts, texts);
    },

    inBackground(task) {
      queue = queue.then(task).catch((err: unknown) => {
        logger.error({ err }, 'background task failed');
      });
    },

    settled() {
      return queue;
    },

    async latest(limit) {
      const rows = await db
        .select()
        .from(outbox)
        .orderBy(desc(outbox.createdAt), desc(outbox.id))
        .limit(limit);
      return rows.map((row) => ({
        id: row.id,
        channel: row.channel,
        to: row.toAddress,
        subject: row.subject,
        body: row.body,
        createdAt: row.createdAt.toISOString(),
        transport: row.transport,
      }));
    },
  };
}
