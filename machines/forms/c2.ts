import { formIdentity } from './catalogue-index';
import { COMMON_DOCUMENTS, applicationForm, doc } from './build';
import { COURSE_EXAMPLE, PARTIES_EXAMPLE, PREMISES_EXAMPLE, declarationExample } from './examples';
import { courseSection, declarationSection, partiesSections, premisesSection } from './sections';

/** C2: building safety certificate for premises used to conduct a registered non-local course (Cap 493; NLHE). */
export const C2 = applicationForm({
  ...formIdentity('c2'),
  applicationType: 'NLHE',
  sections: [...partiesSections(), premisesSection(), courseSection(), declarationSection({ school: false })],
  documents: [...COMMON_DOCUMENTS, doc('courseRegistration', false)],
  example: {
    ...PARTIES_EXAMPLE,
    ...PREMISES_EXAMPLE,
    ...COURSE_EXAMPLE,
    ...declarationExample({ school: false }),
  },
});
