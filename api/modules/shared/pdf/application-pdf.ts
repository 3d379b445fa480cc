import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';
import { answerText, applicableFieldIds, fillSteps } from '../../../../machines/forms';
import type { Answers, Field, FormDefinition, Translate } from '../../../../machines/forms';
import type { Language } from '../../../../machines/rules/language';
import { embedDocumentFont, finishDocumentFont } from './pdf-fonts';
import { formatHkDate, formatHkDateBilingual } from '../../../../machines/rules/dates';
import { translate } from '../../../http/i18n';

/**
 * The application form as a PDF (pdf-lib), from the same definition as the screens and the preview:
 * A4 portrait, a header with the form code, its title in English and Chinese, the application number
 * and the generation time; then every fill step and section with each applicable field's label in
 * English and Chinese and the answer printed as the preview prints it (option labels in `language`);
 * "Page n of N" at the foot of each page.
 *
 * The document is laid out in two passes: first every block of text is listed, then one font holding
 * exactly those characters is embedded (api/modules/shared/pdf/pdf-fonts.ts: Noto Sans CJK, subset by HarfBuzz)
 * and the blocks are written. A character the font has no glyph for throws (MissingGlyphError) rather
 * than printing a blank box.
 */

export interface ApplicationPdfInput {
  definition: FormDefinition;
  answers: Answers;
  applicationNo: string;
  /** The language of the answers' option labels, Yes/No and "Not answered". Labels are in English and Chinese. */
  language: Language;
  generatedAt: Date;
  /** The signature the application rests on: printed as the last section, "Signed" (none while a draft). */
  signed?: SignedRecord;
}

/** A signing of the application as its records hold it (api/modules/cases/case-signature.ts). */
export interface SignedRecord {
  method: 'iamsmart' | 'ecert';
  /** The signer's name: the e-Cert's holder, or the applicant iAM Smart checked by their HKIC. */
  signer: string;
  at: Date;
  /** The SHA-256 (hex) of what was signed: the manifest of the application PDF and documents. */
  digest: string;
  /** The version of the information printed, when it is not the one signed (version 1). */
  laterVersion?: number;
}

// ---- Messages: the API's one translator (api/http/i18n.ts) ---------------------------------------

const formsText = (lang: Language, key: string) => translate(lang, `forms:${key}`);

/** English / Chinese (Traditional), once when both are the same. */
function bilingual(key: string): string {
  const en = formsText('en', key);
  const zh = formsText('tc', key);
  return en === zh ? en : `${en} / ${zh}`;
}

// ---- Answers: the one text of the preview and the PDF (machines/forms/answer-text.ts) ----------------

/** The messages of the preview's answers in `lang` (`forms:` and `wizard:` keys), as answerText reads them. */
export function answerTranslator(lang: Language): Translate {
  return (key) => translate(lang, key);
}

/** The answer's lines as the preview prints them, "Not answered" when empty. */
export function answerLines(field: Field, value: unknown, lang: Language): string[] {
  const t = answerTranslator(lang);
  return answerText(field, value, t, lang)?.map((line) => line.text) ?? [t('wizard:notAnswered')];
}

// ---- Layout -----------------------------------------------------------------------------------------

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const FOOTER = 30;
const WIDTH = A4[0] - 2 * MARGIN;
const INK = rgb(0.1, 0.1, 0.1);
export const GREY = rgb(0.35, 0.35, 0.35);
const RULE = rgb(0.75, 0.75, 0.75);

interface Style {
  size: number;
  color?: ReturnType<typeof rgb>;
  indent?: number;
  gapBefore?: number;
}

/** A piece of text that is never broken: a word with its trailing space, or one CJK character. */
function pieces(text: string): string[] {
  return (
    text.match(
      /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]|[^\s\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]+\s*|\s+/gu,
    ) ?? []
  );
}

interface Block {
  kind: 'text' | 'rule';
  text: string;
  style: Style;
}

/** The text of a document, listed before its font is made (also the issued letters': console-pdf.ts). */
export class PdfBlocks {
  readonly blocks: Block[] = [];
  text(t: string, style: Style): void {
    this.blocks.push({ kind: 'text', text: t.replace(/[^\S\n]/gu, ' '), style });
  }
  rule(gap: number): void {
    this.blocks.push({ kind: 'rule', text: '', style: { size: gap } });
  }
}

/** The words at the foot of page `n` of `total`. */
export type PageLabel = (n: number, total: number) => string;

/**
 * Embeds one font holding exactly the blocks' characters, writes them and numbers the pages with
 * `label` (English and Chinese unless given: a letter's is in its own language).
 */
export async function writePdfBlocks(
  doc: PDFDocument,
  language: Language,
  list: PdfBlocks,
  label: PageLabel = pageLabel,
): Promise<Uint8Array> {
  const font = await embedDocumentFont(
    doc,
    language,
    list.blocks.map((b) => b.text).join('') + label(0, 0) + '0123456789',
  );
  const w = new Writer(doc, font);
  for (const block of list.blocks) {
    if (block.kind === 'rule') w.rule(block.style.size);
    else w.text(block.text, block.style);
  }
  w.pageNumbers(label);
  await finishDocumentFont(doc, font);
  return doc.save();
}

/** "Page n of N / 第 n 頁，共 N 頁". */
const pageLabel: PageLabel = (n, total) => `Page ${n} of ${total} / 第 ${n} 頁，共 ${total} 頁`;

