import { expect } from 'vitest';
import type { CaseUploadData } from '../../machines/rules/case';
import type { DocumentReviewResult } from '../../machines/rules/document-review';
import { uniqueLandscapeA4 } from '../support/pdf-corpus';
import { actSigned } from './case-signing-harness';
import type { ConsoleHarness } from './console-harness';

/** A PDF uploaded for a follow-up's upload step (POST /api/cases/current/uploads), by id. */
export async function uploadedFile(
  h: ConsoleHarness,
  token: string,
  forType: string,
  name: string,
): Promise<number> {
  const form = new FormData();
  form.append('documentType', 'supportingDocument');
  form.append('forType', forType);
  form.append('file', new Blob([(await uniqueLandscapeA4()).slice()], { type: 'application/pdf' }), name);
  const res = await h.call<CaseUploadData>('POST', '/api/cases/current/uploads?lang=en', {
    token,
    body: form,
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** Submit Supporting Document with one file of `type` (signed): the follow-up's reference. */
export async function submittedDocument(
  h: ConsoleHarness,
  token: string,
  type: string,
  name: string,
): Promise<string> {
  const fileId = await uploadedFile(h, token, type, name);
  const answers = type === 'other' ? { documentType: type, description: name } : { documentType: type };
  const res = await actSigned(h, token, 'submitDocument', { answers, uploads: [fileId] });
  expect(res.status).toBe(200);
  return res.body.data.reference;
}

/** POST /api/staff/cases/:no/documents/:id/review as `token`, in `lang`. */
export const review = (
  h: ConsoleHarness,
  token: string | undefined,
  applicationNo: string,
  documentId: number,
  body: Record<string, unknown>,
  lang = 'en',
) =>
  h.staffCall<DocumentReviewResult>(
    'POST',
    `/api/staff/cases/${applicationNo}/documents/${documentId}/review?lang=${lang}`,
    token,
    body,
  );
