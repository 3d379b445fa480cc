/**
 * The audit trail in words (docs/console.md, "Audit trail"): which of an event's recorded fields changed,
 * and which of them name a member of staff, so the console shows "Officer: Chan Tai Man → Wong Siu Ming"
 * instead of `{"assignedTo":1} → {"assignedTo":2}`. Pure: the API adds the names, the console the words.
 */

/** Fields whose value is a staff account's id. */
export const STAFF_ID_FIELDS: ReadonlySet<string> = new Set(['assignedTo', 'contactOf', 'officerId', 'staffId', 'proposedBy']);

/** One field of an event: its value before and after (absent on a side that did not record it). */
export interface AuditChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

const fieldsOf = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields of an event in the order recorded (before's first), each once: those that changed, and those
 * recorded on one side only. A field recorded the same on both sides (a message's status) is left out
 * unless nothing changed at all, when the event shows what it recorded.
 */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const b = fieldsOf(before);
  const a = fieldsOf(after);
  const all = [...new Set([...Object.keys(b), ...Object.keys(a)])].map((field) => ({
    field,
    ...(field in b ? { before: b[field] } : {}),
    ...(field in a ? { after: a[field] } : {}),
  }));
  const changed = all.filter((c) => !('before' in c) || !('after' in c) || !same(c.before, c.after));
  return changed.length > 0 ? changed : all.map(({ field, after: value }) => ({ field, after: value }));
}

/** The staff accounts an event names: its actor (`staff:<id>`) and the staff fields of before and after. */
export function staffIdsOf(row: { actorRef: string; before: unknown; after: unknown }): number[] {
  const ids = new Set<number>();
  const actor = /^staff:(\d+)$/.exec(row.actorRef);
  if (actor) ids.add(Number(actor[1]));
  for (const side of [fieldsOf(row.before), fieldsOf(row.after)])
    for (const [field, value] of Object.entries(side))
      if (STAFF_ID_FIELDS.has(field) && typeof value === 'number' && Number.isSafeInteger(value)) ids.add(value);
  return [...ids];
}

/**
 * The actions the audit page can be searched by, grouped as the console lists them: the case's lifecycle,
 * the applicant's and AP's sign-in and documents, and the staff's own actions.
 */
export const AUDIT_ACTIONS = [
  'application.submit',
  'case.assign',
  'case.acknowledge',
  'case.examine',
  'lor.issue',
  'lor.withdraw',
  'compliance.report',
  'compliance.record',
  'information.request',
  'information.extend',
  'information.withdraw',
  'information.update',
  'document.submit',
  'inspection.request',
  'inspection.schedule',
  'inspection.reschedule',
  'inspection.cancel',
  'inspection.record',
  'certificate.propose',
  'rejection.propose',
  'revocation.propose',
  'proposal.propose',
  'proposal.approve',
  'proposal.sendBack',
  'proposal.withdraw',
  'certificate.issue',
  'certificate.revoke',
  'case.reject',
  'case.withdraw',
  'case.close',
  'case.reopen',
  'case.reassign',
  'message.send',
  'case.note.add',
  'document.review',
  'selfCertification.submit',
  'appointment.invite',
  'appointment.submit',
  'appointment.accept',
  'appointment.revoke',
  'appointment.cancel',
  'appointment.replace',
  'appointment.lapse',
  'holder.contact',
  'holder.reset',
  'otp.send',
  'otp.verify',
  'auth.login',
  'auth.logout',
  'signing.start',
  'signing.complete',
  'document.upload',
  'document.download',
  'case.viewPersonalData',
  'staff.signIn',
  'staff.signOut',
  'notices.read',
  'staff.enrol',
  'staff.create',
  'staff.disable',
  'staff.enable',
  'staff.totpReset',
  'staff.unlock',
  'settings.update',
] as const;
