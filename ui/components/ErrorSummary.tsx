import { useEffect, useRef } from 'react';

export interface SummaryError {
  /** The id of the field's input, so that the link moves focus to it. */
  fieldId?: string;
  message: string;
}

/** Focus a field by id: the element itself when it takes focus, else the first control inside it. */
export function focusField(id: string): void {
  const el = document.getElementById(id);
  if (!el) return;
  const target = el.matches('input, select, textarea, button')
    ? el
    : el.querySelector<HTMLElement>(
        'input:not([type="hidden"]), select, textarea, button, [role="spinbutton"]',
      );
  (target ?? el).focus();
  (target ?? el).scrollIntoView({ block: 'center' });
}

/** The error summary at the top of a form (GOV.UK pattern): takes focus, links to each field. */
export function ErrorSummary({
  title,
  errors,
  focusKey,
}: {
  title: string;
  errors: SummaryError[];
  focusKey: string | number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (errors.length > 0) ref.current?.focus();
    // Focus again on every failed attempt, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- focusKey marks a new attempt
  }, [focusKey]);
  if (errors.length === 0) return null;
  return (
    <div ref={ref} className="error-summary" role="alert" tabIndex={-1} aria-labelledby="error-summary-title">
      <h2 id="error-summary-title" className="error-summary__title">
        {title}
      </h2>
      <ul className="error-summary__list">
        {errors.map((e) => (
          <li key={e.message}>
            {e.fieldId ? (
              <a
                href={`#${e.fieldId}`}
                onClick={(ev) => {
                  ev.preventDefault();
                  focusField(e.fieldId ?? '');
                }}
              >
                {e.message}
              </a>
            ) : (
              e.message
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
