import { eq } from 'drizzle-orm';
import { createStaffAccount, type NewStaff } from './staff-auth';
import type { Db } from '../../../drizzle/db';
import { staffAccounts } from '../../../drizzle/schema-staff';

/**
 * The demo's staff: a case officer, a senior officer and an admin, with the passwords and the
 * TOTP secret written in docs/demo.md, so that a newcomer can move a case in the console
 * (/console/sign-in). Seeded with the demo applications, never in production (api/server.ts).
 */
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export const DEMO_STAFF: readonly NewStaff[] = [
  {
    username: 'officer',
    role: 'caseOfficer',
    nameEn: 'WONG Ka Yan',
    nameZh: '黃家欣',
    postEn: 'Building Surveyor',
    postZh: '屋宇測量師',
    telephone: '2626 1616',
    email: 'officer.demo@bd.gov.hk',
    password: 'demo-officer-2026',
    totpSecret: DEMO_TOTP_SECRET,
  },
  {
    username: 'senior',
    role: 'seniorOfficer',
    nameEn: 'LAM Chi Keung',
    nameZh: '林志強',
    postEn: 'Senior Building Surveyor',
    postZh: '高級屋宇測量師',
    telephone: '2626 1717',
    email: 'senior.demo@bd.gov.hk',
    password: 'demo-senior-2026',
    totpSecret: DEMO_TOTP_SECRET,
  },
  {
    username: 'admin',
    role: 'admin',
    nameEn: 'CHEUNG Mei Ling',
    nameZh: '張美玲',
    postEn: 'Systems Manager',
    postZh: '系統經理',
    telephone: '2626 1818',
    email: 'admin.demo@bd.gov.hk',
    password: 'demo-admin-2026',
    totpSecret: DEMO_TOTP_SECRET,
  },
];

/** Creates the staff accounts not there yet (by user name). */
export async function seedStaff(db: Db, staff: readonly NewStaff[]): Promise<void> {
  for (const s of staff) {
    const [known] = await db
      .select({ id: staffAccounts.id })
      .from(staffAccounts)
      .where(eq(staffAccounts.username, s.username));
    if (!known) await createStaffAccount(db, s);
  }
}
