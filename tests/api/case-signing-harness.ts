import type { CaseActionResult } from '../../machines/rules/case';
import type { Reply } from './application-harness';
import { HKIC } from './appointments-harness';
import type { CaseHarness } from './cases-harness';
import type { IamSmartStarted, SigningStatusData } from '../../api/modules/signing/signing.types';

/** The signing endpoints of a follow-up on the session's case (api/modules/cases/case-signing.routes.ts). */
export const CASE_SIGNING = '/api/cases/current/signing';

/** What a follow-up's signing is over: its key, answers and files (and an HKIC for iAM Smart). */
export interface FollowUpToSign {
  followUp: string;
  answers: Record<string, unknown>;
  uploads?: number[];
  hkic?: string;
}

/** Starts iAM Smart signing of a follow-up (the HKIC of the appointments harness unless one is given). */
export const startFollowUpSigning = (h: CaseHarness, token: string, body: FollowUpToSign) =>
  h.call<IamSmartStarted>('POST', `${CASE_SIGNING}/iamsmart`, {
    token,
    body: { uploads: [], hkic: HKIC, ...body },
  });

/**
 * Signs a follow-up by iAM Smart in the sandbox (its phone approves) and answers the signing's request id,
 * or undefined when the signing was refused (a bad file, a closed case ...: the submission then answers
 * the refusal itself).
 */
export async function signFollowUp(
  h: CaseHarness,
  token: string,
  body: FollowUpToSign,
): Promise<string | undefined> {
  const started = await startFollowUpSigning(h, token, body);
  if (started.status !== 201) return undefined;
  const { requestId, digest } = started.body.data;
  const approved = await h.phone(digest, 'approve');
  if (approved.status !== 200) throw new Error(`phone answered ${approved.status}`);
  const status = await h.call<SigningStatusData>('GET', `${CASE_SIGNING}/iamsmart/${requestId}`, { token });
  if (status.body.data.status !== 'signed') throw new Error(`signing ended ${JSON.stringify(status.body)}`);
  return requestId;
}

/** A follow-up signed first (when its signing is accepted), then submitted with `signature`. */
export async function actSigned(
  h: CaseHarness,
  token: string,
  form: string,
  body: { answers: Record<string, unknown>; uploads?: number[]; requestId?: number },
  options: { key?: string; lang?: string } = {},
): Promise<Reply<CaseActionResult>> {
  const signature = await signFollowUp(h, token, {
    followUp: form,
    answers: body.answers,
    uploads: body.uploads ?? [],
  });
  return h.act(token, form, body.answers, {
    ...options,
    rawBody: { ...body, ...(signature ? { signature } : {}) },
  });
}
