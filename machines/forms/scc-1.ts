import { SELF_CERT_LOR_EXAMPLE, selfCertForm } from './selfcert-build';

/**
 * SCC-1: self-certification for a child care centre to be registered (cases: CCCAI-C2, EDB-JOKC02,
 * CCCAI-MH3). docs/forms.md.
 */
export const SCC_1 = selfCertForm({
  key: 'scc1',
  applicationType: 'NEWCCC',
  use: 'centre',
  example: {
    caseApplicationNo: 'CCCAI-C2-2026-000103',
    ...SELF_CERT_LOR_EXAMPLE,
    centreNameEn: 'Harbour Child Care Centre',
    centreNameZh: '海港幼兒中心',
  },
});
