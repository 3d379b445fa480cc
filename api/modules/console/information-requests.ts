import type { CaseActionEffect } from '../cases/cases.service';
import { answerInformationRequest } from './console.repo';
import { fieldError } from '../applications/drafts.service';

/**
 * Submit Supporting Document answering the department's request for further information (issue 17: the
 * case page's to-do opens the form with `?request=<id>`): inside the follow-up's transaction the request
 * is marked answered by this follow-up, so the officer sees it answered and the queue stops flagging it.
 * A request that is not an open one of this case refuses the whole follow-up (400 at `requestId`), so
 * nothing is written half.
 */
export const answerRequestEffect: CaseActionEffect = async (tx, action) => {
  if (action.requestId === undefined) return undefined;
  const answered = await answerInformationRequest(
    tx,
    action.applicationId,
    action.requestId,
    action.actionId,
    action.now,
  );
  if (!answered) throw fieldError(['requestId'], 'case.requestNotOpen');
  return undefined;
};
