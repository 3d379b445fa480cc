import { useTranslation } from 'react-i18next';
import type { AnswerValue, Field } from '../../../machines/forms/types';
import { answerText, fieldDomId, linesOf, maxLengthOf } from '../../../machines/forms';
import { isLanguage } from '../../../machines/rules/language';
import { TextField } from '../../components/TextField';
import { CheckboxField, CheckboxGroupField, RadioField, SelectField } from '../../components/ChoiceFields';
import { AddressField } from './AddressField';
import { DateField } from '../../components/DateField';
import { TableField } from './TableField';

export interface FieldProps {
  field: Field;
  value: AnswerValue | undefined;
  error: string | null;
  /** Errors of the parts of a field that has parts (an address; a table's cells, keyed `<row>.<column>`). */
  partErrors?: Record<string, string>;
  onChange: (value: AnswerValue) => void;
  /** Values of the label's `{{name}}` placeholders (the withdrawal tick names the application). */
  labelParams?: Record<string, string>;
  /**
   * The options of a field whose options come from the API, not the definition (an officer field's staff,
   * the document types a request may name).
   */
  choices?: readonly { value: string; label: string }[];
  /**
   * The value was issued by the department (a self-certification's letter from its case): shown as text,
   * not an input; a table's rows fixed, each row's own answers (compliance) still the person's.
   */
  issued?: boolean;
}

const str = (v: AnswerValue | undefined): string => (typeof v === 'string' ? v : '');

/** One renderer per field kind; the exhaustive switch fails to compile when a kind has none. */
export function FieldRenderer({
  field,
  value,
  error,
  partErrors,
  onChange,
  labelParams,
  choices,
  issued = false,
}: FieldProps) {
  const { t, i18n } = useTranslation(['forms', 'wizard']);
  const id = fieldDomId([field.id]);
  const label = t(field.labelKey, labelParams);
  const description = field.hint ? t(`${field.labelKey}Hint`) : undefined;
  const common = { id, label, description, errorMessage: error, isRequired: field.required === true };
  if (issued && field.kind !== 'table') {
    const lines = answerText(field, value, (key) => t(key), isLanguage(i18n.language) ? i18n.language : 'en');
    return <IssuedValue id={id} label={label} lines={(lines ?? []).map((l) => l.text)} error={error} />;
  }
  switch (field.kind) {
    case 'text':
      return (
        <TextField
          {...common}
          value={str(value)}
          onChange={onChange}
          maxLength={maxLengthOf(field)}
          countAlways={field.multiline === true || field.maxLength !== undefined}
          rows={field.rows}
        />
      );
    case 'lines':
      return (
        <TextField
          {...common}
          value={str(value)}
          onChange={onChange}
          maxLength={maxLengthOf(field)}
          rows={4}
        />
      );
    case 'email':
      return (
        <TextField {...common} type="email" autoComplete="email" value={str(value)} onChange={onChange} />
      );
    case 'mobile':
      return (
        <TextField
          {...common}
          type="tel"
          autoComplete="tel-national"
          inputMode="tel"
          value={str(value)}
          onChange={onChange}
          size={12}
        />
      );
    case 'phone':
      return (
        <TextField {...common} type="tel" inputMode="tel" value={str(value)} onChange={onChange} size={12} />
      );
    case 'hkic':
      return (
        <TextField
          {...common}
          autoComplete="off"
          spellCheck="false"
          value={str(value)}
          onChange={(v) => onChange(v.toUpperCase())}
          size={12}
        />
      );
    case 'date':
      return <DateField {...common} value={str(value)} onChange={onChange} />;
    case 'number':
      return <TextField {...common} inputMode="numeric" value={str(value)} onChange={onChange} size={8} />;
    case 'select':
      return (
        <SelectField
          {...common}
          placeholder={t('wizard:choose')}
          value={str(value)}
          onChange={onChange}
          options={field.options.map((o) => ({ value: o.value, label: t(o.labelKey) }))}
        />
      );
    case 'radio':
      return (
        <RadioField
          {...common}
          value={str(value)}
          onChange={onChange}
          options={field.options.map((o) => ({ value: o.value, label: t(o.labelKey) }))}
        />
      );
    case 'officer':
    case 'openRequest':
      return (
        <SelectField
          {...common}
          placeholder={t('wizard:choose')}
          value={str(value)}
          onChange={onChange}
          options={choices ?? []}
        />
      );
    case 'checkboxes': {
      // Kept as the values ticked one a line, in the order of the options.
      const options = choices ?? field.options.map((o) => ({ value: o.value, label: t(o.labelKey) }));
      return (
        <CheckboxGroupField
          {...common}
          value={linesOf(str(value))}
          onChange={(ticked) =>
            onChange(
              options
                .filter((o) => ticked.includes(o.value))
                .map((o) => o.value)
                .join('\n'),
            )
          }
          options={options}
        />
      );
    }
    case 'checkbox':
      return <CheckboxField {...common} value={value === true} onChange={onChange} />;
    case 'address':
      return (
        <AddressField
          {...common}
          partErrors={partErrors}
          value={typeof value === 'object' && !Array.isArray(value) ? value : undefined}
          onChange={onChange}
        />
      );
    case 'table':
      return (
        <TableField
          field={field}
          label={label}
          description={description}
          error={error}
          cellErrors={partErrors}
          rows={Array.isArray(value) ? value : []}
          onChange={onChange}
          issued={issued}
        />
      );
  }
}

/**
 * A value the department issued, as text with its label (not an input: nothing to type). Focusable from
 * the error summary (tabIndex -1) when the API refused it, its message read with it.
 */
function IssuedValue({
  id,
  label,
  lines,
  error,
}: {
  id: string;
  label: string;
  lines: readonly string[];
  error: string | null;
}) {
  const errorId = `${id}-error`;
  return (
    <div
      className="field field--issued"
      id={id}
      tabIndex={-1}
      role="group"
      aria-labelledby={`${id}-label`}
      aria-describedby={error ? errorId : undefined}
    >
      <span className="field__label" id={`${id}-label`}>
        {label}
      </span>
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
      <p className="field__value">{lines.join(' ')}</p>
    </div>
  );
}
