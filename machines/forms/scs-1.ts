import { SELF_CERT_LOR_EXAMPLE, selfCertForm } from './selfcert-build';

/** SCS-1 (BD's SC(S)-1): self-certification for the new registration of a school (case: A2). docs/forms.md. */
export const SCS_1 = selfCertForm({
  key: 'scs1',
  applicationType: 'NEWSCH',
  use: 'school',
  example: {
    caseApplicationNo: 'A2-2026-000101',
    ...SELF_CERT_LOR_EXAMPLE,
    schoolNameEn: 'Harbour Tutorial Centre',
    schoolNameZh: '海港補習中心',
  },
});
