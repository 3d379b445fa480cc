import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { staffRecoveryCodes } from '../../../drizzle/schema-staff';

/**
 * Staff recovery codes (docs/console.md, docs/decisions/030-sign-in-lockouts.md): ten per account, shown
 * once, each kept as an argon2id hash with its own salt (the PHC string `$argon2id$…` carries it). A code
 * is checked against every unused code of the account (there are at most ten), then taken with a
 * compare-and-set, so it opens one sign-in however many requests race.
 *
 * Rows made before argon2 hold an unsalted SHA-256 (64 hex digits): still accepted, compared in constant
 * time, until they are used; new rows are never written so.
 */
export const RECOVERY_CODE_COUNT = 10;

/** argon2id with @node-rs/argon2's defaults (OWASP's minimum: 19 MiB, 2 passes, 1 lane), as passwords. */
export const hashRecoveryCode = (code: string) => argonHash(code.toLowerCase());

const legacyHash = (code: string) => createHash('sha256').update(code.toLowerCase()).digest();

/** Ten recovery codes `xxxxx-xxxxx` (shown once at enrolment; only their hashes are kept). */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

export async function storeRecoveryCodes(db: Db, staffId: number, codes: readonly string[]): Promise<void> {
  const hashes = await Promise.all(codes.map(hashRecoveryCode));
  await db.insert(staffRecoveryCodes).values(hashes.map((codeHash) => ({ staffId, codeHash })));
}

/**
 * Finds which of the account's unused codes `code` is, without using it. The same work whatever the
 * answer, so that its time tells nothing (not even whether the account exists or how many codes are left):
 * RECOVERY_CODE_COUNT argon2 checks, against a dummy hash where the account has fewer codes, and no early
 * stop at a match. `staffId` undefined: an unknown user name.
 */
export function recoveryCodeMatcher(db: Db) {
  const dummy = argonHash(randomBytes(16).toString('hex'));
  return async (staffId: number | undefined, code: string): Promise<number | undefined> => {
    const rows =
      staffId === undefined
        ? []
        : await db
            .select({ id: staffRecoveryCodes.id, codeHash: staffRecoveryCodes.codeHash })
            .from(staffRecoveryCodes)
            .where(and(eq(staffRecoveryCodes.staffId, staffId), isNull(staffRecoveryCodes.usedAt)));
    const slow = rows.filter((r) => r.codeHash.startsWith('$argon2'));
    const legacy = rows.filter((r) => /^[0-9a-f]{64}$/.test(r.codeHash));
    const given = code.toLowerCase();
    let match: number | undefined;
    for (let i = 0; i < Math.max(RECOVERY_CODE_COUNT, slow.length); i += 1) {
      const row = slow[i];
      const ok = await argonVerify(row?.codeHash ?? (await dummy), given).catch(() => false);
      if (ok && row && match === undefined) match = row.id;
    }
    const sha = legacyHash(given);
    for (const row of legacy)
      if (timingSafeEqual(Buffer.from(row.codeHash, 'hex'), sha) && match === undefined) match = row.id;
    return match;
  };
}

/** Uses the code: true for exactly one caller, however many take it at once (compare-and-set). */
export async function takeRecoveryCode(db: Db, id: number, now: Date): Promise<boolean> {
  const [used] = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(staffRecoveryCodes.id, id), isNull(staffRecoveryCodes.usedAt)))
    .returning({ id: staffRecoveryCodes.id });
  return used !== undefined;
}
