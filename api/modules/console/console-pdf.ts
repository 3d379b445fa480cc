import { parseMinorWorksItem, type MinorWorksRow } from '../../../machines/rules/minor-works';
import { formatHkDate } from '../../../machines/rules/dates';
import { PdfBlocks } from '../shared';
import {
  letterDocument,
  letterHeading,
  letterSignature,
  letterText,
  letterTop,
  writeLetter,
  type LetterContext,
} from './letter-parts';

/**
 * What the department issues on a case, each in the case's language, with the parts every letter has
 * (letter-parts.ts, docs/decisions/041-letter-parts.md): the Letter of Requirements (spec §3: BD reference,
 * date, Category 1 and Category 2 items, minor works rows), the certificate or notice, and the letters of a
 * decision or its correction. Drawn with the application PDF's writer and fonts
 * (api/modules/shared/pdf/application-pdf.ts, decision 016), sealed when stored (decision 038), and
 * downloaded by the applicant from the case page.
 */

export interface LetterOfRequirements {
  bdReference: string;
  date: string;
  category1: string[];
  category2: string[];
  minorWorks: MinorWorksRow[];
}

export async function renderLetterOfRequirements(
  lor: LetterOfRequirements,
  c: LetterContext,
): Promise<Uint8Array> {
  const doc = await letterDocument(c);
  const b = new PdfBlocks();
  letterTop(b, c);
  const sep = c.language === 'en' ? ': ' : '：';
  b.text(`${letterText(c, 'bdReference')}${sep}${lor.bdReference}`, { size: 10.5, gapBefore: 6 });
  b.text(`${letterText(c, 'lorDate')}${sep}${formatHkDate(lor.date, c.language)}`, { size: 10.5 });
  const list = (key: string, rows: string[]) => {
    letterHeading(b, letterText(c, key));
    if (rows.length === 0) b.text(letterText(c, 'nil'), { size: 10.5, indent: 12 });
    rows.forEach((row, i) => b.text(`${i + 1}. ${row}`, { size: 10.5, indent: 12, gapBefore: 3 }));
  };
  list('category1', lor.category1);
  list('category2', lor.category2);
  letterHeading(b, letterText(c, 'minorWorks'));
  if (lor.minorWorks.length === 0) b.text(letterText(c, 'nil'), { size: 10.5, indent: 12 });
  lor.minorWorks.forEach((row, i) => {
    const item = parseMinorWorksItem(row.item);
    b.text(
      letterText(c, 'minorWorksRow', {
        n: i + 1,
        item: item ? letterText(c, 'minorWorksClass', { class: item.class, code: item.code }) : row.item,
        submissionNo: row.submissionNo,
      }),
      { size: 10, indent: 12, gapBefore: 4 },
    );
    b.text(row.description, { size: 10.5, indent: 24 });
  });
  letterSignature(b, c);
  return writeLetter(doc, c, b);
}

export interface CertificateData {
  /** The date of the inspection the certificate rests on (letter-data.ts `recordedInspectionDate`). */
  inspectedOn: string | null;
  remarks?: string;
}

/** The certificate or the notice (`c.kind`). */
export async function renderCertificate(cert: CertificateData, c: LetterContext): Promise<Uint8Array> {
  const doc = await letterDocument(c);
  const b = new PdfBlocks();
  letterTop(b, c);
  b.text(letterText(c, `statement.${c.kind}`), { size: 10.5, gapBefore: 6 });
  const sep = c.language === 'en' ? ': ' : '：';
  if (cert.inspectedOn)
    b.text(`${letterText(c, 'inspectedOn')}${sep}${formatHkDate(cert.inspectedOn, c.language)}`, {
      size: 10.5,
      gapBefore: 8,
    });
  if (cert.remarks) b.text(`${letterText(c, 'remarks')}${sep}${cert.remarks}`, { size: 10.5, gapBefore: 4 });
  letterSignature(b, c);
  return writeLetter(doc, c, b);
}

/**
 * A letter of a decision or its correction (`c.kind`: caseReject, lorWithdraw, certificateRevoke,
 * caseReopen): its statement and the officer's reason.
 */
export async function renderDecisionLetter(reason: string, c: LetterContext): Promise<Uint8Array> {
  const doc = await letterDocument(c);
  const b = new PdfBlocks();
  letterTop(b, c);
  b.text(letterText(c, `statement.${c.kind}`), { size: 10.5, gapBefore: 6 });
  letterHeading(b, letterText(c, 'reason'));
  b.text(reason, { size: 10.5, indent: 12, gapBefore: 3 });
  letterSignature(b, c);
  return writeLetter(doc, c, b);
}
