import { fromPromise } from 'xstate';
import {
  applyFailure,
  type DraftCopy,
  type LoadDraftInput,
  type SaveDraftInput,
  type SaveDraftOutput,
  type SignDocumentsInput,
  type SignDocumentsOutput,
  type SubmitApplicationInput,
  type SubmitApplicationOutput,
} from '../../../machines/flows/apply.machine';
import { FORM_CATALOGUE } from '../../../machines/forms';
import { api, ApiError } from '../../api';
import { draftToken, storeDraftToken } from './draft-tokens';

/** The machine names a form by its printed code ('A2'); the API by its catalogue key ('a2'). */
const formKeyOf = (code: string) => Object.values(FORM_CATALOGUE).find((d) => d.code === code)?.key ?? code;

const bearer = (applicationNo: string) => {
  const token = draftToken(applicationNo);
  return token ? { headers: { Authorization: `Bearer ${token}` } } : {};
};

function saveFailure(e: unknown): Error {
  if (e instanceof ApiError && e.status === 409) return applyFailure({ kind: 'stale' as const });
  if (e instanceof ApiError && e.status === 410) return applyFailure({ kind: 'expired' as const });
  return applyFailure({ kind: 'network' as const });
}

/** The wizard's actors over the drafts API; signing and submission open with the documents step. */
export const applyActors = {
  saveDraft: fromPromise<SaveDraftOutput, SaveDraftInput>(async ({ input }) => {
    try {
      if (!input.applicationNo) {
        const created = await api.post<SaveDraftOutput & { token: string }>(
          'drafts',
          { formKey: formKeyOf(input.formCode), answers: input.answers, step: input.step },
          { quiet: true, noLoading: true },
        );
        storeDraftToken(created.data.applicationNo, created.data.token);
        return created.data;
      }
      const saved = await api.put<{ version: number; validUntil: string }>(
        `drafts/${encodeURIComponent(input.applicationNo)}`,
        { version: input.version, answers: input.answers, step: input.step },
        { quiet: true, noLoading: true, ky: bearer(input.applicationNo) },
      );
      return { applicationNo: input.applicationNo, ...saved.data };
    } catch (e) {
      throw saveFailure(e);
    }
  }),
  loadDraft: fromPromise<DraftCopy, LoadDraftInput>(async ({ input }) => {
    try {
      return (
        await api.get<DraftCopy>(`drafts/${encodeURIComponent(input.applicationNo)}`, undefined, {
          quiet: true,
          ky: bearer(input.applicationNo),
        })
      ).data;
    } catch (e) {
      throw e instanceof ApiError && e.status === 410
        ? applyFailure({ kind: 'expired' as const })
        : applyFailure({ kind: 'network' as const });
    }
  }),
  // The documents, signing and submission screens come with the signing issue; until then these refuse.
  signDocuments: fromPromise<SignDocumentsOutput, SignDocumentsInput>(() =>
    Promise.reject(applyFailure({ kind: 'failed' as const })),
  ),
  submitApplication: fromPromise<SubmitApplicationOutput, SubmitApplicationInput>(() =>
    Promise.reject(applyFailure({ kind: 'failed' as const })),
  ),
};
