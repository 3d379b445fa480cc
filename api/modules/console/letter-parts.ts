import { PDFDocument } from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import type { Language } from '../../../machines/rules/language';
import type { StaffContact } from '../../../machines/rules/staff';
import { formatHkDate } from '../../../machines/rules/dates';
import { translate } from '../../http/i18n';
import type { PdfBlocks } from '../shared';
import { GREY, writePdfBlocks } from '../shared';
import { legalBasis, type LetterKind, type Letterhead } from './letter-settings';
import type { LetterParties } from './letter-data';

/**
 * The parts every letter the department issues has (docs/decisions/041-letter-parts.md), in the case's
 * language: the letterhead, the addressee, the school or centre and the premises, the application number
 * and the letter's reference, the date, the legal basis, then the letter's own body (console-pdf.ts), the
 * officer's name, post and contact, and "Page n of m" on every page. Words come from i18n (api.json
 * `letter.*`), the department's details and the legal basis from letter-settings.ts.
 */

/** Everything a letter names besides its body. */
export interface LetterContext extends LetterParties {
  kind: LetterKind;
  language: Language;
  letterhead: Letterhead;
  applicationNo: string;
  applicationType: string;
  formCode: string;
  /** The letter's reference (LOR-…, CRT-…, REJ-…), which /verify checks (docs/decisions/038-sealed-letters.md). */
  reference: string;
  officer: StaffContact;
  issuedAt: Date;
}

export const letterText = (
  c: Pick<LetterContext, 'language'>,
  key: string,
  params?: Record<string, string | number>,
) => translate(c.language, `letter.${key}`, params);

/** The letter's title in its language. */
export const letterTitle = (c: Pick<LetterContext, 'language' | 'kind'>) => letterText(c, `title.${c.kind}`);

/** The name the letter is stored and downloaded under, in its language: "規定事項函件 LOR-….pdf". */
export const letterFileName = (kind: LetterKind, language: Language, reference: string) =>
  `${translate(language, `letter.file.${kind}`)} ${reference}.pdf`;

/** A new document of the letter, its metadata in the letter's language. */
export async function letterDocument(c: LetterContext): Promise<PDFDocument> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(`${letterTitle(c)} – ${c.applicationNo}`);
  doc.setAuthor(c.language === 'en' ? c.letterhead.nameEn : c.letterhead.nameZh);
  doc.setProducer('Buildings Department portal (pdf-lib)');
  doc.setCreationDate(c.issuedAt);
  doc.setModificationDate(c.issuedAt);
  doc.setLanguage({ en: 'en-HK', tc: 'zh-HK', sc: 'zh-CN' }[c.language]);
  return doc;
}

/** "label: value" on one line. */
const field = (c: LetterContext, key: string, value: string) =>
  `${letterText(c, key)}${c.language === 'en' ? ': ' : '：'}${value}`;

/** The head of the letter: letterhead, title, addressee, particulars of the case and the legal basis. */
export function letterTop(b: PdfBlocks, c: LetterContext): void {
  const h = c.letterhead;
  b.text(`${h.nameZh}  ${h.nameEn}`, { size: 13 });
  b.text(h.address[c.language], { size: 8.5, color: GREY });
  b.text(
    `${letterText(c, 'telephone', { telephone: h.telephone })}    ${letterText(c, 'website', { website: h.website })}`,
    { size: 8.5, color: GREY },
  );
  b.rule(6);
  b.text(`${letterText(c, 'to')}${c.language === 'en' ? ':' : '：'}`, { size: 9, color: GREY, gapBefore: 4 });
  b.text(c.addresseeName, { size: 10.5, indent: 12 });
  for (const line of c.addresseeAddress) b.text(line, { size: 10.5, indent: 12 });
  b.text(field(c, 'date', formatHkDate(c.issuedAt, c.language)), { size: 10, gapBefore: 8 });
  b.text(field(c, 'reference', c.reference), { size: 10 });
  b.text(
    field(
      c,
      'applicationNo',
      letterText(c, 'form', { applicationNo: c.applicationNo, formCode: c.formCode }),
    ),
    { size: 10 },
  );
  if (c.establishment) b.text(field(c, 'school', c.establishment), { size: 10 });
  if (c.premises) b.text(field(c, 'premises', c.premises), { size: 10 });
  b.text(letterTitle(c), { size: 15, gapBefore: 10 });
  b.rule(4);
  b.text(letterText(c, 'salutation'), { size: 10.5, gapBefore: 4 });
  b.text(field(c, 'basis', legalBasis(c.kind, c.applicationType, c.language)), { size: 10, gapBefore: 4 });
}

/** The foot of the letter: the officer's name, post and contact, and where to check the letter. */
export function letterSignature(b: PdfBlocks, c: LetterContext): void {
  const o = c.officer;
  const en = c.language === 'en';
  b.rule(12);
  b.text(en ? o.nameEn : o.nameZh, { size: 10.5, gapBefore: 6 });
  b.text(en ? o.postEn : o.postZh, { size: 9.5 });
  b.text(letterText(c, 'forDirector'), { size: 9.5 });
  b.text(
    `${letterText(c, 'telephone', { telephone: o.telephone })}    ${letterText(c, 'email', { email: o.email })}`,
    { size: 9, color: GREY },
  );
  b.text(letterText(c, 'verify'), { size: 8.5, color: GREY, gapBefore: 8 });
}

/** A heading of the body and its rule. */
export function letterHeading(b: PdfBlocks, text: string): void {
  b.text(text, { size: 12, gapBefore: 10 });
  b.rule(3);
}

/** Writes the letter: its font made of exactly its characters, "Page n of m" in its language. */
export function writeLetter(doc: PDFDocument, c: LetterContext, b: PdfBlocks): Promise<Uint8Array> {
  return writePdfBlocks(doc, c.language, b, (n, total) => letterText(c, 'page', { n, total }));
}
