import i18next from 'i18next';
import { draftAuth, draftAuthorization } from '../../api/draft-auth';
import { api, ApiError } from '../../api';
import { uploadFile, UploadError } from '../upload/upload-file';

import type { DocumentData, DocumentListData } from '../../../machines/rules/submission';

/** The documents of a draft over /api/drafts/:applicationNo/documents (Bearer: the draft's token). */
export type UploadedDocument = DocumentData;
export type DocumentList = DocumentListData;

const base = (applicationNo: string) => `drafts/${encodeURIComponent(applicationNo)}/documents`;

export async function listDocuments(applicationNo: string): Promise<DocumentList> {
  const answer = await api.get<DocumentList>(
    base(applicationNo),
    { lang: i18next.language },
    { quiet: true, noLoading: true, ky: draftAuth(applicationNo) },
  );
  return answer.data;
}

export async function removeDocument(applicationNo: string, documentType: string): Promise<void> {
  await api.delete(`${base(applicationNo)}/${encodeURIComponent(documentType)}`, undefined, {
    ky: draftAuth(applicationNo),
  });
}

/** Uploads one file of a draft with its document type, reporting progress (0–1). */
export function uploadDocument(
  applicationNo: string,
  documentType: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<UploadedDocument> {
  return uploadFile<UploadedDocument>({
    url: `/api/${base(applicationNo)}`,
    authorization: draftAuthorization(applicationNo),
    documentType,
    file,
    onProgress,
    signal,
  });
}

export { ApiError, UploadError };
