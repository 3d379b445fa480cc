import { useTranslation } from 'react-i18next';
import { auditChanges, STAFF_ID_FIELDS } from '../../machines/rules/audit-words';
import type { AuditRowData } from '../../machines/rules/staff';
import { eventKey } from '../../machines/rules/staff';
import { formatDate } from '../components/format';
import { useConsoleTime } from './time';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Fields whose codes have words of their own (`audit.values.<field>.<code>`). */
const CODED = new Set(['outcome', 'result', 'window', 'method', 'kind']);
const LOCALES: Record<string, string> = { en: 'en-HK', tc: 'zh-HK', sc: 'zh-CN' };

/** One field of an audit event in words: its label, and its values before and after. */
export interface AuditLine {
  field: string;
  label: string;
  before?: string;
  after?: string;
}

/**
 * The audit trail in the officer's words (docs/console.md, "Audit trail"): who by name and role, what as an
 * action, and each recorded field as "label: before → after" with statuses, officers, dates (Hong Kong
 * time) and codes in words. A code the console has no words for is shown as recorded.
 */
export function useAuditWords() {
  const { t, i18n } = useTranslation(['console', 'auth', 'appointment']);
  const time = useConsoleTime();
  const nameOf = (p: { nameEn: string; nameZh: string }) => (i18n.language === 'en' ? p.nameEn : p.nameZh);

  /** Who acted: a member of staff by name, and the role (the applicant, an AP ... by role only). */
  const who = (row: AuditRowData): { name: string | null; role: string } => {
    const id = /^staff:(\d+)$/.exec(row.actorRef)?.[1];
    const person = id ? row.people[id] : undefined;
    return {
      name: person ? nameOf(person) : null,
      role: t(`audit.actors.${row.actor}`, { defaultValue: row.actor }),
    };
  };

  const what = (row: AuditRowData): string =>
    t(`audit.events.${eventKey(row.event)}`, { defaultValue: row.event });

  const value = (row: AuditRowData, field: string, v: unknown): string => {
    if (v === null || v === undefined || v === '') return t('audit.none');
    if (STAFF_ID_FIELDS.has(field) && typeof v === 'number') {
      const person = row.people[String(v)];
      return person ? nameOf(person) : t('audit.staffNumber', { id: v });
    }
    if (typeof v === 'boolean') return t(v ? 'audit.yes' : 'audit.no');
    if (field === 'status' && typeof v === 'string')
      return t([`auth:history.statuses.${v}`, `appointment:manage.statuses.${v}`], { defaultValue: v });
    if (field === 'role' && typeof v === 'string')
      return t([`roles.${v}`, `audit.actors.${v}`], { defaultValue: v });
    if (CODED.has(field) && typeof v === 'string') return t(`audit.values.${field}.${v}`, { defaultValue: v });
    if (typeof v === 'string' && ISO_TIME.test(v)) return time(v);
    if (typeof v === 'string' && ISO_DATE.test(v)) return formatDate(v, i18n.language);
    if (Array.isArray(v))
      return new Intl.ListFormat(LOCALES[i18n.language] ?? 'en', { type: 'unit' }).format(
        v.map((x) => value(row, field, x)),
      );
    return typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v);
  };

  const lines = (row: AuditRowData): AuditLine[] =>
    auditChanges(row.before, row.after).map((c) => ({
      field: c.field,
      label: t(`audit.fields.${c.field}`, { defaultValue: c.field }),
      ...('before' in c ? { before: value(row, c.field, c.before) } : {}),
      ...('after' in c ? { after: value(row, c.field, c.after) } : {}),
    }));

  return { who, what, lines };
}
