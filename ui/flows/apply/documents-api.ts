import i18next from 'i18next';
import { draftAuth, draftAuthorization } from '../../api/draft-auth';
import { api, ApiError } from '../../api';

import type { DocumentData, DocumentListData } from '../../../machines/rules/submission';

/** The documents of a draft over /api/drafts/:applicationNo/documents (Bearer: the draft's token). */
export type UploadedDocument = DocumentData;
export type DocumentList = DocumentListData;

/** A refused upload: the server's message (in the page's language) and its code. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

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

/**
 * Uploads one file with its document type, reporting progress (0–1). XMLHttpRequest, because fetch
 * cannot report upload progress; the answer is the API's envelope as for every other call. The
 * `documentType` field goes first, so the server knows the type before the file arrives.
 */
export function uploadDocument(
  applicationNo: string,
  documentType: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<UploadedDocument> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('documentType', documentType);
    form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/${base(applicationNo)}?lang=${encodeURIComponent(i18next.language)}`);
    const authorization = draftAuthorization(applicationNo);
    if (authorization) xhr.setRequestHeader('Authorization', authorization);
    xhr.setRequestHeader('x-no-loading', '1');
    xhr.responseType = 'json';
    xhr.timeout = 5 * 60_000;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    const fail = (status: number, code: string) => {
      const body = xhr.response as { meta?: { message?: string; code?: string } } | null;
      reject(
        new UploadError(
          body?.meta?.message ?? i18next.t('wizard:upload.failed'),
          status,
          body?.meta?.code ?? code,
        ),
      );
    };
    xhr.onload = () => {
      const body = xhr.response as { data?: UploadedDocument } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.data) resolve(body.data);
      else fail(xhr.status, 'HTTP_ERROR');
    };
    xhr.onerror = () => fail(0, 'NETWORK');
    xhr.ontimeout = () => fail(0, 'TIMEOUT');
    xhr.onabort = () => reject(new UploadError(i18next.t('wizard:upload.cancelled'), 0, 'ABORTED'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

export { ApiError };
