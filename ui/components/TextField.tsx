import { useEffect, useId, useRef, useState } from 'react';
import { Input, TextArea, TextField as AriaTextField, type TextFieldProps } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { FieldHead } from './FieldHead';

interface Props extends Omit<TextFieldProps, 'children' | 'isInvalid' | 'maxLength'> {
  label: string;
  description?: string;
  /** The message shown under the field; the field is invalid while it is set. */
  errorMessage?: string | null;
  inputMode?: React.HTMLAttributes<HTMLInputElement>['inputMode'];
  placeholder?: string;
  size?: number;
  /** A text area of this many rows instead of a one-line input. */
  rows?: number;
  /**
   * The most characters the answer may have (UTF-16 code units, as machines/forms/limits.ts counts). The
   * input never cuts what is typed or pasted: it shows the count, and text over the limit is kept and
   * marked with a message, so the person can shorten it (docs/forms.md, "Length limits").
   */
  maxLength?: number;
  /** Show the count from the first character (a description, a text area); else from 80 % of the limit. */
  countAlways?: boolean;
}

/** How long typing must pause before the count is announced (a screen reader is not told every key). */
export const COUNT_ANNOUNCE_DELAY_MS = 1000;
/** A short input shows its count from this share of its limit; a text area or a description always. */
const SHOW_COUNT_FROM = 0.8;

/** A labelled text field: label, hint and error wired with aria-describedby and aria-invalid. */
export function TextField({
  label,
  description,
  errorMessage,
  inputMode,
  placeholder,
  size,
  rows,
  maxLength,
  countAlways = false,
  ...props
}: Props) {
  const { t } = useTranslation('common');
  const countId = useId();
  const length = typeof props.value === 'string' ? props.value.length : 0;
  const over = maxLength !== undefined && length > maxLength ? length - maxLength : 0;
  const showCount =
    maxLength !== undefined &&
    (countAlways || rows !== undefined || over > 0 || length >= maxLength * SHOW_COUNT_FROM);
  const count =
    maxLength === undefined
      ? ''
      : over > 0
        ? t('characterCount.over', { n: over, max: maxLength })
        : t('characterCount.used', { n: length, max: maxLength });
  // The count is read out once typing pauses, politely (GOV.UK's character count).
  const [announced, setAnnounced] = useState('');
  // Only after typing: the count of a field as it first appears (empty, or prefilled) is not read out.
  const typed = useRef(false);
  useEffect(() => {
    if (!typed.current) {
      typed.current = true;
      return;
    }
    const timer = setTimeout(() => setAnnounced(showCount ? count : ''), COUNT_ANNOUNCE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [count, showCount]);
  const message =
    errorMessage ||
    (over > 0 && maxLength !== undefined
      ? t('characterCount.tooLong', { field: label, max: maxLength, n: over })
      : null);
  return (
    <AriaTextField
      {...props}
      isInvalid={Boolean(message)}
      className="field"
      // The caller's description (where a one-time code went, say) and the count, both read with the field.
      aria-describedby={
        [props['aria-describedby'], showCount ? countId : undefined].filter(Boolean).join(' ') || undefined
      }
    >
      <FieldHead label={label} description={description} errorMessage={message} />
      {rows ? (
        <TextArea className="field__input" inputMode={inputMode} placeholder={placeholder} rows={rows} />
      ) : (
        <Input className="field__input" inputMode={inputMode} placeholder={placeholder} size={size} />
      )}
      {showCount ? (
        <p id={countId} className={over > 0 ? 'field__count field__count--over' : 'field__count'}>
          {count}
        </p>
      ) : null}
      {maxLength !== undefined ? (
        // A polite live region, not a `status` role: a table of such fields keeps one status, its own.
        <p className="visually-hidden field__count-live" aria-live="polite">
          {announced}
        </p>
      ) : null}
    </AriaTextField>
  );
}
