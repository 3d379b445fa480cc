import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsoleApiError } from './api';

/** A labelled input (or textarea) of the console, with its hint and error tied to it. */
export function FieldInput({
  id,
  label,
  hint,
  error,
  value,
  onChange,
  type = 'text',
  multiline = false,
  autoComplete,
  inputMode,
  maxLength,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  multiline?: boolean;
  autoComplete?: string;
  inputMode?: 'text' | 'numeric';
  maxLength?: number;
}) {
  const described =
    [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: id,
    className: 'field__input',
    value,
    'aria-describedby': described,
    'aria-invalid': error ? true : undefined,
  };
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {hint && (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
      {multiline ? (
        <textarea {...common} rows={4} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input
          {...common}
          type={type}
          autoComplete={autoComplete}
          inputMode={inputMode}
          maxLength={maxLength}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </div>
  );
}

/** A labelled select of the console. */
export function FieldSelect({
  id,
  label,
  value,
  options,
  onChange,
  error,
}: {
  id: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
      <select
        id={id}
        name={id}
        className="field__input"
        value={value}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The problem of the last request, focused when it appears so that it is read first. */
export function ProblemSummary({ error }: { error: ConsoleApiError | null }) {
  const { t } = useTranslation('console');
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) ref.current?.focus();
  }, [error]);
  if (!error) return null;
  return (
    <div className="error-summary" role="alert" tabIndex={-1} ref={ref}>
      <h2>{t('errors.title')}</h2>
      <p>{error.message}</p>
      {error.fields.length > 1 && (
        <ul>
          {error.fields.map((f) => (
            <li key={f.path}>{f.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
