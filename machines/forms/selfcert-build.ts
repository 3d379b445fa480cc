import { formIdentity, type SelfCertKey } from './catalogue-index';
import { doc } from './build';
import { PREMISES_EXAMPLE } from './examples';
import { LOR_EXAMPLE, letterOfRequirementsSections, minorWorksSection } from './letter-of-requirements';
import { AP_RSE_OPTIONS } from './options';
import { alterationSection, declarationSection, premisesSection } from './sections';
import type { ApplicationType, Field, FormDefinition, RequiredDocument, Section } from './types';

/**
 * The self-certification forms SCS-1, SCS-2, SCC-1, SCC-2 and SCN-1 (docs/decisions/021-self-certification.md): an AP or RSE certifies
 * that the premises of a case comply with the Letter of Requirements. Their steps (docs/forms.md):
 *
 * 1. Part A — the case certified (its application number), the premises and who runs them;
 * 2. Part B — the AP / RSE making the certificate (the rules of the appointment form);
 * 3. Letter of Requirements — the letter, Category 1 and 2 items, minor works, the certification and the
 *    declaration (SC(C)-2 has no letter: its works, certification and declaration close Part B);
 * then preview, upload (documents, signing by the certifier, submitting) and success.
 *
 * The certifier is the person who submits and signs: Part B's name, HKIC, email and mobile use the
 * applicant's field ids, so the contact check, the acknowledgement and the signer-name rule of e-Cert and
 * iAM Smart apply to the certifier unchanged (docs/decisions/021-self-certification.md).
 */

export type PremisesUse = 'school' | 'centre' | 'course';

/** The field of Part A naming the case certified; checked against the cases by the API (api/modules/selfcert/selfcert.service.ts). */
export const CASE_FIELD = 'caseApplicationNo';

const text = (
  id: string,
  labelKey: string,
  extra: Partial<Extract<Field, { kind: 'text' }>> = {},
): Field => ({
  kind: 'text',
  id,
  labelKey,
  ...extra,
});

function caseSection(): Section {
  return {
    id: 'selfCertCase',
    titleKey: 'sections.selfCertCase',
    fields: [
      text(CASE_FIELD, 'fields.selfCert.caseApplicationNo', {
        format: 'applicationNo',
        required: true,
        hint: true,
        half: true,
      }),
    ],
  };
}

const USE_NAMES: Readonly<Record<PremisesUse, Field[]>> = {
  school: [
    text('schoolNameEn', 'fields.school.registeredNameEn', { required: true, script: 'en' }),
    text('schoolNameZh', 'fields.school.registeredNameZh', { script: 'zh' }),
  ],
  centre: [
    text('centreNameEn', 'fields.centre.registeredNameEn', { required: true, script: 'en' }),
    text('centreNameZh', 'fields.centre.registeredNameZh', { script: 'zh' }),
  ],
  course: [text('courseName', 'fields.course.name', { required: true })],
};

/** Who runs the premises and under what name: the school, the centre or the course. */
function operatorSection(use: PremisesUse): Section {
  return {
    id: 'operator',
    titleKey: 'sections.operator',
    fields: [
      text('operatorNameEn', 'fields.selfCert.operatorNameEn', { required: true, script: 'en' }),
      text('operatorNameZh', 'fields.selfCert.operatorNameZh', { script: 'zh' }),
      ...USE_NAMES[use],
    ],
  };
}

/** Part B: the AP or RSE making the certificate; registration checked as on the appointment form (decision 018). */
export function certifierSection(): Section {
  return {
    id: 'apRse',
    titleKey: 'sections.apRse',
    introKey: 'sections.apRseIntro',
    fields: [
      {
        kind: 'radio',
        id: 'certifierIdentity',
        labelKey: 'fields.apRse.identity',
        options: AP_RSE_OPTIONS,
        required: true,
      },
      text('applicantNameEn', 'fields.apRse.nameEn', { required: true, script: 'en', hint: true }),
      text('applicantNameZh', 'fields.apRse.nameZh', { script: 'zh' }),
      text('certifierRegNo', 'fields.apRse.registrationNo', {
        format: 'registrationNumber',
        identityField: 'certifierIdentity',
        required: true,
        hint: true,
        half: true,
      }),
      {
        kind: 'date',
        id: 'certifierRegExpiry',
        labelKey: 'fields.apRse.expiryDate',
        notPast: true,
        rangeKey: 'errors.registrationExpired',
        required: true,
        half: true,
      },
      { kind: 'hkic', id: 'applicantHkic', labelKey: 'fields.apRse.hkic', hint: true, half: true },
      { kind: 'email', id: 'applicantEmail', labelKey: 'fields.apRse.email', required: true, half: true },
      { kind: 'mobile', id: 'applicantMobile', labelKey: 'fields.apRse.mobile', required: true, half: true },
      text('correspondenceAddress', 'fields.apRse.address', { required: true, multiline: true }),
    ],
  };
}

