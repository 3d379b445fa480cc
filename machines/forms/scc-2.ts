import { SELF_CERT_EXAMPLE, selfCertForm } from './selfcert-build';

/**
 * SCC-2: self-certification for the alteration of a registered child care centre (case: F2). Five steps:
 * no Letter of Requirements; the works, minor works, certification and declaration close Part B.
 */
export const SCC_2 = selfCertForm({
  key: 'scc2',
  applicationType: 'NEWCCC',
  use: 'centre',
  alteration: true,
  example: {
    caseApplicationNo: 'F2-2026-000104',
    ...SELF_CERT_EXAMPLE,
    centreNameEn: 'Harbour Child Care Centre',
    centreNameZh: '海港幼兒中心',
    alterationDescription: 'A new partition wall between the nursery and the activity room on 5/F.',
    minorWorksCarriedOut: 'yes',
    minorWorks: [
      {
        no: '1',
        item: '3.5',
        description: 'Erection of a supporting frame for an air-conditioning unit.',
        submissionNo: 'MW0123458',
      },
    ],
  },
});
