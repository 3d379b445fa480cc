import { PDFDocument, PDFName, PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  PAGE_SIZE_TOLERANCE_MM,
  PAGE_SIZE_TOLERANCE_PT,
  type PdfCheckResult,
  checkPdf,
  classifyPage,
  displayedSize,
  intersectBoxes,
  mmToPt,
  normaliseBox,
} from '../../api/modules/shared/uploads/pdf-check';
import {
  SIZES_PT,
  a5Landscape,
  contentStreamBomb,
  objectStreamBomb,
  bigPdf,
  empty,
  encrypted,
  landscapeA3,
  landscapeA4,
  mixed,
  notPdf,
  pdfWithPages,
  portraitA4,
  rotatedLandscapeA4,
  rotatedPortraitA4,
  truncated,
  truncatedBeforeXref,
} from '../support/pdf-corpus';
import {
  leadingData,
  loopingPageTree,
  manyPages,
  repeatedPageRefs,
  trailingWhitespace,
  trailingZip,
} from '../support/pdf-hostile';

const MIB = 1024 * 1024;
const A4 = { width: mmToPt(297), height: mmToPt(210) };
const A3 = { width: mmToPt(420), height: mmToPt(297) };

describe('checkPdf on the corpus', () => {
  it.each<[string, () => Promise<Uint8Array>, Partial<PdfCheckResult>]>([
    ['landscape A4', landscapeA4, { ok: true, pageCount: 1 }],
    ['landscape A3', landscapeA3, { ok: true, pageCount: 1 }],
    ['portrait A4 turned landscape by /Rotate 90', rotatedPortraitA4, { ok: true, pageCount: 1 }],
    ['portrait A4', portraitA4, { ok: false, reason: 'portrait', page: 1 }],
    [
      'landscape A4 turned portrait by /Rotate 90',
      rotatedLandscapeA4,
      { ok: false, reason: 'portrait', page: 1 },
    ],
    ['two landscape pages then a portrait page 3', mixed, { ok: false, reason: 'portrait', page: 3 }],
    ['an encrypted PDF', encrypted, { ok: false, reason: 'encrypted' }],
    ['a PDF cut in half', truncated, { ok: false, reason: 'corrupt' }],
    ['a PDF cut before its xref table', truncatedBeforeXref, { ok: false, reason: 'corrupt' }],
    ['a PNG', notPdf, { ok: false, reason: 'not-pdf' }],
    ['an empty file', empty, { ok: false, reason: 'empty' }],
  ])('answers %s with %j', async (_name, make, expected) => {
    expect(await checkPdf(await make())).toMatchObject(expected);
  });

  it('gives the paper and the displayed size of each accepted page', async () => {
    expect(await checkPdf(await pdfWithPages([SIZES_PT.A4, SIZES_PT.A3]))).toEqual({
      ok: true,
      pageCount: 2,
      pages: [
        { widthPt: SIZES_PT.A4.width, heightPt: SIZES_PT.A4.height, paper: 'A4' },
        { widthPt: SIZES_PT.A3.width, heightPt: SIZES_PT.A3.height, paper: 'A3' },
      ],
    });
  });

  it('reports the displayed size after /Rotate for a rotated portrait page', async () => {
    const result = await checkPdf(await rotatedPortraitA4());
    expect(result).toEqual({
      ok: true,
      pageCount: 1,
      pages: [{ widthPt: SIZES_PT.A4.width, heightPt: SIZES_PT.A4.height, paper: 'A4' }],
    });
  });

  it('refuses landscape A5 for its size, with page number and size in millimetres', async () => {
    expect(await checkPdf(await a5Landscape())).toEqual({
      ok: false,
      reason: 'size',
      page: 1,
      widthMm: 210,
      heightMm: 148,
    });
  });

  it('reports the first page of the wrong size, not the first page', async () => {
    const bytes = await pdfWithPages([
      SIZES_PT.A4,
      SIZES_PT.A3,
      SIZES_PT.letter,
      { width: 100, height: 100 },
    ]);
    expect(await checkPdf(bytes)).toEqual({
      ok: false,
      reason: 'size',
      page: 3,
      widthMm: 279.4,
      heightMm: 215.9,
    });
  });

  it('accepts a 20-page PDF of just under 10 MiB, quickly', async () => {
    const bytes = await bigPdf({ pages: 20, bytes: 10 * 1024 * 1024 });
    expect(bytes.length).toBeGreaterThan(10 * 1024 * 1024 - 64 * 1024);
    expect(bytes.length).toBeLessThanOrEqual(10 * 1024 * 1024);

    const started = performance.now();
    const result = await checkPdf(bytes);
    const elapsedMs = performance.now() - started;

    console.log(`checkPdf: ${bytes.length} bytes, 20 pages in ${elapsedMs.toFixed(1)} ms`);
    expect(result).toMatchObject({ ok: true, pageCount: 20 });
  });
});

