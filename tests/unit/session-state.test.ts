import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SESSION_STATE,
  isLoggedIn,
  parseSessionState,
  serializeSessionState,
  SESSION_STATE_VERSION,
} from '../../machines/rules/session-state';

const stored = (v: Record<string, unknown>) => JSON.stringify({ version: SESSION_STATE_VERSION, ...v });

describe('stored session state', () => {
  it('gives the defaults for nothing stored', () => {
    expect(parseSessionState(null)).toEqual(DEFAULT_SESSION_STATE);
    expect(parseSessionState('')).toEqual(DEFAULT_SESSION_STATE);
  });

  it.each(['{', 'null', '[]', '"text"', '42', '{"version":1,'])(
    'ignores corrupt JSON %s without throwing',
    (raw) => {
      expect(parseSessionState(raw)).toEqual(DEFAULT_SESSION_STATE);
    },
  );

  it('ignores a state of another version', () => {
    expect(parseSessionState(JSON.stringify({ version: 0, language: 'en' }))).toEqual(DEFAULT_SESSION_STATE);
    expect(parseSessionState(JSON.stringify({ language: 'en' }))).toEqual(DEFAULT_SESSION_STATE);
  });

  it('round-trips a valid state', () => {
    const state = {
      ...DEFAULT_SESSION_STATE,
      language: 'sc' as const,
      theme: { primary: '#0E4465', dark: true, mode: 'gray' as const },
      componentSize: 'large' as const,
      isLogin: true,
      token: 'abc',
      applicationNo: 'A2-2026-000001',
      tabsList: [{ path: '/about', titleKey: 'pages.about' }],
      tabsActive: '/about',
    };
    expect(parseSessionState(serializeSessionState(state))).toEqual(state);
  });

  it('drops bad fields one by one and keeps the good ones', () => {
    const s = parseSessionState(
      stored({
        language: 'fr',
        theme: { primary: 'red;}', dark: 'yes', mode: 'neon' },
        componentSize: 'huge',
        tabsList: [
          { path: '/faq', titleKey: 'pages.faq' },
          { path: 'javascript:alert(1)', titleKey: 'x' },
          'junk',
        ],
        token: 42,
        applicationNo: 'B2-1',
      }),
    );
    expect(s.language).toBeNull();
    expect(s.theme).toEqual(DEFAULT_SESSION_STATE.theme);
    expect(s.componentSize).toBe('standard');
    expect(s.tabsList).toEqual([{ path: '/faq', titleKey: 'pages.faq' }]);
    expect(s.token).toBe('');
    expect(s.applicationNo).toBe('B2-1');
  });

  it('is logged in only with both the token and the login flag', () => {
    expect(isLoggedIn({ token: 't', isLogin: true })).toBe(true);
    expect(isLoggedIn({ token: '', isLogin: true })).toBe(false);
    expect(isLoggedIn({ token: 't', isLogin: false })).toBe(false);
    expect(parseSessionState(stored({ isLogin: true, token: '' })).isLogin).toBe(false);
  });
});
