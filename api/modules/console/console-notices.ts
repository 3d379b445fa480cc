import type { Logger } from 'pino';
import type { Db } from '../../../drizzle/db';
import type { ApplicationRow } from '../../../drizzle/schema';
import { isLanguage, type Language } from '../../../machines/rules/language';
import { eventKey } from '../../../machines/rules/staff';
import { translate } from '../../http/i18n';
import { activeAppointees } from '../appointments';
import type { MessageService } from '../shared';

/** Whom a console action tells: one address each, with the language they read. */
export interface CaseRecipient {
  channel: 'email' | 'sms';
  to: string;
  language: Language;
}

/**
 * The people a case's notices go to: the applicant (email, else SMS, in the case's language) and the
 * case's active AP and RSE (docs/decisions/020-appointments.md: by email, in the language of their appointment), the one place.
 */
export async function caseRecipients(db: Db, application: ApplicationRow): Promise<CaseRecipient[]> {
  const recipients: CaseRecipient[] = [];
  const language = isLanguage(application.language) ? application.language : 'tc';
  const to = application.email ?? application.mobile;
  if (to) recipients.push({ channel: application.email ? 'email' : 'sms', to, language });
  for (const appointee of await activeAppointees(db, application.id)) {
    recipients.push({ channel: 'email', to: appointee.email, language: appointee.language });
  }
  return recipients;
}

/**
 * Queues the notice of a console action to every recipient in their language (`staff.notice.<kind>` of
 * api.json with `params`). The action stands even if queueing fails now (logged): the case page shows it.
 */
export async function sendConsoleNotice(
  { db, messages, logger }: { db: Db; messages: MessageService; logger: Logger },
  application: ApplicationRow,
  kind: string,
  params: (language: Language) => Record<string, string | number>,
): Promise<void> {
  for (const r of await caseRecipients(db, application)) {
    const p = { applicationNo: application.applicationNo, ...params(r.language) };
    const subject = translate(r.language, 'staff.notice.subject', p);
    const body = translate(r.language, `staff.notice.${eventKey(kind)}`, p);
    const footer = translate(r.language, 'staff.notice.footer', p);
    // The department's sign-off, as every other email of the portal ends (api.json `message.*.email`).
    const signOff = translate(r.language, 'staff.notice.signOff', p);
    await messages
      .sendText({
        channel: r.channel,
        to: r.to,
        language: r.language,
        texts: { subject, email: `${body}\n\n${footer}\n\n${signOff}`, sms: body },
      })
      .catch((err: unknown) => logger.error({ err }, 'console notice not queued'));
  }
}
