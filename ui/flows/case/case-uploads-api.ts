import type { CaseUploadData, CaseUploadListData } from '../../../machines/rules/case';
import { api } from '../../api';
import { getSession } from '../../session/store';
import { uploadFile } from '../upload/upload-file';

/**
 * The files of a follow-up's upload step over /api/cases/current/uploads (the session's bearer): waiting
 * there until the follow-up that names them is submitted. docs/api.md.
 */
export const caseUploadsApi = {
  async list(): Promise<CaseUploadListData> {
    return (
      await api.get<CaseUploadListData>('cases/current/uploads', undefined, { quiet: true, noLoading: true })
    ).data;
  },

  async remove(id: number): Promise<void> {
    await api.delete(`cases/current/uploads/${id}`);
  },

  /** One file with its type, reporting progress (0–1); rejects with an UploadError saying why. */
  upload(documentType: string, file: File, onProgress: (fraction: number) => void): Promise<CaseUploadData> {
    const token = getSession().token;
    return uploadFile<CaseUploadData>({
      url: '/api/cases/current/uploads',
      authorization: token ? `Bearer ${token}` : undefined,
      documentType,
      file,
      onProgress,
    });
  },
};
