import { describe, expect, it } from 'vitest';
import {
  ADDED_PAGES,
  ENTRY_FORMS,
  findRoute,
  firstStepPath,
  ROUTES,
  entryKeyFor,
  titleKeyFor,
} from '../../machines/routes';
import { MENU_GROUPS } from '../../machines/route-menu';
import { FORM_SPECS } from '../../machines/forms/catalogue-index';

/** Every path of spec §2, written out by hand from the spec so that the table is checked against it. */
const steps = (slug: string, n: number) => Array.from({ length: n }, (_, i) => `/form-${slug}-step${i + 1}`);
const SPEC_PATHS = [
  // Menu layout
  '/',
  '/about',
  '/faq',
  '/user-manual',
  '/textsize',
  '/important-notices',
  '/terms&conditions',
  '/privacy-policy',
  '/sitemap',
  // No-menu information and entry pages
  '/contact-us',
  '/school-premises',
  '/registration-school',
  '/extension-of-school-premises',
  '/child-care-centre',
  '/submit-child-care-centre',
  '/child-care-centre-in-kindergarten',
  '/mutual-help-child-care-centre',
  '/alteration-of-registered-school',
  '/alteration-of-child-care',
  '/conducting-non-local-course',
  '/using-the-premises-for-conducting-non-local-course',
  '/guideline',
  '/opt-school-premises-description',
  '/opt-school-premises',
  '/opt-child-care-centre-description',
  '/opt-child-care-centre',
  '/opt-nlhp-description',
  '/opt-nlhp',
  // Multi-step application forms
  ...['a2', 'b2', 'c2', 'e2', 'f2', 'g2', 'cccai-c2', 'edb-jokc02', 'cccai-mh3'].flatMap((f) => steps(f, 4)),
  ...steps('scc-1', 6),
  '/form-scc-1-upload',
  ...steps('scc-2', 5),
  '/form-scc-2-upload',
  ...steps('scs-1', 6),
  '/form-scs-1-upload',
  ...steps('scs-2', 6),
  '/form-scs-2-upload',
  ...steps('scn-1', 6),
  '/form-scn-1-upload',
  // Update-information forms
  ...['usi', 'usi-cccaic2', 'usi-jokc02', 'usi-cccaimh3'].flatMap((f) => steps(f, 2)),
  // Other forms and pages
  ...steps('submit-doc', 2),
  ...steps('appointment', 2),
  '/enter-application-number',
  '/case-history',
  '/request-for-inspection',
  '/withdraw-application',
  // Layout-free
  '/health',
  '/iamsmart',
  '/pdf',
];

