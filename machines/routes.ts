/**
 * The route table: every path of the portal (spec §2), with its layout, its page and, for the steps of
 * a flow, the form and step it shows. The router, the menus, the sitemap page and the route tests all
 * read this one table. Framework-free: no React here, page ids are mapped to components in ui/.
 */

import { FOLLOW_UP_ENTRY_LIST, ONE_ROUTE_FOLLOW_UPS } from './forms/follow-up/entries';
import {
  CHILD_CARE_TITLE,
  FORM_SPECS,
  specOf,
  stepPath,
  type CatalogueKey,
  type FormSpec,
  type SpecKey,
} from './forms/catalogue-index';
import type { EntryKey, FormKey, Layout, PageId, RouteDef, SitemapGroup, StepKind } from './route-types';

const info = (
  path: string,
  page: PageId,
  titleKey: string,
  layout: Layout,
  group: SitemapGroup,
): RouteDef => ({
  path,
  page,
  titleKey,
  layout,
  group,
});

const entry = (path: string, key: EntryKey, group: SitemapGroup): RouteDef => ({
  path,
  page: 'entry',
  titleKey: `entry:${key}.title`,
  layout: 'noMenu',
  group,
  entry: key,
});

export const MENU_PAGES: RouteDef[] = [
  info('/', 'home', 'pages.home', 'menu', 'menu'),
  info('/about', 'about', 'pages.about', 'menu', 'menu'),
  info('/faq', 'faq', 'pages.faq', 'menu', 'menu'),
  info('/user-manual', 'userManual', 'pages.userManual', 'menu', 'menu'),
  info('/textsize', 'textsize', 'pages.textsize', 'menu', 'menu'),
  info('/important-notices', 'importantNotices', 'pages.importantNotices', 'menu', 'menu'),
  info('/terms&conditions', 'terms', 'pages.terms', 'menu', 'menu'),
  info('/privacy-policy', 'privacy', 'pages.privacy', 'menu', 'menu'),
  info('/sitemap', 'sitemap', 'pages.sitemap', 'menu', 'menu'),
];

export const INFO_PAGES: RouteDef[] = [
  info('/contact-us', 'contactUs', 'pages.contactUs', 'noMenu', 'information'),
  info('/guideline', 'guideline', 'pages.guideline', 'noMenu', 'selfCert'),
  entry('/school-premises', 'schoolPremises', 'apply'),
  entry('/registration-school', 'registrationSchool', 'apply'),
  entry('/extension-of-school-premises', 'extensionOfSchoolPremises', 'apply'),
  entry('/child-care-centre', 'childCareCentre', 'apply'),
  entry('/submit-child-care-centre', 'submitChildCareCentre', 'apply'),
  entry('/child-care-centre-in-kindergarten', 'childCareCentreInKindergarten', 'apply'),
  entry('/mutual-help-child-care-centre', 'mutualHelpChildCareCentre', 'apply'),
  // `?title=child-care-centre` shows the same screen for a registered child care centre (see entryKeyFor).
  entry('/alteration-of-registered-school', 'alterationOfRegisteredSchool', 'apply'),
  entry('/alteration-of-child-care', 'alterationOfChildCare', 'apply'),
  entry('/conducting-non-local-course', 'conductingNonLocalCourse', 'apply'),
  entry('/using-the-premises-for-conducting-non-local-course', 'usingPremisesNonLocalCourse', 'apply'),
  entry('/opt-school-premises-description', 'optSchoolPremisesDescription', 'selfCert'),
  entry('/opt-school-premises', 'optSchoolPremises', 'selfCert'),
  entry('/opt-child-care-centre-description', 'optChildCareCentreDescription', 'selfCert'),
  entry('/opt-child-care-centre', 'optChildCareCentre', 'selfCert'),
  entry('/opt-nlhp-description', 'optNlhpDescription', 'selfCert'),
  entry('/opt-nlhp', 'optNlhp', 'selfCert'),
];

/** The query value of `/enter-application-number?title=` for use of premises for a non-local course. */
export const NON_LOCAL_TITLE = 'non-local-course';

// Every form's identity and steps (its routes) come from the catalogue's index (machines/forms/catalogue-index.ts).

