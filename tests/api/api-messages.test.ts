import { describe, expect, it } from 'vitest';
import en from '../../i18n/en/api.json' with { type: 'json' };
import sc from '../../i18n/sc/api.json' with { type: 'json' };
import tc from '../../i18n/tc/api.json' with { type: 'json' };
import { languageFromAcceptLanguage, translate } from '../../api/http/i18n';

function keys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value as object, `${prefix}${key}.`),
  );
}

describe('API messages', () => {
  it('have the same keys in English, Simplified and Traditional Chinese', () => {
    expect(keys(sc).sort()).toEqual(keys(en).sort());
    expect(keys(tc).sort()).toEqual(keys(en).sort());
  });

  it('have no empty message in any language', () => {
    for (const catalogue of [en, sc, tc]) {
      for (const key of keys(catalogue)) expect(translate('en', key).length).toBeGreaterThan(0);
    }
  });

  it('fill placeholders such as {{max}}', () => {
    expect(translate('en', 'validation.code.tooLong', { max: 64 })).toBe(
      'Code must be 64 characters or fewer.',
    );
  });
});

describe('languageFromAcceptLanguage', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['en-GB,en;q=0.9', 'en'],
    ['zh-HK', 'tc'],
    ['zh-TW', 'tc'],
    ['zh-Hant', 'tc'],
    ['zh', 'sc'],
    ['zh-CN', 'sc'],
    ['zh-Hans-CN', 'sc'],
    ['cn', 'sc'],
    ['en;q=0.5, zh-HK;q=0.9', 'tc'],
    ['de-DE', 'en'],
    ['*', 'en'],
  ])('maps %j to %s', (header, expected) => {
    expect(languageFromAcceptLanguage(header)).toBe(expected);
  });
});
