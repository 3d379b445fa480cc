import { isNull } from 'drizzle-orm';
import type { Db } from '../../drizzle/db';
import { applications, appointments, registrationHolders } from '../../drizzle/schema';

/**
 * An ACTIVE appointment as an acceptance leaves it: its number's holder (made, or the one on file) with the
 * appointment's contacts, and the appointment linked to it (docs/decisions/025-registration-holders.md).
 */
export async function insertAcceptedAppointment(
  db: Db,
  row: Omit<typeof appointments.$inferInsert, 'status' | 'holderId'>,
): Promise<void> {
  const at = row.acceptedAt ?? row.invitedAt;
  const [holder] = await db
    .insert(registrationHolders)
    .values({
      registrationNumber: row.registrationNumber,
      identity: row.identity,
      nameEn: row.nameEn,
      nameZh: row.nameZh ?? null,
      email: row.email,
      mobile: row.mobile,
      language: row.language,
      establishedAt: at,
      updatedAt: at,
    })
    .onConflictDoUpdate({
      // The current holder (the index is partial: ended holders stay beside it).
      target: [registrationHolders.registrationNumber, registrationHolders.identity],
      targetWhere: isNull(registrationHolders.endedAt),
      set: { email: row.email, mobile: row.mobile, updatedAt: at },
    })
    .returning({ id: registrationHolders.id });
  await db.insert(appointments).values({ ...row, status: 'ACTIVE', holderId: holder!.id, acceptedAt: at });
}

/**
 * Cases a self-certification may name, each with the forms' default certifier (AP(A) 1234) accepted as
 * its AP: a self-certification needs an AP appointed to the case (docs/flows/case-lifecycle.md).
 */
export async function casesWithCertifier(
  db: Db,
  now: Date,
  cases: readonly { no: string; formCode: string; status: string; email?: string }[],
): Promise<number[]> {
  const made = await db
    .insert(applications)
    .values(
      cases.map((c) => ({
        applicationNo: c.no,
        formCode: c.formCode,
        applicationType: 'NEWSCH',
        status: c.status,
        applicantNameEn: 'CHAN Tai Man',
        email: c.email ?? null,
        language: 'en',
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning({ id: applications.id });
  for (const { id } of made)
    await insertAcceptedAppointment(db, {
      applicationId: id,
      identity: 'ap',
      nameEn: 'WONG Siu Ming',
      registrationNumber: 'AP(A) 1234',
      email: 'ap.wong@example.hk',
      mobile: '61234568',
      expiryDate: '2030-12-31',
      language: 'en',
      invitedAt: now,
      acceptedAt: now,
    });
  return made.map((m) => m.id);
}
