import { describe, expect, it } from 'vitest';
import { renderApplicationPdf } from '../../api/modules/shared/pdf/application-pdf';
import { formByKey } from '../../machines/forms';
import { draftSchemaFor, schemaFor } from '../../machines/forms/schema';
import { decodeRanges, printableSetSource } from '../../machines/rules/printable-encode';
import { charLabel, firstUnprintable, isPrintableChar } from '../../machines/rules/printable';
import { PRINTABLE_RANGES } from '../../machines/rules/printable-set';
import { readFileSync } from 'node:fs';
import { fontCodePoints } from '../../api/modules/shared/pdf/pdf-fonts';

/**
 * The printable set (machines/rules/printable.ts): what the application PDF's fonts can draw, one rule
 * for the browser and the API.
 */

const a2 = formByKey('a2');
if (!a2) throw new Error('form a2 missing');

describe('the printable set', () => {
  it('is the set of the fonts the PDF embeds (else run `npm run fonts:printable`)', () => {
    const committed = readFileSync(new URL('../../machines/rules/printable-set.ts', import.meta.url), 'utf8');

    expect(committed).toBe(printableSetSource(fontCodePoints()));
  });

  it.each([
    ['an emoji', '😀'],
    ['Thai', 'ก'],
    ['a zero-width space', '\u200B'],
    ['a right-to-left override', '\u202E'],
    ['a private use character', '\uE000'],
    ['a lone surrogate', '\uD83D'],
  ])('leaves out %s', (_name, char) => {
    expect(isPrintableChar(char)).toBe(false);
  });

  it.each([
    ['English', 'CHAN Tai Man, Flat 3A, 11/F'],
    ['Traditional Chinese', '陳大文 香港九龍油麻地海庭道11號'],
    ['Simplified Chinese', '陈大文 广东道 楼'],
    // Noto Sans CJK, the PDFs' font, draws Hangul too: printed, so not refused.
    ['Hangul', '한국'],
    ['punctuation and accents', '「」、。— café № ±'],
    ['whitespace', 'a\tb\nc\u3000d'],
  ])('holds %s', (_name, text) => {
    expect(firstUnprintable(text)).toBeUndefined();
  });

  it('names a character by itself and its code, or by its code alone when it shows nothing', () => {
    expect(charLabel('😀')).toBe('"😀" (U+1F600)');
    expect(charLabel('\u200B')).toBe('U+200B');
  });

  it('is printed: the first and last character of every range render in the application PDF', async () => {
    const { starts, ends } = decodeRanges(PRINTABLE_RANGES);
    const sample = [...starts, ...ends].map((cp) => String.fromCodePoint(cp)).join(' ');

    const pdf = await renderApplicationPdf({
      definition: a2,
      answers: { ...a2.example, schoolNameEn: sample },
      applicationNo: 'A2-2026-000001',
      language: 'en',
      generatedAt: new Date('2026-11-01T00:00:00Z'),
    });

    expect(pdf.length).toBeGreaterThan(1000);
  }, 120_000);
});

describe('the forms’ schemas', () => {
  it('refuse an unprintable character in a draft as a field error naming it', () => {
    const result = draftSchemaFor(a2).safeParse({ applicantNameEn: 'CHAN 😀 Tai Man' });

    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['applicantNameEn'],
      message: 'forms:errors.unprintable',
      params: { char: '"😀" (U+1F600)' },
    });
  });

  it('refuse one in a part of an address, with the part’s path', () => {
    const result = schemaFor(a2).safeParse({
      ...a2.example,
      premisesAddress: { en: 'Flat\u200BA', zh: '海庭道' },
    });

    expect(result.success).toBe(false);
    expect(result.error?.issues.find((i) => i.path[0] === 'premisesAddress')?.path).toEqual([
      'premisesAddress',
      'en',
    ]);
  });
});
