import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isLoggedIn } from '../../machines/rules/session-state';
import { api } from '../api';
import { useSession } from '../session/store';
import { PageHeading } from '../components/PageHeading';
import { Spinner } from '../components/Spinner';
import { formatDate } from '../components/format';
import { type SubmissionSource, SubmissionView } from '../flows/apply/SuccessStep';

export interface HistoryRow {
  submissionDate: string;
  documentType: string;
  status: string;
  submittedBy: string;
  date: string;
}
interface History {
  applicationNo: string;
  rows: HistoryRow[];
}

/** Find my case's way back to the downloads of an application submitted online (7 days after submission). */
const SUBMISSION: SubmissionSource = {
  details: 'application/submission',
  links: 'application/submission/links',
  options: { quiet: true },
  quietWhenMissing: true,
};

type Load = { state: 'loading' } | { state: 'done'; history: History } | { state: 'failed' };

/** The application history of the logged-in applicant (spec §2, §3): a real table with a caption. */
export default function CaseHistoryPage() {
  const { t, i18n } = useTranslation(['auth', 'common']);
  const loggedIn = useSession(isLoggedIn);
  const token = useSession((s) => s.token);
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    if (!token) return;
    let live = true;
    api.get<History>('application/history').then(
      (answer) => live && setLoad({ state: 'done', history: answer.data }),
      () => live && setLoad({ state: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  if (!loggedIn) {
    return (
      <article className="content-page">
        <PageHeading>{t('history.title')}</PageHeading>
        <p>{t('history.loginFirst')}</p>
        <p>
          <Link className="button button--primary" to="/find-my-case">
            {t('history.login')}
          </Link>
        </p>
      </article>
    );
  }

  const code = (group: string, value: string) => t(`history.${group}.${value}`, { defaultValue: value });
  return (
    <article className="content-page content-page--wide">
      <PageHeading>{t('history.title')}</PageHeading>
      {load.state === 'loading' ? <Spinner /> : null}
      {load.state === 'failed' ? <p role="alert">{t('common:errors.network')}</p> : null}
      {load.state === 'done' ? (
        <>
          <p className="lead">{t('history.intro', { applicationNo: load.history.applicationNo })}</p>
          {load.history.rows.length === 0 ? (
            <p className="notice notice--info">{t('history.empty')}</p>
          ) : (
            <div className="table-wrap">
              <table className="table">
                <caption>{t('history.caption', { applicationNo: load.history.applicationNo })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('history.columns.submissionDate')}</th>
                    <th scope="col">{t('history.columns.documentType')}</th>
                    <th scope="col">{t('history.columns.status')}</th>
                    <th scope="col">{t('history.columns.submittedBy')}</th>
                    <th scope="col">{t('history.columns.date')}</th>
                  </tr>
                </thead>
                <tbody>
                  {load.history.rows.map((row, i) => (
                    <tr key={`${row.submissionDate}-${i}`}>
                      <td>
                        <time dateTime={row.submissionDate}>
                          {formatDate(row.submissionDate, i18n.language)}
                        </time>
                      </td>
                      <td>{code('documentTypes', row.documentType)}</td>
                      <td>{code('statuses', row.status)}</td>
                      <td>{code('submittedBy', row.submittedBy)}</td>
                      <td>
                        <time dateTime={row.date}>{formatDate(row.date, i18n.language)}</time>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <SubmissionView source={SUBMISSION} />
        </>
      ) : null}
    </article>
  );
}
