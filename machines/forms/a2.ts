import { formIdentity } from './catalogue-index';
import { COMMON_DOCUMENTS, applicationForm } from './build';
import { PARTIES_EXAMPLE, PREMISES_EXAMPLE, SCHOOL_EXAMPLE, declarationExample } from './examples';
import { declarationSection, partiesSections, premisesSection, schoolSection } from './sections';

/** A2: building safety certificate for a new school, to be registered under the Education Ordinance (NEWSCH). */
export const A2 = applicationForm({
  ...formIdentity('a2'),
  applicationType: 'NEWSCH',
  sections: [
    ...partiesSections(),
    premisesSection(),
    schoolSection('proposed'),
    declarationSection({ school: true }),
  ],
  documents: COMMON_DOCUMENTS,
  example: {
    ...PARTIES_EXAMPLE,
    ...PREMISES_EXAMPLE,
    ...SCHOOL_EXAMPLE,
    ...declarationExample({ school: true }),
  },
});
