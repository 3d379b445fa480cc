import type { Db } from '../../../drizzle/db';
import type { RegistrationHolderRow } from '../../../drizzle/schema';
import type { Contact, OtpSentData } from '../../../machines/rules/otp';
import type { Clock } from '../../clock';
import { ApiError, ForbiddenError } from '../../http/errors';
import { insertAudit } from '../cases';
import type { AuthSession, OtpService } from '../auth';
import * as repo from './appointments.repo';
import * as holders from './holders.repo';

/**
 * The holder changes their own email or mobile (docs/decisions/025-registration-holders.md): one code to
 * the contact on file and one to the new contact, both within their validity; only then the holder, and
 * the open and active appointments of the number, take the new contact. Nobody else changes it: the
 * appointment form never does.
 */

/** 409: the new contact is the one on file already. */
export class SameContactError extends ApiError {
  constructor() {
    super(409, 'CONTACT_UNCHANGED', 'appointment.contactUnchanged');
  }
}

/** The code a refusal is about, in `data.field` (`oldCode`: the contact on file's; `newCode`: the new one's). */
function withField(error: unknown): unknown {
  if (!(error instanceof ApiError) || !('index' in error) || typeof error.index !== 'number') return error;
  const field = error.index === 0 ? 'oldCode' : 'newCode';
  const data = typeof error.data === 'object' && error.data !== null ? error.data : {};
  return new ApiError(error.status, error.code, error.messageKey, { ...data, field }, error.extra);
}

export function createHolderContact({ db, clock, otp }: { db: Db; clock: Clock; otp: OtpService }) {
  /** The session's holder: an AP/RSE session always has one (its login went to the holder's contacts). */
  async function holderOf(session: AuthSession): Promise<RegistrationHolderRow> {
    const holder = await holders.holderOf(db, session.registrationNumber ?? '', session.role);
    if (!holder) throw new ForbiddenError();
    return holder;
  }

  const onFile = (holder: RegistrationHolderRow, kind: Contact['kind']): Contact =>
    kind === 'email' ? { kind, value: holder.email } : { kind, value: holder.mobile };
  /** The OTP service's keys: the old and the new contact are asked apart. */
  const keys = (holder: RegistrationHolderRow) => ({
    old: `HOLDER-${holder.id}-OLD`,
    new: `HOLDER-${holder.id}-NEW`,
  });
  const lookupOf = (session: AuthSession, holder: RegistrationHolderRow, to: Contact) => () =>
    Promise.resolve({
      id: session.applicationId,
      // What the message names: the registration number.
      applicationNo: holder.registrationNumber,
      email: to.kind === 'email' ? to.value : null,
      mobile: to.kind === 'mobile' ? to.value : null,
      language: holder.language,
    });

  return {
    /** Sends a code to the contact on file and one to the new contact (of the same kind). */
    async send(session: AuthSession, contact: Contact): Promise<OtpSentData> {
      const holder = await holderOf(session);
      const old = onFile(holder, contact.kind);
      if (old.value === contact.value) throw new SameContactError();
      const k = keys(holder);
      await otp.send({ applicationNo: k.old, contact: old }, 'holderContact', lookupOf(session, holder, old));
      return otp.send({ applicationNo: k.new, contact }, 'holderContact', lookupOf(session, holder, contact));
    },

    /** Both codes right: the holder and their open and active appointments take the new contact. */
    async verify(
      session: AuthSession,
      contact: Contact,
      codes: { oldCode: string; newCode: string },
    ): Promise<{ email: string; mobile: string }> {
      const holder = await holderOf(session);
      const old = onFile(holder, contact.kind);
      if (old.value === contact.value) throw new SameContactError();
      const k = keys(holder);
      // Both codes in one check: a wrong one leaves the other live for the next try.
      return otp
        .verifyAll(
          [
            { applicationNo: k.old, contact: old, code: codes.oldCode },
            { applicationNo: k.new, contact, code: codes.newCode },
          ],
          async (tx) => {
            const now = clock.now();
            const next = {
              email: contact.kind === 'email' ? contact.value : holder.email,
              mobile: contact.kind === 'mobile' ? contact.value : holder.mobile,
            };
            await holders.setHolderContacts(tx, holder.id, next, now);
            await repo.moveContacts(tx, holder.registrationNumber, holder.identity, next);
            await insertAudit(tx, {
              at: now,
              actor: session.role === 'rse' ? 'rse' : 'ap',
              actorRef: `session:${session.id}`,
              event: 'holder.contact',
              applicationId: session.applicationId,
              reference: holder.registrationNumber,
              before: { [contact.kind]: old.value },
              after: { [contact.kind]: contact.value },
            });
            return next;
          },
          'holderContact',
        )
        .catch((e: unknown) => {
          throw withField(e);
        });
    },
  };
}

export type HolderContact = ReturnType<typeof createHolderContact>;
