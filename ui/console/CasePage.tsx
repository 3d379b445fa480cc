import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SignatureDetails } from './SignatureDetails';
import { Link, useOutletContext, useParams } from 'react-router-dom';
import {
  eventKey,
  type ConsoleActionResult,
  type ConsoleCaseData,
  type ConsoleEvent,
} from '../../machines/rules/staff';
import { requestedDocumentNames } from '../../machines/forms/follow-up/submit-document';
import { ActionForm } from './ActionForm';
import { MovedNotice, type MovedAction } from './MovedNotice';
import { InspectionFacts } from './InspectionFacts';
import { ConsoleApiError, consoleApi } from './api';
import { AuditTable } from './AuditTable';
import type { ConsoleContext } from './ConsoleLayout';
import { ProblemSummary } from './fields';
import { VersionList } from './VersionList';
import { CaseSubmissions, langOf } from './CaseSubmissions';
import { formatDate } from '../components/format';
import { useConsoleTime } from './time';
import { ProposalPanel } from './ProposalPanel';
import { InternalNotes } from './InternalNotes';

/** /console/cases/:applicationNo: a case with everything about it, and the actions allowed now. */
export default function CasePage() {
  const { t, i18n } = useTranslation(['console', 'auth', 'forms', 'wizard']);
  const time = useConsoleTime();
  const { applicationNo = '' } = useParams();
  const { me } = useOutletContext<ConsoleContext>();
  const [data, setData] = useState<ConsoleCaseData | null>(null);
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const [open, setOpen] = useState<ConsoleEvent | null>(null);
  // The action form opened proposes a decision of two people (docs/decisions/040-four-eyes-decisions.md).
  const [proposing, setProposing] = useState(false);
  const [done, setDone] = useState<ConsoleActionResult | null>(null);
  const [moved, setMoved] = useState<MovedAction | null>(null);
  // Each refusal opens the form anew (with what was typed), even when the status stayed the same.
  const [round, setRound] = useState(0);

  const load = useCallback(() => {
    consoleApi.get<ConsoleCaseData>(`cases/${encodeURIComponent(applicationNo)}`).then(
      (d) => {
        setData(d);
        setError(null);
      },
      (e: unknown) => setError(e instanceof ConsoleApiError ? e : null),
    );
  }, [applicationNo]);
  useEffect(load, [load]);

  const code = (group: string, value: string) => t(`auth:history.${group}.${value}`, { defaultValue: value });
  const officer = data?.officer
    ? i18n.language === 'en'
      ? data.officer.nameEn
      : data.officer.nameZh
    : t('queue.notAssigned');
  const docUrl = (id: number, download = false) =>
    `/api/staff/cases/${encodeURIComponent(applicationNo)}/documents/${id}${download ? '?download=1' : ''}`;

  return (
    <>
      <p>
        <Link to="/console">{t('case.back')}</Link>
      </p>
      <h1>{applicationNo}</h1>
      <ProblemSummary error={error} />
      {done && (
        <p role="status" className="console__done">
          {t('case.done', { reference: done.reference, status: code('statuses', done.status) })}
        </p>
      )}
      {data && (
        <>
          <h2>{t('case.summary')}</h2>
          <dl className="console__summary">
            <dt>{t('case.status')}</dt>
            <dd>{code('statuses', data.status)}</dd>
            <dt>{t('queue.applicant')}</dt>
            <dd>{data.applicantName}</dd>
            <dt>{t('case.officer')}</dt>
            <dd>{officer}</dd>
            <dt>{t('case.due')}</dt>
            <dd>
              {data.contactDue}
              {data.overdue && <strong className="console__flag"> {t('queue.overdue')}</strong>}
            </dd>
            <dt>{t('case.language')}</dt>
            <dd>{t(`holdersPage.languages.${data.language}`, { defaultValue: data.language })}</dd>
            <dt>{t('case.mobile')}</dt>
            <dd>{data.mobile ?? '—'}</dd>
            <dt>{t('case.email')}</dt>
            <dd>{data.email ?? '—'}</dd>
          </dl>

          <InspectionFacts
            rules={data.rules}
            today={data.calendar.today}
            written={
              data.history.find((h) => h.reference === data.rules.inspectionRequest?.reference)?.words?.texts
            }
          />

          <h2>{t('case.actions')}</h2>
          {moved && (
            <MovedNotice
              moved={moved}
              allowedNow={data.allowed.includes(moved.event)}
              onDismiss={() => setMoved(null)}
            />
          )}
          {data.allowed.length + data.proposable.length === 0 ? (
            <p>{t('case.noActions')}</p>
          ) : (
            <ul className="console__inline">
              {data.allowed.map((e) => (
                <li key={e}>
                  <button
                    type="button"
                    className="button"
                    aria-expanded={open === e && !proposing}
                    onClick={() => {
                      setProposing(false);
                      setOpen(open === e && !proposing ? null : e);
                    }}
                  >
                    {t(`events.${eventKey(e)}`)}
                  </button>
                </li>
              ))}
              {data.proposable.map((e) => (
                <li key={`propose-${e}`}>
                  <button
                    type="button"
                    className="button"
                    aria-expanded={open === e && proposing}
                    onClick={() => {
                      setProposing(true);
                      setOpen(open === e && proposing ? null : e);
                    }}
                  >
                    {t('proposals.propose', { action: t(`events.${eventKey(e)}`) })}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {open && me && (proposing ? data.proposable : data.allowed).includes(open) && (
            <ActionForm
              key={`${open}-${data.status}-${round}`}
              applicationNo={applicationNo}
              event={open}
              status={data.status}
              staff={data.staff}
              requestableDocuments={data.requestableDocuments}
              openRequests={data.requests.filter((r) => !r.answeredAt && !r.withdrawnAt)}
              meId={me.id}
              today={data.calendar.today}
              kept={moved?.event === open ? moved.values : undefined}
              propose={proposing}
              onDone={(result, movedNow) => {
                setDone(result);
                if (result) {
                  setOpen(null);
                  setMoved(null);
                }
                if (movedNow && open) {
                  setMoved({ event: open, ...movedNow });
                  setRound((n) => n + 1);
                }
                load();
              }}
            />
          )}

          {me && (
            <ProposalPanel
              applicationNo={applicationNo}
              proposals={data.proposals}
              awaitingMe={data.awaitingMe}
              meId={me.id}
              onChanged={load}
            />
          )}
          <InternalNotes
            applicationNo={applicationNo}
            notes={data.notes}
            mayAdd={me?.role === 'caseOfficer' || me?.role === 'seniorOfficer'}
            onChanged={load}
          />

          <h2>{t('case.requests')}</h2>
          {data.requests.length === 0 ? (
            <p>{t('case.noRequests')}</p>
          ) : (
            <ul>
              {data.requests.map((r) => (
                <li key={r.id}>
                  {[...requestedDocumentNames(data.formCode, r, (k, d) => t(k, { defaultValue: d })), r.note]
                    .filter(Boolean)
                    .join('; ')}{' '}
                  — {t('case.replyBy', { date: formatDate(r.replyBy, i18n.language) })} —{' '}
                  {r.answeredAt
                    ? t('case.answered', { date: formatDate(r.answeredAt, i18n.language) })
                    : r.withdrawnAt
                      ? t('case.withdrawnRequest', { date: formatDate(r.withdrawnAt, i18n.language) })
                      : t('case.open')}
                  {r.overdue && <strong className="console__flag"> {t('queue.overdue')}</strong>}
                </li>
              ))}
            </ul>
          )}

          <h2>{t('case.messages')}</h2>
          {data.messages.length === 0 ? (
            <p>{t('case.noMessages')}</p>
          ) : (
            <ul>
              {data.messages.map((m) => (
                <li key={m.id}>
                  <strong>{code('submittedBy', m.sender)}</strong> ({time(m.createdAt)}):{' '}
                  <span className="console__written" lang={langOf(m.lang, i18n.language)}>
                    {m.body}
                  </span>
                </li>
              ))}
            </ul>
          )}

          <VersionList versions={data.versions} formKey={data.formKey} />

          <CaseSubmissions data={data} docUrl={docUrl} applicationNo={applicationNo} onReviewed={load} />

          <h2>{t('case.signature')}</h2>
          {data.signature ? (
            <SignatureDetails
              method={data.signature.method}
              signer={data.signature.signer}
              date={data.signature.completedAt ? time(data.signature.completedAt) : ''}
            />
          ) : (
            <p>{t('case.noSignature')}</p>
          )}
          {data.followUpSignatures.map((f) => (
            <section key={f.reference} aria-labelledby={`signature-${f.reference}`}>
              <h3 id={`signature-${f.reference}`}>
                {t('case.followUpSignature', { reference: f.reference })}
              </h3>
              <SignatureDetails method={f.method} signer={f.signer} date={time(f.submittedAt)} />
            </section>
          ))}

          <h2>{t('case.history')}</h2>
          <div className="table-wrap">
            <table className="table">
              <caption>{t('case.history')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('case.date')}</th>
                  <th scope="col">{t('case.documentType')}</th>
                  <th scope="col">{t('case.status')}</th>
                  <th scope="col">{t('case.by')}</th>
                  <th scope="col">{t('case.reference')}</th>
                </tr>
              </thead>
              <tbody>
                {data.history.map((h) => (
                  <tr key={h.id}>
                    <td>{formatDate(h.date, i18n.language)}</td>
                    <td>
                      {code('documentTypes', h.documentType)}
                      {h.revision ? (
                        <>
                          <br />
                          {t('case.revision', { revision: h.revision })}
                        </>
                      ) : null}
                    </td>
                    <td>{code('statuses', h.status)}</td>
                    <td>{code('submittedBy', h.submittedBy)}</td>
                    <td>{h.reference}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          <h2>{t('case.audit')}</h2>
          <AuditTable rows={data.audit} />
        </>
      )}
    </>
  );
}
