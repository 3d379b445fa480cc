import type { SelfCertOffer } from './selfcert';
import type { ApplicantDocumentReview } from './document-review';
import { z } from 'zod';
import { hkicSchema, SIGNING_REQUEST_PATTERN } from './appointment';
import type { CaseStatus } from './case-lifecycle';
import type { FollowUpKey } from '../forms/follow-up/entries';
import type { CaseFacts } from '../forms/follow-up/types';
import type { CaseMessageData, InformationRequestData, OfficerContact } from './staff';

/**
 * The answers of the case API (GET /api/cases/current, POST /api/cases/current/actions/:form), shared by the
 * API and the screens (ui/api/cases.ts). Codes, never text: the UI translates them.
 */

export interface CaseDocumentData {
  id: number;
  fileName: string;
  /** 'application' or a document type of the form ('layoutPlans' ...). */
  kind: string;
  bytes: number | null;
  /** Inside its download window (7 days after submission for what the applicant submitted). */
  downloadable: boolean;
  downloadUntil: string | null;
  /** Layout plans only: of the latest submission that has layout plans (the application or a revision). */
  current?: boolean;
  /** The officer asks for a replacement: the reason as written (docs/decisions/043-document-review.md). */
  review?: ApplicantDocumentReview;
}

export interface CaseHistoryRowData {
  id: number;
  submissionDate: string;
  documentType: string;
  status: string;
  submittedBy: string;
  date: string;
  reference: string | null;
  /** A revised layout plan's revision label. */
  revision: string | null;
  documents: CaseDocumentData[];
}

export interface CaseActionLink {
  key: FollowUpKey;
  route: string;
  /** The lifecycle allows it now for the session's role. */
  allowed: boolean;
}

export interface CaseData {
  applicationNo: string;
  formCode: string;
  applicationType: string;
  status: CaseStatus;
  submittedAt: string;
  /** Every follow-up form with whether it is allowed now. */
  actions: CaseActionLink[];
  /**
   * To an AP or RSE the lifecycle lets self-certify the case now (`selfCertification.submit`): the form
   * to open, prefilled (docs/decisions/021-self-certification.md). Absent otherwise.
   */
  selfCertification?: SelfCertOffer;
  history: CaseHistoryRowData[];
  facts: CaseFacts;
  calendar: { today: string; holidays: string[] };
  /** The department's side (docs/decisions/022-case-officer-console.md): the case officer's contact details once sent, ... */
  officer: OfficerContact | null;
  /** This round's inspection as the department set it: its date, and its result once recorded. */
  inspection: { date: string; result: 'PASS' | 'FAIL' | null } | null;
  /** ... the requests for further information (open ones are to-dos) and the messages on the case. */
  requests: InformationRequestData[];
  messages: CaseMessageData[];
}

/** A file of a follow-up's upload step, waiting for its follow-up (POST /api/cases/current/uploads). */
export interface CaseUploadData {
  id: number;
  documentType: string;
  fileName: string;
  bytes: number;
  pageCount: number;
  uploadedAt: string;
}

/** GET /api/cases/current/uploads: the case's files waiting for their follow-up, and the limits. */
export interface CaseUploadListData {
  uploads: CaseUploadData[];
  limits: { maxFileBytes: number; maxTotalBytes: number };
}

/** 200 of a follow-up. */
export interface CaseActionResult {
  applicationNo: string;
  formKey: FollowUpKey;
  reference: string;
  status: CaseStatus;
  submittedAt: string;
}

/** The files of a follow-up's upload step (POST /api/cases/current/uploads), by id, in order. */
const uploadIdsSchema = z.array(z.number().int().positive().max(2_147_483_647)).max(50);

/** The body of POST /api/cases/current/actions/:form. */
export const caseActionBodySchema = z.object({
  answers: z.record(z.string(), z.unknown()),
  /** The version of the case's information an update form was opened on (the update forms only). */
  baseVersion: z.number().int().positive().max(1_000_000).optional(),
  /** The files of the form's upload step (POST /api/cases/current/uploads), by id. */
  uploads: uploadIdsSchema.optional(),
  /** Submit Supporting Document: the department's request for further information it answers. */
  requestId: z.number().int().positive().max(2_147_483_647).optional(),
  /** A follow-up with a sign step: the request id of its signing (POST /api/cases/current/signing/...). */
  signature: z.string().regex(SIGNING_REQUEST_PATTERN).optional(),
});

/**
 * The body of POST /api/cases/current/signing/ecert/prepare: what is to be signed, the follow-up's key,
 * its answers and its files, exactly as they will be submitted.
 */
export const caseSigningBodySchema = z.object({
  followUp: z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,39}$/),
  answers: z.record(z.string(), z.unknown()),
  /** The version of the case's information an update form was opened on (the update forms only). */
  baseVersion: z.number().int().positive().max(1_000_000).optional(),
  uploads: uploadIdsSchema.default([]),
});

/**
 * The body of POST /api/cases/current/signing/iamsmart: as the e-Cert's, and the signer's HKIC, needed
 * from an AP or RSE (an applicant's is the case's).
 */
export const caseIamSmartBodySchema = caseSigningBodySchema.extend({ hkic: hkicSchema.optional() });

/** A signing's request id in a path or header (32 hex). */
export const caseSigningRequestIdSchema = z.string().regex(SIGNING_REQUEST_PATTERN);

/** The Idempotency-Key header of a follow-up, like the submission's. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{16,128}$/;
