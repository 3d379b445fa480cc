import { SELF_CERT_LOR_EXAMPLE, selfCertForm } from './selfcert-build';

/**
 * SCS-2 (BD's SC(S)-2): self-certification for the alteration or extension of a registered school's
 * premises (cases: B2, E2). docs/forms.md.
 */
export const SCS_2 = selfCertForm({
  key: 'scs2',
  applicationType: 'EXTSCH',
  use: 'school',
  example: {
    caseApplicationNo: 'E2-2026-000102',
    ...SELF_CERT_LOR_EXAMPLE,
    schoolNameEn: 'Harbour Tutorial Centre',
    schoolNameZh: '海港補習中心',
  },
});
