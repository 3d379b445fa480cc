import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFArray, PDFDict, type PDFDocument, type PDFFont, PDFName, PDFRef, PDFStream } from 'pdf-lib';
import type { Language } from '../../../../machines/rules/language';

/**
 * The font of the PDFs the portal makes (docs/decisions/016-pdf-fonts.md): Noto Sans CJK Regular, the
 * OpenType collection of Debian's `fonts-noto-cjk` (or any distribution's), which holds Latin, Traditional
 * and Simplified Chinese in one face. Per document, HarfBuzz (`harfbuzzjs`, hb-subset in WebAssembly)
 * cuts the face down to the characters the document prints, keeping the glyph ids (so that the CIDs the
 * PDF writes are the CFF's own CIDs: Noto's CFF is CID-keyed with CID = glyph id), and pdf-lib embeds that
 * small font as it is. Nothing is subset by @pdf-lib/fontkit, whose subsetter wrote the corrupt `glyf`
 * tables that pdf.js and Chromium could not draw.
 *
 * The face is the Hong Kong one for English and Traditional Chinese documents, the Simplified Chinese one
 * for `sc`; both cover every character of the other.
 */

/** Where the collection is looked for, after `PDF_CJK_FONT`. */
export const CJK_FONT_PATHS = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', // Debian, Ubuntu (fonts-noto-cjk)
  '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc', // Fedora
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc', // Arch
  '/usr/share/fonts/opentype/noto-cjk/NotoSansCJK-Regular.ttc',
] as const;

const FACES = { hk: 'NotoSansCJKhk-Regular', sc: 'NotoSansCJKsc-Regular' } as const;
type Face = keyof typeof FACES;

export const faceFor = (language: Language): Face => (language === 'sc' ? 'sc' : 'hk');

export class MissingGlyphError extends Error {
  constructor(readonly codePoint: number) {
    super(
      `no glyph for U+${codePoint.toString(16).toUpperCase().padStart(4, '0')} (${String.fromCodePoint(codePoint)}) in Noto Sans CJK`,
    );
    this.name = 'MissingGlyphError';
  }
}

export class FontUnavailableError extends Error {
  constructor() {
    super(
      `Noto Sans CJK Regular not found: install the package fonts-noto-cjk (Debian, Ubuntu) or set PDF_CJK_FONT to a NotoSansCJK-Regular.ttc (tried ${CJK_FONT_PATHS.join(', ')})`,
    );
    this.name = 'FontUnavailableError';
  }
}

/** The path of the collection: PDF_CJK_FONT, else the first of CJK_FONT_PATHS that exists. */
export function cjkFontPath(env: NodeJS.ProcessEnv = process.env): string {
  const path = env.PDF_CJK_FONT || CJK_FONT_PATHS.find((p) => existsSync(p));
  if (!path || !existsSync(path)) throw new FontUnavailableError();
  return path;
}

// ---- HarfBuzz (hb-subset) -------------------------------------------------------------------------------

interface HbSubset {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, codePoint: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_input_get_flags(input: number): number;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_or_fail(face: number, input: number): number;
}

const HB_MEMORY_MODE_READONLY = 1;
const HB_SUBSET_FLAGS_RETAIN_GIDS = 0x2;

interface LoadedFace {
  hb: number;
  /** fontkit's view of the whole face, to know which characters it has. */
  glyphs: { hasGlyphForCodePoint(codePoint: number): boolean };
}

class CjkFonts {
  private readonly faces = new Map<Face, LoadedFace>();

  private constructor(
    private readonly hb: HbSubset,
    private readonly blob: number,
    private readonly collection: { fonts: { postscriptName: string }[] },
  ) {}

