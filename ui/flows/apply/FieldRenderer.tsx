import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { AnswerValue, Field, TableRow } from '../../../machines/forms/types';
import { fieldDomId } from '../../../machines/forms';
import { TextField } from '../../components/TextField';
import { CheckboxField, RadioField, SelectField } from '../../components/ChoiceFields';
import { AddressField } from './AddressField';
import { DateField } from '../../components/DateField';

export interface FieldProps {
  field: Field;
  value: AnswerValue | undefined;
  error: string | null;
  /** Errors of the parts of a field that has parts (an address). */
  partErrors?: Record<string, string>;
  onChange: (value: AnswerValue) => void;
  /** Values of the label's `{{name}}` placeholders (the withdrawal tick names the application). */
  labelParams?: Record<string, string>;
}

const str = (v: AnswerValue | undefined): string => (typeof v === 'string' ? v : '');

/** One renderer per field kind; the exhaustive switch fails to compile when a kind has none. */
export function FieldRenderer({ field, value, error, partErrors, onChange, labelParams }: FieldProps) {
  const { t } = useTranslation(['forms', 'wizard']);
  const id = fieldDomId([field.id]);
  const label = t(field.labelKey, labelParams);
  const description = field.hint ? t(`${field.labelKey}Hint`) : undefined;
  const common = { id, label, description, errorMessage: error, isRequired: field.required === true };
  switch (field.kind) {
    case 'text':
      return <TextField {...common} value={str(value)} onChange={onChange} maxLength={field.maxLength} />;
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
          error={error}
          rows={Array.isArray(value) ? value : []}
          onChange={onChange}
        />
      );
  }
}

function TableField({
  field,
  label,
  error,
  rows,
  onChange,
}: {
  field: Extract<Field, { kind: 'table' }>;
  label: string;
  error: string | null;
  rows: TableRow[];
  onChange: (rows: TableRow[]) => void;
}) {
  const { t } = useTranslation(['forms', 'wizard']);
  const max = field.maxRows ?? 50;
  const set = (i: number, col: string, v: string) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, [col]: v } : r)));
  return (
    <fieldset className="field table-field" id={fieldDomId([field.id])}>
      <legend className="field__label">{label}</legend>
      {error ? <p className="field__error">{error}</p> : null}
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              {field.columns.map((c) => (
                <th key={c.id} scope="col">
                  {t(c.labelKey)}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">{t('wizard:table.rowActions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i}>
                {field.columns.map((c) => (
                  <td key={c.id}>
                    <input
                      id={fieldDomId([field.id, i, c.id])}
                      className="field__input"
                      aria-label={`${t(c.labelKey)} ${i + 1}`}
                      value={row[c.id] ?? ''}
                      inputMode={c.kind === 'number' ? 'numeric' : undefined}
                      onChange={(e) => set(i, c.id, e.target.value)}
                    />
                  </td>
                ))}
                <td>
                  <Button
                    className="button button--link"
                    onPress={() => onChange(rows.filter((_, j) => j !== i))}
                  >
                    {t('wizard:table.removeRow', { n: i + 1 })}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Button className="button" isDisabled={rows.length >= max} onPress={() => onChange([...rows, {}])}>
        {t('wizard:table.addRow')}
      </Button>
    </fieldset>
  );
}
