import { useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { fieldDomId } from '../../../machines/forms';
import { TABLE_MAX_ROWS } from '../../../machines/forms/limits';
import type { Field, TableColumn, TableRow } from '../../../machines/forms/types';
import { SelectField } from '../../components/ChoiceFields';
import { TextField } from '../../components/TextField';

type TableFieldDef = Extract<Field, { kind: 'table' }>;

interface Props {
  field: TableFieldDef;
  label: string;
  description?: string;
  error: string | null;
  /** Messages of cells, keyed `<row index>.<column id>` (FillStep). */
  cellErrors?: Record<string, string>;
  rows: TableRow[];
  onChange: (rows: TableRow[]) => void;
  /**
   * The rows were issued by the department (a Letter of Requirements' items): the first column shown as
   * text naming its row, no row added or removed; the other cells (compliance, remark) still answered.
   */
  issued?: boolean;
}

/** The next free number of a `unique` whole-number column (the minor works "No."), as text. */
function nextNumber(column: TableColumn | undefined, rows: TableRow[]): Record<string, string> {
  if (!column) return {};
  const used = rows.map((r) => Number(r[column.id])).filter((n) => Number.isInteger(n));
  return { [column.id]: String(Math.max(0, ...used) + 1) };
}

/**
 * A table field (the minor works table, the requirements of a Letter of Requirements): each row a group
 * named with its position ("Minor works item 2 of 3"), each cell a labelled input with its own error,
 * a remove button per row and an add button. Focus: after adding, the new row's first input; after
 * removing, the row that took its place, else the row before, else the add button. A polite live region
 * says what happened; at the upper limit the add button says why it adds nothing.
 */
export function TableField({
  field,
  label,
  description,
  error,
  cellErrors,
  rows,
  onChange,
  issued = false,
}: Props) {
  const { t } = useTranslation(['forms', 'wizard']);
  const max = field.maxRows ?? TABLE_MAX_ROWS;
  const id = fieldDomId([field.id]);
  const [announcement, setAnnouncement] = useState('');
  /** Where focus goes once the rows changed (the answers come back through the wizard's machine). */
  const pendingFocus = useRef<number | 'add' | null>(null);
  const [atLimit, setAtLimit] = useState(false);
  const addRef = useRef<HTMLButtonElement>(null);
  const first = field.columns[0];
  const numbered = field.columns.find((c) => c.unique && c.integer);

  useEffect(() => {
    const target = pendingFocus.current;
    if (target === null) return;
    const el =
      target === 'add'
        ? addRef.current
        : first
          ? document.getElementById(fieldDomId([field.id, target, first.id]))
          : null;
    if (!el) return;
    pendingFocus.current = null;
    el.focus();
  });

  const set = (i: number, column: string, v: string) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, [column]: v } : r)));
  const add = () => {
    if (rows.length >= max) {
      setAtLimit(true);
      setAnnouncement(t('wizard:table.maxRows', { field: label, max }));
      return;
    }
    onChange([...rows, nextNumber(numbered, rows)]);
    setAnnouncement(t('wizard:table.rowAdded', { n: rows.length + 1 }));
    pendingFocus.current = rows.length;
  };
  const remove = (i: number) => {
    const left = rows.filter((_, j) => j !== i);
    onChange(left);
    setAtLimit(false);
    setAnnouncement(t('wizard:table.rowRemoved', { n: i + 1, total: left.length }));
    pendingFocus.current = left.length === 0 ? 'add' : Math.min(i, left.length - 1);
  };
  const wording = field.wording;
  const emptyKey = wording ? wording.emptyKey : 'wizard:table.noRows';
  const rowName = (i: number) =>
    field.rowLabelKey
      ? t(field.rowLabelKey, { n: i + 1, total: rows.length })
      : `${label} ${t('wizard:table.rowCount', { total: i + 1 })}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const limitId = `${id}-limit`;
  const full = rows.length >= max;

  return (
    <fieldset
      className="field table-field"
      id={id}
      aria-describedby={
        [description ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined
      }
    >
      <legend className="field__label">{label}</legend>
      {description ? (
        <p className="field__hint" id={hintId}>
          {description}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
      {rows.length === 0 && (issued || emptyKey) ? (
        <p className="table-field__empty">{t(issued ? 'wizard:table.noIssuedRows' : (emptyKey ?? ''))}</p>
      ) : null}
      <ol className="table-field__rows">
        {rows.map((row, i) => (
          <li key={i} className="table-field__row">
            <fieldset
              className="table-field__group"
              aria-labelledby={issued && first ? `${id}-row-${i} ${id}-row-${i}-text` : `${id}-row-${i}`}
            >
              <legend id={`${id}-row-${i}`} className="table-field__legend">
                {rowName(i)}
              </legend>
              {issued && first ? (
                <p className="table-field__issued" id={`${id}-row-${i}-text`}>
                  {row[first.id] ?? ''}
                </p>
              ) : null}
              <div className="table-field__cells">
                {(issued ? field.columns.slice(1) : field.columns).map((c) => (
                  <Cell
                    key={c.id}
                    column={c}
                    id={fieldDomId([field.id, i, c.id])}
                    value={row[c.id] ?? ''}
                    error={cellErrors?.[`${i}.${c.id}`] ?? null}
                    onChange={(v) => set(i, c.id, v)}
                  />
                ))}
              </div>
              {issued ? null : (
                <Button className="button button--link table-field__remove" onPress={() => remove(i)}>
                  {t(wording?.removeRowKey ?? 'wizard:table.removeRow', { n: i + 1 })}
                  <span className="visually-hidden"> – {rowName(i)}</span>
                </Button>
              )}
            </fieldset>
          </li>
        ))}
      </ol>
      {issued ? null : (
        <Button
          ref={addRef}
          data-action="add-row"
          className="button"
          aria-disabled={full || undefined}
          aria-describedby={full ? limitId : undefined}
          onPress={add}
        >
          {wording ? t(wording.addRowKey) : t('wizard:table.addRowTo', { field: label })}
        </Button>
      )}
      {full && !issued ? (
        <p id={limitId} className={atLimit ? 'field__error' : 'field__hint'}>
          {t('wizard:table.maxRows', { field: label, max })}
        </p>
      ) : null}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </fieldset>
  );
}

function Cell({
  column,
  id,
  value,
  error,
  onChange,
}: {
  column: TableColumn;
  id: string;
  value: string;
  error: string | null;
  onChange: (v: string) => void;
}) {
  const { t } = useTranslation(['forms', 'wizard']);
  const common = { id, label: t(column.labelKey), errorMessage: error, isRequired: column.required === true };
  if (column.kind === 'select') {
    return (
      <div className="table-field__cell">
        <SelectField
          {...common}
          placeholder={t('wizard:choose')}
          value={value}
          onChange={onChange}
          options={(column.options ?? []).map((o) => ({ value: o.value, label: t(o.labelKey) }))}
        />
      </div>
    );
  }
  return (
    <div className={column.multiline ? 'table-field__cell table-field__cell--wide' : 'table-field__cell'}>
      <TextField
        {...common}
        value={value}
        onChange={onChange}
        maxLength={column.maxLength}
        countAlways={column.multiline === true}
        inputMode={column.kind === 'number' ? 'numeric' : undefined}
        size={column.kind === 'number' ? 4 : undefined}
      />
    </div>
  );
}
