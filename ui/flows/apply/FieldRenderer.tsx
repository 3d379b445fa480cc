import { useTranslation } from 'react-i18next';
import type { AnswerValue, Field } from '../../../machines/forms/types';
import { fieldDomId } from '../../../machines/forms';
import { TextField } from '../../components/TextField';
import { CheckboxField, RadioField, SelectField } from '../../components/ChoiceFields';
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
  /** The options of a field whose options come from the API, not the definition (an officer field's staff). */
  choices?: readonly { value: string; label: string }[];
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
}: FieldProps) {
  const { t } = useTranslation(['forms', 'wizard']);
  const id = fieldDomId([field.id]);
  const label = t(field.labelKey, labelParams);
  const description = field.hint ? t(`${field.labelKey}Hint`) : undefined;
  const common = { id, label, description, errorMessage: error, isRequired: field.required === true };
  switch (field.kind) {
    case 'text':
      return (
        <TextField
          {...common}
          value={str(value)}
          onChange={onChange}
          maxLength={field.maxLength}
          rows={field.rows}
        />
      );
    case 'lines':
      return (
        <TextField {...common} value={str(value)} onChange={onChange} maxLength={field.maxLength} rows={4} />
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
      return (
        <SelectField
          {...common}
          placeholder={t('wizard:choose')}
          value={str(value)}
          onChange={onChange}
          options={choices ?? []}
        />
      );
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
        />
      );
  }
}
