import { formIdentity } from './catalogue-index';
import { COMMON_DOCUMENTS, applicationForm } from './build';
import { CENTRE_EXAMPLE, PARTIES_EXAMPLE, PREMISES_EXAMPLE, declarationExample } from './examples';
import { centreSection, declarationSection, partiesSections, premisesSection } from './sections';

/** A mutual help child care centre takes at most 14 children (Child Care Services Regulations, Cap 243A). */
export const MUTUAL_HELP_MAX_CHILDREN = 14;

/** CCCAI-MH3: building safety certificate for a mutual help child care centre (Cap 243 s11B; NEWMUT). */
export const CCCAI_MH3 = applicationForm({
  ...formIdentity('cccaiMh3'),
  applicationType: 'NEWMUT',
  sections: [
    ...partiesSections(),
    premisesSection(),
    centreSection({ name: 'proposed', maxChildren: MUTUAL_HELP_MAX_CHILDREN }),
    declarationSection({ school: false }),
  ],
  documents: COMMON_DOCUMENTS,
  example: {
    ...PARTIES_EXAMPLE,
    ...PREMISES_EXAMPLE,
    ...CENTRE_EXAMPLE,
    centreNameEn: 'Harbour Mutual Help Child Care Centre',
    centreNameZh: '海港互助幼兒中心',
    childCount: 12,
    ...declarationExample({ school: false }),
  },
});
