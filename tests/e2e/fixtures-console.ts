import type { Db } from '../../drizzle/db';
import { seedStaff } from '../../api/modules/auth/demo-staff';
import type { StaffRole } from '../../machines/rules/staff';
import { insertAcceptedAppointment } from '../api/accepted-appointment';
import { seedTestCase } from './seed-case';
import { testApplicant } from './fixtures';
import { caseVersions } from '../../drizzle/schema';
import { eq } from 'drizzle-orm';
import { caseAssignments, issuedDocuments, staffAccounts } from '../../drizzle/schema-staff';
import { hongKongDate } from '../../machines/rules/working-days';
import { seedInboxCase } from './fixtures-inbox';

/**
 * The console's browser test fixtures (issue 17): staff accounts with known passwords and TOTP secret,
 * and cases of applicants 81–95 (and 161–162, the search's) in the statuses the tests need. Seeded by one
 * line of serve.ts.
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
  // Signs in only in the language test, for the same reason.
  languages: {
    username: 'e2e.languages',
    password: 'e2e-languages-password',
    role: 'seniorOfficer' as StaffRole,
    nameEn: 'CHAN Mei Ling',
    nameZh: '陳美玲',
  },
  // The registered AP/RSE test (console-holder.spec.ts) signs in with its own senior officer, so that its
  // TOTP code never meets the other tests' in the same 30 seconds.
  registry: {
    username: 'e2e.registry',
    password: 'e2e-registry-password',
    role: 'seniorOfficer' as StaffRole,
    nameEn: 'LAM Chi Keung',
    nameZh: '林志強',
  },
  // console-corrections.spec.ts: one account per test that signs in (a TOTP code is accepted once per user).
  corrRequest: {
    username: 'e2e.corr.request',
    password: 'e2e-corr-request-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'TANG Hoi Yan',
    nameZh: '鄧凱欣',
  },
  corrReject: {
    username: 'e2e.corr.reject',
    password: 'e2e-corr-reject-password',
    role: 'seniorOfficer' as StaffRole,
    nameEn: 'MAK Chun Kit',
    nameZh: '麥俊傑',
  },
  corrLetter: {
    username: 'e2e.corr.letter',
    password: 'e2e-corr-letter-password',
    role: 'seniorOfficer' as StaffRole,
    nameEn: 'FUNG Wai Man',
    nameZh: '馮慧敏',
  },
  // console-moved.spec.ts: an action refused because the case moved meanwhile.
  moved: {
    username: 'e2e.moved',
    password: 'e2e-moved-password',
    role: 'seniorOfficer' as StaffRole,
    nameEn: 'SIN Wing Yan',
    nameZh: '冼詠欣',
  },
  // staff-admin.spec.ts (decision 036): the admin, the officer disabled and whose cases go to a colleague,
  // the colleague, an officer locked out, an officer whose authenticator is reset.
  staffAdmin: {
    username: 'e2e.staffadmin',
    password: 'e2e-staffadmin-password',
    role: 'admin' as StaffRole,
    nameEn: 'KO Hoi Ling',
    nameZh: '高凱玲',
  },
  staffLeaving: {
    username: 'e2e.leaving',
    password: 'e2e-leaving-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'LAU Chun Yin',
    nameZh: '劉俊賢',
  },
  staffColleague: {
    username: 'e2e.colleague',
    password: 'e2e-colleague-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'POON Ka Wai',
    nameZh: '潘嘉慧',
  },
  staffLocked: {
    username: 'e2e.locked',
    password: 'e2e-locked-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'YAU Sze Wing',
    nameZh: '丘詩穎',
  },
  staffReset: {
    username: 'e2e.totpreset',
    password: 'e2e-totpreset-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'CHOI Man Kit',
    nameZh: '蔡文傑',
  },
  // console-search.spec.ts: the work queue's search box.
  search: {
    username: 'e2e.search',
    password: 'e2e-search-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'CHEUNG Hiu Tung',
    nameZh: '張曉彤',
  },
  // console-words.spec.ts: what the applicant wrote, on the case page.
  words: {
    username: 'e2e.words',
    password: 'e2e-words-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'POON Ka Wai',
    nameZh: '潘家慧',
  },
  // document-review.spec.ts: the officer's review of a document (decision 043).
  review: {
    username: 'e2e.review',
    password: 'e2e-review-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'KWOK Wing Sze',
    nameZh: '郭詠詩',
  },
  // ... and a second, so that the two tests do not sign in with the same TOTP code at once.
  reviewTc: {
    username: 'e2e.review.tc',
    password: 'e2e-review-tc-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'LAU Chi Keung',
    nameZh: '劉志強',
  },
  // officer-inbox.spec.ts: the officer whose inbox shows the applicant's new activity (emails in Chinese).
  inbox: {
    username: 'e2e.inbox',
    password: 'e2e-inbox-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'WONG Siu Fan',
    nameZh: '黃小芬',
  },
  // four-eyes.spec.ts: a decision proposed by the case officer and approved by a senior officer.
  foureyesOfficer: {
    username: 'e2e.foureyes.officer',
    password: 'e2e-foureyes-officer-password',
    role: 'caseOfficer' as StaffRole,
    nameEn: 'CHEUNG Ka Ho',
    nameZh: '張家豪',
  },
  foureyesSenior: {
    username: 'e2e.foureyes.senior',
    password: 'e2e-foureyes-senior-password',
    role: 'seniorOfficer' as StaffRole,
    nameEn: 'MAK Wai Ling',
    nameZh: '麥慧玲',
  },
  // The second senior officer who approves a rejection in console-corrections.spec.ts and in
  // console-moved.spec.ts (each signs in once: a TOTP code is accepted once per user).
  foureyesApprover1: {
    username: 'e2e.foureyes.approver1',
    password: 'e2e-foureyes-approver1-password',
    role: 'seniorOfficer' as StaffRole,
    nameEn: 'TSANG Siu Fung',
    nameZh: '曾兆峰',
  },
  foureyesApprover2: {
    username: 'e2e.foureyes.approver2',
    password: 'e2e-foureyes-approver2-password',
    role: 'seniorOfficer' as StaffRole,
    nameEn: 'YIP Hoi Yan',
    nameZh: '葉凱欣',
  },
  // performance.spec.ts: the performance pledges' page (decision 044).
  pledgesSenior: {
    username: 'e2e.pledges.senior',
    password: 'e2e-pledges-senior-password',
    role: 'seniorOfficer' as StaffRole,
    nameEn: 'MAK Wing Sze',
    nameZh: '麥穎詩',
  },
};

/** The case of four-eyes.spec.ts (applicant 221): inspected today with a pass, the four-eyes officer's. */
export const FOUR_EYES_CASE = { n: 221, status: 'INSPECTED' } as const;

