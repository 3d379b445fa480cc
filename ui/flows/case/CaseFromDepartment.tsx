import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { CaseData } from '../../../machines/rules/case';
import { OPEN_STATUSES } from '../../../machines/rules/case-lifecycle';
import type { CaseMessageData } from '../../../machines/rules/staff';
import { requestedDocumentNames } from '../../../machines/forms/follow-up/submit-document';
import { api, ApiError } from '../../api';
import { formatDate } from '../../components/format';

/**
 * What the department's side added to the case (docs/decisions/022-case-officer-console.md): the case officer's contact details once sent,
 * the open requests for further information as to-dos with their reply-by date and a link to the Submit
 * Supporting Document flow for them, and the messages on the case.
 */
export function CaseFromDepartment({ data }: { data: CaseData }) {
  const { t, i18n } = useTranslation(['case', 'auth', 'forms']);
  const zh = i18n.language !== 'en';
  const open = data.requests.filter((r) => !r.answeredAt && !r.withdrawnAt);
  return (
    <>
      {data.officer && (
        <section aria-labelledby="case-officer-title">
          <h2 id="case-officer-title">{t('case:department.officerTitle')}</h2>
          <dl className="case-officer">
            <dt>{t('case:department.name')}</dt>
            <dd>{zh ? data.officer.nameZh : data.officer.nameEn}</dd>
            <dt>{t('case:department.post')}</dt>
            <dd>{zh ? data.officer.postZh : data.officer.postEn}</dd>
            <dt>{t('case:department.telephone')}</dt>
            <dd>{data.officer.telephone}</dd>
            <dt>{t('case:department.email')}</dt>
            <dd>
              <a href={`mailto:${data.officer.email}`}>{data.officer.email}</a>
            </dd>
          </dl>
        </section>
      )}
      {data.inspection && (
        <section aria-labelledby="case-inspection-title">
          <h2 id="case-inspection-title">{t('case:department.inspectionTitle')}</h2>
          <p>
            {data.inspection.result === null
              ? t('case:department.inspectionOn', { date: formatDate(data.inspection.date, i18n.language) })
              : t(`case:department.inspection${data.inspection.result === 'PASS' ? 'Passed' : 'Failed'}`, {
                  date: formatDate(data.inspection.date, i18n.language),
                })}
          </p>
        </section>
      )}
      {open.length > 0 && (
        <section aria-labelledby="case-todo-title">
          <h2 id="case-todo-title">{t('case:department.todoTitle')}</h2>
          <ul className="link-list">
            {open.map((r) => (
              <li key={r.id}>
                <p>
                  {t('case:department.todo', {
                    date: formatDate(r.replyBy, i18n.language),
                    documents: requestedDocumentNames(data.formCode, r, (k, d) =>
                      t(k, { defaultValue: d }),
                    ).join(', '),
                  })}
                </p>
                {r.note && <p>{r.note}</p>}
                <Link to={`/form-submit-doc-step1?request=${r.id}`}>{t('case:department.reply')}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <CaseMessages data={data} />
    </>
  );
}

/** The messages on the case, and one more to the case officer while the case is open. */
function CaseMessages({ data }: { data: CaseData }) {
  const { t, i18n } = useTranslation(['case', 'auth']);
  const [messages, setMessages] = useState(data.messages);
  const [text, setText] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const [problem, setProblem] = useState('');
  const open = (OPEN_STATUSES as readonly string[]).includes(data.status);
  if (!open && messages.length === 0) return null;
  const send = async (e: FormEvent) => {
    e.preventDefault();
    setState('sending');
    try {
      const made = (
        await api.post<CaseMessageData>('cases/current/messages', { body: text }, { quiet: true })
      ).data;
      setMessages((m) => [...m, made]);
      setText('');
      setState('sent');
    } catch (err) {
      setProblem(err instanceof ApiError ? err.message : t('case:submitFailed'));
      setState('failed');
    }
  };
  return (
    <section aria-labelledby="case-messages-title">
      <h2 id="case-messages-title">{t('case:department.messagesTitle')}</h2>
      {messages.length > 0 && (
        <ul>
          {messages.map((m) => (
            <li key={m.id}>
              <strong>{t(`auth:history.submittedBy.${m.sender}`, { defaultValue: m.sender })}</strong> (
              {formatDate(m.createdAt, i18n.language, true)}): {m.body}
            </li>
          ))}
        </ul>
      )}
      {open && (
        <form onSubmit={(e) => void send(e)}>
          <div className="field">
            <label className="field__label" htmlFor="case-message">
              {t('case:department.messageLabel')}
            </label>
            {state === 'failed' && (
              <p className="field__error" id="case-message-error" role="alert">
                {problem}
              </p>
            )}
            <textarea
              id="case-message"
              className="field__input"
              rows={3}
              value={text}
              aria-describedby={state === 'failed' ? 'case-message-error' : undefined}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <button type="submit" className="button" disabled={state === 'sending'}>
            {t('case:department.send')}
          </button>
          {state === 'sent' && <p role="status">{t('case:department.sent')}</p>}
        </form>
      )}
    </section>
  );
}
