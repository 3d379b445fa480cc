import { z } from 'zod';
import { text } from './staff';

/**
 * An officer's review of a case's document (docs/decisions/043-document-review.md): not reviewed,
 * accepted, or needs replacement with the reason the applicant reads. Shared by the API and the screens;
 * codes, never text.
 */
export const DOCUMENT_REVIEW_STATUSES = ['accepted', 'needsReplacement'] as const;
export type DocumentReviewStatus = (typeof DOCUMENT_REVIEW_STATUSES)[number];
export function isDocumentReviewStatus(value: string): value is DocumentReviewStatus {
  return (DOCUMENT_REVIEW_STATUSES as readonly string[]).includes(value);
}
/** The longest reason (as the officer's other reasons). */
export const REVIEW_REASON_MAX = 1000;

const invalid = { error: 'staff.invalid' } as const;

/**
 * POST /api/staff/cases/:applicationNo/documents/:id/review. `expectedVersion`: the review the officer
 * saw (0: not reviewed); another review meanwhile is 409. "Needs replacement" needs a reason (the rules
 * of the officer's texts); "accepted" takes none.
 */
const expectedVersion = z.number(invalid).int(invalid).min(0, invalid).max(1_000_000, invalid);
export const documentReviewBodySchema = z.discriminatedUnion(
  'status',
  [
    z.object({ status: z.literal('accepted'), expectedVersion }),
    z.object({ status: z.literal('needsReplacement'), reason: text(REVIEW_REASON_MAX), expectedVersion }),
  ],
  invalid,
);
export type DocumentReviewBody = z.input<typeof documentReviewBodySchema>;

/** A document's review as the console shows it. */
export interface DocumentReviewData {
  status: DocumentReviewStatus;
  reason: string | null;
  /** 1, 2, ...: the version the next review names as `expectedVersion`. */
  version: number;
  reviewedBy: { id: number; nameEn: string; nameZh: string };
  reviewedAt: string;
  /** Needs replacement: the document of the same type sent after the review, once there is one. */
  replacedBy: number | null;
}

/** A document needing replacement, as the applicant and the AP/RSE see it on the case page. */
export interface ApplicantDocumentReview {
  status: 'needsReplacement';
  reason: string;
  reviewedAt: string;
  replacedBy: number | null;
}

/** 200 of a review. */
export interface DocumentReviewResult {
  documentId: number;
  review: DocumentReviewData;
}

/** For a review asking for a replacement: the first document of the same type sent after it, if any. */
export function replacementOf(
  review: { status: string; reviewedAt: Date },
  document: { id: number; kind: string },
  documents: readonly { id: number; kind: string; createdAt: Date }[],
): number | null {
  if (review.status !== 'needsReplacement') return null;
  // Sent after the review (a later id: the clock may stand still between the two).
  const later = documents
    .filter((d) => d.id > document.id && d.kind === document.kind && d.createdAt >= review.reviewedAt)
    .sort((a, b) => a.id - b.id);
  return later[0]?.id ?? null;
}
