import type { ContactKind } from '../../../machines/flows/appointee-contact.machine';

/**
 * What the AP's contact change keeps over a reload (docs/decisions/027-draft-kept-on-reload.md): the kind
 * chosen and the new contact typed, in this tab only (sessionStorage), never a code. After a reload the
 * person is back at the new contact with it filled in, and sends the codes again.
 */
const KEY = 'bd-appointee-contact';

export interface KeptContact {
  kind: ContactKind;
  contact: string;
}

export function keptContact(): KeptContact | undefined {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    if (typeof raw !== 'object' || raw === null) return undefined;
    const { kind, contact } = raw as Record<string, unknown>;
    return (kind === 'email' || kind === 'mobile') && typeof contact === 'string'
      ? { kind, contact: contact.slice(0, 200) }
      : undefined;
  } catch {
    return undefined;
  }
}

export function keepContact(kept: KeptContact | null): void {
  try {
    if (kept === null || (kept.contact === '' && kept.kind === 'email')) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage refused (private mode, full): nothing is kept, the page works as before.
  }
}
