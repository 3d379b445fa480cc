/**
 * The types of the route table (machines/routes.ts): layouts, page ids, entry, step and form keys,
 * sitemap groups, and a route's definition. Types only, so importing them costs the UI nothing.
 */

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
  | 'appointeeLogin';

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

/** Keys of i18n `flows:steps.<kind>`. */
export type StepKind =
  | 'fill'
  | 'fillPartA'
  | 'fillPartB'
  | 'letterOfRequirements'
  | 'preview'
  | 'upload'
  | 'layoutPlan'
  | 'success'
  | 'update'
  | 'updateSuccess'
  | 'submitDocument'
  | 'uploadSuccess'
  | 'appointment'
  | 'appointmentSuccess'
  | 'enterApplicationNumber'
  | 'caseHistory'
  | 'requestForInspection'
  | 'withdrawApplication';

/** Keys of i18n `flows:forms.<key>`. */
export type FormKey =
  | 'a2'
  | 'b2'
  | 'c2'
  | 'e2'
  | 'f2'
  | 'g2'
  | 'cccaiC2'
  | 'edbJokc02'
  | 'cccaiMh3'
  | 'scs1'
  | 'scs2'
  | 'scc1'
  | 'scc2'
  | 'scn1'
  | 'updateInformation'
  | 'updateInformationCccaic2'
  | 'updateInformationJokc02'
  | 'updateInformationCccaimh3'
  | 'submitDocument'
  | 'appointment'
  | 'enterApplicationNumber'
  | 'caseHistory'
  | 'requestForInspection'
  | 'withdrawApplication';

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
