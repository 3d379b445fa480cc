/**
 * `npm start`: bundles the server's own TypeScript (scripts/start.ts and what it imports from api/,
 * drizzle/, machines/, i18n/) into one plain ES module with esbuild, then runs it. The packages stay
 * outside the bundle (Node loads them from node_modules as usual); only our sources are compiled, once,
 * in about 0.1 s, instead of module by module through tsx at every start (docs/performance.md,
 * "Start-up"). The bundle is made again at each start, so it is never older than the sources.
 *
 * `import.meta.url` in a bundled file is replaced by the URL of its source file, so that what a module
 * finds next to itself (the migrations, the PDF check's worker, the PGlite template) is found as when it
 * runs unbundled. The bundle lives in .cache/server/ (ignored by git), next to node_modules' resolution.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = path.join(root, '.cache', 'server', 'start.mjs');

/** @type {import('esbuild').Plugin} */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(bundle) {
    bundle.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      return {
        contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
      };
    });
  },
};

await build({
  entryPoints: [path.join(root, 'scripts', 'start.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [sourceUrls],
});

// Errors and stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(outfile).href);
