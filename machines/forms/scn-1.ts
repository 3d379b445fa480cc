import { SELF_CERT_LOR_EXAMPLE, selfCertForm } from './selfcert-build';

/**
 * SCN-1: self-certification for premises used for a registered non-local course (cases: C2, G2).
 * docs/forms.md.
 */
export const SCN_1 = selfCertForm({
  key: 'scn1',
  applicationType: 'NLHE',
  use: 'course',
  example: {
    caseApplicationNo: 'C2-2026-000105',
    ...SELF_CERT_LOR_EXAMPLE,
    courseName: 'Master of Business Administration (University of Northshire)',
  },
});
