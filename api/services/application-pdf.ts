import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';
import formsEn from '../../i18n/en/forms.json' with { type: 'json' };
import formsSc from '../../i18n/sc/forms.json' with { type: 'json' };
import formsTc from '../../i18n/tc/forms.json' with { type: 'json' };
import flowsEn from '../../i18n/en/flows.json' with { type: 'json' };
import flowsSc from '../../i18n/sc/flows.json' with { type: 'json' };
import flowsTc from '../../i18n/tc/flows.json' with { type: 'json' };
import wizardEn from '../../i18n/en/wizard.json' with { type: 'json' };
import wizardSc from '../../i18n/sc/wizard.json' with { type: 'json' };
import wizardTc from '../../i18n/tc/wizard.json' with { type: 'json' };
import { applicableFieldIds, fillSteps } from '../../machines/forms';
import type { AddressAnswer, Answers, Field, FormDefinition, TableRow } from '../../machines/forms';
import type { Language } from '../../machines/rules/language';

/**
 * The application form as a PDF (pdf-lib), from the same definition as the screens and the preview:
 * A4 portrait, a header with the form code, its title in English and Chinese, the application number
 * and the generation time; then every fill step and section with each applicable field's label in
 * English and Chinese and the answer printed as the preview prints it (option labels in `language`);
 * "Page n of N" at the foot of each page.
 *
 * Font: Noto Sans TC, regular (400), from the npm package @fontsource/noto-sans-tc, with Noto Sans SC
 * (@fontsource/noto-sans-sc) for the simplified characters TC leaves out. Fontsource splits the
 * font into WOFF2 files by unicode-range (latin, latin-ext, and ~100 numbered CJK slices, see its
 * unicode.json; its WOFF files trip @pdf-lib/fontkit on the cmap, the WOFF2 ones do not); each run of text is drawn with the slice that holds its characters, and only the slices
 * used are embedded, subset to the glyphs used. A character no slice has a glyph for throws
 * (MissingGlyphError) rather than printing a blank box.
 */

export interface ApplicationPdfInput {
  definition: FormDefinition;
  answers: Answers;
  applicationNo: string;
  /** The language of the answers' option labels, Yes/No and "Not answered". Labels are in English and Chinese. */
  language: Language;
  generatedAt: Date;
}

export class MissingGlyphError extends Error {
  constructor(readonly codePoint: number) {
    super(
      `no glyph for U+${codePoint.toString(16).toUpperCase().padStart(4, '0')} (${String.fromCodePoint(codePoint)}) in Noto Sans TC`,
    );
    this.name = 'MissingGlyphError';
  }
}

// ---- Messages ---------------------------------------------------------------------------------------

type Tree = { readonly [key: string]: string | Tree };

const FORMS: Record<Language, Tree> = { en: formsEn, sc: formsSc, tc: formsTc };
const WIZARD: Record<Language, Tree> = { en: wizardEn, sc: wizardSc, tc: wizardTc };

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** A message in `lang`, else English, else the key itself (visible, never blank). */
function message(trees: Record<Language, Tree>, lang: Language, key: string): string {
  return lookup(trees[lang], key) ?? lookup(trees.en, key) ?? key;
}

const formsText = (lang: Language, key: string) => message(FORMS, lang, key);
const wizardText = (lang: Language, key: string) => message(WIZARD, lang, key);

/** English / Chinese (Traditional), once when both are the same. */
function bilingual(key: string): string {
  const en = formsText('en', key);
  const zh = formsText('tc', key);
  return en === zh ? en : `${en} / ${zh}`;
}

// ---- Answers as the preview prints them (ui/flows/apply/PreviewStep.tsx) -------------------------------