const formRoutes = (spec: FormSpec): RouteDef[] => {
  const total = spec.steps.length;
  const titleKey = `flows:forms.${spec.form}.${spec.pageTitle ? 'pageTitle' : 'title'}`;
  const steps = spec.steps.map((kind, i): RouteDef => ({
    path: stepPath(spec.slug, i + 1),
    layout: 'noMenu',
    page: 'flowStep',
    titleKey,
    group: i === 0 ? spec.group : 'hidden',
    flow: { form: spec.form, step: i + 1, total, kind, entryPath: spec.entryPath },
  }));
  if (spec.layoutPlan) {
    steps.push({
      path: `/form-${spec.slug}-upload`,
      layout: 'noMenu',
      page: 'flowStep',
      titleKey,
      group: 'hidden',
      flow: { form: spec.form, step: 0, total, kind: 'layoutPlan', entryPath: spec.entryPath },
    });
  }
  return steps;
};

const single = (path: string, form: FormKey, kind: StepKind, group: SitemapGroup): RouteDef => ({
  path,
  layout: 'noMenu',
  page: 'flowStep',
  titleKey: `flows:forms.${form}.title`,
  group,
  flow: { form, step: 1, total: 1, kind, entryPath: '/' },
});

/** The routes of the follow-up forms that have steps in the catalogue's index (the update forms). */
const followUpRoutes = new Set(
  FOLLOW_UP_ENTRY_LIST.flatMap((d) => (d.doneRoute && d.pagesOpen !== false ? [d.route, d.doneRoute] : [])),
);

export const FLOW_PAGES: RouteDef[] = [
  // A follow-up form of the catalogue's index (Update Application and School Information ...) is shown by
  // the case action page on its steps' routes.
  ...FORM_SPECS.flatMap(formRoutes).map((r): RouteDef =>
    followUpRoutes.has(r.path) ? { ...r, page: 'caseAction' } : r,
  ),
  // `?title=non-local-course` names the screen for use of premises for a non-local course.
  {
    ...single('/enter-application-number', 'enterApplicationNumber', 'enterApplicationNumber', 'after'),
    page: 'resume',
  },
  {
    path: '/case-history',
    layout: 'noMenu',
    page: 'caseHistory',
    titleKey: 'auth:history.title',
    group: 'hidden',
  },
  // The follow-up forms on one route come from their entries (machines/forms/follow-up/entries.ts).
  ...ONE_ROUTE_FOLLOW_UPS.map((d): RouteDef => ({
    ...single(d.route, d.key, d.key, 'after'),
    page: 'caseAction',
  })),
  // The second step of the appointment (spec §2): the appointments of the case, to follow, cancel or revoke.
  {
    path: '/form-appointment-step2',
    layout: 'noMenu',
    page: 'appointments',
    titleKey: 'appointment:manage.title',
    group: 'hidden',
  },
];

export const BARE_PAGES: RouteDef[] = [
  info('/health', 'health', 'pages.health', 'none', 'other'),
  info('/iamsmart', 'iamsmart', 'pages.iamsmart', 'none', 'hidden'),
  info('/pdf', 'pdf', 'pages.pdf', 'none', 'hidden'),
];

/**
 * Pages the spec names as screens without giving a path (the Find my case login, Help) and the development
 * outbox (its API answers only outside production). See docs/decisions/006-added-routes.md.
 */
