import type { ApplicationKey } from './catalogue-index';
import type { ApplicationType, FormDefinition, RequiredDocument, Section } from './types';
import { APPLYING_AS } from './options';

/**
 * The shape every application form shares (spec §2): one fill step, then the preview, the upload
 * (with signing and submitting) and the success page: steps 1-4 of `/form-<slug>-step<n>`.
 */
export interface ApplicationFormSpec {
  code: string;
  slug: string;
  key: ApplicationKey;
  applicationType: ApplicationType;
  sections: readonly Section[];
  documents: readonly RequiredDocument[];
  example: Readonly<Record<string, unknown>>;
}

export function applicationForm({ sections, ...spec }: ApplicationFormSpec): FormDefinition {
  return {
    ...spec,
    selfCertification: false,
    steps: [
      { kind: 'fill', id: 'fill', titleKey: 'steps.fill', sections },
      { kind: 'preview' },
      { kind: 'upload' },
      { kind: 'success' },
    ],
  };
}

/** A document of the upload step; its label is `forms:documents.<id>`. */
export const doc = (id: string, required = true): RequiredDocument => ({
  id,
  labelKey: `documents.${id}`,
  required,
});

/** Every application: layout plans drawn to scale and a location plan; the rest as the case needs. */
export const COMMON_DOCUMENTS: readonly RequiredDocument[] = [
  doc('layoutPlans'),
  doc('locationPlan'),
  doc('occupancyProof', false),
  // A letter of authorisation is for an applicant who applies for an organisation (docs/forms.md).
  { ...doc('authorisationLetter', false), when: { field: 'applyingAs', equals: APPLYING_AS.organisation } },
];
