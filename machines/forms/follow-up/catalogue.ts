import { APPOINTMENT } from './appointment';
import { INSPECTION } from './inspection';
import { FOLLOW_UP_ENTRY_LIST, isFollowUpKey, type FollowUpKey } from './entries';
import type { FollowUpDefinition } from './types';
import { UPDATE_CCCAI_C2, UPDATE_CCCAI_MH3, UPDATE_JOKC02, UPDATE_SCHOOL } from './update';
import { WITHDRAW } from './withdraw';
import { SUBMIT_DOCUMENT } from './submit-document';

/**
 * The follow-up forms: each is one data file of this folder, its messages and its tests (docs/forms.md).
 * Keyed by their entries' keys (entries.ts): a follow-up left out fails to compile.
 */
export const FOLLOW_UP_CATALOGUE: Readonly<Record<FollowUpKey, FollowUpDefinition>> = {
  withdrawApplication: WITHDRAW,
  requestForInspection: INSPECTION,
  appointment: APPOINTMENT,
  updateInformation: UPDATE_SCHOOL,
  updateInformationCccaic2: UPDATE_CCCAI_C2,
  updateInformationJokc02: UPDATE_JOKC02,
  updateInformationCccaimh3: UPDATE_CCCAI_MH3,
  submitDocument: SUBMIT_DOCUMENT,
};

export const FOLLOW_UP_KEYS: readonly FollowUpKey[] = FOLLOW_UP_ENTRY_LIST.map((entry) => entry.key);

export function followUpByKey(key: string): FollowUpDefinition | undefined {
  return isFollowUpKey(key) ? FOLLOW_UP_CATALOGUE[key] : undefined;
}

export function followUpByRoute(path: string): FollowUpDefinition | undefined {
  return Object.values(FOLLOW_UP_CATALOGUE).find((d) => d.route === path || d.doneRoute === path);
}

/** The follow-up as it is for a case of this application form (its code): undefined when not for it. */
export function followUpForCase(
  definition: FollowUpDefinition,
  formCode: string,
): FollowUpDefinition | undefined {
  if (definition.forApplication) return definition.forApplication(formCode);
  return definition;
}
