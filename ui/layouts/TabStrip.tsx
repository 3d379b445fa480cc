import { useEffect, useRef } from 'react';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { Link, useLocation, useMatches, useNavigate } from 'react-router-dom';
import { titleKeyFor } from '../../machines/routes';
import type { RouteHandle } from '../routing/route-objects';
import { useTranslation } from 'react-i18next';
import { getSession, updateSession, useSession } from '../session/store';
import { closeAllTabs, closeOtherTabs, closeTab, recordTab } from '../session/tabs';

/**
 * The pages opened in this visit, as tabs (spec §2 "Other screens"): each can be closed, and so can all
 * others or all. A list of links, each with its close button, so it works by keyboard and reads well in
 * a screen reader; the active one carries aria-current.
 */
export function TabStrip() {
  const session = useSession((s) => s);
  const location = useLocation();
  const route = useMatches()
    .map((m) => m.handle as RouteHandle | undefined)
    .find((h) => h?.route)?.route;
  // The page shown is a tab from its first paint (Root records it just after): the strip does not appear
  // late and push the page down, and the prerendered page already holds it.
  const { tabsList: tabs, tabsActive: active } =
    route && route.layout !== 'none' && !route.noTab
      ? recordTab(
          session,
          { path: location.pathname + location.search, titleKey: titleKeyFor(route, location.search) },
          { flow: Boolean(route.flow) },
        )
      : session;
  // Only the message files the tabs' titles are in (`entry:…`, `flows:…`; no prefix: common).
  const namespaces = [
    ...new Set(['common', ...tabs.map((tab) => /^(\w+):/.exec(tab.titleKey)?.[1] ?? 'common')]),
  ];
  const { t } = useTranslation(namespaces);
  const navigate = useNavigate();
  const list = useRef<HTMLUListElement>(null);

  // The current tab is always in view: the strip scrolls sideways to it (never the page).
  useEffect(() => {
    const strip = list.current;
    const tab = strip?.querySelector<HTMLElement>('.tab--active');
    if (!strip || !tab) return;
    const left = tab.offsetLeft - strip.offsetLeft;
    if (left < strip.scrollLeft) strip.scrollLeft = left;
    else if (left + tab.offsetWidth > strip.scrollLeft + strip.clientWidth)
      strip.scrollLeft = left + tab.offsetWidth - strip.clientWidth;
  }, [active, tabs.length]);
  if (tabs.length === 0) return null;

  const close = (path: string) => {
    const { state, goTo } = closeTab(getSession(), path);
    updateSession(() => state);
    if (goTo) void navigate(goTo);
  };

  return (
    <nav className="tab-strip" aria-label={t('tabs.label')}>
      <ul className="tab-strip__list" ref={list}>
        {tabs.map((tab) => {
          const title = t(tab.titleKey);
          const current = tab.path === active;
          return (
            <li key={tab.path} className={`tab ${current ? 'tab--active' : ''}`}>
              <Link
                to={tab.path}
                className="tab__link"
                title={title}
                aria-current={current ? 'page' : undefined}
              >
                {title}
              </Link>
              <Button
                className="tab__close"
                aria-label={t('tabs.close', { title })}
                onPress={() => close(tab.path)}
              >
                <span aria-hidden="true">×</span>
              </Button>
            </li>
          );
        })}
      </ul>
      <MenuTrigger>
        <Button className="tab-strip__more">{t('tabs.actions')}</Button>
        <Popover placement="bottom end" className="popover">
          <Menu
            className="menu"
            aria-label={t('tabs.actions')}
            onAction={(key) => {
              if (key === 'others') updateSession(closeOtherTabs);
              if (key === 'all') {
                updateSession(closeAllTabs);
                void navigate('/');
              }
            }}
          >
            <MenuItem id="others" className="menu__item">
              {t('tabs.closeOthers')}
            </MenuItem>
            <MenuItem id="all" className="menu__item">
              {t('tabs.closeAll')}
            </MenuItem>
          </Menu>
        </Popover>
      </MenuTrigger>
    </nav>
  );
}
