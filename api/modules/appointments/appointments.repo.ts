import { and, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import {
  appointeeSessions,
  appointmentInvitations,
  appointments,
  applications,
  type AppointmentRow,
} from '../../../drizzle/schema';

/** The queries of appointments (api/modules/appointments/appointments.service.ts). */

export async function insertAppointment(
  tx: Db,
  row: typeof appointments.$inferInsert,
): Promise<AppointmentRow> {
  const [made] = await tx.insert(appointments).values(row).returning();
  if (!made) throw new Error('appointment not recorded');
  return made;
}

export async function insertInvitation(tx: Db, row: typeof appointmentInvitations.$inferInsert) {
  await tx.insert(appointmentInvitations).values(row);
}

/** The appointment of a role on a case in `status` (at most one INVITED and one ACTIVE: partial unique indexes). */
export async function ofStatus(
  tx: Db,
  applicationId: number,
  identity: string,
  status: 'INVITED' | 'ACTIVE',
) {
  const [row] = await tx
    .select()
    .from(appointments)
    .where(
      and(
        eq(appointments.applicationId, applicationId),
        eq(appointments.identity, identity),
        eq(appointments.status, status),
      ),
    );
  return row;
}

export async function endAppointment(
  tx: Db,
  id: number,
  from: string,
  to: string,
  at: Date,
  reason: string | null,
): Promise<boolean> {
  const done = await tx
    .update(appointments)
    .set({ status: to, endedAt: at, endReason: reason })
    .where(and(eq(appointments.id, id), eq(appointments.status, from)))
    .returning({ id: appointments.id });
  return done.length > 0;
}

/** The invitation of a token's hash, with its appointment (unlocked). */
export async function invitationByHash(tx: Db, tokenHash: string) {
  const [row] = await tx
    .select({ invitation: appointmentInvitations, appointment: appointments })
    .from(appointmentInvitations)
    .innerJoin(appointments, eq(appointments.id, appointmentInvitations.appointmentId))
    .where(eq(appointmentInvitations.tokenHash, tokenHash));
  return row;
}

/** The appointment row, locked until the transaction ends (acceptances of one appointment wait). */
export async function lockAppointment(tx: Db, id: number) {
  const [row] = await tx.select().from(appointments).where(eq(appointments.id, id)).for('update');
  return row;
}

export async function appointmentsOfCase(tx: Db, applicationId: number) {
  return tx
    .select()
    .from(appointments)
    .where(eq(appointments.applicationId, applicationId))
    .orderBy(desc(appointments.invitedAt), desc(appointments.id));
}

export async function applicationOf(tx: Db, applicationId: number) {
  const [row] = await tx.select().from(applications).where(eq(applications.id, applicationId));
  return row;
}

/**
 * The ACTIVE appointments of a registration number that its holder accepted, valid on `today`, with their
 * cases: what the appointee's login reaches (docs/decisions/025-registration-holders.md).
 */
export async function activeOfRegistration(tx: Db, registrationNumber: string, today: string) {
  return tx
    .select({
      appointment: appointments,
      applicationNo: applications.applicationNo,
      formCode: applications.formCode,
      status: applications.status,
    })
    .from(appointments)
    .innerJoin(applications, eq(applications.id, appointments.applicationId))
    .where(
      and(
        eq(appointments.registrationNumber, registrationNumber),
        eq(appointments.status, 'ACTIVE'),
        isNotNull(appointments.holderId),
        gte(appointments.expiryDate, today),
      ),
    )
    .orderBy(desc(appointments.acceptedAt), desc(appointments.id));
}

export async function appointeeOfSession(tx: Db, sessionId: number) {
  const [row] = await tx.select().from(appointeeSessions).where(eq(appointeeSessions.sessionId, sessionId));
  return row;
}

/**
 * Whether the AP/RSE of a session is still appointed to the case: ACTIVE, accepted by the number's holder,
 * registration not expired.
 */
export async function hasActiveAppointment(
  tx: Db,
  applicationId: number,
  registrationNumber: string,
  identity: string,
  today: string,
): Promise<boolean> {
  const rows = await tx
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.applicationId, applicationId),
        eq(appointments.registrationNumber, registrationNumber),
        eq(appointments.identity, identity),
        eq(appointments.status, 'ACTIVE'),
        isNotNull(appointments.holderId),
        gte(appointments.expiryDate, today),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** ACTIVE or INVITED appointments whose registration expired before `today`. */
export async function expiredBefore(tx: Db, today: string) {
  return tx
    .select()
    .from(appointments)
    .where(and(inArray(appointments.status, ['ACTIVE', 'INVITED']), lt(appointments.expiryDate, today)));
}

/** ACTIVE appointments whose registration expires by `until`, not yet told. */
export async function expiringBy(tx: Db, until: string) {
  return tx
    .select()
    .from(appointments)
    .where(
      and(
        eq(appointments.status, 'ACTIVE'),
        lte(appointments.expiryDate, until),
        isNull(appointments.expiryNoticeAt),
      ),
    );
}

export async function markNoticed(tx: Db, id: number, at: Date): Promise<boolean> {
  const done = await tx
    .update(appointments)
    .set({ expiryNoticeAt: at })
    .where(and(eq(appointments.id, id), isNull(appointments.expiryNoticeAt)))
    .returning({ id: appointments.id });
  return done.length > 0;
}

export async function useInvitation(tx: Db, invitationId: number, at: Date) {
  await tx
    .update(appointmentInvitations)
    .set({ usedAt: at })
    .where(and(eq(appointmentInvitations.id, invitationId), isNull(appointmentInvitations.usedAt)));
}

export async function confirmInvitation(tx: Db, invitationId: number, at: Date) {
  await tx
    .update(appointmentInvitations)
    .set({
      confirmedAt: sql`coalesce(${appointmentInvitations.confirmedAt}, ${at.toISOString()}::timestamptz)`,
    })
    .where(eq(appointmentInvitations.id, invitationId));
}

export async function activate(tx: Db, id: number, at: Date, signature: unknown, holderId: number) {
  await tx
    .update(appointments)
    .set({ status: 'ACTIVE', acceptedAt: at, signature, holderId })
    .where(and(eq(appointments.id, id), eq(appointments.status, 'INVITED')));
}

/** The holder's contacts on an appointment of their number (an invitation made before the holder was). */
export async function setContacts(tx: Db, id: number, contacts: { email: string; mobile: string }) {
  await tx
    .update(appointments)
    .set({ ...contacts, registeredContacts: true })
    .where(eq(appointments.id, id));
}

/** The open and active appointments of a number take its holder's new contacts (a contact change). */
export async function moveContacts(
  tx: Db,
  registrationNumber: string,
  identity: string,
  contacts: { email: string; mobile: string },
) {
  await tx
    .update(appointments)
    .set({ ...contacts, registeredContacts: true })
    .where(
      and(
        eq(appointments.registrationNumber, registrationNumber),
        eq(appointments.identity, identity),
        inArray(appointments.status, ['ACTIVE', 'INVITED']),
      ),
    );
}
