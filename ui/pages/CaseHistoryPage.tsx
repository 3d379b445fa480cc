import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CaseFromDepartment } from '../flows/case/CaseFromDepartment';
import { Link } from 'react-router-dom';
import type { CaseData } from '../../machines/rules/case';
import { isLoggedIn } from '../../machines/rules/session-state';
import { casesApi } from '../api/cases';
import { useSession } from '../session/store';
import { PageHeading } from '../components/PageHeading';
import { Spinner } from '../components/Spinner';
import { formatDate } from '../components/format';
import { CaseSummary } from '../flows/case/CaseSummary';
import { DocumentLink } from '../flows/case/DocumentLink';
import { DocumentReviewNotice } from '../flows/case/DocumentReviewNotice';
import { type SubmissionSource, SubmissionView } from '../flows/apply/SuccessStep';
import { selfCertLink } from '../flows/case/self-cert-link';

/** Find my case's way back to the downloads of an application submitted online (7 days after submission). */
const SUBMISSION: SubmissionSource = {
  details: 'application/submission',
  links: 'application/submission/links',
  options: { quiet: true },
  quietWhenMissing: true,
};

type Load = { state: 'loading' } | { state: 'done'; data: CaseData } | { state: 'failed' };

/**
 * The case page of the logged-in applicant (spec §2 /case-history, §3 history row): the status in plain
 * words with what happens next, the follow-ups the lifecycle allows now, the history with each document
 * downloadable, and the submission's downloads.
 */
export default function CaseHistoryPage() {
  // Every namespace of the case view is loaded before the page shows: a namespace first asked for by a part
  // that appears later (the downloads' 'wizard') suspended the page, hid its heading and dropped the focus
  // the heading had just taken to the page's body (docs/flows/login.md, "Focus after login").
  const { t } = useTranslation(['auth', 'case', 'flows', 'common', 'wizard', 'forms']);
  const loggedIn = useSession(isLoggedIn);
  const token = useSession((s) => s.token);
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    if (!token) return;
    let live = true;
    casesApi.current().then(
      (data) => live && setLoad({ state: 'done', data }),
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

  return (
    <article className="content-page content-page--wide">
      <PageHeading>{t('history.title')}</PageHeading>
      {load.state === 'loading' ? <Spinner /> : null}
      {load.state === 'failed' ? <p role="alert">{t('common:errors.network')}</p> : null}
      {/* Whatever a part of the case view still waits for, it waits here, below the heading. */}
      <Suspense fallback={<Spinner />}>
        {load.state === 'done' ? <CaseView data={load.data} /> : null}
      </Suspense>
    </article>
  );
}

function CaseView({ data }: { data: CaseData }) {
  const { t } = useTranslation(['auth', 'case', 'flows', 'appointment']);
  const status = t(`history.statuses.${data.status}`, { defaultValue: data.status });
  const allowed = data.actions.filter((a) => a.allowed);
  const selfCert = data.selfCertification;
  const buttons = useSession((s) => s.authButtons);
  const role = useSession((s) => s.role);
  return (
    <>
      <section className="notice notice--info case-status" aria-labelledby="case-status-title">
        <h2 id="case-status-title">{t('case:page.statusTitle', { status })}</h2>
        <p>{t(`case:status.${data.status}.now`)}</p>
        <p>{t(`case:status.${data.status}.next`)}</p>
      </section>
      <CaseSummary summary={data} />
      <CaseFromDepartment data={data} />
      <section aria-labelledby="case-actions-title">
        <h2 id="case-actions-title">{t('case:page.actionsTitle')}</h2>
        {allowed.length === 0 && !selfCert ? (
          <p>{t('case:page.noActions')}</p>
        ) : (
          <ul className="link-list">
            {allowed.map((a) => (
              <li key={a.key}>
                <Link to={a.route}>{t(`flows:forms.${a.key}.title`)}</Link>
              </li>
            ))}
            {/* An AP or RSE the lifecycle lets self-certify now (docs/decisions/021-self-certification.md). */}
            {selfCert ? (
              <li>
                <Link to={selfCertLink(data.applicationNo, selfCert)}>
                  {t('case:page.selfCertify', { form: t(`flows:forms.${selfCert.formKey}.title`) })}
                </Link>
              </li>
            ) : null}
          </ul>
        )}
      </section>
      {/* An AP's or RSE's own email and mobile (docs/flows/appointee-contact.md). */}
      {role === 'ap' || role === 'rse' ? (
        <p>
          <Link to="/appointee-contact">{t('appointment:contact.link')}</Link>
        </p>
      ) : null}
      <HistoryTable data={data} />
      {/* The signed application is the applicant's alone (docs/appointee-visibility.md). */}
      {buttons.includes('case.information') ? <SubmissionView source={SUBMISSION} /> : null}
    </>
  );
}

function HistoryTable({ data }: { data: CaseData }) {
  const { t, i18n } = useTranslation(['auth', 'case']);
  const code = (group: string, value: string) => t(`history.${group}.${value}`, { defaultValue: value });
  if (data.history.length === 0) return <p className="notice notice--info">{t('history.empty')}</p>;
  return (
    <section aria-labelledby="case-history-title">
      <h2 id="case-history-title">{t('case:page.historyTitle')}</h2>
      <div className="table-wrap">
        <table className="table">
          <caption>{t('history.caption', { applicationNo: data.applicationNo })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('history.columns.submissionDate')}</th>
              <th scope="col">{t('history.columns.documentType')}</th>
              <th scope="col">{t('history.columns.status')}</th>
              <th scope="col">{t('history.columns.submittedBy')}</th>
              <th scope="col">{t('history.columns.date')}</th>
              <th scope="col">{t('case:page.documents')}</th>
            </tr>
          </thead>
          <tbody>
            {data.history.map((row) => (
              <tr key={row.id}>
                <td>
                  <time dateTime={row.submissionDate}>
                    {formatDate(row.submissionDate, i18n.language, true)}
                  </time>
                </td>
                <td>
                  {code('documentTypes', row.documentType)}
                  {row.revision ? (
                    <>
                      <br />
                      <span>{t('case:page.revision', { revision: row.revision })}</span>
                    </>
                  ) : null}
                  {row.reference ? (
                    <>
                      <br />
                      <span className="muted">{t('case:page.reference', { reference: row.reference })}</span>
                    </>
                  ) : null}
                </td>
                <td>{code('statuses', row.status)}</td>
                <td>{code('submittedBy', row.submittedBy)}</td>
                <td>
                  {/* The date the row is about (spec: "submission date, …, date"); the day only. */}
                  <time dateTime={row.date}>{formatDate(row.date, i18n.language)}</time>
                </td>
                <td>
                  {row.documents.length === 0 ? (
                    <span className="muted">{t('case:page.noDocuments')}</span>
                  ) : (
                    <ul className="plain-list">
                      {row.documents.map((d) => (
                        <li key={d.id}>
                          <DocumentLink
                            document={d}
                            applicationNo={data.applicationNo}
                            named={row.documents.filter((o) => o.kind === d.kind).length > 1}
                          />
                          {d.current === undefined ? null : (
                            <span className={`badge ${d.current ? 'badge--current' : ''}`}>
                              {t(d.current ? 'case:page.currentPlan' : 'case:page.supersededPlan')}
                            </span>
                          )}
                          <DocumentReviewNotice document={d} name={d.fileName} data={data} />
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