describe('checkPdf on damaged or unusual files', () => {
  it('sees pdf-lib load the file cut before its xref, so only the %%EOF rule catches it', async () => {
    const doc = await PDFDocument.load(await truncatedBeforeXref());
    expect(doc.getPageCount()).toBe(3);
  });

  it('refuses a PDF with no pages as corrupt', async () => {
    const doc = await PDFDocument.create();
    // pdf-lib adds a blank (portrait Letter) page on save unless told not to.
    expect(await checkPdf(await doc.save({ addDefaultPage: false }))).toEqual({
      ok: false,
      reason: 'corrupt',
    });
  });

  it('refuses a page without a MediaBox as corrupt', async () => {
    const doc = await PDFDocument.load(await landscapeA4());
    doc.getPage(0).node.delete(PDFName.MediaBox);
    expect(await checkPdf(await doc.save())).toEqual({ ok: false, reason: 'corrupt' });
  });

  it('refuses a page whose /Rotate is not a multiple of 90 as corrupt', async () => {
    const bytes = await pdfWithPages([{ ...SIZES_PT.A4, rotate: 45 }]);
    expect(await checkPdf(bytes)).toEqual({ ok: false, reason: 'corrupt' });
  });

  it('calls a trailer /Encrypt encrypted even when it points at no object', async () => {
    const doc = await PDFDocument.load(await landscapeA4());
    doc.context.trailerInfo.Encrypt = PDFRef.of(9999);
    expect(await checkPdf(await doc.save())).toEqual({ ok: false, reason: 'encrypted' });
  });

  it("refuses bytes before %PDF- (a polyglot's other self) as extra data", async () => {
    const pdf = await landscapeA4();
    const bytes = new Uint8Array(500 + pdf.length);
    bytes.set(pdf, 500);
    expect(await checkPdf(bytes)).toEqual({ ok: false, reason: 'extra-data' });
  });

  it('refuses an HTML page before %PDF- as extra data', async () => {
    expect(await checkPdf(await leadingData())).toEqual({ ok: false, reason: 'extra-data' });
  });

  it('refuses a ZIP after the last %%EOF as extra data', async () => {
    expect(await checkPdf(await trailingZip())).toEqual({ ok: false, reason: 'extra-data' });
  });

  it('accepts only line ends, spaces and NULs after the last %%EOF', async () => {
    expect(await checkPdf(await trailingWhitespace())).toMatchObject({ ok: true });
  });

  it('refuses a file whose %PDF- comes after the first 1024 bytes as not a PDF', async () => {
    const pdf = await landscapeA4();
    const bytes = new Uint8Array(1100 + pdf.length);
    bytes.set(pdf, 1100);
    expect(await checkPdf(bytes)).toEqual({ ok: false, reason: 'not-pdf' });
  });

  it('refuses text that mentions %PDF- and %%EOF for what comes before the header', async () => {
    const bytes = new TextEncoder().encode('Hello, this is not a %PDF-1.7 file\n%%EOF\n');
    expect(await checkPdf(bytes)).toEqual({ ok: false, reason: 'extra-data' });
  });

  it('calls a header and an end with nothing between them corrupt', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');
    expect(await checkPdf(bytes)).toEqual({ ok: false, reason: 'corrupt' });
  });
});

