/**
 * The types of the route table (machines/routes.ts): layouts, page ids, entry, step and form keys,
 * sitemap groups, and a route's definition. Types only, so importing them costs the UI nothing.
 */
import type { SpecKey, SpecStepKind } from './forms/catalogue-index';
import type { FollowUpKey, OneRouteFollowUpKey } from './forms/follow-up/entries';

export type Layout = 'menu' | 'noMenu' | 'none';

/** Pages with their own component. Entry pages share `entry`, the steps of later flows share `flowStep`. */
export type PageId =
  | 'home'
  | 'about'
  | 'faq'
  | 'userManual'
  | 'textsize'
  | 'importantNotices'
  | 'terms'
  | 'privacy'
  | 'sitemap'
  | 'contactUs'
  | 'help'
  | 'guideline'
  | 'entry'
  | 'flowStep'
  | 'health'
  | 'iamsmart'
  | 'pdf'
  | 'findMyCase'
  | 'resume'
  | 'caseHistory'
  | 'caseAction'
  | 'devOutbox'
  | 'devIamSmart'
  | 'appointments'
  | 'appointmentAccept'
  | 'appointeeLogin'
  | 'appointeeContact'
  | 'verify';

/** Keys of i18n `entry:<key>`: the information and entry pages that lead to forms. */
export type EntryKey =
  | 'schoolPremises'
  | 'registrationSchool'
  | 'extensionOfSchoolPremises'
  | 'alterationOfRegisteredSchool'
  | 'alterationOfRegisteredChildCareCentre'
  | 'alterationOfChildCare'
  | 'childCareCentre'
  | 'submitChildCareCentre'
  | 'childCareCentreInKindergarten'
  | 'mutualHelpChildCareCentre'
  | 'conductingNonLocalCourse'
  | 'usingPremisesNonLocalCourse'
  | 'optSchoolPremisesDescription'
  | 'optSchoolPremises'
  | 'optChildCareCentreDescription'
  | 'optChildCareCentre'
  | 'optNlhpDescription'
  | 'optNlhp';

/** The resume page (`/enter-application-number`): a flow step of the route table's own, not a catalogue form. */
type ResumeKey = 'enterApplicationNumber';

/**
 * Keys of i18n `flows:steps.<kind>`: the steps of the catalogue index's forms, a form's layout plan page
 * (`/form-<slug>-upload`), the follow-ups on one route (the step is the form) and the resume page.
 */
export type StepKind = SpecStepKind | 'layoutPlan' | OneRouteFollowUpKey | ResumeKey;

/**
 * Keys of i18n `flows:forms.<key>`: the forms of the catalogue's index, the follow-up forms and the resume
 * page. Read off the catalogue's tables, never listed here (docs/forms.md "One key per form").
 */
export type FormKey = SpecKey | FollowUpKey | ResumeKey;

export type SitemapGroup = 'menu' | 'information' | 'apply' | 'selfCert' | 'after' | 'other' | 'hidden';

export interface FlowStep {
  form: FormKey;
  /** 1-based step number; 0 for a form's `-upload` (layout plan) page. */
  step: number;
  total: number;
  kind: StepKind;
  /** Where the applicant reads about the form before starting (the back link of the step page). */
  entryPath: string;
}

export interface RouteDef {
  path: string;
  layout: Layout;
  page: PageId;
  /** i18n key (namespace `common`) of the page's name: the tab label, the title and the sitemap entry. */
  titleKey: string;
  group: SitemapGroup;
  entry?: EntryKey;
  flow?: FlowStep;
  requiresAuth?: boolean;
  /** Development pages: never shown as a tab of the visit (they are opened beside the portal). */
  noTab?: true;
}
