import type { FormDefinition } from '../../forms/types';

/**
 * A small four-step application (one fill step) for the flow registry's traversal, path tests and diagrams
 * until the registry walks the real catalogue (machines/forms/). Keys follow the catalogue's conventions.
 */
export const SAMPLE_APPLICATION: FormDefinition = {
  code: 'A2',
  slug: 'a2',
  key: 'a2',
  applicationType: 'NEWSCH',
  selfCertification: false,
  steps: [
    {
      kind: 'fill',
      id: 'application',
      titleKey: 'flows:steps.fill.title',
      sections: [
        {
          id: 'applicant',
          titleKey: 'forms:sections.applicant',
          fields: [
            { id: 'applicantNameEn', kind: 'text', labelKey: 'forms:fields.applicantNameEn', required: true },
            { id: 'applicantEmail', kind: 'email', labelKey: 'forms:fields.applicantEmail' },
          ],
        },
      ],
    },
    { kind: 'preview' },
    { kind: 'upload' },
    { kind: 'success' },
  ],
  documents: [
    { id: 'layoutPlan', labelKey: 'forms:documents.layoutPlan', required: true },
    { id: 'other', labelKey: 'forms:documents.other', required: false },
  ],
  example: { applicantNameEn: 'CHAN Tai Man', applicantEmail: 'chan@example.com' },
};
