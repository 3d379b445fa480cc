import type { CaseUploadData, CaseUploadListData } from '../../../machines/rules/case';
import { api } from '../../api';
import { getSession } from '../../session/store';
import { uploadFile } from '../upload/upload-file';

/** The follow-up a file is for: the document type chosen on its form and the request it answers. */
export interface UploadFollowUp {
  forType: string;
  requestId: number | null;
}

const fieldsOf = (f: UploadFollowUp): Record<string, string> => ({
  forType: f.forType,
  ...(f.requestId === null ? {} : { requestId: String(f.requestId) }),
});

/**
 * The files of a follow-up's upload step over /api/cases/current/uploads (the session's bearer): waiting
 * there until the follow-up that names them is submitted, each for the one follow-up (type and request) it
 * was uploaded for. docs/api.md.
 */
export const caseUploadsApi = {
  async list(followUp: UploadFollowUp): Promise<CaseUploadListData> {
    const query = new URLSearchParams(fieldsOf(followUp)).toString();
    return (
      await api.get<CaseUploadListData>(`cases/current/uploads?${query}`, undefined, {
        quiet: true,
        noLoading: true,
      })
    ).data;
  },

  async remove(id: number): Promise<void> {
    await api.delete(`cases/current/uploads/${id}`);
  },

  /** One file with its type, reporting progress (0–1); rejects with an UploadError saying why. */
  upload(
    followUp: UploadFollowUp,
    documentType: string,
    file: File,
    onProgress: (fraction: number) => void,
  ): Promise<CaseUploadData> {
    const token = getSession().token;
    return uploadFile<CaseUploadData>({
      url: '/api/cases/current/uploads',
      authorization: token ? `Bearer ${token}` : undefined,
      documentType,
      fields: fieldsOf(followUp),
      file,
      onProgress,
    });
  },
};