describe('page size tolerance', () => {
  it('is 3 mm, about 8.5 pt', () => {
    expect(PAGE_SIZE_TOLERANCE_MM).toBe(3);
    expect(PAGE_SIZE_TOLERANCE_PT).toBeCloseTo(8.5, 1);
  });

  it.each([
    ['2 mm wider', A4.width + mmToPt(2), A4.height],
    ['2 mm narrower', A4.width - mmToPt(2), A4.height],
    ['2 mm taller', A4.width, A4.height + mmToPt(2)],
    ['2 mm shorter on both sides', A4.width - mmToPt(2), A4.height - mmToPt(2)],
    ['whole points 842 × 595', 842, 595],
  ])('accepts an A4 page %s', async (_name, width, height) => {
    expect(await checkPdf(await pdfWithPages([{ width, height }]))).toMatchObject({
      ok: true,
      pages: [{ paper: 'A4' }],
    });
  });

  it.each([
    ['5 mm wider', A4.width + mmToPt(5), A4.height, 302, 210],
    ['5 mm narrower', A4.width - mmToPt(5), A4.height, 292, 210],
    ['5 mm taller', A4.width, A4.height + mmToPt(5), 297, 215],
    ['5 mm shorter', A4.width, A4.height - mmToPt(5), 297, 205],
  ])('refuses an A4 page %s for its size', async (_name, width, height, widthMm, heightMm) => {
    expect(await checkPdf(await pdfWithPages([{ width, height }]))).toEqual({
      ok: false,
      reason: 'size',
      page: 1,
      widthMm,
      heightMm,
    });
  });

  it('accepts an A3 page 2 mm off and refuses one 5 mm off', async () => {
    const near = await pdfWithPages([{ width: A3.width + mmToPt(2), height: A3.height - mmToPt(2) }]);
    const far = await pdfWithPages([{ width: A3.width + mmToPt(5), height: A3.height }]);
    expect(await checkPdf(near)).toMatchObject({ ok: true, pages: [{ paper: 'A3' }] });
    expect(await checkPdf(far)).toMatchObject({ ok: false, reason: 'size', page: 1 });
  });

  it('treats a portrait page 2 mm off as portrait, not as a wrong size', async () => {
    const bytes = await pdfWithPages([{ width: A4.height + mmToPt(2), height: A4.width - mmToPt(2) }]);
    expect(await checkPdf(bytes)).toEqual({ ok: false, reason: 'portrait', page: 1 });
  });

  it('takes the edges from the exported constant (2.9 mm in, 3.1 mm out)', () => {
    expect(classifyPage(A4.width + mmToPt(2.9), A4.height)).toEqual({ ok: true, paper: 'A4' });
    expect(classifyPage(A4.width + mmToPt(3.1), A4.height)).toEqual({ ok: false, reason: 'size' });
  });
});

describe('CropBox', () => {
  it('counts instead of the MediaBox: an A3 MediaBox cropped to A4 is A4', async () => {
    const bytes = await pdfWithPages([
      { ...SIZES_PT.A3, cropBox: [100, 100, SIZES_PT.A4.width, SIZES_PT.A4.height] },
    ]);
    expect(await checkPdf(bytes)).toEqual({
      ok: true,
      pageCount: 1,
      pages: [{ widthPt: SIZES_PT.A4.width, heightPt: SIZES_PT.A4.height, paper: 'A4' }],
    });
  });

  it('counts instead of the MediaBox: an A4 MediaBox cropped to A5 is refused for its size', async () => {
    const bytes = await pdfWithPages([
      { ...SIZES_PT.A4, cropBox: [0, 0, SIZES_PT.A5.width, SIZES_PT.A5.height] },
    ]);
    expect(await checkPdf(bytes)).toEqual({
      ok: false,
      reason: 'size',
      page: 1,
      widthMm: 210,
      heightMm: 148,
    });
  });

  it('is rotated with the page', async () => {
    const bytes = await pdfWithPages([
      { ...SIZES_PT.A3, rotate: 270, cropBox: [0, 0, SIZES_PT.A4.height, SIZES_PT.A4.width] },
    ]);
    expect(await checkPdf(bytes)).toMatchObject({ ok: true, pages: [{ paper: 'A4' }] });
  });

  it('is clipped to the MediaBox when it reaches outside it', () => {
    const media = normaliseBox(0, 0, 842, 595);
    expect(intersectBoxes(normaliseBox(-50, -50, 2000, 2000), media)).toEqual(media);
  });
});

