import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PageId, RouteDef } from '../../machines/route-types';

export interface PageProps {
  route: RouteDef;
}

type LazyPage = LazyExoticComponent<ComponentType<PageProps>>;

const infoPage = lazy(() => import('./InfoPage'));

/** Every page id of the route table has a lazily loaded component (the compiler checks the record). */
const PAGES: Record<PageId, LazyPage> = {
  home: lazy(() => import('./HomePage')),
  about: infoPage,
  faq: infoPage,
  userManual: infoPage,
  importantNotices: infoPage,
  terms: infoPage,
  privacy: infoPage,
  contactUs: infoPage,
  help: infoPage,
  guideline: infoPage,
  textsize: lazy(() => import('./TextSizePage')),
  sitemap: lazy(() => import('./SitemapPage')),
  entry: lazy(() => import('./EntryPage')),
  flowStep: lazy(() => import('./FlowPage')),
  health: lazy(() => import('./HealthPage')),
  iamsmart: lazy(() => import('./IAmSmartPage')),
  pdf: lazy(() => import('./PdfPage')),
  findMyCase: lazy(() => import('../flows/login/FindMyCasePage')),
  resume: lazy(() => import('../flows/apply/ResumePage')),
  caseHistory: lazy(() => import('./CaseHistoryPage')),
  caseAction: lazy(() => import('../flows/case/CaseActionPage')),
  devOutbox: lazy(() => import('./DevOutboxPage')),
  devIamSmart: lazy(() => import('./DevIamSmartPage')),
  appointments: lazy(() => import('../flows/appointment/AppointmentsPage')),
  appointmentAccept: lazy(() => import('../flows/appointment/AppointmentAcceptPage')),
  appointeeLogin: lazy(() => import('../flows/appointment/AppointeeLoginPage')),
  appointeeContact: lazy(() => import('../flows/appointment/AppointeeContactPage')),
  verify: lazy(() => import('./VerifyPage')),
};

export function PageFor({ route }: PageProps) {
  const Page = PAGES[route.page];
  return <Page route={route} />;
}
