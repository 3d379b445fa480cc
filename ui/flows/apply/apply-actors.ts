import i18next from 'i18next';
import { fromPromise } from 'xstate';
import { FORM_CATALOGUE } from '../../../machines/forms';
import { api, ApiError } from '../../api';
import { signingMachineForUi } from '../signing/signing-actors';
import { storeDraftToken } from './draft-tokens';
import { draftAuth } from '../../api/draft-auth';
import { CASE_FIELD } from '../../../machines/forms/selfcert-build';
import { ISSUED_LETTER_FIELDS, withIssuedLetter } from '../../../machines/rules/selfcert';
import type {
  CheckCaseInput,
  CheckCaseOutput,
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

/**
 * A failed save as the wizard tells it (docs/flows/apply.md, "Autosave"): 409 stale, 410 expired; any other
 * answer of the portal (4xx) a refusal with its field messages, shown at the answers, or its own message;
 * only no answer at all (offline, time-out) is "the portal could not be reached".
 */
function saveFailure(e: unknown): Error {
  if (!(e instanceof ApiError) || e.status === 0 || e.status >= 500)
    return applyFailure({ kind: 'network' as const });
  if (e.status === 409) return applyFailure({ kind: 'stale' as const });
  if (e.status === 410) return applyFailure({ kind: 'expired' as const });
  const errors = refusalsOf(e);
  const message = e.body?.meta.message;
  return applyFailure({
    kind: 'refused' as const,
    errors,
    ...(Object.keys(errors).length === 0 && message ? { message } : {}),
  });
}

/** The page's language for the API's messages (a refused save's field messages). */
const inLanguage = (path: string) => `${path}?lang=${encodeURIComponent(i18next.language)}`;

/** The certifier's answers go with the check only from the step that holds them (Part B). */
const CERTIFIER_FIELDS = ['certifierIdentity', 'certifierRegNo'] as const;

/** The body of POST /api/drafts/:applicationNo/check-case (caseCheckSchema) for the step being left. */
function caseCheckBody({ fieldIds, answers }: CheckCaseInput) {
  const certifier = CERTIFIER_FIELDS.every((id) => fieldIds.includes(id))
    ? Object.fromEntries(CERTIFIER_FIELDS.map((id) => [id, answers[id] ?? '']))
    : {};
  // From the letter step: the letter as the answers state it, compared with the letter issued.
  const letter = Object.fromEntries(
    ISSUED_LETTER_FIELDS.filter((id) => fieldIds.includes(id) && answers[id] !== undefined).map((id) => [
      id,
      answers[id],
    ]),
  );
  return {
    answers: { [CASE_FIELD]: answers[CASE_FIELD] ?? '', ...certifier, ...letter },
    lang: i18next.language,
  };
}

/**
 * A refusal's field errors under `answers.<field>`, by the answer's path below `answers` (`caseApplicationNo`,
 * `minorWorks.0.description`), the messages in the page's language: a 400's, or a case rule's 409
 * (`lorRevised`, docs/flows/case-rules.md).
 */
function refusalsOf(e: unknown): Record<string, string> {
  if (!(e instanceof ApiError) || (e.status !== 400 && !(e.status === 409 && e.code === 'CASE_RULE')))
    return {};
  const errors = (e.body?.data as { errors?: { path?: string; message?: string }[] } | null)?.errors ?? [];
  return Object.fromEntries(
    errors.flatMap(({ path, message }) =>
      path?.startsWith('answers.') && message ? [[path.slice('answers.'.length), message]] : [],
    ),
  );
}

/** The wizard's actors over the drafts API; signing and submission open with the documents step. */
export const applyActors = {
  saveDraft: fromPromise<SaveDraftOutput, SaveDraftInput>(async ({ input }) => {
    try {
      if (!input.applicationNo) {
        const created = await api.post<SaveDraftOutput & { token: string }>(
          inLanguage('drafts'),
          { formKey: formKeyOf(input.formCode), answers: input.answers, step: input.step },
          { quiet: true, noLoading: true },
        );
        storeDraftToken(created.data.applicationNo, created.data.token);
        return created.data;
      }
      const saved = await api.put<{ version: number; validUntil: string }>(
        inLanguage(`drafts/${encodeURIComponent(input.applicationNo)}`),
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
  // The case a self-certification names, on leaving Part A and Part B (docs/flows/apply.md): a refusal
  // resolves with its field errors; anything else (network, 429) rejects, and the person moves on.
  checkCase: fromPromise<CheckCaseOutput, CheckCaseInput>(async ({ input }) => {
    try {
      await api.post(`drafts/${encodeURIComponent(input.applicationNo)}/check-case`, caseCheckBody(input), {
        quiet: true,
        noLoading: true,
        ky: draftAuth(input.applicationNo),
      });
      return { errors: {} };
    } catch (e) {
      const errors = refusalsOf(e);
      // The letter revised since the form was opened: its items refreshed as issued now.
      const letter = e instanceof ApiError ? (e.body?.data as { letter?: unknown } | null)?.letter : undefined;
      if (Object.keys(errors).length > 0)
        return typeof letter === 'object' && letter !== null
          ? { errors, answers: withIssuedLetter(input.answers, letter as Record<string, unknown>) }
          : { errors };
      throw applyFailure({ kind: 'network' as const });
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
