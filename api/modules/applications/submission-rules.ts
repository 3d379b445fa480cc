import type { DraftDocumentRow, SigningRequestRow } from '../../../drizzle/schema';
import type { SubmissionData } from '../../../machines/rules/submission';
import { ApiError } from '../../http/errors';
import { INVISIBLE_FORMAT_CHARS } from './documents.service';
import { answersHash } from '../signing/signing-manifest';

/**
 * The rules of a submission that are not its transaction (api/modules/applications/submission.service.ts): its refusals, whether
 * a signature still covers what would be submitted, and the names its files are downloaded under.
 */

/** Days the submitted files can be downloaded after submission. */
export const DOWNLOAD_DAYS = 7;

/** 409 ALREADY_SUBMITTED: submitted before, by another request (another key); `data` is that submission. */
export class AlreadySubmittedError extends ApiError {
  constructor(data: SubmissionData) {
    super(409, 'ALREADY_SUBMITTED', 'submission.already', data);
  }
}

/** 409 SIGNATURE_REQUIRED: nothing signed yet, or what was signed is no longer what would be submitted. */
export class SignatureRequiredError extends ApiError {
  constructor(outdated: boolean) {
    super(
      409,
      'SIGNATURE_REQUIRED',
      outdated ? 'submission.signatureOutdated' : 'submission.signatureRequired',
      {
        outdated,
      },
    );
  }
}

/** 410 DOWNLOAD_EXPIRED: the 7 days of downloads after submission are over. */
export class DownloadExpiredError extends ApiError {
  constructor() {
    super(410, 'DOWNLOAD_EXPIRED', 'submission.downloadExpired', null, { params: { days: DOWNLOAD_DAYS } });
  }
}

/** Is the signing request still over exactly the answers and documents that are there now? */
export function isSignatureCurrent(
  request: Pick<SigningRequestRow, 'answersSha256' | 'documents'>,
  answers: unknown,
  documents: readonly Pick<DraftDocumentRow, 'documentType' | 'sha256'>[],
): boolean {
  const signed = request.documents as { documentType: string; sha256: string }[];
  return (
    request.answersSha256 === answersHash(answers) &&
    signed.length === documents.length &&
    signed.every((d, i) => d.documentType === documents[i]?.documentType && d.sha256 === documents[i]?.sha256)
  );
}

/** A file name safe in Content-Disposition's quoted form (ASCII, no quotes or separators). */
export function asciiFileName(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\/:*?<>|;%]/g, '_')
    .replace(/\s+/g, ' ')
    .trim();
  return ascii && ascii !== '.pdf' ? ascii.slice(0, 150) : 'document.pdf';
}

/** `attachment; filename="<ascii>"; filename*=UTF-8''<the name, percent-encoded>` (RFC 6266). */
export function contentDisposition(
  name: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): string {
  // Names stored before bidi controls were removed at upload lose them here too.
  name = name.replace(INVISIBLE_FORMAT_CHARS, '');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${asciiFileName(name)}"; filename*=UTF-8''${encoded}`;
}
