import { z } from 'zod';
import { applicationNoSchema } from './otp';

/**
 * The "Find my case" history of an application (GET /api/application/history). The answer carries codes,
 * never English text; the UI translates them.
 */
export const DOCUMENT_TYPES = [
  'APPLICATION_FORM',
  'LAYOUT_PLAN',
  'LETTER_OF_REQUIREMENTS',
  'SUPPORTING_DOCUMENT',
  'COMPLIANCE_REPORT',
  'ACKNOWLEDGEMENT',
  'CERTIFICATE',
  'INSPECTION_REQUEST',
  'WITHDRAWAL',
  'SELF_CERTIFICATION',
  'INSPECTION_NOTICE',
  'INSPECTION_REPORT',
  'REJECTION_NOTICE',
  'INFORMATION_UPDATE',
  'APPOINTMENT',
  'APPOINTMENT_ACCEPTED',
  'APPOINTMENT_CANCELLED',
  'APPOINTMENT_REVOKED',
  'APPOINTMENT_LAPSED',
  'INSPECTION_CANCELLED',
  'LOR_WITHDRAWAL',
  'CERTIFICATE_REVOCATION',
  'CASE_REOPENED',
] as const;
export const SUBMITTERS = ['APPLICANT', 'AP', 'RSE', 'BD'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface HistoryRow {
  submissionDate: string;
  documentType: string;
  status: string;
  submittedBy: string;
  date: string;
}

/** 200 of GET /api/application/history. */
export interface HistoryData {
  applicationNo: string;
  rows: HistoryRow[];
}

/** Application types (DOMAIN.md): new school, extension of school premises, non-local course premises,
 * child care centre, kindergarten-cum-child-care centre, mutual help child care centre. */
export const APPLICATION_TYPES = ['NEWSCH', 'EXTSCH', 'NLHE', 'NEWCCC', 'NEWJOKC', 'NEWMUT'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

/** GET /api/application/history?applicationNo=…: the optional number is normalised like the login's. */
export const historyQuerySchema = z.object({ applicationNo: applicationNoSchema.optional() });
