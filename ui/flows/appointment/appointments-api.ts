import i18next from 'i18next';
import { fromPromise } from 'xstate';
import type {
  CodeField,
  ContactChangeFailure,
  ContactChangeResult,
  SendCodesInput,
  VerifyCodesInput,
} from '../../../machines/flows/appointee-contact.machine';
import type { AppointeeSession, AppointeeFailure } from '../../../machines/flows/appointee-login.machine';
import type { AcceptanceFailure } from '../../../machines/flows/appointment-acceptance.machine';
import { oneTimeCodeMachine } from '../../../machines/flows/one-time-code.machine';
import {
  type SendCodeInput,
  type SendCodeOutput,
  type VerifyCodeInput,
  type VerifyCodeOutput,
} from '../../../machines/flows/one-time-code/types';
import type { AppointmentView, InvitationView } from '../../../machines/rules/appointment';
import { api, ApiError } from '../../api';
import { ecertFailure } from '../signing/signing-actors';
import { otpFailure, toOtpError } from '../login/otp-actors';
import {
  signingFailure,
  type CancelIamSmartInput,
  type PollIamSmartInput,
  type PrepareEcertInput,
  type StartIamSmartInput,
  type VerifyEcertInput,
  type PollIamSmartOutput,
  type PrepareEcertOutput,
  type StartIamSmartOutput,
  type VerifyEcertOutput,
} from '../../../machines/flows/signing/types';

/**
 * The appointment API for the screens (docs/decisions/020-appointments.md): the applicant's appointments, the appointee's invitation
 * (by the link's token, never in a URL the server sees: it travels in the body or a header) and the AP/RSE
 * login. Errors are shown by the flows in place, never as toasts.
 */
const quiet = { quiet: true } as const;

const refusal = (error: unknown): AcceptanceFailure =>
  error instanceof ApiError && error.status > 0 && error.status < 500
    ? { kind: error.code === 'OTP_WRONG' ? 'wrongCode' : 'refused', message: error.message }
    : { kind: 'network' };
// The machines read the failure's kind from the rejection (a typed failure, not an Error).
const reject = (failure: AcceptanceFailure | AppointeeFailure | ContactChangeFailure): never => {
  throw Object.assign(new Error(failure.kind), failure);
};

export const appointmentsApi = {
  async list(): Promise<AppointmentView[]> {
    return (await api.get<AppointmentView[]>('cases/current/appointments', undefined, quiet)).data;
  },
  async cancel(id: number): Promise<void> {
    await api.post(`cases/current/appointments/${id}/cancel`, {});
  },
  async revoke(id: number, reason: string): Promise<void> {
    await api.post(`cases/current/appointments/${id}/revoke`, { reason });
  },
};

/**
 * The acceptance machine's actors for one invitation token; its code step's (`sendCode`, `verifyCode`, given
 * the token and the channel chosen) inside the child `oneTimeCode`.
 */
export function acceptanceActors(token: string) {
  const call = async <T>(path: string, body: object): Promise<T> => {
    try {
      return (
        await api.post<T>(`appointments/invitation${path}`, { token, lang: i18next.language, ...body }, quiet)
      ).data;
    } catch (e) {
      return reject(refusal(e));
    }
  };
  return {
    loadInvitation: fromPromise<InvitationView, { token: string }>(() => call<InvitationView>('', {})),
    oneTimeCode: oneTimeCodeMachine.provide({
      actors: {
        sendCode: fromPromise<SendCodeOutput, SendCodeInput>(({ input }) =>
          call<SendCodeOutput>('/otp/send', { channel: input.channel }),
        ),
        verifyCode: fromPromise<VerifyCodeOutput, VerifyCodeInput>(({ input }) =>
          call('/otp/verify', { channel: input.channel, code: input.code }),
        ),
      },
    }),
    accept: fromPromise<unknown, { token: string; signingId: string }>(({ input }) =>
      call('/accept', { signingId: input.signingId }),
    ),
  };
}

