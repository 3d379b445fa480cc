import type { SessionState, TabEntry } from '../../machines/rules/session-state';

const MAX_TABS = 20;

/**
 * Open (or activate) the tab of the page just shown. Home is always the first tab. The steps of one
 * flow share one tab (`flow`: a tab with the same title is that flow's), which follows the step shown.
 */
export function recordTab(s: SessionState, tab: TabEntry, options: { flow?: boolean } = {}): SessionState {
  const same = (t: TabEntry) => t.path === tab.path || (options.flow === true && t.titleKey === tab.titleKey);
  const exists = s.tabsList.some(same);
  if (exists && s.tabsActive === tab.path && s.tabsList.some((t) => t.path === tab.path)) return s;
  const list = exists
    ? s.tabsList.filter((t, i, all) => !same(t) || all.findIndex(same) === i).map((t) => (same(t) ? tab : t))
    : [...s.tabsList, tab].slice(-MAX_TABS);
  return { ...s, tabsList: list, tabsActive: tab.path };
}

/** Close one tab; answers the path to show next when the active tab was closed, else null. */
export function closeTab(s: SessionState, path: string): { state: SessionState; goTo: string | null } {
  const index = s.tabsList.findIndex((t) => t.path === path);
  if (index < 0) return { state: s, goTo: null };
  const list = s.tabsList.filter((t) => t.path !== path);
  if (s.tabsActive !== path) return { state: { ...s, tabsList: list }, goTo: null };
  const next = list[Math.min(index, list.length - 1)]?.path ?? '/';
  return { state: { ...s, tabsList: list, tabsActive: next }, goTo: next };
}

export function closeOtherTabs(s: SessionState): SessionState {
  return { ...s, tabsList: s.tabsList.filter((t) => t.path === s.tabsActive) };
}

export const HOME_TAB: TabEntry = { path: '/', titleKey: 'pages.home' };

/** Close every tab; the portal goes home, so the home tab is the one left. */
export function closeAllTabs(s: SessionState): SessionState {
  return { ...s, tabsList: [HOME_TAB], tabsActive: HOME_TAB.path };
}
