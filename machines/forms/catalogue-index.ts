/**
 * The catalogue's index: every multi-step form of the portal (spec §2) with its key, route slug, steps,
 * where a person reads about it first and its sitemap group. The one source of a form's identity: the route
 * table (machines/routes.ts) makes its routes from here, and each definition of the catalogue takes its key,
 * slug and code from here (`formIdentity`), so nothing restates them. Light on purpose (no fields): the route
 * table is part of the first load.
 */
import type { FormKey, SitemapGroup, StepKind } from '../routes';

/** The query value of `/alteration-of-registered-school?title=` that reuses the screen for a child care centre. */
export const CHILD_CARE_TITLE = 'child-care-centre';

export interface FormSpec {
  form: FormKey;
  slug: string;
  steps: StepKind[];
  /**
   * Its routes are named by `flows:forms.<form>.pageTitle`, not by the form's title: the pages of Submit
   * Supporting Document also take a revised layout plan (spec §2).
   */
  pageTitle?: true;
  /** Has a `/form-<slug>-upload` page for the applicant's layout plan. */
  layoutPlan?: boolean;
  entryPath: string;
  group: SitemapGroup;
}

const APPLY4: StepKind[] = ['fill', 'preview', 'upload', 'success'];
const SELF_CERT6: StepKind[] = [
  'fillPartA',
  'fillPartB',
  'letterOfRequirements',
  'preview',
  'upload',
  'success',
];

/** Every multi-step form with its exact steps (spec §2). */
export const FORM_SPECS: FormSpec[] = [
  { form: 'a2', slug: 'a2', steps: APPLY4, entryPath: '/registration-school', group: 'apply' },
  { form: 'b2', slug: 'b2', steps: APPLY4, entryPath: '/extension-of-school-premises', group: 'apply' },
  {
    form: 'c2',
    slug: 'c2',
    steps: APPLY4,
    entryPath: '/using-the-premises-for-conducting-non-local-course',
    group: 'apply',
  },
  { form: 'e2', slug: 'e2', steps: APPLY4, entryPath: '/alteration-of-registered-school', group: 'apply' },
  {
    form: 'f2',
    slug: 'f2',
    steps: APPLY4,
    entryPath: `/alteration-of-registered-school?title=${CHILD_CARE_TITLE}`,
    group: 'apply',
  },
  { form: 'g2', slug: 'g2', steps: APPLY4, entryPath: '/conducting-non-local-course', group: 'apply' },
  {
    form: 'cccaiC2',
    slug: 'cccai-c2',
    steps: APPLY4,
    entryPath: '/submit-child-care-centre',
    group: 'apply',
  },
  {
    form: 'edbJokc02',
    slug: 'edb-jokc02',
    steps: APPLY4,
    entryPath: '/child-care-centre-in-kindergarten',
    group: 'apply',
  },
  {
    form: 'cccaiMh3',
    slug: 'cccai-mh3',
    steps: APPLY4,
    entryPath: '/mutual-help-child-care-centre',
    group: 'apply',
  },
  {
    form: 'scc1',
    slug: 'scc-1',
    steps: SELF_CERT6,
    layoutPlan: true,
    entryPath: '/opt-child-care-centre',
    group: 'selfCert',
  },
  {
    form: 'scc2',
    slug: 'scc-2',
    // SC(C)-2, alteration of a registered centre, has no Letter of Requirements step: five steps.
    steps: ['fillPartA', 'fillPartB', 'preview', 'upload', 'success'],
    layoutPlan: true,
    entryPath: '/opt-child-care-centre',
    group: 'selfCert',
  },
  {
    form: 'scs1',
    slug: 'scs-1',
    steps: SELF_CERT6,
    layoutPlan: true,
    entryPath: '/opt-school-premises',
    group: 'selfCert',
  },
  {
    form: 'scs2',
    slug: 'scs-2',
    steps: SELF_CERT6,
    layoutPlan: true,
    entryPath: '/opt-school-premises',
    group: 'selfCert',
  },
  {
    form: 'scn1',
    slug: 'scn-1',
    steps: SELF_CERT6,
    layoutPlan: true,
    entryPath: '/opt-nlhp',
    group: 'selfCert',
  },
  {
    form: 'updateInformation',
    slug: 'usi',
    steps: ['update', 'updateSuccess'],
    entryPath: '/',
    group: 'after',
  },
  {
    form: 'updateInformationCccaic2',
    slug: 'usi-cccaic2',
    steps: ['update', 'updateSuccess'],
    entryPath: '/',
    group: 'after',
  },
  {
    form: 'updateInformationJokc02',
    slug: 'usi-jokc02',
    steps: ['update', 'updateSuccess'],
    entryPath: '/',
    group: 'after',
  },
  {
    form: 'updateInformationCccaimh3',
    slug: 'usi-cccaimh3',
    steps: ['update', 'updateSuccess'],
    entryPath: '/',
    group: 'after',
  },
  {
    form: 'submitDocument',
    slug: 'submit-doc',
    steps: ['submitDocument', 'uploadSuccess'],
    pageTitle: true,
    entryPath: '/',
    group: 'after',
  },
];

/** A catalogue form's key, route slug and printed code ('cccaiC2', 'cccai-c2', 'CCCAI-C2'). */
export function formIdentity(key: FormKey): { key: FormKey; slug: string; code: string } {
  const spec = FORM_SPECS.find((s) => s.form === key);
  if (!spec) throw new Error(`form ${key} is not in the catalogue's index`);
  return { key, slug: spec.slug, code: spec.slug.toUpperCase() };
}
