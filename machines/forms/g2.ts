import { formIdentity } from './catalogue-index';
import { COMMON_DOCUMENTS, applicationForm, doc } from './build';
import { COURSE_EXAMPLE, PARTIES_EXAMPLE, PREMISES_EXAMPLE, declarationExample } from './examples';
import {
  alterationSection,
  courseSection,
  declarationSection,
  partiesSections,
  premisesSection,
} from './sections';

/** G2: building safety certificate for alteration of premises for a registered non-local course (NLHE). */
export const G2 = applicationForm({
  ...formIdentity('g2'),
  applicationType: 'NLHE',
  sections: [
    ...partiesSections(),
    premisesSection(),
    courseSection(),
    alterationSection(),
    declarationSection({ school: false }),
  ],
  documents: [...COMMON_DOCUMENTS, doc('alterationPlans'), doc('courseRegistration')],
  example: {
    ...PARTIES_EXAMPLE,
    ...PREMISES_EXAMPLE,
    ...COURSE_EXAMPLE,
    alterationDescription: 'A lecture room enlarged by removing a non-structural partition wall.',
    ...declarationExample({ school: false }),
  },
});
