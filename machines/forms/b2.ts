import { formIdentity } from './catalogue-index';
import { COMMON_DOCUMENTS, applicationForm, doc } from './build';
import { PARTIES_EXAMPLE, PREMISES_EXAMPLE, SCHOOL_EXAMPLE, declarationExample } from './examples';
import { declarationSection, partiesSections, premisesSection, schoolSection } from './sections';

/**
 * B2: building safety certificate for premises added to a registered school (extension of school
 * premises, Education Ordinance s20; EXTSCH). The premises are the new ones; the school is registered.
 */
export const B2 = applicationForm({
  ...formIdentity('b2'),
  applicationType: 'EXTSCH',
  sections: [
    ...partiesSections(),
    premisesSection(),
    schoolSection('registered'),
    declarationSection({ school: true }),
  ],
  documents: [...COMMON_DOCUMENTS, doc('schoolRegistration')],
  example: {
    ...PARTIES_EXAMPLE,
    ...PREMISES_EXAMPLE,
    ...SCHOOL_EXAMPLE,
    schoolType: 'secondary',
    studentAge: 'sixAndAbove',
    studentCount: 300,
    ...declarationExample({ school: true }),
  },
});
