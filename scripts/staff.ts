/**
 * The admin command for staff accounts (docs/console.md):
 *
 *   DATABASE_URL=… npx tsx scripts/staff.ts create <username> <caseOfficer|seniorOfficer|admin> \
 *     "<name en>" "<name zh>" "<post en>" "<post zh>" <telephone> <email>
 *
 * asks nothing on the command line that could stay in the shell's history: the password comes from env
 * STAFF_PASSWORD (at least 12 characters). Prints the TOTP enrolment as a QR code for the authenticator
 * app (and the otpauth:// URI), and the ten recovery codes, once: only their hashes are kept.
 */
import QRCode from 'qrcode';
import { createStaffAccount } from '../api/modules/auth/staff-auth';
import { openDatabase } from '../drizzle/db';
import { STAFF_ROLES, type StaffRole } from '../machines/rules/staff';

const [command, username, role, nameEn, nameZh, postEn, postZh, telephone, email] = process.argv.slice(2);
const password = process.env.STAFF_PASSWORD ?? '';
if (command !== 'create' || !username || !email || !nameEn || !nameZh || !postEn || !postZh || !telephone) {
  console.error(
    'usage: STAFF_PASSWORD=… tsx scripts/staff.ts create <username> <role> <nameEn> <nameZh> <postEn> <postZh> <telephone> <email>',
  );
  process.exit(2);
}
if (!STAFF_ROLES.includes(role as StaffRole)) {
  console.error(`role must be one of ${STAFF_ROLES.join(', ')}`);
  process.exit(2);
}
if (password.length < 12) {
  console.error('STAFF_PASSWORD must be set, at least 12 characters');
  process.exit(2);
}
const database = await openDatabase({ url: process.env.DATABASE_URL ?? '', dataDir: process.env.DATA_DIR });
try {
  const made = await createStaffAccount(database.db, {
    username,
    role: role as StaffRole,
    nameEn,
    nameZh,
    postEn,
    postZh,
    telephone,
    email,
    password,
  });
  console.log(await QRCode.toString(made.otpauthUri, { type: 'terminal', small: true }));
  console.log(`Scan with the authenticator app, or enter: ${made.otpauthUri}`);
  console.log('Recovery codes (each works once; keep them safe):');
  for (const code of made.recoveryCodes) console.log(`  ${code}`);
} finally {
  await database.close();
}
