import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import compression from 'compression';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { detectLanguage, LANGUAGE_COOKIE, type Language } from '../machines/rules/language';
import { NotFoundError } from './http/errors';
import { CHILD_CARE_TITLE } from '../machines/forms/catalogue-index';

/** Answers smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * On-the-fly compression (gzip or brotli, by the request's Accept-Encoding) of the API's answers and of
 * any text response above the threshold. Files that are already compressed or must stream byte for byte
 * are never touched: PDFs and ZIP archives (downloads, whose bytes stream from storage), event streams,
 * answers that say `Cache-Control: no-transform`, and anything that already has a Content-Encoding (the
 * pre-compressed static files below).
 */
export function compressAnswers(): RequestHandler {
  return compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    filter(req, res) {
      const type = String(res.getHeader('Content-Type') ?? '');
      if (/^(application\/(pdf|zip)|text\/event-stream)/i.test(type)) return false;
      return compression.filter(req, res);
    },
  });
}

/** The prerendered pages: `dist/prerendered/manifest.json`, written by scripts/prerender.ts. */
export interface PrerenderManifest {
  /** Route key (a path, or a path with the one query that changes its content) to its file name. */
  routes: Record<string, string>;
  languages: Language[];
}

export const PRERENDER_DIR = 'prerendered';

function readManifest(root: string): PrerenderManifest | undefined {
  const file = path.join(root, PRERENDER_DIR, 'manifest.json');
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as PrerenderManifest;
}

/** The language the SPA would show this visitor: the remembered choice (cookie), else the browser's. */
export function languageOfRequest(req: Request): Language {
  const cookie = /(?:^|;\s*)([^=;\s]+)=([^;]*)/g;
  const header = req.headers.cookie ?? '';
  let stored: string | undefined;
  for (let m = cookie.exec(header); m; m = cookie.exec(header)) if (m[1] === LANGUAGE_COOKIE) stored = m[2];
  // navigator.languages[0] is the first tag of Accept-Language (its order, without the q-values).
  const first = (req.headers['accept-language'] ?? '').split(',')[0]?.split(';')[0]?.trim();
  return detectLanguage(stored, first ? [first] : undefined);
}

/** The manifest key of a request: the path, or the path with the `?title=` that changes its content. */
export function prerenderKey(req: Request): string {
  const title = typeof req.query.title === 'string' ? req.query.title : undefined;
  return title === CHILD_CARE_TITLE ? `${req.path}?title=${title}` : req.path;
}

/** Sends a pre-compressed HTML file in the best encoding the client accepts. */
function sendHtml(req: Request, res: Response, file: string, next: (err?: unknown) => void) {
  const encoding = req.acceptsEncodings('br', 'gzip', 'identity');
  const variant =
    encoding === 'br' && existsSync(`${file}.br`)
      ? { file: `${file}.br`, encoding: 'br' }
      : encoding === 'gzip' && existsSync(`${file}.gz`)
        ? { file: `${file}.gz`, encoding: 'gzip' }
        : { file, encoding: undefined };
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  if (variant.encoding) res.setHeader('Content-Encoding', variant.encoding);
  res.sendFile(variant.file, (err?: Error & { status?: number }) => {
    if (!err) return;
    next(err.status === 404 ? new NotFoundError() : err);
  });
}

/**
 * The built SPA (Vite's dist/): hashed assets with their `.br` / `.gz` twins chosen by Accept-Encoding
 * (`Vary: Accept-Encoding`), the prerendered information pages in the visitor's language, and the history
 * fallback to index.html for every other client-side route. A missing hashed asset stays a 404.
 */
export function staticSite(staticDir: string): Router {
  const root = path.resolve(staticDir);
  const indexHtml = path.join(root, 'index.html');
  const manifest = readManifest(root);
  const router = Router();

  // Prerendered pages first: `/` must not become the static index.html.
  router.get('/{*splat}', (req, res, next) => {
    const name = manifest?.routes[prerenderKey(req)];
    if (!manifest || !name) {
      next();
      return;
    }
    const language = languageOfRequest(req);
    res.vary('Accept-Encoding');
    res.vary('Accept-Language');
    res.vary('Cookie');
    sendHtml(req, res, path.join(root, PRERENDER_DIR, language, name), next);
  });

  router.use(
    expressStaticGzip(root, {
      enableBrotli: true,
      orderPreference: ['br', 'gz'],
      index: false,
      serveStatic: {
        index: false,
        setHeaders(res, filePath) {
          const relative = path.relative(root, filePath).split(path.sep).join('/');
          res.setHeader(
            'Cache-Control',
            relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      },
    }),
  );

  // History fallback: any other GET (a client-side route) is the SPA. A missing hashed asset stays a 404.
  router.get('/{*splat}', (req, res, next) => {
    if (req.path.startsWith('/assets/') || req.path.startsWith(`/${PRERENDER_DIR}/`)) {
      next();
      return;
    }
    res.vary('Accept-Encoding');
    sendHtml(req, res, indexHtml, next);
  });
  return router;
}
