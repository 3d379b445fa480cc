/**
 * The header's menu groups and their links (machines/routes.ts re-exports them): plain data, no imports,
 * so the UI's first chunk reads them at no cost.
 */

export interface MenuLink {
  labelKey: string;
  to: string;
  /** Shown only when logged in. */
  loggedInOnly?: boolean;
  /** Shown only when logged out. */
  loggedOutOnly?: boolean;
}
export interface MenuGroup {
  id: 'apply' | 'manage' | 'information' | 'help';
  labelKey: string;
  sections: { labelKey?: string; links: MenuLink[] }[];
}

/** The four menu groups of the header (accordion on small screens, main menu on large ones). */
export const MENU_GROUPS: MenuGroup[] = [
  {
    id: 'apply',
    labelKey: 'menu.groups.apply',
    sections: [
      {
        labelKey: 'menu.schoolPremises',
        links: [
          { labelKey: 'menu.newSchoolRegistration', to: '/registration-school' },
          { labelKey: 'menu.extensionOfSchoolPremises', to: '/extension-of-school-premises' },
          { labelKey: 'menu.alterationOfRegisteredSchool', to: '/alteration-of-registered-school' },
        ],
      },
      {
        labelKey: 'menu.childCareCentre',
        links: [
          { labelKey: 'menu.childCareCentreItem', to: '/submit-child-care-centre' },
          { labelKey: 'menu.childCareCentreInKindergarten', to: '/child-care-centre-in-kindergarten' },
          { labelKey: 'menu.mutualHelpChildCareCentre', to: '/mutual-help-child-care-centre' },
          { labelKey: 'menu.alterationOfRegisteredChildCareCentre', to: '/alteration-of-child-care' },
        ],
      },
      {
        links: [
          { labelKey: 'menu.nonLocalCourse', to: '/conducting-non-local-course' },
          { labelKey: 'menu.selfCertification', to: '/guideline' },
        ],
      },
    ],
  },
  {
    id: 'manage',
    labelKey: 'menu.groups.manage',
    sections: [
      {
        links: [
          { labelKey: 'menu.submitSupportingDocument', to: '/form-submit-doc-step1' },
          { labelKey: 'menu.submitRevisedLayoutPlan', to: '/form-submit-doc-step1?type=layout-plan' },
          { labelKey: 'menu.updateApplication', to: '/form-usi-step1' },
          { labelKey: 'menu.appointment', to: '/form-appointment-step1' },
          { labelKey: 'menu.requestForInspection', to: '/request-for-inspection' },
          { labelKey: 'menu.withdrawApplication', to: '/withdraw-application' },
          { labelKey: 'menu.resumeApplication', to: '/enter-application-number' },
          { labelKey: 'menu.findMyCase', to: '/find-my-case', loggedOutOnly: true },
          { labelKey: 'menu.appointeeLogin', to: '/appointee-login', loggedOutOnly: true },
          { labelKey: 'menu.caseHistory', to: '/case-history', loggedInOnly: true },
        ],
      },
    ],
  },
  {
    id: 'information',
    labelKey: 'menu.groups.information',
    sections: [
      {
        links: [
          { labelKey: 'pages.about', to: '/about' },
          { labelKey: 'pages.userManual', to: '/user-manual' },
          { labelKey: 'pages.faq', to: '/faq' },
          { labelKey: 'pages.guideline', to: '/guideline' },
          { labelKey: 'pages.importantNotices', to: '/important-notices' },
        ],
      },
    ],
  },
  {
    id: 'help',
    labelKey: 'menu.groups.help',
    sections: [
      {
        links: [
          { labelKey: 'pages.help', to: '/help' },
          { labelKey: 'pages.contactUs', to: '/contact-us' },
          { labelKey: 'pages.textsize', to: '/textsize' },
          { labelKey: 'pages.sitemap', to: '/sitemap' },
          { labelKey: 'pages.terms', to: '/terms&conditions' },
          { labelKey: 'pages.privacy', to: '/privacy-policy' },
        ],
      },
    ],
  },
];
