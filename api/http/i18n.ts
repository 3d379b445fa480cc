import type { Request } from 'express';
import en from '../../i18n/en/api.json' with { type: 'json' };
import sc from '../../i18n/sc/api.json' with { type: 'json' };
import tc from '../../i18n/tc/api.json' with { type: 'json' };
import formsEn from '../../i18n/en/forms.json' with { type: 'json' };
import formsSc from '../../i18n/sc/forms.json' with { type: 'json' };
import formsTc from '../../i18n/tc/forms.json' with { type: 'json' };
import flowsEn from '../../i18n/en/flows.json' with { type: 'json' };
import flowsSc from '../../i18n/sc/flows.json' with { type: 'json' };
import flowsTc from '../../i18n/tc/flows.json' with { type: 'json' };
import wizardEn from '../../i18n/en/wizard.json' with { type: 'json' };
import wizardSc from '../../i18n/sc/wizard.json' with { type: 'json' };
import wizardTc from '../../i18n/tc/wizard.json' with { type: 'json' };
import { type Language, FALLBACK_LANGUAGE, isLanguage, languageFromTag } from '../../machines/rules/language';

/** Dot paths of the leaves of a message tree: `status.ok`, `validation.type.required`, ... */
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** Keys of `i18n/<lang>/api.json`; English is the source of the type. */
export type ApiMessageKey = Leaves<typeof en>;

type MessageTree = { readonly [key: string]: string | MessageTree };

const catalogues: Record<Language, MessageTree> = { en, sc, tc };
/**
 * The UI's namespaces the API also speaks, as `<namespace>:<key>`: the form catalogue's labels and
 * validation issues (`forms:`, machines/forms/errors.ts), the forms' titles (`flows:`) and the preview's
 * words (`wizard:`), which the PDFs print as the screens do. A key without a namespace is the API's own.
 */
const NAMESPACES: Readonly<Record<string, Record<Language, MessageTree>>> = {
  forms: { en: formsEn, sc: formsSc, tc: formsTc },
  flows: { en: flowsEn, sc: flowsSc, tc: flowsTc },
  wizard: { en: wizardEn, sc: wizardSc, tc: wizardTc },
};
const NAMESPACED = /^(\w+):(.+)$/;

function find(lang: Language, key: string): string | undefined {
  const namespaced = NAMESPACED.exec(key);
  const trees = namespaced ? NAMESPACES[namespaced[1] ?? ''] : catalogues;
  const path = namespaced ? (namespaced[2] ?? '') : key;
  if (!trees) return undefined;
  return lookup(trees[lang], path) ?? lookup(trees[FALLBACK_LANGUAGE], path);
}

function lookup(tree: MessageTree, key: string): string | undefined {
  let node: string | MessageTree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * The message for `key` in `lang`, with `{{name}}` placeholders filled from `params`. Falls back to
 * English, then to the key itself (so an unknown key is visible rather than silently blank).
 * Accepts plain strings because zod issue messages are keys typed as `string`.
 */
export function translate(
  lang: Language,
  key: ApiMessageKey | (string & {}),
  params?: Readonly<Record<string, string | number>>,
): string {
  const template = find(lang, key) ?? key;
  if (!params) return template;
  // A param that is itself a namespaced message key (a form issue's field label) is translated first.
  const value = (v: string | number) =>
    typeof v === 'string' && NAMESPACED.test(v) ? (find(lang, v) ?? v) : String(v);
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in params ? value(params[name] as string | number) : whole,
  );
}

/**
 * The first language of an Accept-Language header by quality (`zh-HK,zh;q=0.9,en;q=0.8` -> tc).
 * No header, or `*`, gives English.
 */
export function languageFromAcceptLanguage(header: string | undefined): Language {
  if (!header) return FALLBACK_LANGUAGE;
  let best: { tag: string; q: number } | undefined;
  for (const part of header.split(',')) {
    const [rawTag = '', ...params] = part.trim().split(';');
    const tag = rawTag.trim();
    if (!tag || tag === '*') continue;
    let q = 1;
    for (const p of params) {
      const [name, value] = p.trim().split('=');
      if (name?.trim() === 'q' && value !== undefined) q = Number(value);
    }
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { tag, q };
  }
  return best ? languageFromTag(best.tag) : FALLBACK_LANGUAGE;
}

/**
 * The caller's language: the `lang` query parameter (`en`, `sc`, `tc` or a tag such as `zh-HK`) first,
 * then a JSON body's `lang` (exactly `en`, `sc` or `tc`), then Accept-Language, else English.
 */
export function requestLanguage(req: Request): Language {
  const fromQuery: unknown = req.query?.lang;
  if (typeof fromQuery === 'string' && fromQuery.trim() !== '') {
    const value = fromQuery.trim().toLowerCase();
    return isLanguage(value) ? value : languageFromTag(value);
  }
  const body: unknown = req.body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const fromBody: unknown = (body as { lang?: unknown }).lang;
    if (isLanguage(fromBody)) return fromBody;
  }
  return languageFromAcceptLanguage(req.get('accept-language'));
}
