import { describe, expect, it } from 'vitest';
import { detectLanguage, languageFromTag } from '../../machines/rules/language';

describe('language detection', () => {
  it.each([
    ['cn', 'sc'],
    ['zh', 'sc'],
    ['zh-CN', 'sc'],
    ['zh-cn', 'sc'],
    ['zh-Hans', 'sc'],
    ['zh-HK', 'tc'],
    ['zh-hk', 'tc'],
    ['zh-TW', 'tc'],
    ['zh-Hant-HK', 'tc'],
    // Beyond the spec's list (docs/decisions/029-language-detection.md).
    ['zh-MO', 'tc'],
    ['zh-Hant-TW', 'tc'],
    ['zh-SG', 'sc'],
    ['zh-Hans-SG', 'sc'],
    ['zh_HK', 'tc'],
    ['zh-MY', 'sc'],
    ['en-US', 'en'],
    ['en', 'en'],
    ['fr-FR', 'en'],
    ['ja', 'en'],
  ])('maps the browser language %s to %s', (tag, lang) => {
    expect(languageFromTag(tag)).toBe(lang);
  });

  it('prefers the stored choice over the browser', () => {
    expect(detectLanguage('en', ['zh-HK'])).toBe('en');
    expect(detectLanguage('sc', ['en-GB'])).toBe('sc');
  });

  it('ignores a stored value that is not a language and asks the browser', () => {
    expect(detectLanguage('fr', ['zh-TW'])).toBe('tc');
    expect(detectLanguage(42, ['zh-CN'])).toBe('sc');
    expect(detectLanguage(null, ['en-US', 'zh-HK'])).toBe('en');
  });

  it('falls back to Traditional Chinese (via zh-hk) when the browser says nothing', () => {
    expect(detectLanguage(null, [])).toBe('tc');
    expect(detectLanguage(undefined, undefined)).toBe('tc');
  });
});
