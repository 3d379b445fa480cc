import { COMMON_DOCUMENTS } from './build';
import { PARTIES_EXAMPLE, PREMISES_EXAMPLE, SCHOOL_EXAMPLE } from './examples';
import { AP_RSE_OPTIONS, COMPLIANCE_OPTIONS } from './options';
import { declarationSection, partiesSections, premisesSection, schoolSection } from './sections';
import type { FormDefinition, Section } from './types';

/**
 * A small definition of the self-certification shape (SCS-1: Part A, Part B, Letter of Requirements,
 * preview, upload, success), to prove the format and the wizard with it. For tests only: it is not in
 * the catalogue; the real SCS/SCC/SCN forms come with their own issue.
 */

const apRseSection: Section = {
  id: 'apRse',
  titleKey: 'sections.apRse',
  fields: [
    {
      kind: 'radio',
      id: 'apRseIdentity',
      labelKey: 'fields.apRse.identity',
      options: AP_RSE_OPTIONS,
      required: true,
    },
    { kind: 'text', id: 'apRseNameEn', labelKey: 'fields.apRse.nameEn', script: 'en', required: true },
    { kind: 'text', id: 'apRseNameZh', labelKey: 'fields.apRse.nameZh', script: 'zh' },
    { kind: 'text', id: 'apRseRegNo', labelKey: 'fields.apRse.registrationNo', required: true, half: true },
    { kind: 'date', id: 'apRseExpiry', labelKey: 'fields.apRse.expiryDate', required: true, half: true },
    { kind: 'email', id: 'apRseEmail', labelKey: 'fields.apRse.email', required: true, half: true },
    { kind: 'mobile', id: 'apRseMobile', labelKey: 'fields.apRse.mobile', required: true, half: true },
  ],
};

const letterSection: Section = {
  id: 'letterOfRequirements',
  titleKey: 'sections.letterOfRequirements',
  fields: [
    { kind: 'text', id: 'lorReference', labelKey: 'fields.lor.reference', required: true, half: true },
    { kind: 'date', id: 'lorDate', labelKey: 'fields.lor.date', required: true, half: true },
    {
      kind: 'radio',
      id: 'lorCategory1',
      labelKey: 'fields.lor.category1',
      options: COMPLIANCE_OPTIONS,
      required: true,
    },
    {
      kind: 'radio',
      id: 'lorCategory2',
      labelKey: 'fields.lor.category2',
      options: COMPLIANCE_OPTIONS,
      required: true,
    },
    {
      kind: 'table',
      id: 'minorWorks',
      labelKey: 'fields.lor.minorWorks',
      hint: true,
      maxRows: 20,
      columns: [
        { id: 'no', labelKey: 'fields.lor.mwNo', kind: 'number', required: true },
        { id: 'item', labelKey: 'fields.lor.mwItem', kind: 'text', required: true, maxLength: 20 },
        { id: 'description', labelKey: 'fields.lor.mwDescription', kind: 'text' },
        {
          id: 'submissionNo',
          labelKey: 'fields.lor.mwSubmissionNo',
          kind: 'text',
          required: true,
          maxLength: 40,
        },
      ],
    },
  ],
};

export const TEST_SELF_CERT: FormDefinition = {
  code: 'SCS-1',
  slug: 'scs-1',
  key: 'scs1',
  applicationType: 'NEWSCH',
  selfCertification: true,
  steps: [
    {
      kind: 'fill',
      id: 'fillPartA',
      titleKey: 'steps.fillPartA',
      sections: [...partiesSections(), premisesSection(), schoolSection('proposed')],
    },
    { kind: 'fill', id: 'fillPartB', titleKey: 'steps.fillPartB', sections: [apRseSection] },
    {
      kind: 'fill',
      id: 'letterOfRequirements',
      titleKey: 'steps.letterOfRequirements',
      sections: [letterSection, declarationSection({ school: true })],
    },
    { kind: 'preview' },
    { kind: 'upload' },
    { kind: 'success' },
  ],
  documents: COMMON_DOCUMENTS,
  example: {
    ...PARTIES_EXAMPLE,
    ...PREMISES_EXAMPLE,
    ...SCHOOL_EXAMPLE,
    apRseIdentity: 'ap',
    apRseNameEn: 'WONG Ka Ho',
    apRseNameZh: '黃家豪',
    apRseRegNo: 'AP(A)123',
    apRseExpiry: '2027-12-31',
    apRseEmail: 'wong.kaho@example.com.hk',
    apRseMobile: '5123 4567',
    lorReference: 'BD 2/9034/25',
    lorDate: '2026-01-15',
    lorCategory1: 'complied',
    lorCategory2: 'notApplicable',
    minorWorks: [
      {
        no: '1',
        item: '3.39',
        description: 'Installation of a fire-rated door',
        submissionNo: 'MW03-0123/2026',
      },
      {
        no: '2',
        item: '2.22',
        description: 'Removal of a non-structural partition',
        submissionNo: 'MW02-0456/2026',
      },
    ],
    applicationDate: '2026-03-02',
    agreeTerms: true,
    agreeRegistration: true,
  },
};
