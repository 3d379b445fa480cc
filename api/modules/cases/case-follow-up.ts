import type { Db } from '../../../drizzle/db';
import { followUpSchema } from '../../../machines/forms/follow-up';
import type { FollowUpDefinition } from '../../../machines/forms/follow-up/types';
import type { CalendarService } from '../shared';
import { caseVersionOpened } from './case-versions';
import { fieldError, underAnswers } from '../../http/field-errors';

/**
 * The answers and files of a follow-up as the API takes them, checked one way for the follow-up itself
 * (api/modules/cases/cases.service.ts `act`) and for signing it (api/modules/cases/case-signing.ts): an update form names
 * the version it was opened on, the answers pass the form's schema (field errors under `answers.<field>`),
 * and a form with an upload step names at least one file.
 */
export async function parseFollowUp(
  db: Db,
  calendar: CalendarService,
  definition: FollowUpDefinition,
  applicationId: number,
  body: { answers: Record<string, unknown>; baseVersion?: number; uploads?: readonly number[] },
): Promise<{ answers: Record<string, unknown>; uploads: number[] }> {
  if (definition.versioned && body.baseVersion === undefined)
    throw fieldError(['baseVersion'], 'case.baseVersionRequired');
  // "Nothing changed" is judged against the version the form was opened on, not the latest: a parallel
  // retry of the same update (one Idempotency-Key) that finished first must not make this one "unchanged".
  const opened = definition.versioned
    ? await caseVersionOpened(db, applicationId, body.baseVersion)
    : undefined;
  const { today, holidays } = calendar.window();
  const parsed = followUpSchema(definition, {
    today,
    holidays: new Set(holidays),
    base: opened?.answers,
  }).safeParse(body.answers);
  if (!parsed.success) throw underAnswers(parsed.error);
  const hasUpload = definition.steps.some((s) => s.kind === 'upload');
  const uploads = hasUpload ? [...(body.uploads ?? [])] : [];
  if (hasUpload && uploads.length === 0) throw fieldError(['uploads'], 'case.uploadsRequired');
  return { answers: parsed.data, uploads };
}

/** The follow-up is signed before it is submitted (Submit Supporting Document). */
export const hasSignStep = (definition: FollowUpDefinition) =>
  definition.steps.some((s) => s.kind === 'sign');