class Writer {
  private page!: PDFPage;
  private y = 0;
  readonly pages: PDFPage[] = [];

  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
  ) {
    this.newPage();
  }

  private newPage() {
    this.page = this.doc.addPage(A4);
    this.pages.push(this.page);
    this.y = A4[1] - MARGIN;
  }

  private width(text: string, size: number): number {
    return this.font.widthOfTextAtSize(text, size);
  }

  /** The lines `text` wraps to within `max` points. */
  wrap(text: string, size: number, max: number): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let line = '';
      for (const piece of pieces(paragraph)) {
        const candidate = line + piece;
        if (this.width(candidate.trimEnd(), size) <= max) {
          line = candidate;
          continue;
        }
        if (line.trim()) lines.push(line.trimEnd());
        line = '';
        // A piece longer than a line (a long word or number) is broken by characters.
        let rest = piece.trimStart();
        while (rest && this.width(rest.trimEnd(), size) > max) {
          let cut = 1;
          const chars = [...rest];
          while (cut < chars.length && this.width(chars.slice(0, cut + 1).join(''), size) <= max) cut++;
          lines.push(chars.slice(0, cut).join(''));
          rest = chars.slice(cut).join('');
        }
        line = rest;
      }
      lines.push(line.trimEnd());
    }
    return lines;
  }

  text(text: string, style: Style): void {
    const indent = style.indent ?? 0;
    const leading = style.size * 1.45;
    this.y -= style.gapBefore ?? 0;
    for (const line of this.wrap(text, style.size, WIDTH - indent)) {
      if (this.y - leading < MARGIN + FOOTER) this.newPage();
      this.y -= leading;
      this.page.drawText(line, {
        x: MARGIN + indent,
        y: this.y,
        size: style.size,
        font: this.font,
        color: style.color ?? INK,
      });
    }
  }

  rule(gap = 6): void {
    if (this.y - gap < MARGIN + FOOTER) this.newPage();
    this.y -= gap;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4[0] - MARGIN, y: this.y },
      thickness: 0.5,
      color: RULE,
    });
  }

  /** "Page n of N" (`pageLabel`) at the foot of every page. */
  pageNumbers(pageLabel: PageLabel): void {
    const total = this.pages.length;
    for (const [i, page] of this.pages.entries()) {
      const label = pageLabel(i + 1, total);
      const size = 8;
      const x = A4[0] - MARGIN - this.width(label, size);
      page.drawText(label, { x, y: MARGIN - 10, size, font: this.font, color: GREY });
    }
  }
}

export async function renderApplicationPdf({
  definition,
  answers,
  applicationNo,
  language,
  generatedAt,
  signed,
}: ApplicationPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const titleEn = translate('en', `flows:forms.${definition.key}.title`);
  const titleZh = translate('tc', `flows:forms.${definition.key}.title`);
  doc.setTitle(`${titleEn} – ${applicationNo}`);
  doc.setSubject(`Form ${definition.code}`);
  doc.setProducer('Buildings Department portal (pdf-lib)');
  doc.setCreationDate(generatedAt);
  doc.setModificationDate(generatedAt);
  doc.setLanguage('en');

  const list = new PdfBlocks();
  const text = (t: string, style: Style) => list.text(t, style);
  const rule = (gap: number) => list.rule(gap);
  text(`Form ${definition.code} / 表格 ${definition.code}`, { size: 11, color: GREY });
  text(titleEn, { size: 15, gapBefore: 2 });
  text(titleZh, { size: 15 });
  text(`Application No. / 申請編號: ${applicationNo}`, { size: 11, gapBefore: 6 });
  text(`Generated / 產生日期: ${formatHkDateBilingual(generatedAt, true)} (Hong Kong time / 香港時間)`, {
    size: 9,
    color: GREY,
  });
  rule(8);

  const applicable = applicableFieldIds(definition, answers);
  const steps = fillSteps(definition);
  for (const step of steps) {
    const sections = step.sections.filter((s) => s.fields.some((f) => applicable.has(f.id)));
    if (sections.length === 0) continue;
    if (steps.length > 1) text(bilingual(step.titleKey), { size: 13, gapBefore: 10 });
    for (const section of sections) {
      text(bilingual(section.titleKey), { size: 12, gapBefore: 10 });
      rule(3);
      for (const field of section.fields.filter((f) => applicable.has(f.id))) {
        text(bilingual(field.labelKey), { size: 9, color: GREY, gapBefore: 5 });
        for (const line of answerLines(field, answers[field.id], language))
          text(line, { size: 10.5, indent: 12 });
      }
    }
  }

  if (signed) signedSection(list, signed, language);
  return writePdfBlocks(doc, language, list);
}

/**
 * The last section, "Signed" / "簽署": the method, the signer, the time (Hong Kong, the zone named) and the
 * SHA-256 of what was signed (docs/decisions/041-letter-parts.md). Labels in English and Chinese like the
 * rest of the form, the values in `language`.
 */
function signedSection(list: PdfBlocks, signed: SignedRecord, language: Language) {
  const zh: Language = language === 'sc' ? 'sc' : 'tc';
  const label = (key: string) => {
    const [en, other] = [formsText('en', `signed.${key}`), formsText(zh, `signed.${key}`)];
    return en === other ? en : `${en} / ${other}`;
  };
  const value = (key: string, params?: Record<string, string>) =>
    translate(language, `forms:signed.${key}`, params);
  list.text(label('title'), { size: 12, gapBefore: 10 });
  list.rule(3);
  const row = (key: string, text: string) => {
    list.text(label(key), { size: 9, color: GREY, gapBefore: 5 });
    list.text(text, { size: 10.5, indent: 12 });
  };
  row('method', value(signed.method));
  row('signer', signed.signer);
  row('at', value('time', { time: formatHkDate(signed.at, language, true) }));
  row('digest', signed.digest);
  if (signed.laterVersion !== undefined)
    list.text(value('updated', { version: String(signed.laterVersion) }), {
      size: 9,
      color: GREY,
      gapBefore: 5,
    });
}