  static load(path: string): CjkFonts {
    const require = createRequire(import.meta.url);
    const wasm = readFileSync(require.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm'));
    const hb = new WebAssembly.Instance(new WebAssembly.Module(wasm)).exports as unknown as HbSubset;
    const bytes = readFileSync(path);
    const ptr = hb.malloc(bytes.byteLength);
    new Uint8Array(hb.memory.buffer).set(bytes, ptr);
    const blob = hb.hb_blob_create(ptr, bytes.byteLength, HB_MEMORY_MODE_READONLY, 0, 0);
    const collection = fontkit.create(bytes) as unknown as { fonts?: { postscriptName: string }[] };
    if (!collection.fonts) throw new FontUnavailableError();
    return new CjkFonts(hb, blob, { fonts: collection.fonts });
  }

  private face(face: Face): LoadedFace {
    let loaded = this.faces.get(face);
    if (!loaded) {
      const index = this.collection.fonts.findIndex((f) => f.postscriptName === FACES[face]);
      if (index < 0) throw new FontUnavailableError();
      loaded = {
        hb: this.hb.hb_face_create(this.blob, index),
        glyphs: this.collection.fonts[index] as unknown as LoadedFace['glyphs'],
      };
      this.faces.set(face, loaded);
    }
    return loaded;
  }

  /** Throws MissingGlyphError for the first character of `text` the face cannot draw. */
  check(face: Face, text: string): void {
    const { glyphs } = this.face(face);
    for (const ch of text) {
      const cp = ch.codePointAt(0) ?? 32;
      if (!/\s/u.test(ch) && !glyphs.hasGlyphForCodePoint(cp)) throw new MissingGlyphError(cp);
    }
  }

  /** The face cut down to the characters of `text` (an OpenType font with the face's glyph ids). */
  subset(face: Face, text: string): Uint8Array {
    const { hb } = this;
    const input = hb.hb_subset_input_create_or_fail();
    const set = hb.hb_subset_input_unicode_set(input);
    for (const ch of new Set([...text, ' '])) hb.hb_set_add(set, ch.codePointAt(0) ?? 32);
    hb.hb_subset_input_set_flags(input, hb.hb_subset_input_get_flags(input) | HB_SUBSET_FLAGS_RETAIN_GIDS);
    const result = hb.hb_subset_or_fail(this.face(face).hb, input);
    hb.hb_subset_input_destroy(input);
    if (!result) throw new Error('hb-subset failed');
    const blob = hb.hb_face_reference_blob(result);
    const data = hb.hb_blob_get_data(blob, 0);
    const bytes = new Uint8Array(hb.memory.buffer).slice(data, data + hb.hb_blob_get_length(blob));
    hb.hb_blob_destroy(blob);
    hb.hb_face_destroy(result);
    return bytes;
  }
}

let fonts: CjkFonts | undefined;

/**
 * fontkit's shaping is turned off but for kerning: with no language given it applied `locl` and turned
 * the digits of "A2-2026-000123" into wide forms; the PDF needs one glyph per character, as typed.
 */
const FEATURES = {
  locl: false,
  frac: false,
  numr: false,
  dnom: false,
  calt: false,
  liga: false,
  ccmp: false,
};

/**
 * One font for one document, holding exactly the characters of `text` (all the text the document will
 * print). Throws MissingGlyphError for a character Noto Sans CJK has no glyph for, FontUnavailableError
 * when the collection is not installed.
 */
export async function embedDocumentFont(
  doc: PDFDocument,
  language: Language,
  text: string,
): Promise<PDFFont> {
  fonts ??= CjkFonts.load(cjkFontPath());
  const face = faceFor(language);
  fonts.check(face, text);
  return doc.embedFont(fonts.subset(face, text), { subset: false, features: FEATURES });
}

/**
 * Declares the embedded font program as what it is. pdf-lib does not see the CFF of an OpenType font
 * that came out of hb-subset and writes a TrueType CIDFont (`/CIDFontType2`, `/FontFile2`), which strict
 * readers (poppler) report as a mismatch. The font is CFF-flavoured OpenType ("OTTO"): a `/CIDFontType0`
 * whose `/FontFile3` is of `/Subtype /OpenType` (PDF 1.6), without `/CIDToGIDMap` (TrueType only).
 * Call after the last drawText.
 */
export async function finishDocumentFont(doc: PDFDocument, font: PDFFont): Promise<void> {
  await font.embed();
  const type0 = doc.context.lookup(font.ref, PDFDict);
  const descendant = doc.context.lookup(
    type0.lookup(PDFName.of('DescendantFonts'), PDFArray).get(0),
    PDFDict,
  );
  const descriptor = descendant.lookup(PDFName.of('FontDescriptor'), PDFDict);
  const ref = descriptor.get(PDFName.of('FontFile2')) ?? descriptor.get(PDFName.of('FontFile3'));
  const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : ref;
  if (!(stream instanceof PDFStream) || !ref) throw new Error('embedded font program not found');
  descendant.set(PDFName.of('Subtype'), PDFName.of('CIDFontType0'));
  descendant.delete(PDFName.of('CIDToGIDMap'));
  descriptor.delete(PDFName.of('FontFile2'));
  descriptor.set(PDFName.of('FontFile3'), ref);
  stream.dict.set(PDFName.of('Subtype'), PDFName.of('OpenType'));
}

/**
 * Every code point both faces draw (an answer may be printed in an English, Traditional or Simplified
 * Chinese PDF). The printable set of machines/rules/printable-set.ts is generated from this
 * (`npm run fonts:printable`), and a unit test fails when the two differ.
 */
export function fontCodePoints(): number[] {
  const collection = fontkit.create(readFileSync(cjkFontPath())) as unknown as {
    fonts?: { postscriptName: string; characterSet: number[]; hasGlyphForCodePoint(cp: number): boolean }[];
  };
  const faces = Object.values(FACES).map((name) => collection.fonts?.find((f) => f.postscriptName === name));
  const [first, ...rest] = faces;
  if (!first || rest.some((f) => !f)) throw new FontUnavailableError();
  return [...new Set(first.characterSet)]
    .filter((cp) => first.hasGlyphForCodePoint(cp) && rest.every((f) => f?.hasGlyphForCodePoint(cp)))
    .sort((a, b) => a - b);
}
