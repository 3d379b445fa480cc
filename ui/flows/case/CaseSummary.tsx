import { useTranslation } from 'react-i18next';
import type { CaseSummary as Summary } from '../../../machines/flows/case-action.machine';
import { formatDate } from '../../components/format';

/** The case a follow-up acts on: number, type, status, submission date (and the request's date), as a list. */
export function CaseSummary({ summary, requestDate }: { summary: Summary; requestDate?: string }) {
  const { t, i18n } = useTranslation(['case', 'auth', 'flows']);
  return (
    <section className="case-summary" aria-labelledby="case-summary-title">
      <h2 id="case-summary-title">{t('case:summary.title')}</h2>
      <dl className="preview__list">
        <div className="preview__row">
          <dt>{t('case:summary.applicationNo')}</dt>
          <dd>{summary.applicationNo}</dd>
        </div>
        <div className="preview__row">
          <dt>{t('case:summary.type')}</dt>
          <dd>
            {t(`flows:applicationTypes.${summary.applicationType}`, { defaultValue: summary.formCode })}
          </dd>
        </div>
        <div className="preview__row">
          <dt>{t('case:summary.status')}</dt>
          <dd>{t(`auth:history.statuses.${summary.status}`, { defaultValue: summary.status })}</dd>
        </div>
        <div className="preview__row">
          <dt>{t('case:summary.submittedAt')}</dt>
          <dd>
            <time dateTime={summary.submittedAt}>{formatDate(summary.submittedAt, i18n.language)}</time>
          </dd>
        </div>
        {requestDate ? (
          <div className="preview__row">
            <dt>{t('case:summary.requestDate')}</dt>
            <dd>
              <time dateTime={requestDate}>{formatDate(requestDate, i18n.language)}</time>
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}
