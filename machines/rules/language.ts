/** The portal's languages (spec §9): Traditional Chinese, Simplified Chinese, English. */
export const LANGUAGES = ['tc', 'sc', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export const FALLBACK_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The cookie that mirrors the stored language choice for the server, which cannot read the browser's
 * storage: it picks the language of a prerendered page by it (else by Accept-Language, like the SPA).
 */
export const LANGUAGE_COOKIE = 'bd-lang';

/** BCP 47 tag for `<html lang>`. */
export const HTML_LANG: Record<Language, string> = { en: 'en', sc: 'zh-Hans', tc: 'zh-Hant' };

/** Each language by its own name, as a language chooser shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { tc: '繁體中文', sc: '简体中文', en: 'English' };

/**
 * One browser language tag to a portal language (spec §9): cn, zh and zh-cn give sc; zh-hk and zh-tw give
 * tc; anything else gives en. Script subtags are honoured too (zh-Hant-HK → tc, zh-Hans → sc), and so are
 * zh-mo (tc) and zh-sg (sc).
 */
export function languageFromTag(tag: string): Language {
  const t = tag.trim().toLowerCase().replace(/_/g, '-');
  if (t === 'zh-hk' || t === 'zh-tw' || t === 'zh-mo' || t.startsWith('zh-hant')) return 'tc';
  if (t === 'cn' || t === 'zh' || t === 'zh-cn' || t === 'zh-sg' || t.startsWith('zh-hans')) return 'sc';
  if (t.startsWith('zh-hk-') || t.startsWith('zh-tw-') || t.startsWith('zh-mo-')) return 'tc';
  if (t.startsWith('zh-')) return 'sc';
  return 'en';
}

/**
 * The language to show: the stored choice first; else the browser's first preference. With neither,
 * Traditional Chinese, the default via zh-hk (spec §9).
 */
export function detectLanguage(stored: unknown, browserLanguages: readonly string[] | undefined): Language {
  if (isLanguage(stored)) return stored;
  const first = browserLanguages?.find((l) => typeof l === 'string' && l.trim() !== '');
  return first ? languageFromTag(first) : languageFromTag('zh-hk');
}
