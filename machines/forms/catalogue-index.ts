/**
 * The catalogue's index: every multi-step form of the portal (spec §2) with its key, route slug, steps,
 * where a person reads about it first and its sitemap group. The one source of a form's identity: the route
 * table (machines/routes.ts) makes its routes from here, and each definition of the catalogue takes its key,
 * slug and code from here (`formIdentity`), so nothing restates them. The key types are read off this table
 * (`SpecKey`, `CatalogueKey`, `SteppedFollowUpKey`, the step kinds), so a form is named once and a part
 * left out fails to compile (docs/forms.md "One key per form"). Light on purpose (no fields): the route
 * table is part of the first load.
 */
import type { SitemapGroup } from '../route-types';

/** The query value of `/alteration-of-registered-school?title=` that reuses the screen for a child care centre. */
export const CHILD_CARE_TITLE = 'child-care-centre';

interface FormSpecFacts {
  form: string;
  slug: string;
  steps: readonly string[];
  /**
   * Its routes are named by `flows:forms.<form>.pageTitle`, not by the form's title: the pages of Submit
   * Supporting Document also take a revised layout plan (spec §2).
   */
  pageTitle?: true;
  /** Has a `/form-<slug>-upload` page for the applicant's layout plan. */
  layoutPlan?: boolean;
  entryPath: string;
  /**
   * 'apply' and 'selfCert': a form of the catalogue (machines/forms/index.ts); 'after': a follow-up form with
   * steps of its own (machines/forms/follow-up/entries.ts).
   */
  group: SitemapGroup;
}

const APPLY4 = ['fill', 'preview', 'upload', 'success'] as const;
const SELF_CERT6 = [
  'fillPartA',
  'fillPartB',
  'letterOfRequirements',
  'preview',
  'upload',
  'success',
] as const;
const UPDATE2 = ['update', 'updateSuccess'] as const;

/** Every multi-step form with its exact steps (spec §2). */
export const FORM_SPECS = [
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
    steps: UPDATE2,
    entryPath: '/',
    group: 'after',
  },
  {
    form: 'updateInformationCccaic2',
    slug: 'usi-cccaic2',
    steps: UPDATE2,
    entryPath: '/',
    group: 'after',
  },
  {
    form: 'updateInformationJokc02',
    slug: 'usi-jokc02',
    steps: UPDATE2,
    entryPath: '/',
    group: 'after',
  },
  {
    form: 'updateInformationCccaimh3',
    slug: 'usi-cccaimh3',
    steps: UPDATE2,
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
] as const satisfies readonly FormSpecFacts[];

type SpecOf = (typeof FORM_SPECS)[number];

/** The key of a form of the index: 'a2', 'cccaiC2', 'scs1', 'updateInformation', 'submitDocument' ... */
export type SpecKey = SpecOf['form'];
/** The nine application forms. */
export type ApplicationKey = Extract<SpecOf, { group: 'apply' }>['form'];
/** The five self-certification forms. */
export type SelfCertKey = Extract<SpecOf, { group: 'selfCert' }>['form'];
/** The forms of the catalogue (machines/forms/index.ts): the applications and the self-certifications. */
export type CatalogueKey = ApplicationKey | SelfCertKey;
/** The follow-up forms with steps of their own here: the update forms and Submit Supporting Document. */
export type SteppedFollowUpKey = Extract<SpecOf, { group: 'after' }>['form'];
/** The kinds of the steps of the index's forms (keys of i18n `flows:steps.<kind>`). */
export type SpecStepKind = SpecOf['steps'][number];

/** A form of the index as the route table reads it. */
export interface FormSpec extends FormSpecFacts {
  form: SpecKey;
  steps: readonly SpecStepKind[];
}

/** The route of a form's step: `/form-<slug>-step<n>`, n from 1. */
export function stepPath(slug: string, n: number): string {
  return `/form-${slug}-step${n}`;
}

/** The index's entry of a form. */
export function specOf(key: SpecKey): FormSpec {
  const spec = FORM_SPECS.find((s) => s.form === key);
  // Cannot happen: SpecKey is read off FORM_SPECS.
  if (!spec) throw new Error(`form ${key} is not in the catalogue's index`);
  return spec;
}

/** A catalogue form's key, route slug and printed code ('cccaiC2', 'cccai-c2', 'CCCAI-C2'). */
export function formIdentity<K extends CatalogueKey>(key: K): { key: K; slug: string; code: string } {
  const { slug } = specOf(key);
  return { key, slug, code: slug.toUpperCase() };
}