describe('route table', () => {
  it('holds every path of the spec, and besides them only the documented additions', () => {
    const added = ADDED_PAGES.map((r) => r.path);
    expect(added).toEqual([
      '/help',
      '/verify',
      '/find-my-case',
      '/appointment-accept',
      '/appointee-login',
      '/appointee-contact',
      '/dev/outbox',
      '/dev/iamsmart',
    ]);
    expect(ROUTES.map((r) => r.path).sort()).toEqual([...new Set([...SPEC_PATHS, ...added])].sort());
  });

  it('lists each path once, even the step the spec registers twice', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.filter((p) => p === '/form-scc-2-step5')).toHaveLength(1);
  });

  it('gives the menu layout to the nine menu pages only and no layout to /health, /iamsmart and /pdf', () => {
    expect(ROUTES.filter((r) => r.layout === 'menu').map((r) => r.path)).toEqual(SPEC_PATHS.slice(0, 9));
    expect(ROUTES.filter((r) => r.layout === 'none').map((r) => r.path)).toEqual([
      '/health',
      '/iamsmart',
      '/pdf',
    ]);
  });

  it('marks no route as needing authentication', () => {
    expect(ROUTES.filter((r) => r.requiresAuth)).toEqual([]);
  });

  it('numbers each form step and gives its total', () => {
    expect(findRoute('/form-scc-2-step5')?.flow).toMatchObject({
      form: 'scc2',
      step: 5,
      total: 5,
      kind: 'success',
    });
    expect(findRoute('/form-scs-1-upload')?.flow).toMatchObject({
      form: 'scs1',
      step: 0,
      kind: 'layoutPlan',
    });
    expect(findRoute('/form-a2-step1')?.flow).toMatchObject({ step: 1, total: 4, kind: 'fill' });
  });

  it('finds /terms&conditions whether or not the ampersand is percent-encoded', () => {
    expect(findRoute('/terms%26conditions')?.page).toBe('terms');
    expect(findRoute('/terms&conditions')?.page).toBe('terms');
    expect(findRoute('/nope')).toBeUndefined();
  });

  it('reuses the alteration screen for a child care centre through ?title=', () => {
    const route = findRoute('/alteration-of-registered-school');
    expect(route && entryKeyFor(route, '?title=child-care-centre')).toBe(
      'alterationOfRegisteredChildCareCentre',
    );
    expect(route && entryKeyFor(route, '')).toBe('alterationOfRegisteredSchool');
    expect(route && titleKeyFor(route, '?title=child-care-centre')).toBe(
      'entry:alterationOfRegisteredChildCareCentre.title',
    );
  });

  it('names the non-local course variant of /enter-application-number', () => {
    const route = findRoute('/enter-application-number');
    expect(route && titleKeyFor(route, '?title=non-local-course')).toBe(
      'flows:forms.enterApplicationNumberNonLocal.title',
    );
  });

  it('names the pages of a follow-up form by its one key, Submit Supporting Document by its page title', () => {
    expect(findRoute('/form-usi-step1')?.titleKey).toBe('flows:forms.updateInformation.title');
    expect(findRoute('/form-usi-cccaic2-step2')?.titleKey).toBe('flows:forms.updateInformationCccaic2.title');
    for (const path of ['/form-submit-doc-step1', '/form-submit-doc-step2'])
      expect(findRoute(path)?.titleKey).toBe('flows:forms.submitDocument.pageTitle');
  });

  it('links every entry form and menu entry to a route of the table', () => {
    for (const forms of Object.values(ENTRY_FORMS))
      for (const f of forms) expect(findRoute(firstStepPath(f))).toBeDefined();
    for (const spec of FORM_SPECS) expect(findRoute(spec.entryPath.split('?')[0] ?? '')).toBeDefined();
    const links = MENU_GROUPS.flatMap((g) => g.sections.flatMap((s) => s.links));
    for (const link of links) expect(findRoute(link.to.split('?')[0] ?? ''), link.to).toBeDefined();
  });

  it('has four menu groups carrying the ten application menu entries of the spec', () => {
    expect(MENU_GROUPS).toHaveLength(4);
    const keys = MENU_GROUPS.flatMap((g) =>
      g.sections.flatMap((s) => [s.labelKey, ...s.links.map((l) => l.labelKey)]),
    );
    for (const k of [
      'menu.schoolPremises',
      'menu.newSchoolRegistration',
      'menu.extensionOfSchoolPremises',
      'menu.alterationOfRegisteredSchool',
      'menu.childCareCentre',
      'menu.childCareCentreInKindergarten',
      'menu.mutualHelpChildCareCentre',
      'menu.alterationOfRegisteredChildCareCentre',
      'menu.nonLocalCourse',
      'menu.selfCertification',
      'menu.submitSupportingDocument',
      'menu.submitRevisedLayoutPlan',
      'menu.updateApplication',
      'menu.appointment',
      'menu.requestForInspection',
      'menu.withdrawApplication',
    ])
      expect(keys).toContain(k);
  });
});

describe('the follow-up entries the route table reads', () => {
  it('name each follow-up of the catalogue with its own key, event and routes', async () => {
    const { FOLLOW_UP_CATALOGUE } = await import('../../machines/forms/follow-up/catalogue');
    const { FOLLOW_UP_ENTRY_LIST, followUpEntry } = await import('../../machines/forms/follow-up/entries');
    expect(FOLLOW_UP_ENTRY_LIST.map((e) => e.key).sort()).toEqual(Object.keys(FOLLOW_UP_CATALOGUE).sort());
    for (const [property, d] of Object.entries(FOLLOW_UP_CATALOGUE)) {
      const { key, event, route, doneRoute, pagesOpen } = d;
      expect(key).toBe(property);
      expect({ key, event, route, doneRoute, pagesOpen }).toEqual({
        doneRoute: undefined,
        pagesOpen: undefined,
        ...followUpEntry(d.key),
      });
    }
  });

  it('give the follow-ups with steps in the catalogue index the routes of their first and last steps', async () => {
    const { followUpEntry } = await import('../../machines/forms/follow-up/entries');
    expect(followUpEntry('updateInformation')).toMatchObject({
      route: '/form-usi-step1',
      doneRoute: '/form-usi-step2',
    });
    expect(followUpEntry('submitDocument')).toMatchObject({
      route: '/form-submit-doc-step1',
      doneRoute: '/form-submit-doc-step2',
    });
  });
});

describe('the flows of the route table', () => {
  it('open a real form on every step: no route is left a "not open yet" page', async () => {
    const { ROUTES } = await import('../../machines/routes');
    const { FORM_CATALOGUE } = await import('../../machines/forms');
    const planned = ROUTES.filter(
      (r) => r.page === 'flowStep' && !(r.flow !== undefined && r.flow.form in FORM_CATALOGUE),
    ).map((r) => r.path);
    expect(planned).toEqual([]);
    // Submit Supporting Document's two steps are the case action page's.
    for (const path of ['/form-submit-doc-step1', '/form-submit-doc-step2'])
      expect(ROUTES.find((r) => r.path === path)?.page).toBe('caseAction');
  });
});
