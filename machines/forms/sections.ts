import {
  APPLYING_AS,
  APPLYING_AS_OPTIONS,
  SCHOOL_TYPE_OPTIONS,
  SCHOOL_TYPE_OTHER,
  STUDENT_AGE_OPTIONS,
  TITLE_OPTIONS,
} from './options';
import type { Condition, Field, Section } from './types';

/**
 * The sections the application forms share, as small builders: each form file picks and orders them
 * (docs/forms.md). Field ids are the keys of the answers and are the same in every form that has the
 * field, so a preview, a PDF or a report can read `applicantEmail` whatever the form.
 */

type Extra = Partial<Pick<Field, 'hint' | 'required' | 'when' | 'half' | 'requiredKey'>>;

const text = (
  id: string,
  labelKey: string,
  extra: Extra & { script?: 'en' | 'zh'; multiline?: boolean } = {},
): Field => ({
  kind: 'text',
  id,
  labelKey,
  ...extra,
});
const of = <K extends Field['kind']>(kind: K, id: string, labelKey: string, extra: Extra = {}) =>
  ({ kind, id, labelKey, ...extra }) as Extract<Field, { kind: K }>;

const count = (id: string, labelKey: string, max: number, extra: Extra = {}): Field => ({
  kind: 'number',
  id,
  labelKey,
  min: 1,
  max,
  integer: true,
  required: true,
  half: true,
  ...extra,
});

/** The applicant answers this radio first: the organisation section applies only to an organisation. */
export const AS_ORGANISATION: Condition = { field: 'applyingAs', equals: APPLYING_AS.organisation };

export function applicantSection(): Section {
  return {
    id: 'applicant',
    titleKey: 'sections.applicant',
    fields: [
      {
        kind: 'radio',
        id: 'applyingAs',
        labelKey: 'fields.applicant.applyingAs',
        options: APPLYING_AS_OPTIONS,
        required: true,
      },
      {
        kind: 'select',
        id: 'applicantTitle',
        labelKey: 'fields.applicant.title',
        options: TITLE_OPTIONS,
        half: true,
      },
      text('applicantNameEn', 'fields.applicant.nameEn', { required: true, script: 'en', hint: true }),
      text('applicantNameZh', 'fields.applicant.nameZh', { script: 'zh' }),
      text('applicantPostTitle', 'fields.applicant.postTitle', { when: AS_ORGANISATION, half: true }),
      of('hkic', 'applicantHkic', 'fields.applicant.hkic', { hint: true, half: true }),
      of('email', 'applicantEmail', 'fields.applicant.email', { required: true, half: true }),
      of('mobile', 'applicantMobile', 'fields.applicant.mobile', { required: true, hint: true, half: true }),
    ],
  };
}

export function organisationSection(): Section {
  return {
    id: 'organisation',
    titleKey: 'sections.organisation',
    introKey: 'sections.organisationIntro',
    when: AS_ORGANISATION,
    fields: [
      text('orgNameEn', 'fields.organisation.nameEn', { required: true, script: 'en' }),
      text('orgNameZh', 'fields.organisation.nameZh', { script: 'zh' }),
      text('orgAddress', 'fields.organisation.address', { multiline: true }),
      of('phone', 'orgTelephone', 'fields.organisation.telephone', { half: true }),
    ],
  };
}

export function correspondenceSection(): Section {
  return {
    id: 'correspondence',
    titleKey: 'sections.correspondence',
    fields: [
      text('correspondenceAddress', 'fields.correspondence.address', { required: true, multiline: true }),
    ],
  };
}

export function contactPersonSection(): Section {
  return {
    id: 'contactPerson',
    titleKey: 'sections.contactPerson',
    introKey: 'sections.contactPersonIntro',
    fields: [
      text('contactName', 'fields.contactPerson.name'),
      of('email', 'contactEmail', 'fields.contactPerson.email', { half: true }),
      of('mobile', 'contactMobile', 'fields.contactPerson.mobile', { half: true }),
      of('phone', 'contactTelephone', 'fields.contactPerson.telephone', { half: true }),
      { kind: 'phone', id: 'contactFax', labelKey: 'fields.contactPerson.fax', fixedLine: true, half: true },
    ],
  };
}