export const ADDED_PAGES: RouteDef[] = [
  // Spec §2 lists Help among the informational pages without a path.
  info('/help', 'help', 'pages.help', 'noMenu', 'information'),
  // Anyone may check a letter the department issued (docs/decisions/038-sealed-letters.md).
  info('/verify', 'verify', 'pages.verify', 'noMenu', 'information'),
  {
    path: '/find-my-case',
    layout: 'noMenu',
    page: 'findMyCase',
    titleKey: 'auth:findMyCase.title',
    group: 'after',
  },
  // An AP's or RSE's invitation link and login (docs/decisions/020-appointments.md).
  {
    path: '/appointment-accept',
    layout: 'noMenu',
    page: 'appointmentAccept',
    titleKey: 'appointment:accept.title',
    group: 'hidden',
  },
  {
    path: '/appointee-login',
    layout: 'noMenu',
    page: 'appointeeLogin',
    titleKey: 'appointment:login.title',
    group: 'after',
  },
  // A logged-in AP's or RSE's own change of email or mobile (docs/decisions/025-registration-holders.md).
  {
    path: '/appointee-contact',
    layout: 'noMenu',
    page: 'appointeeContact',
    titleKey: 'appointment:contact.title',
    group: 'hidden',
  },
  {
    path: '/dev/outbox',
    layout: 'noMenu',
    page: 'devOutbox',
    titleKey: 'auth:outbox.title',
    group: 'hidden',
    noTab: true,
  },
  {
    path: '/dev/iamsmart',
    layout: 'noMenu',
    page: 'devIamSmart',
    titleKey: 'signing:phone.title',
    group: 'hidden',
    noTab: true,
  },
];

/** Every route of the portal. No route needs authentication (spec §2). */
export const ROUTES: RouteDef[] = [
  ...MENU_PAGES,
  ...INFO_PAGES,
  ...FLOW_PAGES,
  ...BARE_PAGES,
  ...ADDED_PAGES,
];

const byPath = new Map(ROUTES.map((r) => [r.path, r]));

/** The route for a pathname, or undefined (the router then redirects to `/`). */
export function findRoute(pathname: string): RouteDef | undefined {
  return byPath.get(decodePath(pathname));
}

function decodePath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/** The guard of spec §2: a route that needs authentication redirects to `/` when there is no token. */
export function guardRedirect(route: Pick<RouteDef, 'requiresAuth'>, hasToken: boolean): string | null {
  return route.requiresAuth && !hasToken ? '/' : null;
}

/** The entry page content for a route and its query string (the `title` variant of spec §2). */
export function entryKeyFor(route: RouteDef, search: string): EntryKey | undefined {
  if (
    route.entry === 'alterationOfRegisteredSchool' &&
    new URLSearchParams(search).get('title') === CHILD_CARE_TITLE
  ) {
    return 'alterationOfRegisteredChildCareCentre';
  }
  return route.entry;
}

/** The first step of a form, for the links of entry pages and menus. */
export function firstStepPath(form: SpecKey): string {
  return stepPath(specOf(form).slug, 1);
}

/** The forms an entry page starts (its "Start ... online" links). */
export const ENTRY_FORMS: Partial<Record<EntryKey, CatalogueKey[]>> = {
  registrationSchool: ['a2'],
  extensionOfSchoolPremises: ['b2'],
  usingPremisesNonLocalCourse: ['c2'],
  alterationOfRegisteredSchool: ['e2'],
  alterationOfRegisteredChildCareCentre: ['f2'],
  conductingNonLocalCourse: ['g2'],
  submitChildCareCentre: ['cccaiC2'],
  childCareCentreInKindergarten: ['edbJokc02'],
  mutualHelpChildCareCentre: ['cccaiMh3'],
  optSchoolPremises: ['scs1', 'scs2'],
  optChildCareCentre: ['scc1', 'scc2'],
  optNlhp: ['scn1'],
};

/** The form code printed on a form ("A2", "CCCAI-C2", "SCS-1" ...), from its slug. */
export function formCode(form: SpecKey): string {
  return specOf(form).slug.toUpperCase();
}

/** The i18n key of a page's name, honouring the `?title=` variants of spec §2. */
export function titleKeyFor(route: RouteDef, search: string): string {
  const key = entryKeyFor(route, search);
  if (key && key !== route.entry) return `entry:${key}.title`;
  if (
    route.flow?.form === 'enterApplicationNumber' &&
    new URLSearchParams(search).get('title') === NON_LOCAL_TITLE
  ) {
    return 'flows:forms.enterApplicationNumberNonLocal.title';
  }
  return route.titleKey;
}

/** The i18n namespaces of the route titles (`auth:findMyCase.title` → `auth`; no prefix is `common`). */
export const TITLE_NAMESPACES: string[] = [
  ...new Set([
    'common',
    ...ROUTES.map((r) => (r.titleKey.includes(':') ? r.titleKey.split(':')[0] : 'common')),
  ]),
].filter((ns): ns is string => Boolean(ns));
