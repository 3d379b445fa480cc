/**
 * The access tokens of this browser's drafts, by application number. A draft's token is its
 * credential for saving and loading (POST /api/drafts issues it; resuming by one-time code issues a
 * new one on another device).
 */
const KEY = 'draft-tokens';

function read(): Record<string, string> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return typeof v === 'object' && v !== null ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function draftToken(applicationNo: string): string | undefined {
  const t = read()[applicationNo];
  return typeof t === 'string' ? t : undefined;
}

export function storeDraftToken(applicationNo: string, token: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...read(), [applicationNo]: token }));
  } catch {
    // Storage unavailable: the draft still saves for this page view.
  }
}
