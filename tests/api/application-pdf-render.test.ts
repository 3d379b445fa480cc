import { describe, expect, it } from 'vitest';
import { CATALOGUE_KEYS, FORM_CATALOGUE } from '../../machines/forms';
import { LANGUAGES } from '../../machines/rules/language';
import { renderApplicationPdf } from '../../api/modules/shared/pdf/application-pdf';
import { inkBounds, inkReport, renderPdf } from '../support/pdf-pixels';

/**
 * The application form PDF as a person sees it: every page of every form in every language, drawn by
 * pdf.js and by poppler. Each run of text must carry ink where the text layer says it is, and neither
 * renderer may complain about the embedded font. (The PDF of issue 14 passed every extraction test while
 * both viewers drew slivers: "glyf: Failed to parse table".)
 */

const GENERATED_AT = new Date('2026-03-02T02:15:00Z');
const DPI = 80;

describe('the application form PDF, rendered', () => {
  for (const key of CATALOGUE_KEYS) {
    it(`draws every text of form ${FORM_CATALOGUE[key].code} in en, sc and tc on every page`, async () => {
      const definition = FORM_CATALOGUE[key];
      for (const language of LANGUAGES) {
        const bytes = await renderApplicationPdf({
          definition,
          answers: definition.example,
          applicationNo: `${definition.code}-2026-000001`,
          language,
          generatedAt: GENERATED_AT,
        });
        const pdf = await renderPdf(bytes, DPI);

        expect(pdf.pdfjs.length, language).toBeGreaterThan(0);
        expect(pdf.poppler.length, language).toBe(pdf.pdfjs.length);
        expect(pdf.pdfjsWarnings, language).toEqual([]);
        expect(pdf.popplerMessages, language).toEqual([]);
        pdf.boxes.forEach((boxes, page) =>
          expect(boxes.length, `${language} page ${page + 1}`).toBeGreaterThan(2),
        );
        expect(inkReport(pdf), language).toEqual([]);
      }
    });
  }

  it('draws the right glyph for a character: 一 is wide and flat, 丨 tall and narrow, in both viewers', async () => {
    const a2 = FORM_CATALOGUE.a2;
    for (const [name, wide] of [
      ['一一一', true],
      ['丨丨丨', false],
    ] as const) {
      const bytes = await renderApplicationPdf({
        definition: a2,
        answers: { ...a2.example, applicantNameZh: name },
        applicationNo: 'A2-2026-000001',
        language: 'tc',
        generatedAt: GENERATED_AT,
      });
      const pdf = await renderPdf(bytes, 150);
      const box = pdf.boxes[0]?.find((b) => b.text === name);
      expect(box, name).toBeDefined();
      if (!box) continue;
      const cell = { ...box, width: box.width / 3 };
      for (const page of [pdf.pdfjs[0], pdf.poppler[0]]) {
        const ink = page && inkBounds(page, cell);
        expect(ink, name).toBeDefined();
        if (!ink) continue;
        if (wide) expect(ink.width, name).toBeGreaterThan(ink.height * 4);
        else expect(ink.height, name).toBeGreaterThan(ink.width * 4);
      }
    }
  });
});
