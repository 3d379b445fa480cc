import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProposalData } from '../../machines/rules/proposals';
import { eventKey } from '../../machines/rules/staff';
import { ConsoleApiError, consoleApi } from './api';
import { ProblemSummary } from './fields';
import { useConsoleTime } from './time';

/**
 * Decisions by two people on the console's case page (docs/decisions/040-four-eyes-decisions.md): the
 * pending proposal, shown to every officer, with Approve and Send back for the senior officer it waits for
 * and Withdraw for its proposer; the latest sent-back proposal with the senior officer's note. After each
 * step the result message takes the focus.
 */
export function ProposalPanel({
  applicationNo,
  proposals,
  awaitingMe,
  meId,
  onChanged,
}: {
  applicationNo: string;
  proposals: readonly ProposalData[];
  awaitingMe: boolean;
  meId: number;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation('console');
  const time = useConsoleTime();
  const [note, setNote] = useState('');
  const [sendingBack, setSendingBack] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const resultRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result]);

  const pending = proposals.find((p) => p.state === 'pending');
  const latest = proposals.at(-1);
  const sentBack = !pending && latest?.state === 'sentBack' ? latest : undefined;
  const name = (s: { nameEn: string; nameZh: string }) => (i18n.language === 'en' ? s.nameEn : s.nameZh);
  const decision = (p: ProposalData) => t(`events.${eventKey(p.decision)}`);

  async function step(p: ProposalData, what: 'approve' | 'send-back' | 'withdraw', body: object = {}) {
    setBusy(true);
    setError(null);
    try {
      await consoleApi.post(`cases/${encodeURIComponent(applicationNo)}/proposals/${p.id}/${what}`, body);
      setResult(t(`proposals.done.${what === 'send-back' ? 'sentBack' : what}`, { decision: decision(p) }));
      setSendingBack(false);
      setNote('');
      onChanged();
    } catch (e) {
      setError(e instanceof ConsoleApiError ? e : null);
      onChanged();
    } finally {
      setBusy(false);
    }
  }

  const answers = (p: ProposalData) =>
    Object.entries(p.answers)
      .filter(([, v]) => typeof v === 'string' && v !== '')
      .map(([k, v]) => (
        <div key={k}>
          <dt>{t(`fields.${k}`, { defaultValue: k })}</dt>
          <dd>{k === 'kind' ? t(`proposals.kinds.${String(v)}`, { defaultValue: String(v) }) : String(v)}</dd>
        </div>
      ));

  return (
    <section aria-labelledby="proposals-title">
      <h2 id="proposals-title">{t('proposals.title')}</h2>
      {result && (
        <p role="status" tabIndex={-1} ref={resultRef} className="console__done">
          {result}
        </p>
      )}
      <ProblemSummary error={error} />
      {!pending && !sentBack && <p>{t('proposals.none')}</p>}
      {pending && (
        <>
          <p>
            <strong>{t('proposals.pending', { decision: decision(pending) })}</strong>{' '}
            {t('proposals.by', { name: name(pending.proposedBy), time: time(pending.proposedAt) })}
          </p>
          <dl className="console__summary">{answers(pending)}</dl>
          {awaitingMe && <p>{t('proposals.awaitingYou')}</p>}
          <ul className="console__inline">
            {awaitingMe && (
              <li>
                <button
                  type="button"
                  className="button"
                  disabled={busy}
                  onClick={() => void step(pending, 'approve')}
                >
                  {t('proposals.approve')}
                </button>
              </li>
            )}
            {awaitingMe && (
              <li>
                <button
                  type="button"
                  className="button"
                  aria-expanded={sendingBack}
                  onClick={() => setSendingBack(!sendingBack)}
                >
                  {t('proposals.sendBack')}
                </button>
              </li>
            )}
            {pending.proposedBy.id === meId && (
              <li>
                <button
                  type="button"
                  className="button"
                  disabled={busy}
                  onClick={() => void step(pending, 'withdraw')}
                >
                  {t('proposals.withdraw')}
                </button>
              </li>
            )}
          </ul>
          {sendingBack && (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void step(pending, 'send-back', { note });
              }}
            >
              <label htmlFor="proposal-note">{t('proposals.note')}</label>
              <textarea id="proposal-note" rows={3} value={note} onChange={(e) => setNote(e.target.value)} />
              <button type="submit" className="button" disabled={busy}>
                {t('proposals.sendBackButton')}
              </button>
            </form>
          )}
        </>
      )}
      {sentBack && sentBack.decidedBy && (
        <p>
          {t('proposals.sentBackBy', {
            decision: decision(sentBack),
            name: name(sentBack.decidedBy),
            time: sentBack.decidedAt ? time(sentBack.decidedAt) : '',
          })}{' '}
          <q>{sentBack.note}</q>
        </p>
      )}
    </section>
  );
}