/** The certification items the AP / RSE ticks, then the date and the terms. */
function certificationSections(): Section[] {
  const tick = (id: string): Field => ({
    kind: 'checkbox',
    id,
    labelKey: `fields.certification.${id}`,
    required: true,
    requiredKey: 'errors.certify',
  });
  return [
    {
      id: 'certification',
      titleKey: 'sections.certification',
      fields: [tick('certifyInspected'), tick('certifyComplied'), tick('certifySafe')],
    },
    declarationSection({ school: false }),
  ];
}

export interface SelfCertSpec {
  key: SelfCertKey;
  applicationType: ApplicationType;
  use: PremisesUse;
  /** SC(C)-2: the alteration of a registered centre has no Letter of Requirements step. */
  alteration?: boolean;
  example: Readonly<Record<string, unknown>>;
}

const DOCUMENTS: readonly RequiredDocument[] = [
  doc('layoutPlans'),
  doc('lorCopy'),
  doc('certifiedPlans', false),
  doc('testCertificates', false),
];

export function selfCertForm({
  key,
  applicationType,
  use,
  alteration,
  example,
}: SelfCertSpec): FormDefinition {
  const partA: Section[] = [caseSection(), premisesSection(), operatorSection(use)];
  const steps: FormDefinition['steps'] = alteration
    ? [
        { kind: 'fill', id: 'fillPartA', titleKey: 'steps.fillPartA', sections: partA, serverCheck: true },
        {
          kind: 'fill',
          id: 'fillPartB',
          titleKey: 'steps.fillPartB',
          serverCheck: true,
          sections: [
            certifierSection(),
            alterationSection(),
            minorWorksSection(),
            ...certificationSections(),
          ],
        },
        { kind: 'preview' },
        { kind: 'upload' },
        { kind: 'success' },
      ]
    : [
        { kind: 'fill', id: 'fillPartA', titleKey: 'steps.fillPartA', sections: partA, serverCheck: true },
        {
          kind: 'fill',
          id: 'fillPartB',
          titleKey: 'steps.fillPartB',
          sections: [certifierSection()],
          serverCheck: true,
        },
        {
          kind: 'fill',
          id: 'letterOfRequirements',
          titleKey: 'steps.letterOfRequirements',
          sections: [...letterOfRequirementsSections(), ...certificationSections()],
          // The letter's items against the letter issued on the case (docs/flows/case-rules.md).
          serverCheck: true,
        },
        { kind: 'preview' },
        { kind: 'upload' },
        { kind: 'success' },
      ];
  return {
    ...formIdentity(key),
    applicationType,
    selfCertification: true,
    steps,
    documents: alteration ? DOCUMENTS.filter((d) => d.id !== 'lorCopy') : DOCUMENTS,
    example,
  };
}

/** The certifier of the examples: an AP (architects' list) whose registration runs to 2030. */
export const CERTIFIER_EXAMPLE = {
  certifierIdentity: 'ap',
  applicantNameEn: 'WONG Ka Ming',
  applicantNameZh: '黃家明',
  certifierRegNo: 'AP(A) 1234',
  certifierRegExpiry: '2030-12-31',
  applicantHkic: 'A1234563',
  applicantEmail: 'wong.kaming@example.com.hk',
  applicantMobile: '9123 4567',
  correspondenceAddress: 'Room 801, 8/F, Wing On Centre, 111 Connaught Road Central, Hong Kong',
} as const;

/** Part A, certification and declaration of the examples; each form adds its case and its names. */
export const SELF_CERT_EXAMPLE = {
  ...PREMISES_EXAMPLE,
  operatorNameEn: 'Harbour Education Foundation Limited',
  operatorNameZh: '海港教育基金有限公司',
  ...CERTIFIER_EXAMPLE,
  certifyInspected: true,
  certifyComplied: true,
  certifySafe: true,
  applicationDate: '2026-10-02',
  agreeTerms: true,
} as const;

export const SELF_CERT_LOR_EXAMPLE = { ...SELF_CERT_EXAMPLE, ...LOR_EXAMPLE } as const;
