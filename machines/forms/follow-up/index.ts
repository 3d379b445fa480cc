import { z } from 'zod';
import { ERRORS, qualify } from '../errors';
import { schemaFor, type AnswerSchema } from '../schema';
import type { CheckContext, FollowUpDefinition } from './types';

export {
  FOLLOW_UP_CATALOGUE,
  FOLLOW_UP_KEYS,
  followUpByKey,
  followUpByRoute,
  followUpForCase,
} from './catalogue';
export { changesOf, formAnswers, formOfCase, nextVersionAnswers, type AnswerChange } from './update';

/**
 * The schema of a follow-up form, used by the browser and the API alike: the fields' own rules (as for an
 * application, machines/forms/schema.ts), then the definition's `check` with today's date and the holidays.
 */
export function followUpSchema(definition: FollowUpDefinition, context: CheckContext): AnswerSchema {
  const fields = schemaFor(definition);
  return z
    .record(z.string(), z.unknown(), { error: ERRORS.notObject })
    .transform((answers: Record<string, unknown>, ctx) => {
      const base = fields.safeParse(answers);
      if (!base.success)
        for (const issue of base.error.issues)
          ctx.addIssue({
            code: 'custom',
            message: issue.message,
            path: issue.path,
            params: 'params' in issue ? (issue.params as Record<string, unknown>) : {},
          });
      for (const issue of definition.check?.(answers, context) ?? [])
        ctx.addIssue({
          code: 'custom',
          message: qualify(issue.messageKey),
          path: [issue.field],
          params: { ...issue.params },
        });
      return base.success ? base.data : {};
    });
}

export type * from './types';
