import type { SelfCertKey } from '../forms/catalogue-index';

/**
 * Which cases a self-certification form may certify (docs/decisions/021-self-certification.md): the form codes of the applications whose
 * premises each certificate is for. The API refuses a self-certification whose case does not exist or is
 * of another type (api/modules/selfcert/selfcert.service.ts). docs/decisions/021-self-certification.md.
 *
 * - SCS-1, SC(S)-1: new registration of a school — A2.
 * - SCS-2, SC(S)-2: alteration or extension of a registered school — B2 (extension), E2 (alteration).
 * - SCC-1: a child care centre to be registered — CCCAI-C2, EDB-JOKC02 (kindergarten-cum-child care
 *   centre), CCCAI-MH3 (mutual help centre).
 * - SCC-2: alteration of a registered child care centre — F2.
 * - SCN-1: premises for a registered non-local course — C2, G2.
 *
 * Keyed by the self-certification forms of the catalogue's index (machines/forms/catalogue-index.ts): one
 * left out, or one not in the index, fails to compile.
 */
export const SELF_CERT_CASE_FORMS = {
  scs1: ['A2'],
  scs2: ['B2', 'E2'],
  scc1: ['CCCAI-C2', 'EDB-JOKC02', 'CCCAI-MH3'],
  scc2: ['F2'],
  scn1: ['C2', 'G2'],
} as const satisfies Readonly<Record<SelfCertKey, readonly string[]>>;

/** Is this form key one of a self-certification? */
export function isSelfCertKey(key: string): key is SelfCertKey {
  return Object.hasOwn(SELF_CERT_CASE_FORMS, key);
}

/** May a self-certification of this form certify a case of that form code? */
export function certifiesCaseForm(key: SelfCertKey, caseFormCode: string): boolean {
  return (SELF_CERT_CASE_FORMS[key] as readonly string[]).includes(caseFormCode);
}
