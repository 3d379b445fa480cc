import type { Option } from './types';

/** The choices of the radios and selects shared by the forms; labels are `forms:options.<list>.<value>`. */

const options = (list: string, values: readonly string[]): readonly Option[] =>
  values.map((value) => ({ value, labelKey: `options.${list}.${value}` }));

export const TITLE_OPTIONS = options('title', ['mr', 'mrs', 'miss', 'ms']);

export const APPLYING_AS = { individual: 'individual', organisation: 'organisation' } as const;
export const APPLYING_AS_OPTIONS = options('applyingAs', [APPLYING_AS.individual, APPLYING_AS.organisation]);

/** Description of school (spec §3); `other` asks for a please-specify text. */
export const SCHOOL_TYPE_OTHER = 'other';
export const SCHOOL_TYPE_OPTIONS = options('schoolType', [
  'secondary',
  'primary',
  'kindergarten',
  'tutorial',
  SCHOOL_TYPE_OTHER,
]);

export const STUDENT_AGE_OPTIONS = options('studentAge', ['threeAndAbove', 'sixAndAbove']);

/** Self-certification: who certifies, an Authorized Person or a Registered Structural Engineer. */
export const AP_RSE_OPTIONS = options('apRse', ['ap', 'rse']);

/** Letter of Requirements: whether the Category 1 / Category 2 requirements have been complied with. */
export const COMPLIANCE_OPTIONS = options('compliance', ['complied', 'notApplicable']);

/** Yes or no (whether minor works were carried out). */
export const YES_NO_OPTIONS = options('yesNo', ['yes', 'no']);

/** A requirement of a Letter of Requirements: complied with, or not applicable (with a remark). */
export const COMPLIANCE_ITEM_OPTIONS = options('complianceItem', ['complied', 'notApplicable']);
