import i18next from 'i18next';
import { fromPromise } from 'xstate';
import { FORM_CATALOGUE } from '../../../machines/forms';
import { api, ApiError } from '../../api';
import { signingMachineForUi } from '../signing/signing-actors';
import { storeDraftToken } from './draft-tokens';
import { draftAuth } from '../../api/draft-auth';
import type {
  DraftCopy,
  LoadDraftInput,
  SaveDraftInput,
  SaveDraftOutput,
  SubmitApplicationInput,
  SubmitApplicationOutput,
} from '../../../machines/flows/apply/types';
import { applyFailure } from '../../../machines/flows/apply/steps';

/** The machine names a form by its printed code ('A2'); the API by its catalogue key ('a2'). */
const formKeyOf = (code: string) => Object.values(FORM_CATALOGUE).find((d) => d.code === code)?.key ?? code;

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
        { quiet: true, noLoading: true, ky: draftAuth(input.applicationNo) },
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
          ky: draftAuth(input.applicationNo),
        })
      ).data;
    } catch (e) {
      throw e instanceof ApiError && e.status === 410
        ? applyFailure({ kind: 'expired' as const })
        : applyFailure({ kind: 'network' as const });
    }
  }),
  // The signing machine over the signing endpoints (iAM Smart sandbox or e-Cert).
  signDocuments: signingMachineForUi,
  // One key per signature: a retried submission (a lost answer, a second click) is the same request.
  submitApplication: fromPromise<SubmitApplicationOutput, SubmitApplicationInput>(async ({ input }) => {
    try {
      const answer = await api.post<SubmitApplicationOutput>(
        `drafts/${encodeURIComponent(input.applicationNo)}/submission`,
        { lang: i18next.language },
        {
          quiet: true,
          ky: {
            headers: {
              ...draftAuth(input.applicationNo).headers,
              'Idempotency-Key': `submit-${input.reference}`,
            },
          },
        },
      );
      return answer.data;
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && e.code === 'ALREADY_SUBMITTED') {
        const data = e.body?.data as { submittedAt?: string } | undefined;
        throw applyFailure({
          kind: 'duplicate' as const,
          ...(data?.submittedAt ? { submittedAt: data.submittedAt } : {}),
        });
      }
      const message = e instanceof ApiError ? e.body?.meta.message : undefined;
      throw applyFailure({ kind: 'failed' as const, ...(message ? { message } : {}) });
    }
  }),
};
