import { formIdentity } from './catalogue-index';
import { COMMON_DOCUMENTS, applicationForm } from './build';
import { CENTRE_EXAMPLE, PARTIES_EXAMPLE, PREMISES_EXAMPLE, declarationExample } from './examples';
import { centreSection, declarationSection, partiesSections, premisesSection } from './sections';

/**
 * CCCAI-C2: building safety certificate for a child care centre to be registered with the Social
 * Welfare Department's Child Care Centres Advisory Inspectorate (Cap 243; NEWCCC).
 */
export const CCCAI_C2 = applicationForm({
  ...formIdentity('cccaiC2'),
  applicationType: 'NEWCCC',
  sections: [
    ...partiesSections(),
    premisesSection(),
    centreSection({ name: 'proposed', maxChildren: 1000 }),
    declarationSection({ school: false }),
  ],
  documents: COMMON_DOCUMENTS,
  example: {
    ...PARTIES_EXAMPLE,
    ...PREMISES_EXAMPLE,
    ...CENTRE_EXAMPLE,
    ...declarationExample({ school: false }),
  },
});
