import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { fileURLToPath } from 'node:url';
import { API_PATH_PATTERN } from './api/http/mounts.js';

const apiPort = process.env.API_PORT ?? '3001';
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// `vite build` makes the SPA in dist/ (with its manifest, for the prerenderer's preloads);
// `vite build --ssr ui/prerender.tsx` makes the server renderer in dist-ssr/ (scripts/prerender.ts runs it).
export default defineConfig(({ isSsrBuild }) => ({
  root: here('./ui'),
  publicDir: isSsrBuild ? false : here('./ui/public'),
  plugins: [
    react(),
    // Every text asset also as .br and .gz, served by content negotiation (api/static-site.ts).
    ...(isSsrBuild
      ? []
      : [
          compression({
            algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
            threshold: 0,
            logLevel: 'silent',
          }),
        ]),
  ],
  build: isSsrBuild
    ? { outDir: here('./dist-ssr'), emptyOutDir: true, sourcemap: false }
    : {
        outDir: here('./dist'),
        emptyOutDir: true,
        sourcemap: false,
        manifest: true,
        chunkSizeWarningLimit: 400,
      },
  // `npm run dev` (scripts/dev.ts): the API's own paths go to the API. Not all of /api: Vite serves the
  // UI's clients in ui/api/ at /api/*.ts, and the page would not load (docs/operations.md).
  server: {
    port: 3000,
    strictPort: true,
    proxy: { [API_PATH_PATTERN]: `http://127.0.0.1:${apiPort}` },
  },
}));