/** The premises the certificate is for, in English and Chinese (filled by the address search). */
export function premisesSection(): Section {
  return {
    id: 'premises',
    titleKey: 'sections.premises',
    fields: [of('address', 'premisesAddress', 'fields.premises.address', { required: true, hint: true })],
  };
}

/** A school: `proposed` for a new school (A2), `registered` for a registered one (B2, E2). */
export function schoolSection(name: 'proposed' | 'registered'): Section {
  return {
    id: 'school',
    titleKey: 'sections.school',
    fields: [
      text('schoolNameEn', `fields.school.${name}NameEn`, { required: true, script: 'en' }),
      text('schoolNameZh', `fields.school.${name}NameZh`, { required: true, script: 'zh' }),
      {
        kind: 'radio',
        id: 'schoolType',
        labelKey: 'fields.school.type',
        options: SCHOOL_TYPE_OPTIONS,
        required: true,
      },
      text('schoolTypeOther', 'fields.school.typeOther', {
        required: true,
        when: { field: 'schoolType', equals: SCHOOL_TYPE_OTHER },
      }),
      {
        kind: 'radio',
        id: 'studentAge',
        labelKey: 'fields.school.studentAge',
        options: STUDENT_AGE_OPTIONS,
        required: true,
      },
      count('studentCount', 'fields.school.studentCount', 10_000),
    ],
  };
}

export interface CentreOptions {
  name: 'proposed' | 'registered';
  /** The most children the centre may take (a mutual help child care centre: 14). */
  maxChildren: number;
  /** A kindergarten-cum-child care centre also counts its kindergarten students. */
  kindergarten?: boolean;
}

/** A child care centre, its operator and its size. */
export function centreSection({ name, maxChildren, kindergarten }: CentreOptions): Section {
  return {
    id: 'centre',
    titleKey: 'sections.centre',
    fields: [
      text('centreNameEn', `fields.centre.${name}NameEn`, { required: true, script: 'en' }),
      text('centreNameZh', `fields.centre.${name}NameZh`, { script: 'zh' }),
      of('phone', 'centreTelephone', 'fields.centre.telephone', { half: true }),
      text('operatorNameEn', 'fields.centre.operatorNameEn', { required: true, script: 'en' }),
      text('operatorNameZh', 'fields.centre.operatorNameZh', { script: 'zh' }),
      ...(kindergarten ? [count('studentCount', 'fields.centre.kindergartenCount', 10_000)] : []),
      count('childCount', 'fields.centre.childCount', maxChildren, { hint: maxChildren < 100 }),
    ],
  };
}

/** A registered non-local course and who runs it (Cap 493). */
export function courseSection(): Section {
  return {
    id: 'course',
    titleKey: 'sections.course',
    fields: [
      text('courseName', 'fields.course.name', { required: true }),
      text('courseRegNo', 'fields.course.registrationNo', { hint: true, half: true }),
      text('operatorNameEn', 'fields.course.operatorNameEn', { required: true, script: 'en' }),
      text('operatorNameZh', 'fields.course.operatorNameZh', { script: 'zh' }),
      count('studentCount', 'fields.course.studentCount', 10_000),
    ],
  };
}

/** The alteration forms (E2, F2, G2) describe the works. */
export function alterationSection(): Section {
  return {
    id: 'alteration',
    titleKey: 'sections.alteration',
    fields: [
      text('alterationDescription', 'fields.alteration.description', {
        required: true,
        multiline: true,
        hint: true,
      }),
    ],
  };
}

/** Date and agreements; `school` adds the agreement for registration of school. */
export function declarationSection({ school }: { school: boolean }): Section {
  return {
    id: 'declaration',
    titleKey: 'sections.declaration',
    fields: [
      of('date', 'applicationDate', 'fields.declaration.date', { required: true, half: true }),
      of('checkbox', 'agreeTerms', 'fields.declaration.agreeTerms', {
        required: true,
        requiredKey: 'errors.agreeTerms',
      }),
      ...(school
        ? [
            of('checkbox', 'agreeRegistration', 'fields.declaration.agreeRegistration', {
              required: true,
              requiredKey: 'errors.agreeRegistration',
            }),
          ]
        : []),
    ],
  };
}

/** The sections every application begins with: applicant, organisation, correspondence, contact person. */
export const partiesSections = (): Section[] => [
  applicantSection(),
  organisationSection(),
  correspondenceSection(),
  contactPersonSection(),
];
