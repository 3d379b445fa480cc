import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../machines/rules/language';
import { ROUTES } from '../../machines/routes';
import { MENU_GROUPS } from '../../machines/route-menu';

const dir = fileURLToPath(new URL('../../i18n', import.meta.url));
const namespaces = readdirSync(`${dir}/en`)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));
const load = (lang: string, ns: string) =>
  JSON.parse(readFileSync(`${dir}/${lang}/${ns}.json`, 'utf8')) as unknown;

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  if (value && typeof value === 'object') {
    return Object.entries(value).reduce<Record<string, string>>(
      (acc, [k, v]) => ({ ...acc, ...flatten(v, prefix ? `${prefix}.${k}` : k) }),
      {},
    );
  }
  throw new Error(`${prefix}: not a string or object`);
}

const flat = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, Object.fromEntries(namespaces.map((ns) => [ns, flatten(load(lang, ns))]))]),
) as Record<string, Record<string, Record<string, string>>>;

const has = (lang: string, key: string) => {
  const [ns, path] = key.includes(':') ? (key.split(':') as [string, string]) : ['common', key];
  const table = flat[lang]?.[ns] ?? {};
  return path in table || Object.keys(table).some((k) => k.startsWith(`${path}.`));
};

describe('message files', () => {
  it('exist for every namespace in every language', () => {
    for (const lang of LANGUAGES) {
      expect(
        readdirSync(`${dir}/${lang}`)
          .filter((f) => f.endsWith('.json'))
          .sort(),
      ).toEqual([...namespaces].map((n) => `${n}.json`).sort());
    }
  });

  for (const ns of namespaces) {
    it(`have the same keys in en, sc and tc for ${ns}`, () => {
      const en = Object.keys(flat.en?.[ns] ?? {}).sort();
      for (const lang of ['sc', 'tc'])
        expect(Object.keys(flat[lang]?.[ns] ?? {}).sort(), `${lang}/${ns}`).toEqual(en);
    });

    it(`use the same interpolations in every language for ${ns}`, () => {
      const vars = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
      for (const [key, text] of Object.entries(flat.en?.[ns] ?? {})) {
        for (const lang of ['sc', 'tc'])
          expect(vars(flat[lang]?.[ns]?.[key] ?? ''), `${lang}/${ns}:${key}`).toEqual(vars(text));
      }
    });

    it(`have no empty message and no English sentence in the Chinese files for ${ns}`, () => {
      for (const lang of LANGUAGES) {
        for (const [key, text] of Object.entries(flat[lang]?.[ns] ?? {})) {
          expect(text.trim(), `${lang}/${ns}:${key}`).not.toBe('');
          const isLink = /^(\/|https?:|mailto:|tel:)/.test(text) || /^\d{4}-\d{2}-\d{2}$/.test(text);
          if (lang !== 'en' && !isLink)
            expect(/[\u3400-\u9fff]/.test(text), `${lang}/${ns}:${key} = ${text}`).toBe(true);
        }
      }
    });
  }

  it('name every route, menu group and menu entry in every language', () => {
    const keys = [
      ...ROUTES.map((r) => r.titleKey),
      ...MENU_GROUPS.flatMap((g) => [
        g.labelKey,
        ...g.sections.flatMap((s) => [s.labelKey ?? g.labelKey, ...s.links.map((l) => l.labelKey)]),
      ]),
      ...ROUTES.flatMap((r) =>
        r.flow ? [`flows:steps.${r.flow.kind}.title`, `flows:steps.${r.flow.kind}.description`] : [],
      ),
      ...ROUTES.flatMap((r) => (r.entry ? [`entry:${r.entry}.sections`] : [])),
      // Pages whose content lives in `pages` have their title there too.
      ...ROUTES.filter((r) => r.titleKey.startsWith('pages.') && r.layout !== 'none').map(
        (r) => `pages:${r.page}.title`,
      ),
    ];
    for (const lang of LANGUAGES) for (const key of keys) expect(has(lang, key), `${lang} ${key}`).toBe(true);
  });
});
