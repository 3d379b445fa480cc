import { formIdentity } from './catalogue-index';
import { COMMON_DOCUMENTS, applicationForm } from './build';
import { CENTRE_EXAMPLE, PARTIES_EXAMPLE, PREMISES_EXAMPLE, declarationExample } from './examples';
import { centreSection, declarationSection, partiesSections, premisesSection } from './sections';

/**
 * EDB-JOKC02: building safety certificate for a kindergarten-cum-child care centre, registered under
 * both the Education Ordinance and Cap 243 (NEWJOKC). Being a school too, it carries the agreement
 * for registration of school and counts its kindergarten students beside the children.
 */
export const EDB_JOKC02 = applicationForm({
  ...formIdentity('edbJokc02'),
  applicationType: 'NEWJOKC',
  sections: [
    ...partiesSections(),
    premisesSection(),
    centreSection({ name: 'proposed', maxChildren: 1000, kindergarten: true }),
    declarationSection({ school: true }),
  ],
  documents: COMMON_DOCUMENTS,
  example: {
    ...PARTIES_EXAMPLE,
    ...PREMISES_EXAMPLE,
    ...CENTRE_EXAMPLE,
    centreNameEn: 'Harbour Kindergarten-cum-Child Care Centre',
    centreNameZh: '海港幼稚園暨幼兒中心',
    studentCount: 90,
    ...declarationExample({ school: true }),
  },
});