/** The answer's lines, as on the preview: options by label, Yes/No, address with floor/unit/lot, table rows. */
export function answerLines(field: Field, value: unknown, lang: Language): string[] {
  const notAnswered = [wizardText(lang, 'notAnswered')];
  switch (field.kind) {
    case 'checkbox':
      return [wizardText(lang, value === true ? 'yes' : 'no')];
    case 'select':
    case 'radio': {
      const option = field.options.find((o) => o.value === value);
      return option ? [formsText(lang, option.labelKey)] : notAnswered;
    }
    case 'address': {
      const a = (value ?? {}) as Partial<AddressAnswer>;
      if (!a.en && !a.zh) return notAnswered;
      const extra = [
        a.floor && `${wizardText(lang, 'address.floor')}: ${a.floor}`,
        a.unit && `${wizardText(lang, 'address.unit')}: ${a.unit}`,
        a.lot && `${wizardText(lang, 'address.lot')}: ${a.lot}`,
      ].filter((s): s is string => Boolean(s));
      return [a.en ?? '', a.zh ?? '', ...(extra.length ? [extra.join('; ')] : [])].filter(Boolean);
    }
    case 'table': {
      const rows = Array.isArray(value) ? (value as TableRow[]) : [];
      if (rows.length === 0) return notAnswered;
      return rows.map(
        (row, i) =>
          `${i + 1}. ${field.columns.map((c) => `${formsText(lang, c.labelKey)}: ${row[c.id] ?? ''}`).join('; ')}`,
      );
    }
    default:
      if (typeof value === 'string' && value.trim()) return [value];
      if (typeof value === 'number') return [String(value)];
      return notAnswered;
  }
}

// ---- Fonts ------------------------------------------------------------------------------------------

interface Slice {
  /** The subset's name in unicode.json: 'latin', 'latin-ext', '[12]' ... */
  name: string;
  file: string;
  ranges: [number, number][];
}

interface FontSource {
  slices: Slice[];
  /** Code point → the slice whose font has its glyph (memo). */
  sliceOf(codePoint: number): Slice;
  bytes(slice: Slice): Uint8Array;
}

let fontSource: FontSource | undefined;

/** Noto Sans TC first; Noto Sans SC for the simplified characters TC's slices leave out (楼 ...). */
const FONT_PACKAGES = ['noto-sans-tc', 'noto-sans-sc'] as const;

function slicesOf(family: (typeof FONT_PACKAGES)[number]): Slice[] {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve(`@fontsource/${family}/LICENSE`));
  const unicode = JSON.parse(readFileSync(join(root, 'unicode.json'), 'utf8')) as Record<string, string>;
  const fileOf = (name: string) =>
    join(root, 'files', `${family}-${name.replace(/^\[(\d+)\]$/, '$1')}-400-normal.woff2`);
  // Latin first, so that ASCII never comes from a CJK slice.
  const order = (name: string) =>
    name === 'latin' ? 0 : name === 'latin-ext' ? 1 : name.startsWith('[') ? 3 : 2;
  return Object.entries(unicode)
    .sort(([a], [b]) => order(a) - order(b))
    .map(([name, ranges]) => ({
      name: `${family}:${name}`,
      file: fileOf(name),
      ranges: ranges.split(',').map((r): [number, number] => {
        const [from = '', to] = r.trim().replace(/^U\+/i, '').split('-');
        const start = parseInt(from, 16);
        return [start, to === undefined ? start : parseInt(to, 16)];
      }),
    }));
}

function loadFontSource(): FontSource {
  const slices = FONT_PACKAGES.flatMap(slicesOf);
  const bytesCache = new Map<string, Uint8Array>();
  const glyphCheck = new Map<string, { hasGlyphForCodePoint(cp: number): boolean }>();
  const memo = new Map<number, Slice>();
  const bytes = (slice: Slice) => {
    let b = bytesCache.get(slice.file);
    if (!b) {
      b = new Uint8Array(readFileSync(slice.file));
      bytesCache.set(slice.file, b);
    }
    return b;
  };
  const hasGlyph = (slice: Slice, cp: number) => {
    let font = glyphCheck.get(slice.file);
    if (!font) {
      font = fontkit.create(bytes(slice));
      glyphCheck.set(slice.file, font);
    }
    return font.hasGlyphForCodePoint(cp);
  };
  return {
    slices,
    bytes,
    sliceOf(cp) {
      const known = memo.get(cp);
      if (known) return known;
      const slice = slices.find((s) => s.ranges.some(([a, b]) => cp >= a && cp <= b) && hasGlyph(s, cp));
      if (!slice) throw new MissingGlyphError(cp);
      memo.set(cp, slice);
      return slice;
    },
  };
}

