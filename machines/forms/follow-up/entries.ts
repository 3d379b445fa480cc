import type { CaseEventType } from '../../rules/case-lifecycle';
import type { FollowUpKey } from './types';

/**
 * Who each follow-up form is, without what it asks: its key, the lifecycle event it sends and its routes.
 * The definitions take these from here (`...FOLLOW_UP_ENTRIES.x`), and the route table (machines/routes.ts)
 * and the session grants (machines/rules/grants.ts) read only this, so that every page's route table
 * does not carry the forms themselves (the update forms hold every application form's sections).
 */
export interface FollowUpEntry {
  key: FollowUpKey;
  event: CaseEventType;
  /** Its route (the first step's, when the last has its own). */
  route: string;
  /** The route of the last screen when it has its own (`/form-usi-step2`, Update Success). */
  doneRoute?: string;
  /** False while the API of a form is built but its pages are not: its routes stay planned pages. */
  pagesOpen?: false;
}

const update = (key: FollowUpKey, slug: string): FollowUpEntry => ({
  key,
  event: 'information.update',
  route: `/form-${slug}-step1`,
  doneRoute: `/form-${slug}-step2`,
});

export const FOLLOW_UP_ENTRIES = {
  withdrawApplication: { key: 'withdrawApplication', event: 'case.withdraw', route: '/withdraw-application' },
  requestForInspection: {
    key: 'requestForInspection',
    event: 'inspection.request',
    route: '/request-for-inspection',
  },
  appointment: { key: 'appointment', event: 'appointment.submit', route: '/form-appointment-step1' },
  updateInformation: update('updateInformation', 'usi'),
  updateInformationCccaic2: update('updateInformationCccaic2', 'usi-cccaic2'),
  updateInformationJokc02: update('updateInformationJokc02', 'usi-jokc02'),
  updateInformationCccaimh3: update('updateInformationCccaimh3', 'usi-cccaimh3'),
  submitDocument: {
    key: 'submitDocument',
    event: 'document.submit',
    route: '/form-submit-doc-step1',
    doneRoute: '/form-submit-doc-step2',
  },
} as const satisfies Readonly<Record<FollowUpKey, FollowUpEntry>>;

export const FOLLOW_UP_ENTRY_LIST: readonly FollowUpEntry[] = Object.values(FOLLOW_UP_ENTRIES);
