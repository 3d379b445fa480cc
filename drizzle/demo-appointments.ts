import { and, eq } from 'drizzle-orm';
import type { Db } from './db';
import { appointments, applications } from './schema';

/**
 * The demo AP (docs/demo.md): an Authorized Person with an accepted appointment to the demo case in
 * "Letter of Requirements issued", to log in as at /appointee-login. Idempotent like the demo cases.
 */
export const DEMO_AP = {
  applicationNo: 'CCCAI-C2-2026-000045',
  nameEn: 'WONG Siu Ming',
  nameZh: '黃小明',
  registrationNumber: 'AP(E) 2345',
  email: 'ap.demo@example.hk',
  mobile: '92345678',
  expiryDate: '2029-12-31',
};

export async function seedDemoAppointments(db: Db): Promise<void> {
  const [application] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(eq(applications.applicationNo, DEMO_AP.applicationNo));
  if (!application) return;
  const [existing] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.applicationId, application.id),
        eq(appointments.registrationNumber, DEMO_AP.registrationNumber),
      ),
    );
  if (existing) return;
  const at = new Date('2026-11-02T10:00:00+08:00');
  await db
    .insert(appointments)
    .values({
      applicationId: application.id,
      identity: 'ap',
      nameEn: DEMO_AP.nameEn,
      nameZh: DEMO_AP.nameZh,
      registrationNumber: DEMO_AP.registrationNumber,
      email: DEMO_AP.email,
      mobile: DEMO_AP.mobile,
      expiryDate: DEMO_AP.expiryDate,
      status: 'ACTIVE',
      language: 'tc',
      invitedAt: at,
      acceptedAt: at,
    })
    .onConflictDoNothing();
}