/**
 * Every code point the embedded fonts draw: each slice's cmap (glyph not .notdef) within the slice's
 * unicode-range. The printable set of machines/rules/printable-set.ts is generated from this
 * (`npm run fonts:printable`), and a unit test fails when the two differ.
 */
export function fontCodePoints(): number[] {
  fontSource ??= loadFontSource();
  const found = new Set<number>();
  for (const slice of fontSource.slices) {
    const font = fontkit.create(fontSource.bytes(slice)) as unknown as {
      characterSet: number[];
      hasGlyphForCodePoint(cp: number): boolean;
    };
    for (const cp of font.characterSet) {
      if (slice.ranges.some(([a, b]) => cp >= a && cp <= b) && font.hasGlyphForCodePoint(cp)) found.add(cp);
    }
  }
  return [...found].sort((a, b) => a - b);
}

/** The fonts of one document: each slice embedded (subset) on first use. */
class DocumentFonts {
  private readonly embedded = new Map<string, PDFFont>();
  constructor(
    private readonly doc: PDFDocument,
    private readonly source: FontSource,
  ) {}

  /** The text cut into runs of one font each (whitespace joins the run before it). */
  async runs(text: string): Promise<{ text: string; font: PDFFont }[]> {
    const out: { text: string; slice: Slice }[] = [];
    for (const ch of text) {
      const cp = ch.codePointAt(0) ?? 32;
      const last = out.at(-1);
      if (/\s/.test(ch) && last) {
        last.text += ' ';
        continue;
      }
      const slice = this.source.sliceOf(/\s/.test(ch) ? 32 : cp);
      if (last && last.slice === slice) last.text += ch;
      else out.push({ text: /\s/.test(ch) ? ' ' : ch, slice });
    }
    return Promise.all(out.map(async (r) => ({ text: r.text, font: await this.font(r.slice) })));
  }

  private async font(slice: Slice): Promise<PDFFont> {
    let font = this.embedded.get(slice.file);
    if (!font) {
      font = await this.doc.embedFont(this.source.bytes(slice), { subset: true });
      this.embedded.set(slice.file, font);
    }
    return font;
  }
}

// ---- Layout -----------------------------------------------------------------------------------------

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const FOOTER = 30;
const WIDTH = A4[0] - 2 * MARGIN;
const INK = rgb(0.1, 0.1, 0.1);
const GREY = rgb(0.35, 0.35, 0.35);
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

