import type { CaseEventType } from '../../rules/case-lifecycle';
import { FORM_SPECS, stepPath, type SteppedFollowUpKey } from '../catalogue-index';

/**
 * Who each follow-up form is, without what it asks: its key, the lifecycle event it sends and its routes.
 * The definitions take these from here (`...followUpEntry(key)`), and the route table (machines/routes.ts)
 * and the session grants (machines/rules/grants.ts) read only this, so that every page's route table
 * does not carry the forms themselves (the update forms hold every application form's sections).
 *
 * A follow-up's key is written once: a follow-up on one route of its own in `ONE_ROUTE_FOLLOW_UPS`, one
 * with steps of its own in the catalogue's index (machines/forms/catalogue-index.ts, group 'after').
 * `FollowUpKey` is read off both, and the catalogue (catalogue.ts) must define every key (docs/forms.md).
 */
interface FollowUpFacts {
  event: CaseEventType;
  /** Its route (the first step's, when the last has its own). */
  route: string;
  /** The route of the last screen when it has its own (`/form-usi-step2`, Update Success). */
  doneRoute?: string;
  /** False while the API of a form is built but its pages are not: its routes stay planned pages. */
  pagesOpen?: false;
}

/** The follow-ups whose every screen is on one route of their own; each one's key is also its step's kind. */
export const ONE_ROUTE_FOLLOW_UPS = [
  { key: 'withdrawApplication', event: 'case.withdraw', route: '/withdraw-application' },
  { key: 'requestForInspection', event: 'inspection.request', route: '/request-for-inspection' },
  { key: 'appointment', event: 'appointment.submit', route: '/form-appointment-step1' },
] as const satisfies readonly (FollowUpFacts & { key: string })[];

export type OneRouteFollowUpKey = (typeof ONE_ROUTE_FOLLOW_UPS)[number]['key'];
/** The key of a follow-up form, in i18n `flows:forms.<key>`, `case:actions.<key>` and the API path. */
export type FollowUpKey = OneRouteFollowUpKey | SteppedFollowUpKey;

export interface FollowUpEntry extends FollowUpFacts {
  key: FollowUpKey;
}

/**
 * The event of each follow-up with steps of its own in the catalogue's index: a form of the index's group
 * 'after' left out here fails to compile. Their routes are their steps' (the last one the done screen).
 */
const STEPPED_EVENTS = {
  updateInformation: 'information.update',
  updateInformationCccaic2: 'information.update',
  updateInformationJokc02: 'information.update',
  updateInformationCccaimh3: 'information.update',
  submitDocument: 'document.submit',
} as const satisfies Readonly<Record<SteppedFollowUpKey, CaseEventType>>;

export const FOLLOW_UP_ENTRY_LIST: readonly FollowUpEntry[] = [
  ...ONE_ROUTE_FOLLOW_UPS,
  ...FORM_SPECS.flatMap((spec) =>
    spec.group === 'after'
      ? [
          {
            key: spec.form,
            event: STEPPED_EVENTS[spec.form],
            route: stepPath(spec.slug, 1),
            doneRoute: stepPath(spec.slug, spec.steps.length),
          },
        ]
      : [],
  ),
];

/** Is this string (a path parameter, a stored row) the key of a follow-up form? */
export function isFollowUpKey(key: string): key is FollowUpKey {
  return FOLLOW_UP_ENTRY_LIST.some((entry) => entry.key === key);
}

/** The entry of a follow-up form. */
export function followUpEntry(key: FollowUpKey): FollowUpEntry {
  const entry = FOLLOW_UP_ENTRY_LIST.find((e) => e.key === key);
  // Cannot happen: FollowUpKey is read off the two lists the entries are made of.
  if (!entry) throw new Error(`follow-up ${key} has no entry`);
  return entry;
}
