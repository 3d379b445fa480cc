import { createHash } from 'node:crypto';

/**
 * What a signature covers. Signing freezes the application PDF (rendered once, stored) and the documents
 * then uploaded; the signed digest is the SHA-256 of a short text manifest that names the application,
 * the form and the SHA-256 of each file in order. Anyone holding the files can rebuild the manifest and
 * check the digest, and a change to any answer or file changes it: a submission needs a signature over
 * the digest of what is being submitted.
 */
export interface ManifestInput {
  applicationNo: string;
  formCode: string;
  pdfSha256: string;
  /** In the form's order of document types. */
  documents: readonly { documentType: string; sha256: string }[];
}

export const MANIFEST_VERSION = 'BD-APPLICATION-MANIFEST/1';

export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

export function manifestText({ applicationNo, formCode, pdfSha256, documents }: ManifestInput): string {
  return [
    MANIFEST_VERSION,
    `application ${applicationNo}`,
    `form ${formCode}`,
    `application-form ${pdfSha256}`,
    ...documents.map((d) => `document ${d.documentType} ${d.sha256}`),
    '',
  ].join('\n');
}

/** The hex SHA-256 of the manifest: what iAM Smart signs and what an e-Cert holder signs (as text). */
export const manifestDigest = (input: ManifestInput) => sha256Hex(manifestText(input));

/** A canonical JSON text (object keys sorted at every depth), so equal answers hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const answersHash = (answers: unknown) => sha256Hex(canonicalJson(answers));

/**
 * What the signature of a follow-up on a case covers (Submit Supporting Document): the case, the
 * follow-up, the SHA-256 of its answers as its schema parsed them (canonical JSON, `answersHash`) and the
 * SHA-256 of each of its files in the order submitted. A change to any answer or file changes the digest.
 */
export interface FollowUpManifestInput {
  applicationNo: string;
  /** The follow-up's key ('submitDocument'). */
  followUp: string;
  answersSha256: string;
  documents: readonly { documentType: string; sha256: string }[];
}

export const FOLLOW_UP_MANIFEST_VERSION = 'BD-FOLLOW-UP-MANIFEST/1';

export function followUpManifestText({
  applicationNo,
  followUp,
  answersSha256,
  documents,
}: FollowUpManifestInput): string {
  return [
    FOLLOW_UP_MANIFEST_VERSION,
    `application ${applicationNo}`,
    `follow-up ${followUp}`,
    `answers ${answersSha256}`,
    ...documents.map((d) => `document ${d.documentType} ${d.sha256}`),
    '',
  ].join('\n');
}
