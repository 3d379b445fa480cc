import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InternalNoteData } from '../../machines/rules/proposals';
import { ConsoleApiError, consoleApi } from './api';
import { ProblemSummary } from './fields';
import { useConsoleTime } from './time';

/**
 * Internal notes on the console's case page (docs/decisions/040-four-eyes-decisions.md): each with its
 * author and the Hong Kong time; never shown to the applicant or the AP. After a note is added the result
 * message takes the focus.
 */
export function InternalNotes({
  applicationNo,
  notes,
  mayAdd,
  onChanged,
}: {
  applicationNo: string;
  notes: readonly InternalNoteData[];
  mayAdd: boolean;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation('console');
  const time = useConsoleTime();
  const [body, setBody] = useState('');
  const [added, setAdded] = useState(false);
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const resultRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (added) resultRef.current?.focus();
  }, [added]);

  async function add() {
    setError(null);
    setAdded(false);
    try {
      await consoleApi.post(`cases/${encodeURIComponent(applicationNo)}/notes`, { body });
      setBody('');
      setAdded(true);
      onChanged();
    } catch (e) {
      setError(e instanceof ConsoleApiError ? e : null);
    }
  }

  return (
    <section aria-labelledby="notes-title">
      <h2 id="notes-title">{t('notes.title')}</h2>
      <p>{t('notes.hint')}</p>
      {notes.length === 0 ? (
        <p>{t('notes.none')}</p>
      ) : (
        <ul>
          {notes.map((n) => (
            <li key={n.id}>
              <strong>{i18n.language === 'en' ? n.author.nameEn : n.author.nameZh}</strong> (
              {time(n.createdAt)}): {n.body}
            </li>
          ))}
        </ul>
      )}
      {added && (
        <p role="status" tabIndex={-1} ref={resultRef} className="console__done">
          {t('notes.added')}
        </p>
      )}
      {mayAdd && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <ProblemSummary error={error} />
          <label htmlFor="internal-note">{t('notes.label')}</label>
          <textarea id="internal-note" rows={3} value={body} onChange={(e) => setBody(e.target.value)} />
          <button type="submit" className="button">
            {t('notes.add')}
          </button>
        </form>
      )}
    </section>
  );
}
