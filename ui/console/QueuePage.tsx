import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useOutletContext, useSearchParams } from 'react-router-dom';
import { CASE_STATUSES } from '../../machines/rules/case-lifecycle';
import type { QueuePage as QueueData, QueueRow, StaffSummary } from '../../machines/rules/staff';
import { QUEUE_SEARCH_MAX } from '../../machines/rules/staff-queue';
import { ConsoleApiError, consoleApi } from './api';
import { FieldInput, FieldSelect, ProblemSummary } from './fields';
import { formatDate } from '../components/format';
import { ActivityMarker, InboxNotices, InboxTabs } from './InboxParts';
import type { ConsoleContext } from './ConsoleLayout';
import PledgeCell from './PledgeCell';

/** The filters as the API takes them (blank ones left out), in the page's language for the CSV. */
function searchOf(filters: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(filters)
      .filter(([k, v]) => v !== '' && !(k === 'page' && v === 1))
      .map(([k, v]) => [k, String(v)]),
  );
}

/**
 * /console: the work queue (docs/console.md, "The work queue"), open cases first by the contact details'
 * due date, found by the search box and filtered by status, form and officer; downloaded as CSV.
 */
export default function QueuePage() {
  const { t, i18n } = useTranslation(['console', 'auth']);
  const [filters, setFilters] = useState({ status: '', form: '', officer: '', q: '' });
  // The inbox's tab (docs/decisions/039-officer-inbox.md), from the address: ?tab=handle|mine|waiting|done.
  const [params] = useSearchParams();
  const tab = params.get('tab') ?? '';
  // A senior officer's cases whose proposed decision waits for their approval (decision 040).
  const awaiting = params.get('awaiting') === 'me' ? 'me' : '';
  const { me } = useOutletContext<ConsoleContext>();
  const [shown, setShown] = useState({ ...filters, page: 1 });
  // Another tab starts at its first page.
  const [tabShown, setTabShown] = useState(tab + awaiting);
  if (tab + awaiting !== tabShown) {
    setTabShown(tab + awaiting);
    setShown((s) => ({ ...s, page: 1 }));
  }
  const [data, setData] = useState<QueueData | null>(null);
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const rows = data?.cases ?? null;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  useEffect(() => {
    const search = searchOf({ ...shown, tab, awaiting });
    // Only the answer to the latest filters is shown (an earlier, slower one is dropped when it comes).
    let live = true;
    consoleApi.get<QueueData>('cases', search).then(
      (r) => {
        if (!live) return;
        setData(r);
        setError(null);
      },
      (e: unknown) => {
        if (live) setError(e instanceof ConsoleApiError ? e : null);
      },
    );
    return () => {
      live = false;
    };
  }, [shown, tab, awaiting]);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setShown({
      ...filters,
      form: filters.form.trim().toUpperCase(),
      q: filters.q.trim(),
      page: 1,
    });
  };
  const goTo = (page: number) => setShown((s) => ({ ...s, page }));
  const status = (s: string) => t(`auth:history.statuses.${s}`, { defaultValue: s });
  const nameOf = (s: StaffSummary) => (i18n.language === 'en' ? s.nameEn : s.nameZh);
  const officerName = (r: QueueRow) => (r.officer ? nameOf(r.officer) : t('queue.notAssigned'));
  const collator = new Intl.Collator(i18n.language === 'en' ? 'en' : 'zh-HK');
  const officers = [...(data?.officers ?? [])].sort((a, b) => collator.compare(nameOf(a), nameOf(b)));
  const { page: _page, ...exported } = shown;
  const csvHref = `/api/staff/cases.csv?${new URLSearchParams({ ...searchOf({ ...exported, tab, awaiting }), lang: i18n.language }).toString()}`;
  const searchError = error?.fields.find((f) => f.path === 'q')?.message;

  return (
    <>
      <h1>
        {t(awaiting ? 'inbox.tab.approval' : tab ? `inbox.tab.${tab}` : 'queue.title', {
          defaultValue: t('queue.title'),
        })}
      </h1>
      <InboxTabs tab={awaiting ? 'approval' : tab} approver={me?.role === 'seniorOfficer'} />
      {tab && <InboxNotices />}
      <ProblemSummary error={error} />
      <form className="console__filters" onSubmit={apply} aria-label={t('queue.filters')}>
        <FieldInput
          id="filter-search"
          type="search"
          label={t('queue.search')}
          hint={t('queue.searchHint')}
          error={searchError}
          maxLength={QUEUE_SEARCH_MAX}
          value={filters.q}
          onChange={(v) => setFilters((f) => ({ ...f, q: v }))}
        />
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
            ...officers.map((o) => ({ value: String(o.id), label: nameOf(o) })),
          ]}
        />
        <button type="submit" className="button">
          {t('queue.apply')}
        </button>
      </form>
      {data && (
        <p role="status" className="console__count">
          {t('queue.count', { count: data.total, page: data.page, pages })}
        </p>
      )}
      {data && data.total > 0 && (
        <p>
          <a href={csvHref} download>
            {t('queue.download')}
          </a>
        </p>
      )}
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
                <th scope="col">{t('pledges.column')}</th>
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
                    <ActivityMarker kinds={r.activity} />
                  </th>
                  <td>{r.formCode}</td>
                  <td>
                    {status(r.status)}
                    {r.requestOverdue && (
                      <strong className="console__flag"> {t('queue.requestOverdue')}</strong>
                    )}
                  </td>
                  <td>{r.applicantName}</td>
                  <td>{formatDate(r.submittedAt, i18n.language)}</td>
                  <td>
                    {formatDate(r.contactDue, i18n.language)}
                    {r.overdue && <strong className="console__flag"> {t('queue.overdue')}</strong>}
                  </td>
                  <td>
                    <PledgeCell pledge={r.pledge} />
                  </td>
                  <td>{officerName(r)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && pages > 1 && (
        <nav className="console__pager" aria-label={t('queue.pages')}>
          <button
            type="button"
            className="button"
            disabled={data.page <= 1}
            onClick={() => goTo(data.page - 1)}
          >
            {t('queue.previous')}
          </button>
          <button
            type="button"
            className="button"
            disabled={data.page >= pages}
            onClick={() => goTo(data.page + 1)}
          >
            {t('queue.next')}
          </button>
        </nav>
      )}
    </>
  );
}
