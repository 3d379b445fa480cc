import { formIdentity } from './catalogue-index';
import { COMMON_DOCUMENTS, applicationForm, doc } from './build';
import { CENTRE_EXAMPLE, PARTIES_EXAMPLE, PREMISES_EXAMPLE, declarationExample } from './examples';
import {
  alterationSection,
  centreSection,
  declarationSection,
  partiesSections,
  premisesSection,
} from './sections';

/** F2: building safety certificate for alteration of a registered child care centre (Cap 243; NEWCCC). */
export const F2 = applicationForm({
  ...formIdentity('f2'),
  applicationType: 'NEWCCC',
  sections: [
    ...partiesSections(),
    premisesSection(),
    centreSection({ name: 'registered', maxChildren: 1000 }),
    alterationSection(),
    declarationSection({ school: false }),
  ],
  documents: [...COMMON_DOCUMENTS, doc('alterationPlans'), doc('centreRegistration')],
  example: {
    ...PARTIES_EXAMPLE,
    ...PREMISES_EXAMPLE,
    ...CENTRE_EXAMPLE,
    alterationDescription: 'A new nursery room and a sick bay formed by partitions on 5/F.',
    ...declarationExample({ school: false }),
  },
});
