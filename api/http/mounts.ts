/**
 * The first segment of every path the API serves under /api: each router and handler of `apiRouter`
 * (api/routes.ts) is mounted under one of these, and `/api/dev` only with the development tools.
 *
 * `npm run dev` proxies exactly these paths from Vite to the API (vite.config.ts, docs/operations.md):
 * `/api` alone cannot be proxied, because Vite serves the UI's own clients in `ui/api/` at `/api/*.ts`.
 * tests/api/api-mounts.test.ts fails when api/routes.ts mounts a path outside this list, or the list names
 * one it does not mount. No imports: vite.config.ts reads it.
 */
export const API_MOUNTS = [
  'address',
  'application',
  'appointee',
  'appointments',
  'auth',
  'cases',
  'dev',
  'drafts',
  'health',
  'staff',
  'submissions',
  'verify',
] as const;

/**
 * The paths of the API as one pattern: `/api/<mount>`, alone or followed by `/` or a query string, so
 * that `/api/cases/current` matches and the UI's module `/api/cases.ts` does not.
 */
export const API_PATH_PATTERN = `^/api/(?:${API_MOUNTS.join('|')})(?:[/?]|$)`;
