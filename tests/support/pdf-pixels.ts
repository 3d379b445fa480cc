import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * A PDF as a person sees it: its pages rendered to pixels by two real renderers, pdf.js (the engine of
 * Firefox's viewer and of the portal's in-page viewer, drawing through @napi-rs/canvas here) and poppler
 * (`pdftoppm`, the engine of most Linux viewers), with the warnings each printed, and the ink found where
 * each run of text should be. Text that a viewer cannot draw (a corrupt embedded font) leaves its place
 * blank or marked with slivers, which is what {@link inkReport} measures; extracting the text proves
 * nothing, since the ToUnicode map survives a broken font program.
 */

const run = promisify(execFile);

/** A page in grey levels, 0 black to 255 white, one byte a pixel, row by row. */
export interface GreyPage {
  width: number;
  height: number;
  grey: Uint8Array;
}

/** A run of text where pdf.js's text layer puts it, in pixels of a page rendered at `dpi`. */
export interface TextBox {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RenderedPdf {
  pdfjs: GreyPage[];
  poppler: GreyPage[];
  /** Per page, the text runs (from pdf.js's text content, which comes from ToUnicode, not glyphs). */
  boxes: TextBox[][];
  /** What pdf.js warned about (console.warn, "Warning: ...") while parsing fonts and drawing. */
  pdfjsWarnings: string[];
  /** What pdftoppm printed on stderr ("Syntax Error: ...", "Syntax Warning: ..."). */
  popplerMessages: string[];
}

const DARK = 150;

/** Renders every page with pdf.js and with pdftoppm at `dpi`. */
export async function renderPdf(bytes: Uint8Array, dpi = 100): Promise<RenderedPdf> {
  const scale = dpi / 72;
  const pdfjsWarnings: string[] = [];
  const { log, warn } = console;
  console.log = console.warn = (...args: unknown[]) => {
    pdfjsWarnings.push(args.map(String).join(' '));
  };
  const pdfjs: GreyPage[] = [];
  const boxes: TextBox[][] = [];
  try {
    const doc = await getDocument({ data: new Uint8Array(bytes), verbosity: VerbosityLevel.WARNINGS })
      .promise;
    const factory = doc.canvasFactory as {
      create(w: number, h: number): { canvas: unknown; context: CanvasRenderingContext2D };
    };
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale });
      const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
      await page.render({ canvas: canvas as HTMLCanvasElement, canvasContext: context, viewport }).promise;
      const rgba = context.getImageData(0, 0, Math.ceil(viewport.width), Math.ceil(viewport.height));
      const grey = new Uint8Array(rgba.width * rgba.height);
      for (let i = 0; i < grey.length; i++) {
        const a = (rgba.data[i * 4 + 3] ?? 0) / 255;
        const lum =
          0.299 * (rgba.data[i * 4] ?? 0) +
          0.587 * (rgba.data[i * 4 + 1] ?? 0) +
          0.114 * (rgba.data[i * 4 + 2] ?? 0);
        grey[i] = Math.round(lum * a + 255 * (1 - a));
      }
      pdfjs.push({ width: rgba.width, height: rgba.height, grey });
      const content = await page.getTextContent();
      boxes.push(
        content.items.flatMap((item) => {
          if (!('str' in item) || !item.str.trim()) return [];
          const [, , , , e = 0, f = 0] = item.transform as number[];
          const [x0, y0] = viewport.convertToViewportPoint(e, f + item.height * 0.85) as [number, number];
          const [x1, y1] = viewport.convertToViewportPoint(e + item.width, f - item.height * 0.1) as [
            number,
            number,
          ];
          return [{ text: item.str, x: x0, y: y0, width: x1 - x0, height: y1 - y0 }];
        }),
      );
    }
    await doc.destroy();
  } finally {
    console.log = log;
    console.warn = warn;
  }
  const { pages: poppler, messages: popplerMessages } = await renderWithPoppler(bytes, dpi);
  return { pdfjs, poppler, boxes, pdfjsWarnings, popplerMessages };
}

