import type { CaseActionResult, CaseData } from '../../machines/rules/case';
import { api, ApiError } from './index';

/**
 * The case resource (/api/cases): the logged-in applicant's case and the follow-ups on it. The bearer comes
 * from the session, added by the one API client (ui/api/client.ts); screens never build these URLs.
 */
export const casesApi = {
  /** The session's case; rejects with ApiError (401 when the session ended). */
  async current(options: { quiet?: boolean } = {}): Promise<CaseData> {
    return (await api.get<CaseData>('cases/current', undefined, { quiet: options.quiet })).data;
  },

  /** Sends a follow-up; the same key again gets the same answer. Errors are shown by the flow itself. */
  async act(
    form: string,
    body: {
      answers: Record<string, unknown>;
      baseVersion?: number | undefined;
      uploads?: number[] | undefined;
      signature?: string | undefined;
      requestId?: number | undefined;
    },
    idempotencyKey: string,
  ): Promise<CaseActionResult> {
    const sent = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    const answer = await api.post<CaseActionResult>(
      `cases/current/actions/${encodeURIComponent(form)}`,
      sent,
      {
        quiet: true,
        ky: { headers: { 'Idempotency-Key': idempotencyKey } },
      },
    );
    return answer.data;
  },

  /** Downloads the application PDF of the case's information as it is now (after its updates). */
  async downloadInformation(fileName: string): Promise<void> {
    saveBlob(await api.blob('cases/current/information.pdf'), fileName);
  },

  /** Downloads a document of the case and hands it to the browser under its name. */
  async download(documentId: number, fileName: string): Promise<void> {
    saveBlob(await api.blob(`cases/current/documents/${documentId}`), fileName);
  },
};

/** Hands a downloaded file to the browser under its name. */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export { ApiError };
