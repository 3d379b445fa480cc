import './theme/global.css';

/**
 * The first script is tiny and renders nothing itself: the page in the HTML is already on screen (a
 * prerendered page, or the loading spinner of index.html). After the first frame has been painted it
 * preloads the chunks the page named (`<meta name="bd-preload">`, written by scripts/prerender.ts) and
 * starts the app, which hydrates a prerendered page or renders the route. So the first paint waits for
 * no script, and the page's chunks load in parallel rather than one lazy import after another.
 */
// zod tries `new Function` once, when its first object schema is made, to learn whether it may compile
// parsers; the Content Security Policy forbids eval and reports the try. zod reads its configuration from
// this global when it loads, so setting it here, before any chunk, keeps it from trying whichever module
// makes the first schema (ui/zod-setup.ts says the same through zod's own API).
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };

const container = document.getElementById('root');
if (!container) throw new Error('no #root element');
const prerendered = container.dataset.prerendered;

function start(): void {
  const preload = document.querySelector<HTMLMetaElement>('meta[name="bd-preload"]')?.content ?? '';
  for (const href of preload.split(/\s+/).filter(Boolean)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  void import('./app').then(({ startPortal }) => startPortal(container as HTMLElement, prerendered));
}

// A task after the next frame: the browser paints the HTML before any of the app's chunks is fetched.
requestAnimationFrame(() => setTimeout(start, 0));
