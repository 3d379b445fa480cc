/**
 * What the documents and submission endpoints answer (api/modules/applications/documents.service.ts, submission.ts), shared
 * by the API and the screens that read it (ui/flows/apply/DocumentsStep.tsx, SuccessStep.tsx).
 */

/** One uploaded document of a draft. */
export interface DocumentData {
  id: number;
  documentType: string;
  fileName: string;
  bytes: number;
  sha256: string;
  pageCount: number;
  uploadedAt: string;
}

/** GET /api/drafts/:applicationNo/documents */
export interface DocumentListData {
  documents: DocumentData[];
  /** The required document types still missing, in the form's order. */
  missing: string[];
  limits: { maxFileBytes: number; maxTotalBytes: number };
  totalBytes: number;
}

/** POST /api/drafts/:applicationNo/submission */
export interface SubmissionData {
  applicationNo: string;
  submittedAt: string;
  downloadUntil: string;
}

/** A file of a submission, as the success page lists it. */
export interface SubmittedFileData {
  /** 'application' | 'document-<id>' | 'archive' */
  id: string;
  kind: 'application' | 'document' | 'archive';
  documentType?: string;
  fileName: string;
  bytes?: number;
}

/** GET /api/drafts/:applicationNo/submission: the Application Details of the success page. */
export interface SubmissionDetailsData extends SubmissionData {
  formKey: string;
  formCode: string;
  applicationType: string;
  applicant: { nameEn: string | null; nameZh: string | null; email: string | null; mobile: string | null };
  contactPerson: {
    name: string | null;
    email: string | null;
    mobile: string | null;
    telephone: string | null;
  };
  downloadable: boolean;
  files: SubmittedFileData[];
}

/** POST /api/drafts/:applicationNo/submission/links: signed links, valid until `expiresAt`. */
export interface SubmissionLinksData {
  expiresAt: string;
  files: (SubmittedFileData & { url: string })[];
}

/** Days the submitted files can be downloaded after submission (spec §4). */
export const DOWNLOAD_DAYS = 7;
