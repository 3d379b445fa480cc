import i18next from 'i18next';
import { REQUEST_TIMEOUT_MS } from '../../api/client';
import { sessionEnded } from '../../api';

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

/**
 * Uploads one file with its document type, reporting progress (0–1): a draft's document
 * (ui/flows/apply/documents-api.ts) or a file of a follow-up on a case (ui/flows/case/case-uploads-api.ts).
 * XMLHttpRequest, because fetch cannot report upload progress (a streamed fetch body needs HTTP/2); the
 * answer is the API's envelope as for every other call, and the API client's rules hold (docs/forms.md,
 * "Uploads"): the spec's 60-second time-out counts time without progress (a large file on a slow line
 * keeps going while bytes move), and a 401 ends the session and goes home as any other call's does. The
 * `documentType` field goes first, so the server knows the type before the file.
 */
export function uploadFile<T>({
  url,
  authorization,
  documentType,
  fields = {},
  file,
  onProgress,
  signal,
}: {
  /** The endpoint, `/api/...`. */
  url: string;
  authorization: string | undefined;
  documentType: string;
  /** Other fields of the form, sent before the file (a case's follow-up: the type and request it is for). */
  fields?: Readonly<Record<string, string>>;
  file: File;
  onProgress: (fraction: number) => void;
  signal?: AbortSignal | undefined;
}): Promise<T> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('documentType', documentType);
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${url}?lang=${encodeURIComponent(i18next.language)}`);
    if (authorization) xhr.setRequestHeader('Authorization', authorization);
    xhr.setRequestHeader('x-no-loading', '1');
    xhr.responseType = 'json';
    // No progress for the API client's time-out: the upload is given up (the server or the line stalled).
    let stalled: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(stalled);
      stalled = setTimeout(() => {
        timedOut = true;
        xhr.abort();
      }, REQUEST_TIMEOUT_MS);
    };
    let timedOut = false;
    xhr.upload.onprogress = (e) => {
      watch();
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
      clearTimeout(stalled);
      const body = xhr.response as { data?: T; meta?: { code?: string } } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.data) resolve(body.data);
      else {
        // As the API client: a 401 (or an AP's appointment ended) ends the session.
        if (xhr.status === 401 || (xhr.status === 403 && body?.meta?.code === 'APPOINTMENT_ENDED'))
          sessionEnded();
        fail(xhr.status, 'HTTP_ERROR');
      }
    };
    xhr.onerror = () => {
      clearTimeout(stalled);
      reject(new UploadError(i18next.t('common:errors.network'), 0, 'NETWORK'));
    };
    xhr.onabort = () => {
      clearTimeout(stalled);
      reject(
        timedOut
          ? new UploadError(i18next.t('common:errors.timeout'), 0, 'TIMEOUT')
          : new UploadError(i18next.t('wizard:upload.cancelled'), 0, 'ABORTED'),
      );
    };
    signal?.addEventListener('abort', () => xhr.abort());
    watch();
    xhr.send(form);
  });
}
