import { ERRORS, qualify, type RawIssue } from './errors';
import { ADDRESS_MAX, ADDRESS_PART_MAX, NUMBER_INPUT_MAX, TABLE_MAX_ROWS, TEXT_MAX } from './limits';
import { CJK, fail, isBlank, isRecord, ok, type Check, type Mode } from './check';
import {
  normaliseMinorWorksItem,
  parseMinorWorksItem,
  parseMinorWorksSubmissionNo,
} from '../rules/minor-works';
import type { CellFormat, Field, TableColumn, TableRow } from './types';

/** The answers of the two field kinds that hold several values: an address and a table. */

type AddressField = Extract<Field, { kind: 'address' }>;
type TableField = Extract<Field, { kind: 'table' }>;

export const ADDRESS_PARTS = ['en', 'zh', 'floor', 'unit', 'lot'] as const;
export type AddressPart = (typeof ADDRESS_PARTS)[number];

/** The label key of a part of an address (`address.en` = "English Address"). */
export const addressPartKey = (part: AddressPart): string => `address.${part}`;

export function isBlankAddress(value: unknown): boolean {
  return isRecord(value) ? ADDRESS_PARTS.every((p) => isBlank(value[p])) : isBlank(value);
}

/** The issues of a required address left empty: its English and its Chinese text. */
export function addressRequiredIssues(): RawIssue[] {
  return (['en', 'zh'] as const).map((part) => ({
    path: [part],
    message: ERRORS.required,
    params: { field: qualify(addressPartKey(part)) },
  }));
}

export function checkAddress(field: AddressField, value: unknown, mode: Mode): Check {
  if (!isRecord(value)) return fail(ERRORS.invalidType, { field: qualify(field.labelKey) });
  const out: Record<string, string> = {};
  const issues: RawIssue[] = [];
  for (const part of ADDRESS_PARTS) {
    const raw = value[part];
    if (raw === undefined || raw === null) continue;
    const label = qualify(addressPartKey(part));
    if (typeof raw !== 'string') {
      issues.push({ path: [part], message: ERRORS.invalidType, params: { field: label } });
      continue;
    }
    const text = mode === 'submit' ? raw.trim() : raw;
    const max = part === 'en' || part === 'zh' ? ADDRESS_MAX : ADDRESS_PART_MAX;
    if (text.length > max) {
      issues.push({ path: [part], message: ERRORS.tooLong, params: { field: label, max } });
    } else if (mode === 'submit' && part === 'en' && CJK.test(text)) {
      issues.push({ path: [part], message: ERRORS.englishOnly, params: { field: label } });
    } else if (mode === 'submit' && part === 'zh' && text !== '' && !CJK.test(text)) {
      issues.push({ path: [part], message: ERRORS.needsChinese, params: { field: label } });
    }
    if (mode === 'draft' || text !== '') out[part] = text;
  }
  // A premises address is not an address without its text in both languages.
  if (mode === 'submit') {
    for (const req of addressRequiredIssues()) {
      const part = req.path[0] as AddressPart;
      if (out[part] === undefined && !issues.some((i) => i.path[0] === part)) issues.push(req);
    }
  }
  return issues.length > 0 ? { ok: false, issues } : ok(out);
}

/** A value given in an earlier row of a `unique` column: an issue on each later row that repeats it. */
function duplicateIssues(columns: readonly TableColumn[], rows: TableRow[], indexes: number[]): RawIssue[] {
  return columns
    .filter((c) => c.unique)
    .flatMap((column) => {
      const seen = new Map<string, number>();
      return rows.flatMap((row, k) => {
        const v = row[column.id];
        const at = indexes[k] ?? k;
        if (!v) return [];
        const first = seen.get(v);
        if (first === undefined) {
          seen.set(v, at);
          return [];
        }
        const params = { field: qualify(column.labelKey), row: at + 1, first: first + 1, value: v };
        return [{ path: [at, column.id], message: ERRORS.rowDuplicate, params }];
      });
    });
}

export function isBlankTable(value: unknown): boolean {
  return Array.isArray(value) ? value.every(isBlankRow) : isBlank(value);
}

function isBlankRow(row: unknown): boolean {
  return isRecord(row) ? Object.values(row).every(isBlank) : isBlank(row);
}