describe('displayedSize', () => {
  const box = normaliseBox(0, 0, 595, 842);

  it.each([0, 180, 360, -180])('keeps width and height for /Rotate %i', (rotate) => {
    expect(displayedSize(box, rotate)).toEqual({ widthPt: 595, heightPt: 842 });
  });

  it.each([90, 270, -90, 450])('swaps width and height for /Rotate %i', (rotate) => {
    expect(displayedSize(box, rotate)).toEqual({ widthPt: 842, heightPt: 595 });
  });

  it('reads a box written from its upper right corner', () => {
    expect(displayedSize(normaliseBox(842, 595, 0, 0), 0)).toEqual({ widthPt: 842, heightPt: 595 });
  });

  it('scales by /UserUnit', () => {
    expect(displayedSize(normaliseBox(0, 0, 421, 297.5), 0, 2)).toEqual({ widthPt: 842, heightPt: 595 });
  });

  it('has no answer for a /Rotate that is not a multiple of 90', () => {
    expect(displayedSize(box, 45)).toBeUndefined();
  });
});

describe('the page cap', () => {
  it('accepts 500 pages, the default cap', async () => {
    expect(await checkPdf(await manyPages(500))).toMatchObject({ ok: true, pageCount: 500 });
  });

  it('refuses 501 pages as too many', async () => {
    expect(await checkPdf(await manyPages(501))).toEqual({ ok: false, reason: 'too-many-pages' });
  });

  it('refuses 30,000 pages made of one page listed 30,000 times, without reading them all', async () => {
    const bytes = await repeatedPageRefs(30_000);

    const started = performance.now();
    const result = await checkPdf(bytes);

    console.info(
      `30,000 pages (${bytes.length} bytes): ${JSON.stringify(result)} in ${(performance.now() - started).toFixed(0)} ms`,
    );
    expect(result).toEqual({ ok: false, reason: 'too-many-pages' });
  });

  it('counts a page listed twice as two pages (a reader prints it twice)', async () => {
    expect(await checkPdf(await repeatedPageRefs(3), { maxPages: 2 })).toEqual({
      ok: false,
      reason: 'too-many-pages',
    });
    expect(await checkPdf(await repeatedPageRefs(2), { maxPages: 2 })).toMatchObject({
      ok: true,
      pageCount: 2,
    });
  });

  it('calls a page tree that contains itself corrupt', async () => {
    expect(await checkPdf(await loopingPageTree())).toEqual({ ok: false, reason: 'corrupt' });
  });
});

describe('the inflate limit on page contents', () => {
  it('refuses a page whose content stream inflates to 1 GiB as too complex, stopping early', async () => {
    const bytes = await contentStreamBomb(1024);

    const started = performance.now();
    const result = await checkPdf(bytes);
    const ms = performance.now() - started;

    console.info(
      `1 GiB content stream (${bytes.length} bytes): ${JSON.stringify(result)} in ${ms.toFixed(0)} ms`,
    );
    expect(result).toEqual({ ok: false, reason: 'too-complex' });
  }, 60_000); // making the GiB bomb takes seconds; its check, well under one

  it('counts each stream against its own limit and all of them against the total', async () => {
    const bytes = await contentStreamBomb(3);

    expect(await checkPdf(bytes, { maxStreamBytes: 2 * MIB })).toEqual({ ok: false, reason: 'too-complex' });
    expect(await checkPdf(bytes, { maxTotalBytes: 2 * MIB })).toEqual({ ok: false, reason: 'too-complex' });
    expect(await checkPdf(bytes, { maxStreamBytes: 4 * MIB })).toMatchObject({ ok: true });
  });

  it('refuses an object-stream bomb before pdf-lib inflates it', async () => {
    expect(await checkPdf(objectStreamBomb(100))).toEqual({ ok: false, reason: 'too-complex' });
  });
});
