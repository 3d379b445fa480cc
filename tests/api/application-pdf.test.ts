import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { CATALOGUE_KEYS, FORM_CATALOGUE } from '../../machines/forms';
import { LANGUAGES } from '../../machines/rules/language';
import { renderApplicationPdf } from '../../api/modules/shared/pdf/application-pdf';
import { type DraftHarness, startDraftHarness } from './drafts-harness';
import { MissingGlyphError } from '../../api/modules/shared/pdf/pdf-fonts';

const A2 = FORM_CATALOGUE.a2;
const GENERATED_AT = new Date('2026-03-02T02:15:00Z');

interface ParsedPdf {
  header: string;
  pages: { width: number; height: number; text: string; lines: number }[];
  text: string;
}

/** The PDF parsed for real (pdf.js): its header, each page's size, text and number of text lines. */
async function parse(bytes: Uint8Array): Promise<ParsedPdf> {
  const header = new TextDecoder().decode(bytes.slice(0, 8));
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: ParsedPdf['pages'] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
    const content = await page.getTextContent();
    const items = content.items.filter((i) => 'str' in i);
    const ys = new Set(items.map((i) => Math.round(i.transform[5] as number)));
    pages.push({ width: x1 - x0, height: y1 - y0, text: items.map((i) => i.str).join(''), lines: ys.size });
  }
  await doc.destroy();
  return { header, pages, text: pages.map((p) => p.text).join('\n') };
}

const render = (answers: Record<string, unknown> = A2.example, language: 'en' | 'sc' | 'tc' = 'en') =>
  renderApplicationPdf({
    definition: A2,
    answers,
    applicationNo: 'A2-2026-000123',
    language,
    generatedAt: GENERATED_AT,
  });

describe('renderApplicationPdf', () => {
  it('makes a valid PDF of A4 portrait pages', async () => {
    const pdf = await parse(await render());

    expect(pdf.header).toMatch(/^%PDF-1\.\d/);
    expect(pdf.pages.length).toBeGreaterThan(0);
    for (const page of pdf.pages) {
      expect(page.width).toBeCloseTo(595.28, 1);
      expect(page.height).toBeCloseTo(841.89, 1);
    }
  });

  it('prints the form code, both titles, the application number, the date and page numbers', async () => {
    const pdf = await parse(await render());

    expect(pdf.text).toContain('Form A2');
    expect(pdf.text).toContain('Application for Building Safety Certificate for a New School (Form A2)');
    expect(pdf.text).toContain('A2-2026-000123');
    // The date it was made, Hong Kong time, in English and Chinese (machines/rules/dates.ts).
    expect(pdf.text).toContain('2 Mar 2026, 10:15');
    expect(pdf.text).toContain('2026年3月2日');
    expect(pdf.text).toContain(`Page 1 of ${pdf.pages.length}`);
  });

  it('prints the labels in English and Chinese and the example’s English and Chinese answers', async () => {
    const pdf = await parse(await render());

    expect(pdf.text).toContain('Email Address');
    expect(pdf.text).toContain('電郵地址');
    expect(pdf.text).toContain('Particulars of Applicant');
    expect(pdf.text).toContain('CHAN Tai Man');
    expect(pdf.text).toContain('陳大文');
    expect(pdf.text).toContain('海港教育基金有限公司');
    expect(pdf.text).toContain('九龍紅磡民樂街21號富高工業中心');
    expect(pdf.text).toContain('chan.taiman@example.org.hk');
  });

  it('prints options in the chosen language, Yes for a ticked box, and the address with floor and unit', async () => {
    const en = await parse(await render(A2.example, 'en'));
    const tc = await parse(await render(A2.example, 'tc'));

    expect(en.text).toContain('Tutorial School');
    expect(en.text).toContain('Yes');
    expect(en.text).toContain('Floor(s): 5/F; Unit / Room / Shop: Unit 501');
    expect(tc.text).toContain('補習學校');
    expect(tc.text).toContain('是');
  });

  it('wraps a long answer onto more lines and more pages, within the page', async () => {
    const short = await parse(await render());
    const long = 'Room 1201, 12/F, Central Plaza, 18 Harbour Road, Wan Chai, Hong Kong. '.repeat(80);
    const longZh = '香港灣仔港灣道十八號中環廣場十二樓一二零一室。'.repeat(80);
    const pdf = await parse(await render({ ...A2.example, orgAddress: long, correspondenceAddress: longZh }));

    expect(pdf.pages.length).toBeGreaterThan(short.pages.length);
    const lines = pdf.pages.reduce((n, p) => n + p.lines, 0);
    const shortLines = short.pages.reduce((n, p) => n + p.lines, 0);
    expect(lines).toBeGreaterThan(shortLines + 40);
    // Every repetition is printed (one may be cut by a page break, where the page number sits between).
    expect(pdf.text.split('中環廣場十二樓').length - 1).toBeGreaterThanOrEqual(78);
    expect(pdf.text).toContain(`Page ${pdf.pages.length} of ${pdf.pages.length}`);
  });

  it('renders every form’s example in every language without a missing glyph', async () => {
    for (const key of CATALOGUE_KEYS) {
      for (const language of LANGUAGES) {
        const definition = FORM_CATALOGUE[key];
        const bytes = await renderApplicationPdf({
          definition,
          answers: definition.example,
          applicationNo: `${definition.code}-2026-000001`,
          language,
          generatedAt: GENERATED_AT,
        });
        expect(bytes.length).toBeGreaterThan(1000);
      }
    }
  });

  it('fails loudly on a character the font has no glyph for', async () => {
    await expect(render({ ...A2.example, applicantNameEn: 'CHAN \u{E000}' })).rejects.toThrow(
      MissingGlyphError,
    );
  });

  it('stays small: only the glyphs used are embedded', async () => {
    const bytes = await render();

    expect(bytes.length).toBeLessThan(400_000);
  });
});

describe('GET /api/drafts/:applicationNo/pdf', () => {
  let h: DraftHarness;

  beforeAll(async () => {
    h = await startDraftHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  const getPdf = (applicationNo: string, token?: string, query = '') =>
    fetch(`${h.baseUrl}/api/drafts/${encodeURIComponent(applicationNo)}/pdf${query}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it('answers the application form as an inline PDF with the right token', async () => {
    const draft = await h.createDraft({ formKey: 'a2', answers: A2.example });

    const res = await getPdf(draft.applicationNo, draft.token, '?lang=tc');

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${draft.applicationNo}.pdf"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const pdf = await parse(new Uint8Array(await res.arrayBuffer()));
    expect(pdf.text).toContain(draft.applicationNo);
    expect(pdf.text).toContain('陳大文');
    expect(pdf.text).toContain('補習學校');
  });

  it('answers 401 without a token', async () => {
    const draft = await h.createDraft();

    const res = await getPdf(draft.applicationNo);

    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers 403 with another draft’s token', async () => {
    const mine = await h.createDraft();
    const theirs = await h.createDraft({ formKey: 'a2', answers: A2.example });

    const res = await getPdf(theirs.applicationNo, mine.token);

    expect(res.status).toBe(403);
  });

  it('answers 410 for an expired draft', async () => {
    const draft = await h.createDraft();
    h.clock.advance({ hours: 15 * 24 });

    const res = await getPdf(draft.applicationNo, draft.token);

    expect(res.status).toBe(410);
  });
});
