import { maskEmail, maskMobile } from '../../../machines/rules/appointment';
import { parseContact } from '../../../machines/rules/otp';

/**
 * What a person typed as their email or mobile, masked (`c***@example.hk`, `****4567`): the "code sent"
 * notice says where it went without repeating the whole address (docs/flows/one-time-code.md, "Focus").
 * Only what was typed, never what is on file, so the notice tells nothing about who exists.
 */
export function maskContact(typed: string): string {
  const contact = parseContact(typed);
  if (!contact) return typed.trim();
  return contact.kind === 'email' ? maskEmail(contact.value) : maskMobile(contact.value);
}
