import type { Db } from '../../../drizzle/db';
import type { AppointmentRow, RegistrationHolderRow } from '../../../drizzle/schema';
import { ApiError } from '../../http/errors';
import * as holders from './holders.repo';

/**
 * The registration holder's rules (docs/decisions/025-registration-holders.md): the first acceptance of a
 * registration number establishes its holder (the contacts that acceptance proved, the signer of its
 * declaration); every later appointment of the number goes to the holder's contacts and is accepted only
 * through them, by the same signer when both signers are known.
 */

export interface Contacts {
  email: string;
  mobile: string;
}

/** 409: the contact confirmed is not the one the department holds for the number (confirm again). */
export class HolderContactError extends ApiError {
  constructor() {
    super(409, 'HOLDER_CONTACT_REQUIRED', 'appointment.holderContactRequired');
  }
}

/** 422: the declaration was signed by someone else than the number's holder. */
export class SignerNotHolderError extends ApiError {
  constructor() {
    super(422, 'SIGNER_NOT_HOLDER', 'appointment.signerNotHolder');
  }
}

export const sameContacts = (a: Contacts, b: Contacts): boolean =>
  a.email === b.email && a.mobile === b.mobile;

/** Where the codes of an invitation go: the holder's contacts once the number has one, else the appointment's. */
export async function contactsOnFile(tx: Db, appointment: AppointmentRow): Promise<Contacts> {
  const holder = await holders.holderOf(tx, appointment.registrationNumber, appointment.identity);
  return holder ?? appointment;
}

/**
 * What identifies a signer across signatures: the e-Cert's subject and issuer (its serial number changes
 * on renewal), or iAM Smart's certificate. Undefined when the signature says too little to compare.
 */
function signerKey(signer: unknown): string | undefined {
  if (typeof signer !== 'object' || signer === null) return undefined;
  const s = signer as Record<string, unknown>;
  if (s.method === 'ecert' && typeof s.subject === 'string' && typeof s.issuer === 'string')
    return `ecert|${s.subject}|${s.issuer}`;
  if (s.method === 'iamsmart' && typeof s.certificate === 'string') return `iamsmart|${s.certificate}`;
  return undefined;
}

/**
 * Whether a new signature is the holder's: refused only when both are known and of the same method (a holder
 * may sign with iAM Smart once and an e-Cert later: those cannot be compared).
 */
export function signerMatches(holderSigner: unknown, signer: unknown): boolean {
  const [held, given] = [signerKey(holderSigner), signerKey(signer)];
  if (!held || !given || held.split('|')[0] !== given.split('|')[0]) return true;
  return held === given;
}

/**
 * The holder an acceptance rests on, inside the acceptance's transaction: the number's holder when the
 * appointment carries its contacts and the signer matches (409 / 422 else), or the holder this first
 * acceptance establishes now.
 */
export async function holderForAcceptance(
  tx: Db,
  appointment: AppointmentRow,
  signer: unknown,
  now: Date,
): Promise<RegistrationHolderRow> {
  const made = await holders.establish(tx, {
    registrationNumber: appointment.registrationNumber,
    identity: appointment.identity,
    nameEn: appointment.nameEn,
    nameZh: appointment.nameZh,
    email: appointment.email,
    mobile: appointment.mobile,
    signer: signer ?? null,
    language: appointment.language,
    establishedAt: now,
    updatedAt: now,
  });
  if (made) return made;
  const holder = await holders.lockHolder(tx, appointment.registrationNumber, appointment.identity);
  if (!holder) throw new HolderContactError();
  if (!sameContacts(appointment, holder)) throw new HolderContactError();
  if (!signerMatches(holder.signer, signer)) throw new SignerNotHolderError();
  return holder;
}
