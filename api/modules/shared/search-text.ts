import * as OpenCC from 'opencc-js/t2cn';

/**
 * The text the console's search box matches (docs/decisions/034-console-search.md): the case's number,
 * names, school or centre, premises address and BD references, folded so that a query finds it however it
 * was typed. Both the indexed text and the query go through `foldForSearch`:
 * - NFKC (full-width letters, digits and punctuation as their ordinary forms), lower case;
 * - Chinese folded to Simplified by OpenCC's Hong Kong → Mainland dictionaries (opencc-js): Traditional to
 *   Simplified is many to one and almost always character by character, so a part of a name folds as it
 *   does inside the whole name, and a Simplified query finds a Traditional name and the reverse;
 * - runs of white space as one space.
 */

const toSimplified = OpenCC.Converter({ from: 'hk', to: 'cn' });

export function foldForSearch(text: string): string {
  return toSimplified(text.normalize('NFKC').toLowerCase()).replace(/\s+/g, ' ').trim();
}

/** A LIKE pattern that finds `folded` anywhere: `%`, `_` and `\` stand for themselves. */
export function containsPattern(folded: string): string {
  return `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The parts of a case that the search finds it by; each may be missing. */
export interface SearchableCase {
  applicationNo: string;
  /** The case row's names and premises, and the latest answers' (names, organisation, school, centre). */
  texts: readonly unknown[];
  /** BD file references: the Letters of Requirements issued, the one a self-certification quotes. */
  bdReferences: readonly string[];
}

/** The answers' fields the search reads, whatever the form (machines/forms/sections.ts). */
export const SEARCHED_ANSWERS = [
  'applicantNameEn',
  'applicantNameZh',
  'orgNameEn',
  'orgNameZh',
  'schoolNameEn',
  'schoolNameZh',
  'centreNameEn',
  'centreNameZh',
  'premisesAddress',
] as const;

/** The strings of an answer: a text, or an address's parts (English, Chinese, floor, unit ...). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value] : [];
  if (value && typeof value === 'object' && !Array.isArray(value))
    return Object.values(value as Record<string, unknown>).flatMap(stringsOf);
  return [];
}

/**
 * The folded text of a case, one part a line (a query never spans two parts). A BD reference is also
 * kept without its spaces, so "BD2/9041/26" finds "BD 2/9041/26".
 */
export function searchTextOf(c: SearchableCase): string {
  const parts = [
    c.applicationNo,
    ...c.texts.flatMap(stringsOf),
    ...c.bdReferences.flatMap((r) => [r, r.replace(/\s+/g, '')]),
  ].map(foldForSearch);
  return [...new Set(parts.filter(Boolean))].join('\n');
}