/**
 * The cases of console-search.spec.ts (applicants 161–162): schools whose Chinese names, in Traditional
 * characters, begin alike, so that a Simplified query typed key by key finds both, then one.
 */
export const SEARCH_CASES = {
  harbourfront: { n: 161, schoolNameEn: 'Kai Tak Harbourfront School', schoolNameZh: '啟德海濱學校' },
  hillview: { n: 162, schoolNameEn: 'Kai Tak Hillview School', schoolNameZh: '啟德山景學校' },
} as const;

async function seedSearchCases(db: Db): Promise<void> {
  for (const { n, schoolNameEn, schoolNameZh } of Object.values(SEARCH_CASES)) {
    const applicationId = await seedTestCase(db, n, { status: 'SUBMITTED', date: new Date() });
    if (applicationId === undefined) continue;
    // The case's information as submitted (version 1 of its answers), which the search reads.
    await db.insert(caseVersions).values({
      applicationId,
      version: 1,
      answers: { applicantNameEn: `Test Applicant ${n}`, schoolNameEn, schoolNameZh },
      reference: testApplicant(n).applicationNo,
      submittedBy: 'APPLICANT',
      createdAt: new Date(),
    });
  }
}

/**
 * The registration holders of console-holder.spec.ts (docs/console.md, "Registered AP/RSE"): each
 * accepted on a case of its own (applicants 104 and 105), one reset in English, one in Chinese.
 */
export const HOLDER_FIXTURES = {
  en: { n: 104, registrationNumber: 'AP(S) 9700', identity: 'ap', nameEn: 'WONG Siu Ming', nameZh: '黃小明' },
  tc: { n: 105, registrationNumber: 'RSE 9800', identity: 'rse', nameEn: 'LEE Ka Ho', nameZh: '李家豪' },
} as const;

/** Cases of the console tests: applicant number and status. */
export const CONSOLE_CASES = {
  loop: { n: 81, status: 'SUBMITTED' },
  languages: { n: 82, status: 'SUBMITTED' },
  // Inspected today, with the result on record (docs/flows/case-lifecycle.md: a certificate needs a pass).
  passed: { n: 83, status: 'INSPECTED' },
  failed: { n: 84, status: 'INSPECTED' },
} as const;

/**
 * The cases of console-corrections.spec.ts (applicants 131–133): decisions and their corrections
 * (docs/flows/case-lifecycle.md, the case's rules), each from Under examination.
 */
export const CORRECTION_CASES = {
  request: { n: 131, status: 'UNDER_EXAMINATION' },
  reject: { n: 132, status: 'UNDER_EXAMINATION' },
  letter: { n: 133, status: 'UNDER_EXAMINATION' },
} as const;

/** The case of verify.spec.ts (applicant 201): its Letter of Requirements is issued through the API. */
export const VERIFY_CASE = { n: 201, status: 'UNDER_EXAMINATION' } as const;

/**
 * The cases of console-moved.spec.ts (applicants 171–172): each changed by a request of its own while the
 * officer's form is open.
 */
export const MOVED_CASES = {
  stillAllowed: { n: 171, status: 'ACKNOWLEDGED' },
  noLonger: { n: 172, status: 'UNDER_EXAMINATION' },
} as const;

