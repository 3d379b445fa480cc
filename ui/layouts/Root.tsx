import { useEffect } from 'react';
import {
  Outlet,
  useHref,
  useLocation,
  useMatches,
  useNavigate,
  type NavigateOptions,
} from 'react-router-dom';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { titleKeyFor } from '../../machines/routes';
import type { RouteHandle } from '../routing/route-objects';
import { updateSession, useSession } from '../session/store';
import { applyHtmlLang, rememberLanguage } from '../i18n';
import { useApplyTheme } from '../theme/use-apply-theme';
import { recordTab } from '../session/tabs';
import { setNavigateHome } from '../api';
import { LoadingFeedback, Toaster } from '../feedback/Feedback';

declare module 'react-aria-components' {
  interface RouterConfig {
    routerOptions: NavigateOptions;
  }
}

/** Everything above the layouts: client routing for react-aria links, theme, language and the tab list. */
export function Root() {
  const navigate = useNavigate();
  const location = useLocation();
  const matches = useMatches();
  const { i18n } = useTranslation();
  const language = useSession((s) => s.language);
  useApplyTheme();
  useEffect(() => setNavigateHome(() => void navigate('/')), [navigate]);

  // The stored choice also goes to the server, which picks the prerendered page's language by it.
  useEffect(() => {
    if (language) rememberLanguage(language);
  }, [language]);

  // A language chosen in another tab (or restored) is applied here too.
  useEffect(() => {
    if (language && language !== i18n.language) {
      void i18n.changeLanguage(language);
      applyHtmlLang(language);
    }
  }, [language, i18n]);

  const handle = matches.map((m) => m.handle as RouteHandle | undefined).find((h) => h?.route);
  const route = handle?.route;
  useEffect(() => {
    if (!route || route.layout === 'none' || route.noTab) return;
    const path = location.pathname + location.search;
    updateSession((s) =>
      recordTab(s, { path, titleKey: titleKeyFor(route, location.search) }, { flow: Boolean(route.flow) }),
    );
  }, [route, location.pathname, location.search]);

  return (
    <AriaRouterProvider navigate={(to, options) => void navigate(to, options)} useHref={useHref}>
      <Toaster />
      <LoadingFeedback />
      <Outlet />
    </AriaRouterProvider>
  );
}
