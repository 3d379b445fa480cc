import { desc, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../../drizzle/db';
import { otpChallenges, outbox } from '../../../drizzle/schema';
import type { Language } from '../../../machines/rules/language';
import { OTP_TTL_SECONDS } from '../../../machines/rules/otp';
import type { EmailSender } from '../../adapters/email';
import type { SmsSender } from '../../adapters/sms';
import type { Clock } from '../../clock';
import { translate } from '../../http/i18n';
import type { JobQueue } from '../../jobs/queue';
import { seal, unseal } from '../../jobs/seal';
import { formatHkDate } from '../../../machines/rules/dates';
import { deliverOnce } from './message-delivery';

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

/** The acknowledgement of a follow-up on a case (withdrawal, inspection request ...), to the applicant. */
export interface CaseNoticeMessage {
  channel: 'email' | 'sms';
  to: string;
  language: Language;
  applicationNo: string;
  /** The follow-up form's key: the message's wording (`message.case.<formKey>`). */
  formKey: string;
  reference: string;
  /** The case's status after it (a code; the message names it in the case's language). */
  status: string;
  at: Date;
}

export interface OutboxEntry {
  id: number;
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  createdAt: string;
  transport: string;
  /** When the message left; null while queued or when every attempt failed. */
  sentAt: string | null;
  /** The last attempt's failure, if any. */
  error: string | null;
}

export interface MessageService {
  /**
   * Writes the one-time password message in the applicant's language, records it in the outbox and
   * queues it (a durable job: sent by whichever process's worker takes it, retried with backoff when the
   * sender fails). Resolves once queued. When sent, the challenge `challengeId` is marked delivered.
   */
  sendOtp(message: OtpMessage & { challengeId?: number }): Promise<void>;
  /**
   * The acknowledgement of a submission: the application number and that the case officer's contact
   * details follow within 1 to 2 working days. Recorded and queued like `sendOtp`.
   */
  sendAcknowledgement(message: AcknowledgementMessage): Promise<void>;
  /** The acknowledgement of a follow-up on a case (withdrawal, inspection request): queued like `sendOtp`. */
  sendCaseNotice(message: CaseNoticeMessage): Promise<void>;
  /** Any other text (reminders): recorded and queued like `sendOtp`. */
  sendText(message: {
    channel: 'email' | 'sms';
    to: string;
    language: Language;
    texts: { subject: string; email: string; sms: string };
  }): Promise<void>;
  /**
   * Resolves when every message this service queued has been sent or has failed for good (tests,
   * graceful shutdown); gives up after `timeoutMs` (default 30 s).
   */
  settled(timeoutMs?: number): Promise<void>;
  /** The newest messages first (the development outbox page). */
  latest(limit: number): Promise<OutboxEntry[]>;
}

/** The job that sends one message. */
export const SEND_MESSAGE_JOB = 'message.send';

export interface MessageRetry {
  /** Attempts after the first. Default 6. */
  limit?: number;
  /** Seconds before the first retry, doubled each time. Default 30 (then 1, 2, 4, 8, 16 minutes). */
  delaySeconds?: number;
  /**
   * Seconds an attempt may take before it counts as failed and the message goes back to the queue (its
   * process died while sending, or the server hangs). Default 120.
   */
  attemptSeconds?: number;
}

export interface MessageServiceOptions {
  db: Db;
  /** The durable queue the messages go through (api/jobs/queue.ts). */
  jobs: JobQueue;
  /** The key queued texts are sealed with (api/jobs/seal.ts `messageKey`): the same in every process. */
  key: Buffer;
  email: EmailSender;
  sms: SmsSender;
  clock: Clock;
  logger: Logger;
  retry?: MessageRetry;
}

interface SendMessageJob {
  outboxId: number;
  channel: 'email' | 'sms';
  to: string;
  language: Language;
  subject: string | null;
  /** The text to send, sealed. */
  sealed: string;
  otpChallengeId?: number;
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
          : message.purpose === 'appointment' ||
              message.purpose === 'appointee' ||
              message.purpose === 'holderContact'
            ? `message.${message.purpose}Otp`
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
  // Hong Kong time, in the applicant's language (machines/rules/dates.ts).
  const params = {
    applicationNo: message.applicationNo,
    formCode: message.formCode,
    submittedAt: formatHkDate(message.submittedAt, message.language, true),
  };
  return {
    subject: translate(message.language, 'message.acknowledgement.subject', params),
    email: translate(message.language, 'message.acknowledgement.email', params),
    sms: translate(message.language, 'message.acknowledgement.sms', params),
  };
}

/** A follow-up's acknowledgement in the case's language (i18n/<lang>/api.json, message.case.<formKey>.*). */
export function caseNoticeTexts(message: CaseNoticeMessage): { subject: string; email: string; sms: string } {
  const key = `message.case.${message.formKey}`;
  const params = {
    applicationNo: message.applicationNo,
    reference: message.reference,
    at: formatHkDate(message.at, message.language, true),
    status: translate(message.language, `case.statuses.${message.status}`),
  };
  return {
    subject: translate(message.language, `${key}.subject`, params),
    email: translate(message.language, `${key}.email`, params),
    sms: translate(message.language, `${key}.sms`, params),
  };
}

/** What the outbox row shows instead of a code that was sent by SMTP or the SMS gateway. */
export const REDACTED_CODE = '******';

export function createMessageService({
  db,
  jobs,
  key,
  email,
  sms,
  clock,
  logger,
  retry = {},
}: MessageServiceOptions): MessageService {
  const queued = new Set<string>();

  jobs.define<SendMessageJob>({
    name: SEND_MESSAGE_JOB,
    retryLimit: retry.limit ?? 6,
    retryDelaySeconds: retry.delaySeconds ?? 30,
    retryBackoff: true,
    expireInSeconds: retry.attemptSeconds ?? 120,
    async handler(job, attempt) {
      const [row] = await db
        .select({ sentAt: outbox.sentAt, createdAt: outbox.createdAt })
        .from(outbox)
        .where(eq(outbox.id, job.outboxId));
      // Purged meanwhile, or sent by an attempt whose process died before it could say so.
      if (!row || row.sentAt) return;
      const text = unseal(key, job.sealed);
      try {
        // Handed over once, whatever the retries (message-delivery.ts, decision 032).
        await deliverOnce({
          db,
          clock,
          logger,
          outboxId: job.outboxId,
          attempt: `${attempt.id}/${attempt.retryCount}`,
          messageId: `<outbox.${job.outboxId}.${row.createdAt.getTime()}@bd-portal>`,
          send: (handover) =>
            job.channel === 'email'
              ? email.send({ to: job.to, subject: job.subject ?? '', text, language: job.language }, handover)
              : sms.send({ to: job.to, text }, handover),
          async onSent(tx) {
            await tx
              .update(outbox)
              .set({ sentAt: clock.now(), error: null })
              .where(eq(outbox.id, job.outboxId));
            // A one-time code counts as delivered once its message has gone (docs/flows/login.md).
            if (job.otpChallengeId !== undefined)
              await tx
                .update(otpChallenges)
                .set({ delivered: true })
                .where(eq(otpChallenges.id, job.otpChallengeId));
          },
        });
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        await db
          .update(outbox)
          .set({ error: error.slice(0, 1000) })
          .where(eq(outbox.id, job.outboxId));
        throw err;
      }
    },
  });

  /** Records the message (`kept`: the text the outbox row keeps) and queues `texts` for the sender. */
  async function deliver(
    message: { channel: 'email' | 'sms'; to: string; language: Language; otpChallengeId?: number },
    texts: { subject: string; email: string; sms: string },
    kept: { email: string; sms: string },
  ): Promise<void> {
    const isEmail = message.channel === 'email';
    const transport = isEmail ? email.transport : sms.transport;
    const [entry] = await db
      .insert(outbox)
      .values({
        channel: message.channel,
        toAddress: message.to,
        subject: isEmail ? texts.subject : null,
        // A code that really leaves (SMTP, gateway) is not kept readable in the database; only the
        // outbox transport, where the row is the delivery, stores it.
        body: transport === 'outbox' ? (isEmail ? texts.email : texts.sms) : isEmail ? kept.email : kept.sms,
        language: message.language,
        transport,
        createdAt: clock.now(),
      })
      .returning({ id: outbox.id });
    if (!entry) throw new Error('outbox row not written');
    const job: SendMessageJob = {
      outboxId: entry.id,
      channel: message.channel,
      to: message.to,
      language: message.language,
      subject: isEmail ? texts.subject : null,
      sealed: seal(key, isEmail ? texts.email : texts.sms),
      ...(message.otpChallengeId === undefined ? {} : { otpChallengeId: message.otpChallengeId }),
    };
    const id = await jobs.send(SEND_MESSAGE_JOB, job);
    if (id) queued.add(id);
    jobs.nudge(SEND_MESSAGE_JOB);
  }

  return {
    sendOtp({ challengeId, ...message }) {
      const texts = otpTexts(message);
      const hidden = otpTexts({ ...message, code: REDACTED_CODE });
      return deliver({ ...message, otpChallengeId: challengeId }, texts, hidden);
    },

    sendAcknowledgement(message) {
      const texts = acknowledgementTexts(message);
      return deliver(message, texts, texts);
    },

    sendCaseNotice(message) {
      const texts = caseNoticeTexts(message);
      return deliver(message, texts, texts);
    },

    sendText({ texts, ...message }) {
      return deliver(message, texts, texts);
    },

    async settled(timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (queued.size > 0) {
        for (const id of [...queued]) {
          const state = await jobs.stateOf(SEND_MESSAGE_JOB, id);
          if (state === undefined || state === 'completed' || state === 'failed' || state === 'cancelled')
            queued.delete(id);
        }
        if (queued.size === 0) return;
        if (Date.now() > until) {
          logger.warn({ waiting: queued.size }, 'messages still queued');
          return;
        }
        jobs.nudge(SEND_MESSAGE_JOB);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
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
        sentAt: row.sentAt ? row.sentAt.toISOString() : null,
        error: row.error,
      }));
    },
  };
}
