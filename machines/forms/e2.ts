import { formIdentity } from './catalogue-index';
import { COMMON_DOCUMENTS, applicationForm, doc } from './build';
import { PARTIES_EXAMPLE, PREMISES_EXAMPLE, SCHOOL_EXAMPLE, declarationExample } from './examples';
import {
  alterationSection,
  declarationSection,
  partiesSections,
  premisesSection,
  schoolSection,
} from './sections';

/**
 * E2: building safety certificate for alteration of a registered school. Application type EXTSCH, not
 * NEWSCH: like an extension it changes the premises of a school that is already registered, and the
 * case is examined against that registration, not as a new one (docs/forms.md).
 */
export const E2 = applicationForm({
  ...formIdentity('e2'),
  applicationType: 'EXTSCH',
  sections: [
    ...partiesSections(),
    premisesSection(),
    schoolSection('registered'),
    alterationSection(),
    declarationSection({ school: true }),
  ],
  documents: [...COMMON_DOCUMENTS, doc('alterationPlans'), doc('schoolRegistration')],
  example: {
    ...PARTIES_EXAMPLE,
    ...PREMISES_EXAMPLE,
    ...SCHOOL_EXAMPLE,
    schoolType: 'other',
    schoolTypeOther: 'Music and art school',
    studentAge: 'threeAndAbove',
    alterationDescription: 'Two classrooms on 5/F combined into one; a new exit door to the common corridor.',
    ...declarationExample({ school: true }),
  },
});