/** The inspection result on record of the inspected cases. */
const RESULTS: Partial<Record<keyof typeof CONSOLE_CASES, 'PASS' | 'FAIL'>> = {
  passed: 'PASS',
  failed: 'FAIL',
};

async function seedHolders(db: Db): Promise<void> {
  const now = new Date();
  for (const h of Object.values(HOLDER_FIXTURES)) {
    const applicationId = await seedTestCase(db, h.n, { status: 'LOR_ISSUED' });
    if (applicationId === undefined) continue;
    await insertAcceptedAppointment(db, {
      applicationId,
      identity: h.identity,
      nameEn: h.nameEn,
      nameZh: h.nameZh,
      registrationNumber: h.registrationNumber,
      email: `e2e-holder-${h.n}@example.hk`,
      mobile: `910${String(h.n).padStart(5, '0')}`,
      expiryDate: `${now.getUTCFullYear() + 2}-06-30`,
      language: 'en',
      invitedAt: now,
      acceptedAt: now,
    });
  }
}

/**
 * The cases of staff-admin.spec.ts (applicants 181–183), all assigned to the officer who leaves: two
 * open, which the admin hands to a colleague, and one closed, which stays.
 */
export const STAFF_ADMIN_CASES = {
  open1: { n: 181, status: 'SUBMITTED' },
  open2: { n: 182, status: 'UNDER_EXAMINATION' },
  closed: { n: 183, status: 'CLOSED' },
} as const;

async function seedStaffAdminCases(db: Db): Promise<void> {
  const [leaving] = await db
    .select({ id: staffAccounts.id })
    .from(staffAccounts)
    .where(eq(staffAccounts.username, CONSOLE_STAFF.staffLeaving.username));
  if (!leaving) return;
  for (const { n, status } of Object.values(STAFF_ADMIN_CASES)) {
    const id = await seedTestCase(db, n, { status, date: new Date() });
    if (id === undefined) continue;
    await db
      .insert(caseAssignments)
      .values({ applicationId: id, staffId: leaving.id, assignedAt: new Date(), assignedBy: leaving.id })
      .onConflictDoNothing();
  }
}

async function seedFourEyesCase(db: Db): Promise<void> {
  const [officer] = await db
    .select({ id: staffAccounts.id })
    .from(staffAccounts)
    .where(eq(staffAccounts.username, CONSOLE_STAFF.foureyesOfficer.username));
  if (!officer) return;
  const id = await seedTestCase(db, FOUR_EYES_CASE.n, { status: FOUR_EYES_CASE.status, date: new Date() });
  if (id === undefined) return;
  const at = new Date();
  await db
    .insert(caseAssignments)
    .values({ applicationId: id, staffId: officer.id, assignedAt: at, assignedBy: officer.id })
    .onConflictDoNothing();
  await db.insert(issuedDocuments).values([
    {
      applicationId: id,
      event: 'inspection.schedule',
      reference: `ISN-E2E-${FOUR_EYES_CASE.n}-1`,
      data: { date: hongKongDate(at), window: 'AM', officerId: officer.id },
      staffId: officer.id,
      createdAt: at,
    },
    {
      applicationId: id,
      event: 'inspection.record',
      reference: `IRP-E2E-${FOUR_EYES_CASE.n}-1`,
      data: { result: 'PASS' },
      staffId: officer.id,
      createdAt: at,
    },
  ]);
}

export async function seedConsoleFixtures(db: Db): Promise<void> {
  await seedHolders(db);
  await seedSearchCases(db);
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
  await seedStaffAdminCases(db);
  await seedInboxCase(db, CONSOLE_STAFF.inbox.username);
  await seedFourEyesCase(db);
  const [senior] = await db
    .select({ id: staffAccounts.id })
    .from(staffAccounts)
    .where(eq(staffAccounts.username, CONSOLE_STAFF.senior.username));
  for (const { n, status } of [
    ...Object.values(CORRECTION_CASES),
    ...Object.values(MOVED_CASES),
    VERIFY_CASE,
  ]) {
    await seedTestCase(db, n, { status, date: new Date(), premisesAddressEn: 'G/F, 3 Test Street, Kowloon' });
  }
  const today = hongKongDate(new Date());
  for (const [key, { n, status }] of Object.entries(CONSOLE_CASES)) {
    const id = await seedTestCase(db, n, {
      status,
      date: new Date(),
      premisesAddressEn: 'G/F, 1 Test Street, Kowloon',
    });
    const result = RESULTS[key as keyof typeof CONSOLE_CASES];
    if (!id || !result || !senior) continue;
    const at = new Date();
    await db.insert(issuedDocuments).values([
      {
        applicationId: id,
        event: 'inspection.schedule',
        reference: `ISN-E2E-${n}-1`,
        data: { date: today, window: 'AM', officerId: senior.id },
        staffId: senior.id,
        createdAt: at,
      },
      {
        applicationId: id,
        event: 'inspection.record',
        reference: `IRP-E2E-${n}-1`,
        data: { result },
        staffId: senior.id,
        createdAt: at,
      },
    ]);
  }
}
