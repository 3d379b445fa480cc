/**
 * The iAM Smart return (spec §2 `/iamsmart`, §4): on a phone the app opens directly and, when it is done,
 * sends the browser to `/iamsmart?code&state` or `?error_code`. Before that, the signing screen remembers
 * where the applicant was; the return page stores a status entry and goes back there, and the application
 * page turns an entry of type error into an error toast (the `FormA2` message of its code) after 2 seconds.
 * Kept in sessionStorage: the tab's own, gone when the tab closes.
 */
export interface StatusEntry {
  type: 'success' | 'error';
  /** The service's code: D70004, D70005 ... for an error; the authorisation code for a success. */
  code: string;
  /** The signing request (`state`) the answer is for, when the service gave it. */
  state: string | null;
}

const RETURN_KEY = 'iamsmart-return';
const STATUS_KEY = 'iamsmart-status';
const CODE = /^[A-Za-z0-9_-]{1,64}$/;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Remembers the page to come back to (a path of this site only). */
export function rememberReturnPath(path: string): void {
  if (path.startsWith('/') && !path.startsWith('//')) storage()?.setItem(RETURN_KEY, path);
}

/** The remembered path, once (it is forgotten when read). */
export function takeReturnPath(): string | null {
  const s = storage();
  const path = s?.getItem(RETURN_KEY) ?? null;
  s?.removeItem(RETURN_KEY);
  return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
}

/** The status entry of the return URL's parameters, or null when they carry none (or junk). */
export function statusEntryOf(params: URLSearchParams): StatusEntry | null {
  const state = params.get('state');
  const safeState = state && CODE.test(state) ? state : null;
  const error = params.get('error_code');
  if (error !== null) return { type: 'error', code: CODE.test(error) ? error : 'UNKNOWN', state: safeState };
  const code = params.get('code');
  if (code !== null && CODE.test(code)) return { type: 'success', code, state: safeState };
  return null;
}

export function storeStatusEntry(entry: StatusEntry): void {
  storage()?.setItem(STATUS_KEY, JSON.stringify(entry));
}

/** The stored status entry, once (it is removed when read); null when none or unreadable. */
export function takeStatusEntry(): StatusEntry | null {
  const s = storage();
  const raw = s?.getItem(STATUS_KEY);
  s?.removeItem(STATUS_KEY);
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<StatusEntry>;
    if ((v.type === 'error' || v.type === 'success') && typeof v.code === 'string' && CODE.test(v.code))
      return { type: v.type, code: v.code, state: typeof v.state === 'string' ? v.state : null };
  } catch {
    // Not ours: ignored.
  }
  return null;
}

/** The i18n key of an error entry's toast: `signing:FormA2.<code>`, or the general one for other codes. */
export const formA2MessageKey = (code: string, has: (key: string) => boolean): string =>
  has(`signing:FormA2.${code}`) ? `signing:FormA2.${code}` : 'signing:FormA2.default';
