import type { DraftDocumentRow, SigningRequestRow } from '../../../drizzle/schema';
import { DOWNLOAD_DAYS, type SubmissionData } from '../../../machines/rules/submission';
import { ApiError } from '../../http/errors';
import { answersHash } from '../signing';

/**
 * The rules of a submission that are not its transaction (api/modules/applications/submission.service.ts): its refusals, whether
 * a signature still covers what would be submitted.
 */

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
