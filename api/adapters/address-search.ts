/**
 * The matching of the seeded address table (api/adapters/address.ts): a query becomes weighted tokens,
 * and an address scores the share of the query's weight it matches, 0 to 100. Simple and predictable:
 *
 * - English words match a word of the address that starts with them (`govern` matches GOVERNMENT;
 *   words of one or two letters must be whole). Common words (road, street, building, hong, kong ...)
 *   weigh a quarter of a word, so `Java Road 333` is decided by JAVA and 333.
 * - Numbers match a building number (11, 18-20 holds 18 and 20), a lot number or a demarcation district.
 *   After `lot` / `地段` a number must be the lot number, after `D.D.` / `DD` / `丈量約份` the district:
 *   `Lot No. 1234 in D.D. 112`, `lot 1234 dd112`, `DD 112 lot 1234` and `丈量約份第112約地段第1234號` all mean
 *   the same.
 * - Chinese text is matched by pairs of characters (bigrams) against the address's Chinese text, so
 *   `海庭道11號`, `政府總部` and `西九龍 政府合署` work without word breaks. Traditional characters, as
 *   the Address Lookup Service uses.
 */

export type QueryToken =
  | { kind: 'word'; value: string; weight: number }
  | { kind: 'number'; value: string; weight: number }
  | { kind: 'lot'; value: string; weight: number }
  | { kind: 'dd'; value: string; weight: number }
  | { kind: 'chinese'; value: string; weight: number };

/** What an address offers to the matching. */
export interface SearchableAddress {
  words: ReadonlySet<string>;
  numbers: ReadonlySet<string>;
  lotNo: string | null;
  ddNo: string | null;
  chinese: string;
}

/** Minimum score (0 to 100) an address needs to be suggested. */
export const MIN_SCORE = 50;

// prettier-ignore
const COMMON_WORDS = new Set([
  'road', 'rd', 'street', 'st', 'avenue', 'ave', 'lane', 'path', 'square', 'sq', 'place', 'terrace',
  'building', 'bldg', 'block', 'blk', 'tower', 'house', 'centre', 'center', 'hong', 'kong', 'hk',
  'kowloon', 'kln', 'new', 'territories', 'nt', 'district',
]);
/** Words that only connect (`Lot No. 1234 in D.D. 112`): `lot` and `dd` say what the next number is. */
const SKIPPED_WORDS = new Set(['no', 'in', 'of', 'the', 'and', 'at', 'lot', 'dd']);
const COMMON_WEIGHT = 0.25;
/** Characters that carry no meaning alone in a Chinese address query. */
const CHINESE_FILLER = /[號号第約约座樓楼層层室之,，、。()（）\s]/g;
const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;

/** Full-width folded, lower case, Chinese lot wording and D.D. spellings made plain. */
function normalise(query: string): string {
  return query
    .normalize('NFKC')
    .toLowerCase()
    .replace(/丈量約份\s*第?\s*(\d+)\s*約?/g, ' dd $1 ')
    .replace(/丈量约份\s*第?\s*(\d+)\s*约?/g, ' dd $1 ')
    .replace(/地段\s*第?\s*(\d+)\s*[號号]?/g, ' lot $1 ')
    .replace(/\bd\s*\.\s*d\s*\.?|\bdd(?=\d)/g, ' dd ')
    .replace(/\blot(?=\d)/g, 'lot ')
    .replace(/\bno\s*\.\s*/g, ' ')
    .replace(/['’]/g, '');
}

function bigrams(run: string): string[] {
  if (run.length < 2) return run ? [run] : [];
  const pairs: string[] = [];
  for (let i = 0; i < run.length - 1; i++) pairs.push(run.slice(i, i + 2));
  return pairs;
}

/** The weighted tokens of a query. */
export function tokenize(query: string): QueryToken[] {
  const text = normalise(query);
  const tokens: QueryToken[] = [];

  for (const run of text.match(CJK) ?? []) {
    const meaningful = run.replace(CHINESE_FILLER, '');
    const pairs = bigrams(meaningful);
    // A run weighs as much as two words, shared among its pairs.
    for (const pair of pairs) tokens.push({ kind: 'chinese', value: pair, weight: 2 / pairs.length });
  }

  const latin = text.replace(CJK, ' ').match(/[a-z]+|[0-9]+[a-z]?/g) ?? [];
  let previous: string | undefined;
  for (const part of latin) {
    if (/^[0-9]/.test(part)) {
      const value = part.replace(/^0+(?=\d)/, '');
      const kind = previous === 'lot' ? 'lot' : previous === 'dd' ? 'dd' : 'number';
      tokens.push({ kind, value, weight: 1 });
    } else if (!SKIPPED_WORDS.has(part)) {
      tokens.push({ kind: 'word', value: part, weight: COMMON_WORDS.has(part) ? COMMON_WEIGHT : 1 });
    }
    if (part !== 'no') previous = part;
  }
  return tokens;
}

function matches(token: QueryToken, address: SearchableAddress): boolean {
  switch (token.kind) {
    case 'word':
      if (token.value.length < 3) return address.words.has(token.value);
      for (const word of address.words) if (word.startsWith(token.value)) return true;
      return false;
    case 'number':
      return (
        address.numbers.has(token.value) || address.lotNo === token.value || address.ddNo === token.value
      );
    case 'lot':
      return address.lotNo === token.value;
    case 'dd':
      return address.ddNo === token.value;
    case 'chinese':
      return address.chinese.includes(token.value);
  }
}

/** 0 to 100, one decimal: the share of the query's weight the address matches. */
export function score(tokens: readonly QueryToken[], address: SearchableAddress): number {
  let total = 0;
  let matched = 0;
  for (const token of tokens) {
    total += token.weight;
    if (matches(token, address)) matched += token.weight;
  }
  return total === 0 ? 0 : Math.round((matched / total) * 1000) / 10;
}

/** The words and numbers of English address text (`QUEEN'S ROAD CENTRAL 345` -> queens, road, central, 345). */
export function wordsOf(text: string): { words: Set<string>; numbers: Set<string> } {
  const words = new Set<string>();
  const numbers = new Set<string>();
  for (const part of normalise(text).match(/[a-z]+|[0-9]+[a-z]?/g) ?? []) {
    if (/^[0-9]/.test(part)) numbers.add(part.replace(/^0+(?=\d)/, ''));
    else words.add(part);
  }
  return { words, numbers };
}

/** The LIKE patterns that find candidate rows for a query (any token; the score decides). */
export function candidatePatterns(tokens: readonly QueryToken[]): string[] {
  const patterns = new Set<string>();
  for (const token of tokens) {
    const value = token.value.replace(/[\\%_]/g, (c) => `\\${c}`);
    patterns.add(`%${value}%`);
  }
  return [...patterns];
}
