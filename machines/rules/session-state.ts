import { isLanguage, type Language } from './language';

/**
 * The client session state of spec §3, persisted in localStorage under `redux-state`. The stored JSON is
 * versioned; anything corrupt, of another version or of the wrong shape is ignored field by field, so a bad
 * value never crashes the portal and never wipes the good ones.
 */
export const SESSION_STORAGE_KEY = 'redux-state';
export const SESSION_STATE_VERSION = 1;

export const THEME_MODES = ['normal', 'weak', 'gray'] as const;
export type ThemeMode = (typeof THEME_MODES)[number];
export const TEXT_SIZES = ['small', 'standard', 'large'] as const;
export type TextSize = (typeof TEXT_SIZES)[number];
export const PRIMARY_COLOUR = '#0E4465';

export interface TabEntry {
  path: string;
  titleKey: string;
}

export interface SessionState {
  version: typeof SESSION_STATE_VERSION;
  language: Language | null;
  theme: { primary: string; dark: boolean; mode: ThemeMode };
  /** Text size for the whole site (the /textsize page). */
  componentSize: TextSize;
  /** Size of layout assemblies (spacing); follows the text size. */
  assemblySize: TextSize;
  menuCollapse: boolean;
  isLogin: boolean;
  token: string;
  applicationNo: string;
  role: string;
  userId: string;
  tabsList: TabEntry[];
  tabsActive: string;
  /**
   * Authorised buttons and routes of the session's role, as the API answered them at login
   * (machines/rules/grants.ts); the API enforces the same tables on every request.
   */
  authButtons: string[];
  authRoutes: string[];
  breadcrumbs: string[];
}

export const DEFAULT_SESSION_STATE: SessionState = {
  version: SESSION_STATE_VERSION,
  language: null,
  theme: { primary: PRIMARY_COLOUR, dark: false, mode: 'normal' },
  componentSize: 'standard',
  assemblySize: 'standard',
  menuCollapse: false,
  isLogin: false,
  token: '',
  applicationNo: '',
  role: '',
  userId: '',
  tabsList: [],
  tabsActive: '',
  authButtons: [],
  authRoutes: [],
  breadcrumbs: [],
};

const MAX_TABS = 20;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, d: string, max = 512): string => (typeof v === 'string' && v.length <= max ? v : d);
const bool = (v: unknown, d: boolean): boolean => (typeof v === 'boolean' ? v : d);
const oneOf = <T extends string>(v: unknown, all: readonly T[], d: T): T =>
  typeof v === 'string' && (all as readonly string[]).includes(v) ? (v as T) : d;
const strList = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.filter((x): x is string => typeof x === 'string' && x.length <= 512).slice(0, 200)
    : [];
const HEX = /^#[0-9a-fA-F]{6}$/;

function tabs(v: unknown): TabEntry[] {
  if (!Array.isArray(v)) return [];
  const out: TabEntry[] = [];
  for (const t of v) {
    if (isRec(t) && typeof t.path === 'string' && t.path.startsWith('/') && typeof t.titleKey === 'string') {
      if (!out.some((o) => o.path === t.path))
        out.push({ path: t.path.slice(0, 512), titleKey: t.titleKey.slice(0, 200) });
    }
  }
  return out.slice(-MAX_TABS);
}

/** Parse the stored text; never throws. */
export function parseSessionState(raw: string | null | undefined): SessionState {
  if (!raw) return structuredClone(DEFAULT_SESSION_STATE);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return structuredClone(DEFAULT_SESSION_STATE);
  }
  if (!isRec(value) || value.version !== SESSION_STATE_VERSION) return structuredClone(DEFAULT_SESSION_STATE);
  const d = DEFAULT_SESSION_STATE;
  const theme = isRec(value.theme) ? value.theme : {};
  const token = str(value.token, '', 2048);
  const state: SessionState = {
    version: SESSION_STATE_VERSION,
    language: isLanguage(value.language) ? value.language : null,
    theme: {
      primary: typeof theme.primary === 'string' && HEX.test(theme.primary) ? theme.primary : d.theme.primary,
      dark: bool(theme.dark, false),
      mode: oneOf(theme.mode, THEME_MODES, 'normal'),
    },
    componentSize: oneOf(value.componentSize, TEXT_SIZES, d.componentSize),
    assemblySize: oneOf(value.assemblySize, TEXT_SIZES, d.assemblySize),
    menuCollapse: bool(value.menuCollapse, false),
    // Logged in means a token and the flag together (spec §4); a flag without a token is not kept.
    isLogin: bool(value.isLogin, false) && token !== '',
    token,
    applicationNo: str(value.applicationNo, '', 64),
    role: str(value.role, '', 64),
    userId: str(value.userId, '', 128),
    tabsList: tabs(value.tabsList),
    tabsActive: str(value.tabsActive, ''),
    authButtons: strList(value.authButtons),
    authRoutes: strList(value.authRoutes),
    breadcrumbs: strList(value.breadcrumbs),
  };
  return state;
}

export function serializeSessionState(state: SessionState): string {
  return JSON.stringify(state);
}

/** Logged in versus out: the token plus the login flag (spec §4). */
export function isLoggedIn(state: Pick<SessionState, 'token' | 'isLogin'>): boolean {
  return state.isLogin && state.token !== '';
}
