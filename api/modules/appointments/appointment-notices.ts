import type { Logger } from 'pino';
import type { Db } from '../../../drizzle/db';
import type { AppointmentRow } from '../../../drizzle/schema';
import type { AppointmentStatus } from '../../../machines/rules/appointment';
import { submitterOf, type CaseActor } from '../../../machines/rules/case-lifecycle';
import type { DocumentType } from '../../../machines/rules/history';
import { formatHkDate } from '../../../machines/rules/dates';
import type { Language } from '../../../machines/rules/language';
import { translate } from '../../http/i18n';
import { findApplication, insertAudit, insertHistory } from '../cases';
import type { MessageService } from '../shared';

/**
 * What every event of an appointment writes and sends (api/modules/appointments/appointments.service.ts): its history row and
 * audit event, and its messages in the appointment's language and in English.
 */

export type AppointmentTexts = { subject: string; email: string; sms: string };

const CALENDAR_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/**
 * One text in the appointment's language and, when that is not English, in English after it. Dates are
 * written in each text's own language, Hong Kong time (machines/rules/dates.ts): a `Date` param with its
 * time, a `YYYY-MM-DD` one (an expiry date) as that day.
 */
export function bilingualTexts(
  language: Language,
  key: string,
  params: Readonly<Record<string, string | Date>>,
): AppointmentTexts {
  const inLanguage = (lang: Language) =>
    Object.fromEntries(
      Object.entries(params).map(([name, v]) => [
        name,
        v instanceof Date ? formatHkDate(v, lang, true) : CALENDAR_DATE.test(v) ? formatHkDate(v, lang) : v,
      ]),
    );
  const one = (lang: Language, part: string) =>
    translate(lang, `message.appointment.${key}.${part}`, {
      ...inLanguage(lang),
      role: translate(lang, `message.appointment.role.${String(params.identity ?? 'ap')}`),
    });
  const both = (part: string, sep: string) =>
    language === 'en' ? one('en', part) : `${one(language, part)}${sep}${one('en', part)}`;
  return { subject: both('subject', ' / '), email: both('email', '\n\n————\n\n'), sms: both('sms', ' / ') };
}

/** Email and SMS (both: an appointee may read either first); failures are logged, the event stands. */
export function createTeller(messages: MessageService, logger: Logger) {
  return async (
    to: { email: string | null; mobile: string | null },
    language: Language,
    texts: AppointmentTexts,
  ) => {
    const sends: Promise<void>[] = [];
    if (to.email) sends.push(messages.sendText({ channel: 'email', to: to.email, language, texts }));
    if (to.mobile) sends.push(messages.sendText({ channel: 'sms', to: to.mobile, language, texts }));
    for (const r of await Promise.allSettled(sends))
      if (r.status === 'rejected')
        logger.error({ err: r.reason as unknown }, 'appointment message not queued');
  };
}

export const paramsOf = (a: AppointmentRow, applicationNo: string): Record<string, string> => ({
  applicationNo,
  identity: a.identity,
  name: a.nameEn,
  registrationNumber: a.registrationNumber,
  expiryDate: a.expiryDate,
});

/** A history row and an audit event for an appointment's event, in the caller's transaction. */
export async function recordAppointmentEvent(
  tx: Db,
  a: AppointmentRow,
  event: string,
  documentType: DocumentType,
  by: { actor: CaseActor; ref: string },
  before: AppointmentStatus,
  after: AppointmentStatus,
  now: Date,
  reference: string,
): Promise<void> {
  const application = await findApplication(tx, a.applicationId);
  await insertHistory(tx, {
    applicationId: a.applicationId,
    submissionDate: now,
    documentType,
    status: application?.status ?? 'SUBMITTED',
    submittedBy: submitterOf(by.actor),
    date: now,
    reference,
  });
  await insertAudit(tx, {
    at: now,
    actor: by.actor,
    actorRef: by.ref,
    event,
    applicationId: a.applicationId,
    reference,
    before: { appointment: a.id, status: before },
    after: {
      appointment: a.id,
      status: after,
      identity: a.identity,
      registrationNumber: a.registrationNumber,
    },
  });
}
