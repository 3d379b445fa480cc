import { decodeRanges } from './printable-encode';
import { PRINTABLE_RANGES } from './printable-set';

/**
 * What the application PDF can print: a character is printable when it is whitespace (printed as a
 * space) or in the set of the fonts the PDF embeds (machines/rules/printable-set.ts, generated from their
 * cmaps by `npm run fonts:printable`), less controls, format characters (U+200B, bidi controls), private
 * use and unassigned code points. Emoji, Hangul, Thai ... are not: an answer holding one is a field
 * error naming it, in the browser and in the API alike (machines/forms/values.ts), so that an answer
 * saved is always an answer that can be printed and signed.
 */

const { starts, ends } = decodeRanges(PRINTABLE_RANGES);
const WHITESPACE = /^\s$/u;

export function isPrintableCodePoint(codePoint: number): boolean {
  let low = 0;
  let high = starts.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (codePoint < (starts[mid] ?? 0)) high = mid - 1;
    else if (codePoint > (ends[mid] ?? 0)) low = mid + 1;
    else return true;
  }
  return false;
}

export function isPrintableChar(char: string): boolean {
  return WHITESPACE.test(char) || isPrintableCodePoint(char.codePointAt(0) ?? 0);
}

/** The first character of `text` the PDF cannot print (a whole surrogate pair, or a lone half), if any. */
export function firstUnprintable(text: string): string | undefined {
  for (const char of text) if (!isPrintableChar(char)) return char;
  return undefined;
}

/**
 * A character as a message names it: `"😀" (U+1F600)`, or only `U+200B` for one that shows nothing
 * (a space, a control, a format character, a lone surrogate).
 */
export function charLabel(char: string): string {
  const codePoint = char.codePointAt(0) ?? 0;
  const hex = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  return /[\p{L}\p{N}\p{P}\p{S}]/u.test(char) ? `"${char}" (${hex})` : hex;
}