/** `pdftoppm -gray` at `dpi`: one PGM per page, read back as grey pixels. */
async function renderWithPoppler(
  bytes: Uint8Array,
  dpi: number,
): Promise<{ pages: GreyPage[]; messages: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-pixels-'));
  try {
    await writeFile(join(dir, 'in.pdf'), bytes);
    const { stderr } = await run('pdftoppm', [
      '-gray',
      '-r',
      String(dpi),
      join(dir, 'in.pdf'),
      join(dir, 'page'),
    ]);
    const files = (await readdir(dir)).filter((f) => f.endsWith('.pgm')).sort();
    const pages = await Promise.all(files.map(async (f) => parsePgm(await readFile(join(dir, f)))));
    return { pages, messages: stderr.split('\n').filter(Boolean) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A binary PGM (P5, maxval 255). */
function parsePgm(file: Buffer): GreyPage {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(file.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('not a binary PGM');
  const [all, w = '0', h = '0'] = header;
  return { width: Number(w), height: Number(h), grey: new Uint8Array(file.subarray(all.length)) };
}

/** The share of dark pixels in a box of a page. */
export function inkIn(page: GreyPage, box: Pick<TextBox, 'x' | 'y' | 'width' | 'height'>): number {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(page.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(page.height, Math.ceil(box.y + box.height));
  let dark = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) if ((page.grey[y * page.width + x] ?? 255) < DARK) dark++;
  const area = Math.max(1, (x1 - x0) * (y1 - y0));
  return dark / area;
}

export interface InkProblem {
  renderer: 'pdf.js' | 'poppler';
  page: number;
  text: string;
  /** Share of the run's characters whose cell holds no ink. */
  blankCells: number;
  ink: number;
}

/**
 * Every run of text checked on both renderings: the run as a whole must carry ink like printed text
 * (at least `minInk` of its box dark), and its box cut into one cell per character must show ink in
 * the cells of at least `minCells` of its visible characters. A run drawn as slivers or not at all fails
 * both; a run drawn with the wrong glyphs of the right width passes, so shapes are checked elsewhere.
 */
export function inkReport(pdf: RenderedPdf, minInk = 0.06, minCells = 0.8): InkProblem[] {
  const problems: InkProblem[] = [];
  for (const [renderer, pages] of [
    ['pdf.js', pdf.pdfjs],
    ['poppler', pdf.poppler],
  ] as const) {
    pages.forEach((page, i) => {
      for (const box of pdf.boxes[i] ?? []) {
        const chars = [...box.text];
        const cell = box.width / chars.length;
        let visible = 0;
        let blank = 0;
        chars.forEach((ch, k) => {
          if (!ch.trim()) return;
          visible++;
          if (inkIn(page, { x: box.x + k * cell, y: box.y, width: cell, height: box.height }) < 0.01) blank++;
        });
        const ink = inkIn(page, box);
        const blankCells = visible ? blank / visible : 0;
        if (ink < minInk || blankCells > 1 - minCells)
          problems.push({ renderer, page: i + 1, text: box.text, blankCells, ink });
      }
    });
  }
  return problems;
}

/** The bounding box of the ink in a region, or undefined when the region is blank. */
export function inkBounds(
  page: GreyPage,
  region: Pick<TextBox, 'x' | 'y' | 'width' | 'height'>,
): { width: number; height: number } | undefined {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let y = Math.max(0, Math.floor(region.y)); y < Math.min(page.height, region.y + region.height); y++)
    for (let x = Math.max(0, Math.floor(region.x)); x < Math.min(page.width, region.x + region.width); x++)
      if ((page.grey[y * page.width + x] ?? 255) < DARK) {
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
  return minX === Infinity ? undefined : { width: maxX - minX + 1, height: maxY - minY + 1 };
}
