import type { Db } from '../../drizzle/db';
import { seedStaff } from '../../api/modules/auth/demo-staff';
import type { StaffRole } from '../../machines/rules/staff';
import { seedTestCase } from './seed-case';

/**
 * The console's browser test fixtures (issue 17): staff accounts with known passwords and TOTP secret,
 * and cases of applicants 81–95 in the statuses the tests need. Seeded by one line of serve.ts.
 */
export const E2E_TOTP_SECRET = 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU';

export const CONSOLE_STAFF = {
  officer: {
    username: 'e2e.officer',
    password: 'e2e-officer-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'HO Wing Sze',
    nameZh: '何詠詩',
  },
  admin: {
    username: 'e2e.admin',
    password: 'e2e-admin-password',
    role: 'admin' as StaffRole,
    nameEn: 'SIU Lok Yi',
    nameZh: '蕭樂儀',
  },
  // Signs in only in the idle time-out test (one TOTP code is accepted once per user).
  idle: {
    username: 'e2e.idle',
    password: 'e2e-idle-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'KWOK Ka Yan',
    nameZh: '郭嘉欣',
  },
  senior: {
    username: 'e2e.senior',
    password: 'e2e-senior-password',
    role: 'seniorOfficer' as StaffRole,
    nameEn: 'YIP Kwok Wai',
    nameZh: '葉國偉',
  },
};

/** Cases of the console tests: applicant number and status. */
export const CONSOLE_CASES = {
  loop: { n: 81, status: 'SUBMITTED' },
  languages: { n: 82, status: 'SUBMITTED' },
} as const;

export async function seedConsoleFixtures(db: Db): Promise<void> {
  await seedStaff(
    db,
    Object.values(CONSOLE_STAFF).map((s) => ({
      ...s,
      postEn: 'Building Surveyor',
      postZh: '屋宇測量師',
      telephone: '2626 1919',
      email: `${s.username}@bd.gov.hk`,
      totpSecret: E2E_TOTP_SECRET,
    })),
  );
  for (const { n, status } of Object.values(CONSOLE_CASES)) {
    await seedTestCase(db, n, {
      status,
      date: new Date(),
      premisesAddressEn: 'G/F, 1 Test Street, Kowloon',
    });
  }
}
