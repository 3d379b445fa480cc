import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { CASE_STATUSES } from '../../machines/rules/case-lifecycle';
import type { QueueRow } from '../../machines/rules/staff';
import { ConsoleApiError, consoleApi } from './api';
import { FieldInput, FieldSelect, ProblemSummary } from './fields';

/** /console: the work queue, sorted by the contact details' due date, filtered by status, form and officer. */
export default function QueuePage() {
  const { t, i18n } = useTranslation(['console', 'auth']);
  const [filters, setFilters] = useState({ status: '', form: '', officer: '' });
  const [shown, setShown] = useState(filters);
  const [rows, setRows] = useState<QueueRow[] | null>(null);
  const [error, setError] = useState<ConsoleApiError | null>(null);

  useEffect(() => {
    const search = Object.fromEntries(Object.entries(shown).filter(([, v]) => v !== ''));
    consoleApi.get<QueueRow[]>('cases', search).then(
      (r) => {
        setRows(r);
        setError(null);
      },
      (e: unknown) => setError(e instanceof ConsoleApiError ? e : null),
    );
  }, [shown]);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setShown({ ...filters, form: filters.form.trim().toUpperCase() });
  };
  const status = (s: string) => t(`auth:history.statuses.${s}`, { defaultValue: s });
  const officerName = (r: QueueRow) =>
    r.officer ? (i18n.language === 'en' ? r.officer.nameEn : r.officer.nameZh) : t('queue.notAssigned');

  return (
    <>
      <h1>{t('queue.title')}</h1>
      <ProblemSummary error={error} />
      <form className="console__filters" onSubmit={apply} aria-label={t('queue.filters')}>
        <FieldSelect
          id="filter-status"
          label={t('queue.status')}
          value={filters.status}
          onChange={(v) => setFilters((f) => ({ ...f, status: v }))}
          options={[
            { value: '', label: t('queue.any') },
            ...CASE_STATUSES.map((s) => ({ value: s, label: status(s) })),
          ]}
        />
        <FieldInput
          id="filter-form"
          label={t('queue.form')}
          value={filters.form}
          onChange={(v) => setFilters((f) => ({ ...f, form: v }))}
        />
        <FieldSelect
          id="filter-officer"
          label={t('queue.officer')}
          value={filters.officer}
          onChange={(v) => setFilters((f) => ({ ...f, officer: v }))}
          options={[
            { value: '', label: t('queue.any') },
            { value: 'me', label: t('queue.me') },
            { value: 'none', label: t('queue.none') },
          ]}
        />
        <button type="submit" className="button">
          {t('queue.apply')}
        </button>
      </form>
      {rows && rows.length === 0 && <p>{t('queue.empty')}</p>}
      {rows && rows.length > 0 && (
        <div className="table-wrap">
          <table className="table">
            <caption>{t('queue.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('queue.applicationNo')}</th>
                <th scope="col">{t('queue.form')}</th>
                <th scope="col">{t('queue.status')}</th>
                <th scope="col">{t('queue.applicant')}</th>
                <th scope="col">{t('queue.submitted')}</th>
                <th scope="col">{t('queue.due')}</th>
                <th scope="col">{t('queue.officer')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.applicationNo}>
                  <th scope="row">
                    <Link to={`/console/cases/${encodeURIComponent(r.applicationNo)}`}>
                      {r.applicationNo}
                    </Link>
                  </th>
                  <td>{r.formCode}</td>
                  <td>
                    {status(r.status)}
                    {r.requestOverdue && (
                      <strong className="console__flag"> {t('queue.requestOverdue')}</strong>
                    )}
                  </td>
                  <td>{r.applicantName}</td>
                  <td>{r.submittedAt.slice(0, 10)}</td>
                  <td>
                    {r.contactDue}
                    {r.overdue && <strong className="console__flag"> {t('queue.overdue')}</strong>}
                  </td>
                  <td>{officerName(r)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
