import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldsOf } from '../../machines/forms';
import { ACTION_FORMS, type ActionValues } from '../../machines/forms/console-actions';
import { eventKey, type ConsoleEvent } from '../../machines/rules/staff';

/** What the officer was doing when the case moved under them (docs/console.md, "When the case moved"). */
export interface MovedAction {
  event: ConsoleEvent;
  /** The server's words: who changed the case and what it is now. */
  message: string;
  values: ActionValues;
}

/**
 * The notice after a refused action: the server's words, read out and focused; when the action is no
 * longer possible, what the officer typed, to copy into whatever they do next. When it still is, the form
 * opens again below with what they typed.
 */
export function MovedNotice({
  moved,
  allowedNow,
  onDismiss,
}: {
  moved: MovedAction;
  allowedNow: boolean;
  onDismiss: () => void;
}) {
  const { t } = useTranslation('console');
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [moved]);
  const typed = fieldsOf(ACTION_FORMS[moved.event])
    .map((p) => p.field)
    .flatMap((field) => {
      const value = moved.values[field.id];
      return typeof value === 'string' && value.trim() !== '' && field.kind !== 'officer'
        ? [{ id: field.id, label: t(field.labelKey), value }]
        : [];
    });
  const action = t(`events.${eventKey(moved.event)}`);
  return (
    <div ref={ref} tabIndex={-1} role="alert" className="console__moved">
      <p>{moved.message}</p>
      {allowedNow ? (
        <p>{t('case.moved.again', { action })}</p>
      ) : (
        <>
          <p>{t('case.moved.notAllowed', { action })}</p>
          {typed.length > 0 && (
            <>
              <h3>{t('case.moved.typed')}</h3>
              <dl className="console__typed">
                {typed.map((f) => (
                  <div key={f.id}>
                    <dt>{f.label}</dt>
                    <dd>{f.value}</dd>
                  </div>
                ))}
              </dl>
            </>
          )}
        </>
      )}
      <button type="button" className="button" onClick={onDismiss}>
        {t('case.moved.dismiss')}
      </button>
    </div>
  );
}
