import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The project's Chinese terms (i18n/terminology.json, docs/i18n-terminology.md): every message file of
 * Traditional and Simplified Chinese uses the listed term of each concept and none of its variants
 * (你 not 您, 提交 not 遞交, 規定事項函件, 查找我的個案 ...).
 */

type Script = 'tc' | 'sc';
interface Concept {
  concept: string;
  en: string;
  tc: string;
  sc: string;
  variants: Record<Script, string[]>;
}

const dir = fileURLToPath(new URL('../../i18n', import.meta.url));
const { concepts } = JSON.parse(readFileSync(`${dir}/terminology.json`, 'utf8')) as { concepts: Concept[] };
const SCRIPTS: readonly Script[] = ['tc', 'sc'];

/** Every message of a language: [file:key, text]. */
function messages(lang: Script): [string, string][] {
  const out: [string, string][] = [];
  const walk = (value: unknown, at: string) => {
    if (typeof value === 'string') out.push([at, value]);
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, at.endsWith(':') ? `${at}${k}` : `${at}.${k}`);
  };
  for (const file of readdirSync(`${dir}/${lang}`).filter((f) => f.endsWith('.json')))
    walk(JSON.parse(readFileSync(`${dir}/${lang}/${file}`, 'utf8')), `${lang}/${file}:`);
  return out;
}

describe('Chinese terminology', () => {
  it('names one term per language for each concept, and its variants never contain the term', () => {
    expect(concepts.length).toBeGreaterThanOrEqual(4);
    for (const c of concepts)
      for (const lang of SCRIPTS) {
        expect(c[lang], `${c.concept} (${lang})`).not.toBe('');
        for (const v of c.variants[lang]) expect(c[lang].includes(v), `${c.concept}: ${v}`).toBe(false);
      }
  });

  for (const lang of SCRIPTS)
    it(`every ${lang} message file uses the listed terms, no variant`, () => {
      const all = messages(lang);
      expect(all.length).toBeGreaterThan(500);
      const found: string[] = [];
      for (const [where, text] of all)
        for (const c of concepts)
          for (const v of c.variants[lang])
            if (text.includes(v)) found.push(`${where}: "${v}" (use "${c[lang]}" for ${c.concept})`);
      expect(found).toEqual([]);
    });

  for (const lang of SCRIPTS)
    it(`every listed ${lang} term is used by the messages (the list names the words people read)`, () => {
      const text = messages(lang)
        .map(([, t]) => t)
        .join('\n');
      for (const c of concepts) expect(text.includes(c[lang]), `${c.concept}: ${c[lang]}`).toBe(true);
    });

  it('catches a variant: a message with 您 or 遞交 would fail', () => {
    const you = concepts.find((c) => c.tc === '你');
    const submit = concepts.find((c) => c.tc === '提交');
    expect(you?.variants.tc).toContain('您');
    expect(submit?.variants.tc).toContain('遞交');
    expect(submit?.variants.sc).toContain('递交');
  });
});
