/**
 * Step 3 of `npm run build` (after `vite build` and `vite build --ssr ui/prerender.tsx`): writes the
 * information pages, in each language, as HTML into dist/prerendered/<language>/ with their .br and .gz,
 * and a manifest the server reads (api/static-site.ts). Each page's head preloads exactly the chunks and
 * message files the page needs, so the browser fetches them in parallel while it already shows the page.
 *
 * The first screens of the wizards and of Find my case depend on the browser (a draft, a session) and
 * are not rendered here; they get the same index.html with the preloads of their own chunks, so they
 * render without a waterfall of lazy imports.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ROUTES } from '../machines/routes';
import { HTML_LANG, LANGUAGES, type Language } from '../machines/rules/language';
import { PRERENDERED_STYLE_ATTRIBUTES } from '../api/http/csp';
import { formByKey } from '../machines/forms';
import type * as Prerender from '../ui/prerender';
import { CHILD_CARE_TITLE } from '../machines/forms/catalogue-index';
import type { Layout, PageId, RouteDef } from '../machines/route-types';

const DIST = path.resolve('dist');
const OUT = path.join(DIST, 'prerendered');

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
type ViteManifest = Record<string, ManifestChunk>;

const vite = JSON.parse(readFileSync(path.join(DIST, '.vite', 'manifest.json'), 'utf8')) as ViteManifest;
const template = readFileSync(path.join(DIST, 'index.html'), 'utf8');
const { renderPage, PRERENDERED_PAGES, PAGE_MODULES } = (await import(
  pathToFileURL(path.resolve('dist-ssr', 'prerender.js')).href
)) as typeof Prerender;

/** The chunk files a module needs: its own and, transitively, those it imports statically. */
function chunksOf(key: string, into = new Set<string>()): Set<string> {
  const chunk = vite[key];
  if (!chunk) throw new Error(`Vite's manifest has no ${key}`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) chunksOf(imported, into);
  return into;
}

/** What the first script loads anyway (the entry and its imports): never preloaded twice. */
const entryKey = Object.keys(vite).find((k) => vite[k]?.isEntry);
if (!entryKey) throw new Error("Vite's manifest has no entry");
const entryChunks = chunksOf(entryKey);

const LAYOUT_MODULE: Record<Layout, string | undefined> = {
  menu: 'layouts/AppLayout.tsx',
  noMenu: 'layouts/AppLayout.tsx',
  none: undefined,
};

function preloadsFor(route: RouteDef, language: Language, namespaces: string[]): string[] {
  const files = new Set<string>();
  const modules = ['app.tsx', LAYOUT_MODULE[route.layout], PAGE_MODULES[route.page]];
  // A form of the catalogue: its wizard's first screen (the later screens are chunks of their own).
  if (route.flow && formByKey(route.flow.form)) modules.push('flows/apply/ApplyStepPage.tsx');
  for (const m of modules) if (m) chunksOf(m, files);
  for (const ns of namespaces) {
    const key = `../i18n/${language}/${ns}.json`;
    if (vite[key]) chunksOf(key, files);
  }
  return [...files].filter((f) => !entryChunks.has(f));
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function documentFor(opts: {
  language: Language;
  preloads: string[];
  title?: string;
  body?: { html: string };
}): string {
  // Read by ui/main.tsx after the first paint (a <link rel="modulepreload"> here would compete with it).
  const links = `<meta name="bd-preload" content="${opts.preloads.map((f) => `/${f}`).join(' ')}">`;
  let html = template
    .replace(/<html lang="[^"]*">/, `<html lang="${HTML_LANG[opts.language]}">`)
    .replace('</head>', `${links}</head>`);
  const title = opts.title;
  if (title) html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
  const body = opts.body;
  if (body)
    html = html.replace(
      // index.html's #root holds the spinner (one div, no nested one).
      /<div id="root">.*?<\/div>\s*<\/div>/s,
      () => `<div id="root" data-prerendered="${opts.language}">${body.html}</div>`,
    );
  return html;
}

function write(file: string, html: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const bytes = Buffer.from(html, 'utf8');
  writeFileSync(file, bytes);
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
}

/** File name of a route key: `/` is index, `/faq` faq, `/x?title=y` x--title-y. */
function fileNameOf(key: string): string {
  const name = key === '/' ? 'index' : key.slice(1).replace(/[?=&]/g, '-');
  return `${name}.html`;
}

/** The route keys to write: each page (and the `?title=` variant that changes a page's content). */
function keysOf(route: RouteDef): string[] {
  return route.entry === 'alterationOfRegisteredSchool'
    ? [route.path, `${route.path}?title=${CHILD_CARE_TITLE}`]
    : [route.path];
}

const SHELL_PAGES: PageId[] = ['flowStep', 'findMyCase'];

/**
 * Also rendered: Find my case and the first step of each wizard of the catalogue, whose first screen on
 * a full page load is always the same (a new actor in its initial state, no answers yet).
 */
function isFirstScreen(route: RouteDef): boolean {
  if (route.page === 'findMyCase') return true;
  return route.page === 'flowStep' && route.flow?.step === 1 && formByKey(route.flow.form) !== undefined;
}

/** A style attribute the CSP does not allow would leave the page unstyled until it hydrates. */
function checkStyleAttributes(key: string, html: string): void {
  for (const [, css] of html.matchAll(/\sstyle="([^"]*)"/g))
    if (!PRERENDERED_STYLE_ATTRIBUTES.includes(css ?? ''))
      throw new Error(`${key}: style="${css}" is not allowed by the CSP (api/app.ts)`);
}

rmSync(OUT, { recursive: true, force: true });
const routes: Record<string, string> = {};
let pages = 0;
for (const route of ROUTES) {
  const prerendered = PRERENDERED_PAGES.includes(route.page) || isFirstScreen(route);
  const shell = SHELL_PAGES.includes(route.page);
  if (!prerendered && !shell) continue;
  for (const key of keysOf(route)) {
    const name = fileNameOf(key);
    for (const language of LANGUAGES) {
      if (prerendered) {
        const page = await renderPage(key, language);
        checkStyleAttributes(key, page.html);
        const preloads = preloadsFor(route, language, page.namespaces);
        write(
          path.join(OUT, language, name),
          documentFor({ language, preloads, title: page.title, body: { html: page.html } }),
        );
      } else {
        // The namespaces their first screens ask for (the tab strip's entry and flows included).
        const namespaces = [
          'common',
          'entry',
          'flows',
          ...(route.page === 'findMyCase' ? ['auth'] : ['forms', 'wizard']),
        ];
        const preloads = preloadsFor(route, language, namespaces);
        write(path.join(OUT, language, name), documentFor({ language, preloads }));
      }
      pages += 1;
    }
    routes[key] = name;
  }
}
writeFileSync(
  path.join(OUT, 'manifest.json'),
  JSON.stringify({ routes, languages: [...LANGUAGES] }, null, 2),
);
console.log(
  `prerendered ${pages} pages (${Object.keys(routes).length} routes × ${LANGUAGES.length} languages)`,
);
