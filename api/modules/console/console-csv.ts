import { formatHkDate } from '../../../machines/rules/dates';
import type { Language } from '../../../machines/rules/language';
import type { QueueRow } from '../../../machines/rules/staff';
import { translate } from '../../http/i18n';

/**
 * The work queue as a CSV file (docs/console.md, "The work queue"): what the queue page shows, every case
 * the filters find, in the queue's order, in the officer's language. UTF-8 with a byte order mark, so that
 * Excel reads the Chinese; RFC 4180 (every cell quoted, CRLF); dates as the portal writes them, in Hong
 * Kong time. A cell that a spreadsheet would take for a formula (it begins with = + - @ or a tab) is kept
 * as text by a leading apostrophe: applicants' names are typed by the public.
 */

const COLUMNS = [
  'applicationNo',
  'form',
  'status',
  'applicant',
  'premises',
  'submitted',
  'due',
  'overdue',
  'requestOverdue',
  'officer',
] as const;

function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

const line = (cells: string[]) => `${cells.map(cell).join(',')}\r\n`;

/** The cells of one case, in the order of COLUMNS. */
function cellsOf(r: QueueRow, l: Language): string[] {
  const yes = (flag: boolean) => (flag ? translate(l, 'staff.csv.yes') : '');
  return [
    r.applicationNo,
    r.formCode,
    translate(l, `case.statuses.${r.status}`),
    r.applicantName ?? '',
    r.premisesAddress ?? '',
    formatHkDate(r.submittedAt, l),
    formatHkDate(r.contactDue, l),
    yes(r.overdue),
    yes(r.requestOverdue),
    r.officer ? (l === 'en' ? r.officer.nameEn : r.officer.nameZh) : '',
  ];
}

/** The file, a piece at a time: the byte order mark and the header line, then a line per case. */
export async function* queueCsv(rows: AsyncIterable<QueueRow>, language: Language): AsyncGenerator<string> {
  yield `\uFEFF${line(COLUMNS.map((c) => translate(language, `staff.csv.${c}`)))}`;
  for await (const r of rows) yield line(cellsOf(r, language));
}
