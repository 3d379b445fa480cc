import { useEffect, useId, useRef, useState } from 'react';

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

/**
 * How many times the server has refused the answers (a new set of field messages from the API): with the
 * person's own attempts, the summary's `focusKey`. Typing a correction never changes it, so focus stays
 * in the field being typed in (docs/forms.md, "Errors and focus").
 */
export function useRefusalCount(serverErrors: Readonly<Record<string, string>>): number {
  const key = Object.entries(serverErrors)
    .map(([field, message]) => `${field}\u0000${message}`)
    .join('\u0001');
  const [seen, setSeen] = useState({ key: '', count: 0 });
  // Derived from the previous render: a new non-empty set of refusals counts once.
  if (key !== seen.key) setSeen({ key, count: key ? seen.count + 1 : seen.count });
  return key !== seen.key && key ? seen.count + 1 : seen.count;
}

/**
 * Each problem once: a message already listed (the three certification ticks' "Please confirm each
 * certification item", one field's message from the form and from the server) is not listed again; the
 * entry links to the first field that has it. docs/forms.md, "Errors and focus".
 */
export function distinctErrors(errors: readonly SummaryError[]): SummaryError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = e.message.trim();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The error summary at the top of a form (GOV.UK pattern): takes focus on each new attempt (`focusKey`:
 * a Continue pressed, a refusal of the server), never while the person types a correction; links to each
 * field, each problem once (`distinctErrors`).
 */
export function ErrorSummary({
  title,
  errors: given,
  focusKey,
}: {
  title: string;
  errors: SummaryError[];
  focusKey: string | number;
}) {
  const errors = distinctErrors(given);
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const listId = useId();
  useEffect(() => {
    if (errors.length > 0) ref.current?.focus();
    // Focus again on every failed attempt, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- focusKey marks a new attempt
  }, [focusKey]);
  if (errors.length === 0) return null;
  return (
    // Named by its title and described by its problems: focusing it says what is wrong, not only that
    // something is (a screen reader reads the description with the name; tests/e2e/screen-reader.spec.ts).
    <div
      ref={ref}
      className="error-summary"
      role="alert"
      tabIndex={-1}
      aria-labelledby={titleId}
      aria-describedby={listId}
    >
      <h2 id={titleId} className="error-summary__title">
        {title}
      </h2>
      <ul id={listId} className="error-summary__list">
        {/* Keyed by field and message, both unique after distinctErrors: a repeated key made React keep
            stale entries, so fixed problems stayed listed and copies piled up as the person typed. */}
        {errors.map((e) => (
          <li key={`${e.fieldId ?? ''}\u0000${e.message}`}>
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
