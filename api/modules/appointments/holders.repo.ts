import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { registrationHolders, type RegistrationHolderRow } from '../../../drizzle/schema';

/**
 * The queries of registration holders: the person behind a registration number
 * (docs/decisions/025-registration-holders.md). Only the current holder (`ended_at` null) counts; the
 * holders the department reset stay as the number's history.
 */

/** The number's current holder in a register (`identity`: 'ap' | 'rse'). */
const current = (registrationNumber: string, identity: string) =>
  and(
    eq(registrationHolders.registrationNumber, registrationNumber),
    eq(registrationHolders.identity, identity),
    isNull(registrationHolders.endedAt),
  );

export async function holderOf(
  tx: Db,
  registrationNumber: string,
  identity: string,
): Promise<RegistrationHolderRow | undefined> {
  const [row] = await tx.select().from(registrationHolders).where(current(registrationNumber, identity));
  return row;
}

/** The holder of a number, whatever its register (the AP and RSE numbers never look alike). */
export async function holderOfNumber(
  tx: Db,
  registrationNumber: string,
): Promise<RegistrationHolderRow | undefined> {
  const [row] = await tx
    .select()
    .from(registrationHolders)
    .where(
      and(
        eq(registrationHolders.registrationNumber, registrationNumber),
        isNull(registrationHolders.endedAt),
      ),
    )
    .limit(1);
  return row;
}

/** The holder row, locked until the transaction ends. */
export async function lockHolder(
  tx: Db,
  registrationNumber: string,
  identity: string,
): Promise<RegistrationHolderRow | undefined> {
  const [row] = await tx
    .select()
    .from(registrationHolders)
    .where(current(registrationNumber, identity))
    .for('update');
  return row;
}

/**
 * Establishes the holder of a number: the row made, or undefined when the number has a holder already (a
 * parallel first acceptance waits on the unique index and then finds it).
 */
export async function establish(
  tx: Db,
  row: typeof registrationHolders.$inferInsert,
): Promise<RegistrationHolderRow | undefined> {
  const [made] = await tx.insert(registrationHolders).values(row).onConflictDoNothing().returning();
  return made;
}

export async function setHolderContacts(
  tx: Db,
  id: number,
  contacts: { email: string; mobile: string },
  at: Date,
): Promise<void> {
  await tx
    .update(registrationHolders)
    .set({ ...contacts, updatedAt: at })
    .where(eq(registrationHolders.id, id));
}

/** The holders of a number the department reset, newest first (its history). */
export async function endedHolders(
  tx: Db,
  registrationNumber: string,
  identity: string,
): Promise<RegistrationHolderRow[]> {
  return tx
    .select()
    .from(registrationHolders)
    .where(
      and(
        eq(registrationHolders.registrationNumber, registrationNumber),
        eq(registrationHolders.identity, identity),
        isNotNull(registrationHolders.endedAt),
      ),
    )
    .orderBy(desc(registrationHolders.endedAt), desc(registrationHolders.id));
}

/** Ends the holder (kept as history): the number has no holder until its next acceptance. */
export async function endHolder(
  tx: Db,
  id: number,
  end: { at: Date; by: number; reason: string },
): Promise<void> {
  await tx
    .update(registrationHolders)
    .set({ endedAt: end.at, endedBy: end.by, endReason: end.reason, updatedAt: end.at })
    .where(eq(registrationHolders.id, id));
}