/** The signing machine's actors over the invitation's declaration (the same screens as the application's). */
export function declarationSigningActors(token: string, hkic: { get(): string }) {
  let ecertRequest = '';
  const failed = (e: unknown) =>
    e instanceof ApiError && e.status > 0
      ? signingFailure(e.message ? { kind: 'failed', message: e.message } : { kind: 'failed' })
      : signingFailure({ kind: 'network' });
  const post = async <T>(path: string, body: object, noLoading = false): Promise<T> =>
    (
      await api.post<T>(
        `appointments/invitation/signing${path}`,
        { token, lang: i18next.language, ...body },
        { quiet: true, noLoading },
      )
    ).data;
  return {
    startIamSmart: fromPromise<StartIamSmartOutput, StartIamSmartInput>(async () => {
      try {
        return await post<StartIamSmartOutput>('/iamsmart', { hkic: hkic.get() });
      } catch (e) {
        throw failed(e);
      }
    }),
    pollIamSmart: fromPromise<PollIamSmartOutput, PollIamSmartInput>(async ({ input }) => {
      try {
        return await post<PollIamSmartOutput>('/iamsmart/status', { requestId: input.requestId }, true);
      } catch {
        throw signingFailure({ kind: 'network' });
      }
    }),
    // The request simply expires on the service's side; nothing to tell the portal.
    cancelIamSmart: fromPromise<void, CancelIamSmartInput>(() => Promise.resolve()),
    prepareEcert: fromPromise<PrepareEcertOutput, PrepareEcertInput>(async () => {
      try {
        const prepared = await post<PrepareEcertOutput & { requestId: string }>('/ecert/prepare', {});
        ecertRequest = prepared.requestId;
        return { digest: prepared.digest, content: prepared.content };
      } catch (e) {
        throw failed(e);
      }
    }),
    verifyEcert: fromPromise<VerifyEcertOutput, VerifyEcertInput>(async ({ input }) => {
      const form = new FormData();
      form.append('signature', input.file, input.file instanceof File ? input.file.name : 'signature.p7s');
      try {
        return (
          await api.upload<VerifyEcertOutput>('appointments/invitation/signing/ecert', form, {
            quiet: true,
            ky: { headers: { 'X-Invitation-Token': token, 'X-Signing-Request': ecertRequest } },
          })
        ).data;
      } catch (e) {
        throw signingFailure(ecertFailure(e));
      }
    }),
  };
}

/**
 * The AP/RSE login machine's actors; its code step's (`sendCode`, `verifyCode`, given the registration number
 * and contact) inside the child `oneTimeCode`.
 */
export const appointeeActors = {
  oneTimeCode: oneTimeCodeMachine.provide({
    actors: {
      sendCode: fromPromise<SendCodeOutput, SendCodeInput>(async ({ input }) => {
        try {
          return (await api.post<SendCodeOutput>('auth/appointee/otp/send', input, quiet)).data;
        } catch (e) {
          throw otpFailure(e);
        }
      }),
      verifyCode: fromPromise<VerifyCodeOutput, VerifyCodeInput>(async ({ input }) => {
        try {
          return (await api.post<AppointeeSession>('auth/appointee/otp/verify', input, quiet)).data;
        } catch (e) {
          throw otpFailure(e);
        }
      }),
    },
  }),
  selectCase: fromPromise<unknown, { applicationNo: string }>(async ({ input }) => {
    try {
      return (await api.post('appointee/cases/select', input, quiet)).data;
    } catch (e) {
      return reject(
        e instanceof ApiError && e.status > 0 ? { kind: 'invalid', message: e.message } : { kind: 'network' },
      );
    }
  }),
};

/** An API refusal of a change of contact as the flow's failure: the code it names, the wait a 429 gives. */
export function contactFailure(error: unknown): ContactChangeFailure {
  if (!(error instanceof ApiError) || error.status === 0) return { kind: 'network' };
  if (error.status === 401) return { kind: 'loggedOut' };
  if (error.code === 'CONTACT_UNCHANGED') return { kind: 'unchanged' };
  const data = (error.body?.data ?? {}) as { field?: unknown };
  const field: { field?: CodeField } =
    data.field === 'oldCode' || data.field === 'newCode' ? { field: data.field } : {};
  const otp = toOtpError(error);
  switch (otp.kind) {
    case 'wrongCode':
      return { kind: 'wrongCode', attemptsLeft: otp.attemptsLeft, ...field };
    case 'burnt':
      return { kind: 'burnt', ...field };
    case 'locked':
    case 'rateLimited':
      return { kind: otp.kind, retryAfterSeconds: otp.retryAfterSeconds };
    case 'expired':
    case 'network':
      return { kind: otp.kind };
    default:
      return { kind: 'invalid', message: otp.message };
  }
}

/**
 * The change of contact's actors (docs/flows/appointee-contact.md): `POST /api/appointee/contact/send` and
 * `/verify` with the AP's or RSE's own session. Refusals are shown in place, never as toasts.
 */
export const contactChangeActors = {
  sendCodes: fromPromise<SendCodeOutput, SendCodesInput>(async ({ input }) => {
    try {
      return (await api.post<SendCodeOutput>('appointee/contact/send', input, quiet)).data;
    } catch (e) {
      return reject(contactFailure(e));
    }
  }),
  verifyCodes: fromPromise<ContactChangeResult, VerifyCodesInput>(async ({ input }) => {
    try {
      return (await api.post<ContactChangeResult>('appointee/contact/verify', input, quiet)).data;
    } catch (e) {
      return reject(contactFailure(e));
    }
  }),
};
