import { config } from 'zod/v4/core';

/**
 * zod compiles fast object parsers with `new Function` when the page allows it, and finds out by trying
 * once. The portal's Content Security Policy forbids eval, so the try would be reported as a violation:
 * run zod without its JIT in the browser (the API, under no CSP, keeps it).
 */
config({ jitless: true });
