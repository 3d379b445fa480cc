import { formatCalendarDate } from '../rules/dates';
import type { Language } from '../rules/language';
import { addressPartKey } from './composite';
import type { Translate } from './errors';
import { linesOf } from './check';
import type { AddressAnswer, Field, TableColumn, TableRow } from './types';

/**
 * An answer as a person reads it, the one text of the preview (ui/flows/apply/PreviewStep.tsx) and of
 * the application PDF (api/modules/shared/pdf/application-pdf.ts): an option by its label, a ticked box as Yes, a
 * date in the person's language ("24 Nov 2026", "2026年11月24日"), an address as its English and its
 * Chinese line and then floor, unit and lot, a table as one numbered line a row. `t` answers a message
 * by its namespaced key (`forms:options.x`, `wizard:yes`) in `language`.
 */

export interface AnswerLine {
  text: string;
  /** The line is Chinese text (an address's Chinese line): `lang` for screen readers. */
  chinese?: boolean;
}

/** The lines of an answer, or null when the field is not answered (shown as "Not answered"). */
export function answerText(
  field: Field,
  value: unknown,
  t: Translate,
  language: Language,
): AnswerLine[] | null {
  switch (field.kind) {
    case 'checkbox':
      return [{ text: t(value === true ? 'wizard:yes' : 'wizard:no') }];
    case 'select':
    case 'radio': {
      const option = field.options.find((o) => o.value === value);
      return option ? [{ text: t(`forms:${option.labelKey}`) }] : null;
    }
    case 'checkboxes': {
      const chosen = typeof value === 'string' ? linesOf(value) : [];
      const items = field.options.filter((o) => chosen.includes(o.value));
      return items.length > 0 ? items.map((o) => ({ text: t(`forms:${o.labelKey}`) })) : null;
    }
    case 'lines': {
      const items = typeof value === 'string' ? linesOf(value) : [];
      return items.length > 0 ? items.map((text) => ({ text })) : null;
    }
    case 'date':
      return typeof value === 'string' && value.trim()
        ? [{ text: formatCalendarDate(value, language) }]
        : null;
    case 'address': {
      const a = (value ?? {}) as Partial<AddressAnswer>;
      if (!a.en?.trim() && !a.zh?.trim()) return null;
      const extra = (['floor', 'unit', 'lot'] as const)
        .filter((part) => a[part]?.trim())
        .map((part) => `${t(`forms:${addressPartKey(part)}`)}: ${a[part]?.trim() ?? ''}`);
      return [
        ...(a.en?.trim() ? [{ text: a.en.trim() }] : []),
        ...(a.zh?.trim() ? [{ text: a.zh.trim(), chinese: true }] : []),
        ...(extra.length ? [{ text: extra.join('; ') }] : []),
      ];
    }
    case 'table': {
      const rows = Array.isArray(value) ? (value as TableRow[]) : [];
      if (rows.length === 0) return null;
      return rows.map((row, i) => ({
        text: `${i + 1}. ${field.columns
          .filter((c) => cellText(c, row[c.id], t) !== '')
          .map((c) => `${t(`forms:${c.labelKey}`)}: ${cellText(c, row[c.id], t)}`)
          .join('; ')}`,
      }));
    }
    default:
      if (typeof value === 'string' && value.trim()) return [{ text: value.trim() }];
      if (typeof value === 'number') return [{ text: String(value) }];
      return null;
  }
}

/** A cell of a table as a person reads it: an option by its label, else the text; '' when empty. */
export function cellText(column: TableColumn, value: unknown, t: Translate): string {
  const text = typeof value === 'string' ? value.trim() : '';
  const option = column.kind === 'select' ? column.options?.find((o) => o.value === text) : undefined;
  return option ? t(`forms:${option.labelKey}`) : text;
}