class Writer {
  private page!: PDFPage;
  private y = 0;
  readonly pages: PDFPage[] = [];

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: DocumentFonts,
  ) {
    this.newPage();
  }

  private newPage() {
    this.page = this.doc.addPage(A4);
    this.pages.push(this.page);
    this.y = A4[1] - MARGIN;
  }

  private async width(text: string, size: number): Promise<number> {
    const runs = await this.fonts.runs(text);
    return runs.reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, size), 0);
  }

  /** The lines `text` wraps to within `max` points. */
  async wrap(text: string, size: number, max: number): Promise<string[]> {
    const lines: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let line = '';
      for (const piece of pieces(paragraph)) {
        const candidate = line + piece;
        if ((await this.width(candidate.trimEnd(), size)) <= max) {
          line = candidate;
          continue;
        }
        if (line.trim()) lines.push(line.trimEnd());
        line = '';
        // A piece longer than a line (a long word or number) is broken by characters.
        let rest = piece.trimStart();
        while (rest && (await this.width(rest.trimEnd(), size)) > max) {
          let cut = 1;
          const chars = [...rest];
          while (cut < chars.length && (await this.width(chars.slice(0, cut + 1).join(''), size)) <= max)
            cut++;
          lines.push(chars.slice(0, cut).join(''));
          rest = chars.slice(cut).join('');
        }
        line = rest;
      }
      lines.push(line.trimEnd());
    }
    return lines;
  }

  async text(text: string, style: Style): Promise<void> {
    const indent = style.indent ?? 0;
    const leading = style.size * 1.45;
    this.y -= style.gapBefore ?? 0;
    for (const line of await this.wrap(text, style.size, WIDTH - indent)) {
      if (this.y - leading < MARGIN + FOOTER) this.newPage();
      this.y -= leading;
      let x = MARGIN + indent;
      for (const run of await this.fonts.runs(line)) {
        this.page.drawText(run.text, {
          x,
          y: this.y,
          size: style.size,
          font: run.font,
          color: style.color ?? INK,
        });
        x += run.font.widthOfTextAtSize(run.text, style.size);
      }
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

  /** "Page n of N / 第 n 頁，共 N 頁" at the foot of every page. */
  async pageNumbers(): Promise<void> {
    const total = this.pages.length;
    for (const [i, page] of this.pages.entries()) {
      const label = `Page ${i + 1} of ${total} / 第 ${i + 1} 頁，共 ${total} 頁`;
      const size = 8;
      let x = A4[0] - MARGIN - (await this.width(label, size));
      for (const run of await this.fonts.runs(label)) {
        page.drawText(run.text, { x, y: MARGIN - 10, size, font: run.font, color: GREY });
        x += run.font.widthOfTextAtSize(run.text, size);
      }
    }
  }
}

/** "2026-03-02 10:15 (Hong Kong time)": the generation time in Hong Kong (UTC+8, no summer time). */
function hongKongTime(date: Date): string {
  const hk = new Date(date.getTime() + 8 * 60 * 60 * 1000).toISOString();
  return `${hk.slice(0, 10)} ${hk.slice(11, 16)}`;
}

const FLOWS: Record<Language, Tree> = { en: flowsEn, sc: flowsSc, tc: flowsTc };

export async function renderApplicationPdf({
  definition,
  answers,
  applicationNo,
  language,
  generatedAt,
}: ApplicationPdfInput): Promise<Uint8Array> {
  fontSource ??= loadFontSource();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const titleEn = message(FLOWS, 'en', `forms.${definition.key}.title`);
  const titleZh = message(FLOWS, 'tc', `forms.${definition.key}.title`);
  doc.setTitle(`${titleEn} – ${applicationNo}`);
  doc.setSubject(`Form ${definition.code}`);
  doc.setProducer('Buildings Department portal (pdf-lib)');
  doc.setCreationDate(generatedAt);
  doc.setModificationDate(generatedAt);
  doc.setLanguage('en');

  const w = new Writer(doc, new DocumentFonts(doc, fontSource));
  await w.text(`Form ${definition.code} / 表格 ${definition.code}`, { size: 11, color: GREY });
  await w.text(titleEn, { size: 15, gapBefore: 2 });
  await w.text(titleZh, { size: 15 });
  await w.text(`Application No. / 申請編號: ${applicationNo}`, { size: 11, gapBefore: 6 });
  await w.text(`Generated / 產生日期: ${hongKongTime(generatedAt)} (Hong Kong time / 香港時間)`, {
    size: 9,
    color: GREY,
  });
  w.rule(8);

  const applicable = applicableFieldIds(definition, answers);
  const steps = fillSteps(definition);
  for (const step of steps) {
    const sections = step.sections.filter((s) => s.fields.some((f) => applicable.has(f.id)));
    if (sections.length === 0) continue;
    if (steps.length > 1) await w.text(bilingual(step.titleKey), { size: 13, gapBefore: 10 });
    for (const section of sections) {
      await w.text(bilingual(section.titleKey), { size: 12, gapBefore: 10 });
      w.rule(3);
      for (const field of section.fields.filter((f) => applicable.has(f.id))) {
        await w.text(bilingual(field.labelKey), { size: 9, color: GREY, gapBefore: 5 });
        for (const line of answerLines(field, answers[field.id], language))
          await w.text(line, { size: 10.5, indent: 12 });
      }
    }
  }
  await w.pageNumbers();
  return doc.save();
}
