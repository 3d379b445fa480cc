import {
  APPLICANT_EMAIL_FIELD,
  APPLICANT_MOBILE_FIELD,
  type ContactChannel,
  type StoredVerifiedContacts,
  type VerifiedContacts,
} from './drafts';
import { parseContact } from './otp';

/** Answers as saved or as typed: field id → answer. */
type Answers = Readonly<Record<string, unknown>>;

/**
 * Who can be reached about an application, and which of those contacts a one-time code has confirmed
 * (spec §4: the code verifies "the applicant or contact person"). The applicant must confirm their email
 * or mobile; a contact person who gives an email or a mobile must have one of them confirmed too. Used by
 * the API (what it accepts for submission) and by the preview (what it asks for). Pure.
 */

export type ContactParty = 'applicant' | 'contactPerson';
export type ContactKind = 'email' | 'mobile';

/** The answer each channel confirms. */
export const CONTACT_FIELDS: Readonly<Record<ContactChannel, string>> = {
  email: APPLICANT_EMAIL_FIELD,
  mobile: APPLICANT_MOBILE_FIELD,
  contactPersonEmail: 'contactEmail',
  contactPersonMobile: 'contactMobile',
};

export const PARTY_CHANNELS: Readonly<Record<ContactParty, Readonly<Record<ContactKind, ContactChannel>>>> = {
  applicant: { email: 'email', mobile: 'mobile' },
  contactPerson: { email: 'contactPersonEmail', mobile: 'contactPersonMobile' },
};

export const kindOf = (channel: ContactChannel): ContactKind =>
  channel === 'email' || channel === 'contactPersonEmail' ? 'email' : 'mobile';

export const partyOf = (channel: ContactChannel): ContactParty =>
  channel === 'email' || channel === 'mobile' ? 'applicant' : 'contactPerson';

/** An answer as a contact of `kind`, normalised (lower-case email, 8-digit mobile), or null. */
function normalised(value: unknown, kind: ContactKind): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const parsed = parseContact(String(value));
  return parsed?.kind === kind ? parsed.value : null;
}

/** The current answer of `channel`, normalised, or null when there is none or it is not valid. */
export function contactFor(answers: Answers, channel: ContactChannel): string | null {
  return normalised(answers[CONTACT_FIELDS[channel]], kindOf(channel));
}

/** The contact a one-time code to resume goes to: the answers' applicant email and mobile, normalised. */
export function contactOf(answers: Answers): {
  contactEmail: string | null;
  contactMobile: string | null;
} {
  return { contactEmail: contactFor(answers, 'email'), contactMobile: contactFor(answers, 'mobile') };
}

/**
 * The contacts that count as verified now: those whose current answer (normalised) was confirmed by a
 * one-time code, on this channel or on another of the same kind (the contact person giving the
 * applicant's confirmed email needs no second code). Changing an answer makes that contact unverified
 * again; changing it back makes it verified again.
 */
export function verifiedContactsOf(
  answers: Answers,
  stored: StoredVerifiedContacts | null | undefined,
): VerifiedContacts {
  const verified: VerifiedContacts = {};
  const confirmed = Object.entries(stored ?? {}) as [ContactChannel, { value: string } | undefined][];
  for (const channel of Object.keys(CONTACT_FIELDS) as ContactChannel[]) {
    const value = contactFor(answers, channel);
    if (value === null) continue;
    if (confirmed.some(([c, entry]) => entry?.value === value && kindOf(c) === kindOf(channel)))
      verified[channel] = value;
  }
  return verified;
}

/** The parties whose contact must be confirmed: the applicant, and a contact person with an email or mobile. */
export function partiesToConfirm(answers: Answers): ContactParty[] {
  const person = PARTY_CHANNELS.contactPerson;
  const hasPerson = contactFor(answers, person.email) !== null || contactFor(answers, person.mobile) !== null;
  return hasPerson ? ['applicant', 'contactPerson'] : ['applicant'];
}

/** Has `party` an email or mobile confirmed? */
export function isPartyConfirmed(party: ContactParty, verified: VerifiedContacts): boolean {
  const channels = PARTY_CHANNELS[party];
  return Boolean(verified[channels.email] ?? verified[channels.mobile]);
}

/** The parties still to confirm a contact, in order (empty: the application may go on). */
export function unconfirmedParties(answers: Answers, verified: VerifiedContacts): ContactParty[] {
  return partiesToConfirm(answers).filter((party) => !isPartyConfirmed(party, verified));
}
