import i18next, { type BackendModule, type i18n, type InitOptions, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  FALLBACK_LANGUAGE,
  HTML_LANG,
  LANGUAGE_COOKIE,
  LANGUAGES,
  type Language,
} from '../machines/rules/language';

/**
 * Message files live in i18n/<lang>/<namespace>.json. Each becomes its own chunk, fetched when a page
 * first needs that namespace in that language, so the first load carries no message text at all.
 */
const files = import.meta.glob<{ default: Record<string, unknown> }>('../i18n/*/*.json');

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = files[`../i18n/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`no messages for ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (m) => callback(null, m.default),
      (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), false),
    );
  },
};

const options = (language: Language): InitOptions => ({
  lng: language,
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: ['common'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnObjects: false,
  react: { useSuspense: true },
});

export async function initI18n(language: Language): Promise<typeof i18next> {
  await i18next.use(lazyBackend).use(initReactI18next).init(options(language));
  applyHtmlLang(language);
  return i18next;
}

/** A separate instance in one language (the prerenderer's: it records the namespaces a page used). */
export async function createI18n(language: Language): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.use(lazyBackend).use(initReactI18next).init(options(language));
  return instance;
}

export function applyHtmlLang(language: Language): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = HTML_LANG[language];
}

/** Mirrors a stored language choice into a cookie, so the server sends prerendered pages in it. */
export function rememberLanguage(language: Language): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; SameSite=Lax`;
}
