import i18next from 'i18next';

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
 * XMLHttpRequest, because fetch cannot report upload progress; the answer is the API's envelope as for
 * every other call. The `documentType` field goes first, so the server knows the type before the file.
 */
export function uploadFile<T>({
  url,
  authorization,
  documentType,
  file,
  onProgress,
  signal,
}: {
  /** The endpoint, `/api/...`. */
  url: string;
  authorization: string | undefined;
  documentType: string;
  file: File;
  onProgress: (fraction: number) => void;
  signal?: AbortSignal | undefined;
}): Promise<T> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('documentType', documentType);
    form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${url}?lang=${encodeURIComponent(i18next.language)}`);
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
      const body = xhr.response as { data?: T } | null;
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
