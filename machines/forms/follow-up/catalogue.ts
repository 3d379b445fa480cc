import { INSPECTION } from './inspection';
import type { FollowUpDefinition, FollowUpKey } from './types';
import { WITHDRAW } from './withdraw';

/**
 * The follow-up forms: each is one data file of this folder, its messages and its tests (docs/forms.md).
 * The route table (machines/routes.ts) takes their routes from here.
 */
export const FOLLOW_UP_CATALOGUE: Readonly<Record<FollowUpKey, FollowUpDefinition>> = {
  withdrawApplication: WITHDRAW,
  requestForInspection: INSPECTION,
};

export const FOLLOW_UP_KEYS = Object.keys(FOLLOW_UP_CATALOGUE) as FollowUpKey[];

export function followUpByKey(key: string): FollowUpDefinition | undefined {
  return Object.hasOwn(FOLLOW_UP_CATALOGUE, key) ? FOLLOW_UP_CATALOGUE[key as FollowUpKey] : undefined;
}

export function followUpByRoute(path: string): FollowUpDefinition | undefined {
  return Object.values(FOLLOW_UP_CATALOGUE).find((d) => d.route === path);
}
