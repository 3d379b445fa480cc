import { z } from 'zod';

/**
 * The officer's inbox (docs/decisions/039-officer-inbox.md): its tabs, the kinds of activity the
 * applicant or AP/RSE makes on a case, and the notices; shared by the API and the console.
 */

/**
 * The inbox's tabs on the work queue: `handle` my open cases waiting on the department, `mine` all my
 * open cases, `waiting` my open cases with a request for further information unanswered, `done` my
 * finished cases.
 */
export const INBOX_TABS = ['handle', 'mine', 'waiting', 'done'] as const;
export type InboxTab = (typeof INBOX_TABS)[number];

/** What the applicant or AP/RSE did: i18n console `inbox.kinds.<kind>` and api `inbox.kinds.<kind>`. */
export const ACTIVITY_KINDS = [
  'documents',
  'message',
  'inspection',
  'withdrawn',
  'information',
  'appointment',
  'selfCertification',
  'other',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** The kind of a party's case action, by its follow-up form's key (case_actions.form_key). */
export function activityKindOf(formKey: string): ActivityKind {
  if (formKey === 'submitDocument') return 'documents';
  if (formKey === 'withdrawApplication') return 'withdrawn';
  if (formKey === 'requestForInspection') return 'inspection';
  if (formKey === 'appointment') return 'appointment';
  if (formKey === 'selfCertification') return 'selfCertification';
  if (formKey.startsWith('updateInformation')) return 'information';
  return 'other';
}

/** One thing a party did on a case. */
export interface ActivityData {
  applicationNo: string;
  kind: ActivityKind;
  /** ISO time. */
  at: string;
  /** 'APPLICANT' | 'AP' | 'RSE' */
  by: string;
}

/** GET /api/staff/notices: the newest notices of the officer's cases, and how many are unread. */
export interface NoticesData {
  notices: (ActivityData & { unread: boolean })[];
  unread: number;
}

/** Notices listed at a time. */
export const NOTICES_LIMIT = 50;

/** POST /api/staff/notices/read { through }: the notices up to the newest one the officer was shown are read. */
export const noticesReadSchema = z.strictObject({
  through: z.iso.datetime({ offset: true, error: 'staff.invalid' }),
});
