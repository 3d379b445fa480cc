/**
 * The server renderer of the prerendered pages (built by `vite build --ssr`, run by scripts/prerender.ts):
 * one route in one language to HTML, with React's `prerender` (react-dom/static), which waits for every
 * lazy page and message file, so the HTML is the page as the browser will hydrate it. The session is the
 * default one (a first visit): what depends on the stored session (tabs, login, theme) follows after
 * hydration, as useSession's server snapshot makes it.
 */
import './zod-setup';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { ROUTES, titleKeyFor } from '../machines/routes';
import type { Language } from '../machines/rules/language';
import { buildRouteObjects } from './routing/route-objects';
import { createI18n } from './i18n';
import type { PageId } from '../machines/route-types';

/** The pages rendered at build time: information, entry and description pages (docs/performance.md). */
export const PRERENDERED_PAGES: readonly PageId[] = [
  'home',
  'about',
  'faq',
  'userManual',
  'importantNotices',
  'terms',
  'privacy',
  'sitemap',
  'contactUs',
  'guideline',
  'entry',
];

/** Source modules (as Vite's manifest names them, from ui/) of the chunks each prerendered page needs. */
export const PAGE_MODULES: Partial<Record<PageId, string>> = {
  home: 'pages/HomePage.tsx',
  about: 'pages/InfoPage.tsx',
  faq: 'pages/InfoPage.tsx',
  userManual: 'pages/InfoPage.tsx',
  importantNotices: 'pages/InfoPage.tsx',
  terms: 'pages/InfoPage.tsx',
  privacy: 'pages/InfoPage.tsx',
  contactUs: 'pages/InfoPage.tsx',
  guideline: 'pages/InfoPage.tsx',
  sitemap: 'pages/SitemapPage.tsx',
  entry: 'pages/EntryPage.tsx',
  flowStep: 'pages/FlowPage.tsx',
  findMyCase: 'flows/login/FindMyCasePage.tsx',
};

export interface RenderedPage {
  /** The markup inside #root. */
  html: string;
  /** The document title, as PageHeading sets it. */
  title: string;
  /** The message namespaces the page used (their files are preloaded with the page). */
  namespaces: string[];
}

async function toString(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

async function render(url: string, i18n: i18n, warmUp: boolean): Promise<string> {
  const handler = createStaticHandler(buildRouteObjects(ROUTES, { hasToken: () => false }));
  const context = await handler.query(new Request(new URL(url, 'http://portal.invalid')));
  if (context instanceof Response) throw new Error(`${url} redirects (${context.status})`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const app = (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        {/* No inline hydration script (the CSP allows none): the browser router starts on its own. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </I18nextProvider>
    </StrictMode>
  );
  if (warmUp) {
    await toString((await prerenderToNodeStream(app)).prelude);
    return '';
  }
  return renderToString(app);
}

/**
 * Renders `url` (a path, with the query that changes its content if any) in `language`. The first pass
 * loads what the page suspends on (lazy pages, message files); the second, which suspends on nothing,
 * is the page, rendered by renderToString: complete HTML without the inline scripts the streaming
 * renderers add to reveal boundaries (the CSP allows no inline script).
 */
export async function renderPage(url: string, language: Language): Promise<RenderedPage> {
  const i18n = await createI18n(language);
  await render(url, i18n, true);
  const html = await render(url, i18n, false);
  if (/<script\b|<!--\$!-->/i.test(html))
    throw new Error(
      `${url} (${language}) still suspends after its first render: it would need inline scripts`,
    );
  const [pathname = '/', search = ''] = url.split('?');
  const route = ROUTES.find((r) => r.path === pathname);
  if (!route) throw new Error(`${url} is not in the route table`);
  const name = i18n.t(titleKeyFor(route, search ? `?${search}` : ''), { ns: 'common' });
  return {
    html,
    title: `${name} | ${i18n.t('bd', { ns: 'common' })}`,
    namespaces: i18n.reportNamespaces?.getUsedNamespaces() ?? [],
  };
}