function checkCell(column: TableColumn, raw: unknown, row: number, mode: Mode): Check {
  const params = { field: qualify(column.labelKey), row: row + 1 };
  const value =
    typeof raw === 'number' && column.kind === 'number' && Number.isFinite(raw) ? String(raw) : raw;
  if (value === undefined || value === null) return ok('');
  if (typeof value !== 'string') return fail(ERRORS.invalidType, params);
  const text = mode === 'submit' ? value.trim() : value;
  const max = column.kind === 'number' ? NUMBER_INPUT_MAX : (column.maxLength ?? TEXT_MAX);
  if (text.length > max) return fail(ERRORS.rowTooLong, { ...params, max });
  if (text === '') return ok('');
  if (column.kind === 'select' && !(column.options ?? []).some((o) => o.value === text)) {
    return fail(ERRORS.rowInvalidOption, params);
  }
  if (mode === 'submit' && column.kind === 'number' && !/^[0-9]+(\.[0-9]+)?$/.test(text)) {
    return fail(ERRORS.rowInvalidNumber, params);
  }
  if (mode === 'submit' && column.integer && !/^[0-9]+$/.test(text)) {
    return fail(ERRORS.rowNotWholeNumber, params);
  }
  if (mode === 'submit' && column.format) return checkCellFormat(column.format, text, params);
  return ok(mode === 'submit' && column.integer ? String(Number(text)) : text);
}

/** A cell with a format of its own, normalised: "III 3.5" → "3.5", "mw 0123 4567" → "MW01234567". */
function checkCellFormat(format: CellFormat, text: string, params: { field: string; row: number }): Check {
  if (format === 'minorWorksItem') {
    return parseMinorWorksItem(text)
      ? ok(normaliseMinorWorksItem(text))
      : fail(ERRORS.rowMinorWorksItem, { ...params, value: text });
  }
  const no = parseMinorWorksSubmissionNo(text);
  return no ? ok(no) : fail(ERRORS.rowSubmissionNo, params);
}

/** A cell required by its column, or by another cell of its row (`requiredWhen`). */
const cellRequired = (column: TableColumn, row: TableRow) =>
  column.required === true ||
  (column.requiredWhen !== undefined && row[column.requiredWhen.column] === column.requiredWhen.equals);

/**
 * A table's rows, each cell checked by its column. On submit a row left wholly blank is refused (an added
 * row not filled in: fill it in or remove it; a table of blank rows only is an empty answer), every row
 * needs its required cells, a `unique` column no repeated value, and the rows are counted against
 * `minRows`. Paths keep the row index as sent.
 */
export function checkTable(field: TableField, value: unknown, mode: Mode): Check {
  const label = qualify(field.labelKey);
  if (!Array.isArray(value)) return fail(ERRORS.invalidType, { field: label });
  const max = field.maxRows ?? TABLE_MAX_ROWS;
  if (value.length > max) return fail(ERRORS.tooManyRows, { field: label, max });
  const rows: TableRow[] = [];
  /** The index as sent of each row kept (blank rows are dropped on submit). */
  const indexes: number[] = [];
  const issues: RawIssue[] = [];
  value.forEach((row: unknown, i) => {
    if (!isRecord(row)) {
      issues.push({ path: [i], message: ERRORS.invalidType, params: { field: label, row: i + 1 } });
      return;
    }
    // A row added but left blank is an error, not silently dropped: the person fills it in or removes it.
    if (mode === 'submit' && isBlankRow(row)) {
      issues.push({ path: [i], message: ERRORS.rowEmpty, params: { field: label, row: i + 1 } });
      return;
    }
    const out: TableRow = {};
    const pending: TableColumn[] = [];
    for (const column of field.columns) {
      const cell = checkCell(column, row[column.id], i, mode);
      if (!cell.ok) {
        issues.push(...cell.issues.map((issue) => ({ ...issue, path: [i, column.id] })));
      } else {
        out[column.id] = cell.value as string;
        if (mode === 'submit' && cell.value === '') pending.push(column);
      }
    }
    for (const column of pending.filter((c) => cellRequired(c, out))) {
      const params = { field: qualify(column.labelKey), row: i + 1 };
      issues.push({ path: [i, column.id], message: ERRORS.rowRequired, params });
    }
    if (mode === 'submit') indexes.push(i);
    rows.push(out);
  });
  if (mode === 'submit') issues.push(...duplicateIssues(field.columns, rows, indexes));
  if (mode === 'submit' && field.minRows !== undefined && rows.length < field.minRows) {
    issues.push({ path: [], message: ERRORS.tooFewRows, params: { field: label, min: field.minRows } });
  }
  return issues.length > 0 ? { ok: false, issues } : ok(rows);
}
