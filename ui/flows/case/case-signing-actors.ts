import { fromPromise } from 'xstate';
import { api } from '../../api';
import { ecertFailure, requestFailure } from '../signing/signing-actors';
import {
  signingFailure,
  type CancelIamSmartInput,
  type PollIamSmartInput,
  type PollIamSmartOutput,
  type PrepareEcertInput,
  type PrepareEcertOutput,
  type StartIamSmartInput,
  type StartIamSmartOutput,
  type VerifyEcertInput,
  type VerifyEcertOutput,
} from '../../../machines/flows/signing/types';

/** What a follow-up's signing covers: its answers and files (the server builds the manifest from them). */
export interface FollowUpSigned {
  followUp: string;
  answers: Record<string, unknown>;
  uploads: number[];
  /** An AP or RSE signing by iAM Smart gives their HKIC (an applicant's is the case's). */
  hkic?: string;
}

const BASE = 'cases/current/signing';

/**
 * The signing machine's actors over /api/cases/current/signing (the session's bearer): the same screens,
 * failures and messages as the application's signing (ui/flows/signing/signing-actors.ts), over the
 * follow-up's answers and files read when the signing starts. docs/api.md.
 */
export function caseSigningActors(signed: () => FollowUpSigned) {
  let ecertRequest = '';
  return {
    startIamSmart: fromPromise<StartIamSmartOutput, StartIamSmartInput>(async () => {
      const { hkic, ...rest } = signed();
      try {
        return (
          await api.post<StartIamSmartOutput>(`${BASE}/iamsmart`, hkic ? { ...rest, hkic } : rest, {
            quiet: true,
          })
        ).data;
      } catch (e) {
        throw requestFailure(e);
      }
    }),
    pollIamSmart: fromPromise<PollIamSmartOutput, PollIamSmartInput>(async ({ input }) => {
      try {
        return (
          await api.get<PollIamSmartOutput>(
            `${BASE}/iamsmart/${encodeURIComponent(input.requestId)}`,
            undefined,
            {
              quiet: true,
              noLoading: true,
            },
          )
        ).data;
      } catch {
        throw signingFailure({ kind: 'network' });
      }
    }),
    cancelIamSmart: fromPromise<void, CancelIamSmartInput>(async ({ input }) => {
      try {
        await api.delete(`${BASE}/iamsmart/${encodeURIComponent(input.requestId)}`, undefined, {
          quiet: true,
          noLoading: true,
        });
      } catch (e) {
        throw requestFailure(e);
      }
    }),
    prepareEcert: fromPromise<PrepareEcertOutput, PrepareEcertInput>(async () => {
      const { followUp, answers, uploads } = signed();
      try {
        const data = (
          await api.post<PrepareEcertOutput & { requestId: string }>(
            `${BASE}/ecert/prepare`,
            { followUp, answers, uploads },
            { quiet: true },
          )
        ).data;
        ecertRequest = data.requestId;
        return { digest: data.digest, content: data.content };
      } catch (e) {
        throw requestFailure(e);
      }
    }),
    verifyEcert: fromPromise<VerifyEcertOutput, VerifyEcertInput>(async ({ input }) => {
      const form = new FormData();
      form.append('signature', input.file, input.file instanceof File ? input.file.name : 'signature.p7s');
      try {
        return (
          await api.upload<VerifyEcertOutput>(`${BASE}/ecert`, form, {
            quiet: true,
            ky: { headers: { 'X-Signing-Request': ecertRequest } },
          })
        ).data;
      } catch (e) {
        throw signingFailure(ecertFailure(e));
      }
    }),
  };
}
