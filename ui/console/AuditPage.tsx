import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS } from '../../machines/rules/audit-words';
import { type AuditRowData, eventKey } from '../../machines/rules/staff';
import { ConsoleApiError, consoleApi } from './api';
import { AuditTable } from './AuditTable';
import { FieldInput, FieldSelect, ProblemSummary } from './fields';

/** /console/audit: the audit trail searched by an admin or a senior officer. */
export default function AuditPage() {
  const { t } = useTranslation('console');
  const [q, setQ] = useState({ applicationNo: '', actorRef: '', event: '', from: '' });
  const [rows, setRows] = useState<AuditRowData[] | null>(null);
  const [error, setError] = useState<ConsoleApiError | null>(null);

  const search = async (e: FormEvent) => {
    e.preventDefault();
    try {
      setRows(
        await consoleApi.get<AuditRowData[]>(
          'audit',
          Object.fromEntries(Object.entries(q).filter(([, v]) => v.trim() !== '')),
        ),
      );
      setError(null);
    } catch (err) {
      setError(err instanceof ConsoleApiError ? err : null);
    }
  };
  const field = (name: keyof typeof q) => (
    <FieldInput
      id={`audit-${name}`}
      label={t(`auditPage.${name}`)}
      value={q[name]}
      onChange={(v) => setQ((s) => ({ ...s, [name]: v }))}
    />
  );

  return (
    <>
      <h1>{t('auditPage.title')}</h1>
      <ProblemSummary error={error} />
      <form className="console__filters" onSubmit={(e) => void search(e)} aria-label={t('auditPage.search')}>
        {field('applicationNo')}
        {field('actorRef')}
        <FieldSelect
          id="audit-event"
          label={t('auditPage.event')}
          value={q.event}
          onChange={(v) => setQ((s) => ({ ...s, event: v }))}
          options={[
            { value: '', label: t('audit.eventAny') },
            ...AUDIT_ACTIONS.map((a) => ({ value: a, label: t(`audit.events.${eventKey(a)}`) })),
          ]}
        />
        {field('from')}
        <button type="submit" className="button button--primary">
          {t('auditPage.submit')}
        </button>
      </form>
      {rows && (rows.length ? <AuditTable rows={rows} withCase /> : <p>{t('auditPage.empty')}</p>)}
    </>
  );
}
