import { fromPromise } from 'xstate';
import type {
  CaseActionFailure,
  CaseInformation,
  LoadCaseOutput,
  SubmitActionInput,
  SubmitActionOutput,
} from '../../../machines/flows/case-action.machine';
import { formAnswers } from '../../../machines/forms/follow-up';
import type { FollowUpDefinition } from '../../../machines/forms/follow-up/types';
import type { CaseData } from '../../../machines/rules/case';
import { OTHER_DOCUMENT } from '../../../machines/rules/staff';
import { LAYOUT_PLAN_DOCUMENT } from '../../../machines/forms/follow-up/submit-document';
import { isLoggedIn } from '../../../machines/rules/session-state';
import { ApiError, casesApi } from '../../api/cases';
import { getSession } from '../../session/store';

/** An API refusal as the flow's failure: field errors, a status that no longer allows it, a lost session. */
export function toFailure(error: unknown): CaseActionFailure {
  if (!(error instanceof ApiError) || error.status === 0) return { kind: 'network' };
  if (error.status === 401) return { kind: 'loggedOut' };
  if (error.status === 400) {
    const data = error.body?.data as { errors?: { path: string; message: string }[] } | null;
    const fields: Record<string, string> = {};
    for (const e of data?.errors ?? []) fields[e.path.replace(/^answers\./, '')] ??= e.message;
    return { kind: 'invalid', fields };
  }
  if (error.code === 'CASE_STALE') {
    const information = error.body?.data as CaseInformation | null;
    if (information)
      return {
        kind: 'stale',
        information: { version: information.version, answers: formAnswers(information.answers) },
        message: error.message,
      };
  }
  if (error.code === 'SIGNATURE_REQUIRED' || error.code === 'SIGNING_OUTDATED')
    return { kind: 'unsigned', message: error.message };
  if (error.code === 'CASE_ACTION_NOT_ALLOWED') {
    const status = (error.body?.data as { status?: string } | null)?.status ?? '';
    return { kind: 'notAllowed', status, message: error.message };
  }
  return { kind: 'failed', message: error.message };
}

/**
 * An update form that is not for this case, while the update form of the case's kind is open: its route
 * (a centre's applicant who chose the school's form from the menu is sent on to the centre's).
 */
function elsewhereOf(definition: FollowUpDefinition, actions: CaseData['actions']): { elsewhere?: string } {
  if (!definition.versioned) return {};
  const mine = actions.find((a) => a.key === definition.key);
  const other = actions.find((a) => a.allowed && a.key !== definition.key && a.key.startsWith('update'));
  return mine && !mine.allowed && other ? { elsewhere: other.route } : {};
}

/**
 * The case action machine's actors for one follow-up form, over the case API. Submit Supporting Document
 * may start from the page's address: `requestId`, the department's request for further information it
 * answers (`?request=`), or `documentType`, the type chosen in the menu (`?type=layout-plan`).
 */
export function caseActors(
  definition: FollowUpDefinition,
  { requestId, documentType }: { requestId?: number | undefined; documentType?: string | undefined } = {},
) {
  /** The open request named by the page's `?request=` (one answered already, or unknown, is not used). */
  const requestOf = (found: CaseData) => {
    const open = found.requests.find(
      (r) => r.id === requestId && r.answeredAt === null && r.withdrawnAt === null,
    );
    return open
      ? {
          request: {
            id: open.id,
            documentTypes: open.documentTypes,
            otherDocument: open.otherDocument,
          },
        }
      : {};
  };
  /**
   * A request for one type of document chooses it already ("Other" with the officer's description);
   * else the menu's choice (a layout plan).
   */
  const requestedType = (found: CaseData) => {
    const request = requestOf(found).request;
    if (!request) return documentType ? { documentType } : {};
    const [only] = request.documentTypes.length === 1 ? request.documentTypes : [];
    if (only === undefined) return {};
    return only === OTHER_DOCUMENT && request.otherDocument
      ? { documentType: only, description: request.otherDocument }
      : { documentType: only };
  };
  return {
    loadCase: fromPromise<LoadCaseOutput>(async () => {
      if (!isLoggedIn(getSession())) return { kind: 'loggedOut' };
      const found = await casesApi.current({ quiet: true });
      return {
        kind: 'case',
        summary: {
          applicationNo: found.applicationNo,
          status: found.status,
          formCode: found.formCode,
          applicationType: found.applicationType,
          submittedAt: found.submittedAt,
        },
        allowed: found.actions.some((a) => a.key === definition.key && a.allowed),
        prefill: { ...definition.prefill?.(found.facts), ...requestedType(found) },
        ...(definition.versioned ? { information: found.facts.information } : {}),
        ...elsewhereOf(definition, found.actions),
        ...requestOf(found),
        calendar: found.calendar,
      };
    }),
    submitAction: fromPromise<SubmitActionOutput, SubmitActionInput>(async ({ input }) => {
      try {
        return await casesApi.act(
          definition.key,
          {
            answers: input.answers,
            baseVersion: input.baseVersion,
            uploads: input.uploads,
            signature: input.signature,
            requestId: input.requestId,
          },
          input.idempotencyKey,
        );
      } catch (error) {
        // The machine reads the failure's kind (CaseActionFailure) from the rejection.
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a typed failure, not an Error
        throw toFailure(error);
      }
    }),
  };
}

const typeOfSearch = (type: string | null) => (type && /^[A-Za-z]{1,40}$/.test(type) ? type : undefined);

/**
 * Where Submit Supporting Document starts from: `?request=<id>`, the department's request for further
 * information it answers; `?type=layout-plan`, the menu's "Submit Revised Layout Plan"; `?type=<document
 * type>`, the replacement of a document the officer asks for (docs/decisions/043-document-review.md).
 */
export function startOfSearch(search: URLSearchParams) {
  const id = Number(search.get('request'));
  return {
    requestId: Number.isSafeInteger(id) && id > 0 ? id : undefined,
    documentType:
      search.get('type') === 'layout-plan' ? LAYOUT_PLAN_DOCUMENT : typeOfSearch(search.get('type')),
  };
}
