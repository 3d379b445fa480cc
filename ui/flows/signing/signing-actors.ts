import { fromPromise } from 'xstate';
import { draftAuth } from '../../api/draft-auth';
import { signingMachine } from '../../../machines/flows/signing.machine';
import { api, ApiError } from '../../api';
import type { RequestOptions } from '../../api/client';
import {
  isEcertRejection,
  signingFailure,
  type CancelIamSmartInput,
  type PollIamSmartInput,
  type PollIamSmartOutput,
  type PrepareEcertInput,
  type PrepareEcertOutput,
  type SigningFailure,
  type StartIamSmartInput,
  type StartIamSmartOutput,
  type VerifyEcertInput,
  type VerifyEcertOutput,
} from '../../../machines/flows/signing/types';

/**
 * The signing machine's actors over the drafts API (docs/flows/signing.md). A draft's own token is its
 * credential, as for saving it. Errors are shown by the signing screens, never as toasts.
 */

const options = (applicationNo: string, poll = false): RequestOptions => ({
  quiet: true,
  ...(poll ? { noLoading: true } : {}),
  ky: draftAuth(applicationNo),
});
const base = (applicationNo: string) => `drafts/${encodeURIComponent(applicationNo)}/signing`;

/**
 * No answer at all (offline, time-out): `network`; an answer that refuses (4xx, or 503 when iAM Smart
 * cannot be reached): `failed`, with the portal's own reason in the page's language when it gave one.
 */
export function requestFailure(error: unknown): Error {
  const answered =
    error instanceof ApiError && (error.status === 503 || (error.status >= 400 && error.status < 500));
  if (!answered) return signingFailure({ kind: 'network' });
  const message = error.body?.meta.message;
  return signingFailure(message ? { kind: 'failed', message } : { kind: 'failed' });
}

/**
 * A refused signature file: 422 ECERT_REJECTED with `data.reason` (or a reason as `meta.code`). Another
 * refusal (the application changed since the text was shown, the signing ended) is `failed` with the
 * portal's own message; no answer or a server error is `network`.
 */
export function ecertFailure(error: unknown): SigningFailure {
  if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) return { kind: 'network' };
  const data = error.body?.data;
  const reason = isEcertRejection(error.code)
    ? error.code
    : typeof data === 'object' && data !== null && 'reason' in data
      ? data.reason
      : undefined;
  if (error.status === 422 && isEcertRejection(reason)) return { kind: 'rejected', reason };
  const message = error.body?.meta.message;
  return message ? { kind: 'failed', message } : { kind: 'failed' };
}

export const signingActors = {
  startIamSmart: fromPromise<StartIamSmartOutput, StartIamSmartInput>(async ({ input }) => {
    try {
      return (
        await api.post<StartIamSmartOutput>(
          `${base(input.applicationNo)}/iamsmart`,
          {},
          options(input.applicationNo),
        )
      ).data;
    } catch (e) {
      throw requestFailure(e);
    }
  }),
  // Every poll is quiet and shows no loading overlay; any failure is a `network` the machine counts.
  pollIamSmart: fromPromise<PollIamSmartOutput, PollIamSmartInput>(async ({ input }) => {
    try {
      return (
        await api.get<PollIamSmartOutput>(
          `${base(input.applicationNo)}/iamsmart/${encodeURIComponent(input.requestId)}`,
          undefined,
          options(input.applicationNo, true),
        )
      ).data;
    } catch {
      throw signingFailure({ kind: 'network' });
    }
  }),
  cancelIamSmart: fromPromise<void, CancelIamSmartInput>(async ({ input }) => {
    try {
      await api.delete(
        `${base(input.applicationNo)}/iamsmart/${encodeURIComponent(input.requestId)}`,
        undefined,
        options(input.applicationNo, true),
      );
    } catch (e) {
      throw requestFailure(e);
    }
  }),
  prepareEcert: fromPromise<PrepareEcertOutput, PrepareEcertInput>(async ({ input }) => {
    try {
      return (
        await api.get<PrepareEcertOutput>(
          `${base(input.applicationNo)}/ecert`,
          undefined,
          options(input.applicationNo),
        )
      ).data;
    } catch (e) {
      throw requestFailure(e);
    }
  }),
  verifyEcert: fromPromise<VerifyEcertOutput, VerifyEcertInput>(async ({ input }) => {
    const form = new FormData();
    form.append('signature', input.file, input.file instanceof File ? input.file.name : 'signature.p7s');
    try {
      return (
        await api.upload<VerifyEcertOutput>(
          `${base(input.applicationNo)}/ecert`,
          form,
          options(input.applicationNo),
        )
      ).data;
    } catch (e) {
      throw signingFailure(ecertFailure(e));
    }
  }),
};

/** The signing machine with the API actors: what the wizard invokes, or a page runs on its own. */
export const signingMachineForUi = signingMachine.provide({ actors: signingActors });
