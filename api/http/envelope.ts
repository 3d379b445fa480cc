import type { Request, Response } from 'express';
import { type ApiMessageKey, requestLanguage, translate } from './i18n';

/** Every JSON answer of the API. `meta.code` is '200' on success, an error code otherwise. */
export interface Envelope<T> {
  meta: { code: string; message: string };
  data: T;
}

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'NOT_FOUND'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'SERVICE_UNAVAILABLE'
  | 'INSUFFICIENT_STORAGE'
  | 'INTERNAL'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'OTP_RESEND_TOO_SOON'
  | 'OTP_RATE_LIMITED'
  | 'OTP_LOCKED'
  | 'OTP_WRONG'
  | 'OTP_BURNT'
  | 'OTP_EXPIRED'
  | 'DRAFT_STALE'
  | 'DRAFT_EXPIRED'
  | 'DRAFT_SUBMITTED'
  | 'CONTACT_MISSING'
  | 'CONTACT_UNVERIFIED'
  | 'CONTACT_PERSON_UNVERIFIED'
  | 'DOCUMENT_INVALID'
  | 'DOCUMENT_INFECTED'
  | 'DOCUMENT_DUPLICATE'
  | 'DOCUMENT_TOO_MANY'
  | 'DOCUMENTS_MISSING'
  | 'APPLICATION_INCOMPLETE'
  | 'ECERT_REJECTED'
  | 'SIGNING_OUTDATED'
  | 'SIGNATURE_REQUIRED'
  | 'ALREADY_SUBMITTED'
  | 'DOWNLOAD_EXPIRED'
  | 'LINK_EXPIRED'
  | 'HKIC_REQUIRED'
  // An HKIC number whose check character is wrong (spec §8).
  | 'HKICNO'
  | 'CASE_ACTION_NOT_ALLOWED'
  | 'CASE_RULE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'CASE_STALE'
  | 'CASE_RATE_LIMITED'
  | 'RATE_LIMITED'
  // Appointments of AP/RSE (docs/decisions/020-appointments.md).
  | 'INVITATION_UNKNOWN'
  | 'INVITATION_EXPIRED'
  | 'INVITATION_CANCELLED'
  | 'INVITATION_USED'
  | 'CONTACT_NOT_CONFIRMED'
  | 'SIGNER_MISMATCH'
  | 'SIGNER_NOT_HOLDER'
  | 'HOLDER_CONTACT_REQUIRED'
  | 'CONTACT_UNCHANGED'
  | 'APPOINTMENT_NOT_INVITED'
  | 'APPOINTMENT_NOT_ACTIVE'
  | 'APPOINTMENT_ENDED'
  // The console (docs/decisions/022-case-officer-console.md).
  | 'STAFF_SIGN_IN_FAILED'
  | 'STAFF_LOCKED'
  | 'CASE_CHANGED'
  // A document's review (docs/decisions/043-document-review.md).
  | 'DOCUMENT_REVIEW_CHANGED'
  // Decisions by two people (docs/decisions/040-four-eyes-decisions.md).
  | 'PROPOSAL_DECIDED'
  // The department's reset of a registration holder (docs/console.md, "Registered AP/RSE").
  | 'HOLDER_NONE'
  | 'HOLDER_CHANGED'
  // Staff administration (docs/decisions/036-staff-administration.md).
  | 'STAFF_SELF'
  | 'STAFF_LAST_ADMIN'
  | 'STAFF_USERNAME_TAKEN'
  | 'STAFF_REASSIGN_TARGET'
  | 'STAFF_NOT_PENDING'
  | 'STAFF_ENROLMENT_REQUIRED'
  | 'STAFF_CODE_WRONG';

export const SUCCESS_CODE = '200';

export function sendEnvelope<T>(
  req: Request,
  res: Response,
  status: number,
  code: string,
  messageKey: ApiMessageKey,
  data: T,
  params?: Readonly<Record<string, string | number>>,
): void {
  const body: Envelope<T> = {
    meta: { code, message: translate(requestLanguage(req), messageKey, params) },
    data,
  };
  res.status(status).json(body);
}

/** 200 with `meta.code` '200'. */
export function sendOk<T>(
  req: Request,
  res: Response,
  data: T,
  messageKey: ApiMessageKey = 'status.ok',
): void {
  sendEnvelope(req, res, 200, SUCCESS_CODE, messageKey, data);
}
