/**
 * Parts of the example applications (a complete, valid set of answers per form): the same applicant,
 * an organisation, applying for premises in Focal Industrial Centre, Hung Hom. Each form file adds
 * its own answers. The HKIC A1234563 is the textbook example (check digit 3), not a real person's.
 */

export const PARTIES_EXAMPLE = {
  applyingAs: 'organisation',
  applicantTitle: 'ms',
  applicantNameEn: 'CHAN Tai Man',
  applicantNameZh: '陳大文',
  applicantPostTitle: 'School Supervisor',
  applicantHkic: 'A1234563',
  applicantEmail: 'chan.taiman@example.org.hk',
  applicantMobile: '9123 4567',
  orgNameEn: 'Harbour Education Foundation Limited',
  orgNameZh: '海港教育基金有限公司',
  orgAddress: 'Room 1201, 12/F, Central Plaza, 18 Harbour Road, Wan Chai, Hong Kong',
  orgTelephone: '2123 4567',
  correspondenceAddress: 'Room 1201, 12/F, Central Plaza, 18 Harbour Road, Wan Chai, Hong Kong',
  contactName: 'LEE Siu Ming',
  contactEmail: 'lee.siuming@example.org.hk',
  contactMobile: '+852 6123 4567',
  contactTelephone: '3123 4567',
  contactFax: '2123 4568',
} as const;

export const PREMISES_EXAMPLE = {
  premisesAddress: {
    en: 'Focal Industrial Centre, 21 Man Lok Street, Hung Hom, Kowloon',
    zh: '九龍紅磡民樂街21號富高工業中心',
    floor: '5/F',
    unit: 'Unit 501',
  },
} as const;

export const declarationExample = ({ school }: { school: boolean }) => ({
  applicationDate: '2026-03-02',
  agreeTerms: true,
  ...(school ? { agreeRegistration: true } : {}),
});

export const SCHOOL_EXAMPLE = {
  schoolNameEn: 'Harbour Tutorial Centre',
  schoolNameZh: '海港補習中心',
  schoolType: 'tutorial',
  studentAge: 'sixAndAbove',
  studentCount: 120,
} as const;

export const CENTRE_EXAMPLE = {
  centreNameEn: 'Harbour Child Care Centre',
  centreNameZh: '海港幼兒中心',
  centreTelephone: '2345 6789',
  operatorNameEn: 'Harbour Education Foundation Limited',
  operatorNameZh: '海港教育基金有限公司',
  childCount: 40,
} as const;

export const COURSE_EXAMPLE = {
  courseName: 'Master of Business Administration (University of Northshire)',
  courseRegNo: '253026',
  operatorNameEn: 'Harbour Professional Education Limited',
  operatorNameZh: '海港專業教育有限公司',
  studentCount: 60,
} as const;
