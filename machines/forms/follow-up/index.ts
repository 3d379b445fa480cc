import { z } from 'zod';
import { ERRORS, qualify } from '../errors';
import { schemaFor, type AnswerSchema } from '../schema';
import { INSPECTION } from './inspection';
import type { CheckContext, FollowUpDefinition, FollowUpKey } from './types';
import { WITHDRAW } from './withdraw';

/** The follow-up forms: each is one data file here, its messages and its tests (docs/forms.md). */
export const FOLLOW_UP_CATALOGUE: Readonly<Record<FollowUpKey, FollowUpDefinition>> = {
  withdrawApplication: WITHDRAW,
  requestForInspection: INSPECTION,
};

export const FOLLOW_UP_KEYS = Object.keys(FOLLOW_UP_CATALOGUE) as FollowUpKey[];

export function followUpByKey(key: string): FollowUpDefinition | undefined {
  return Object.hasOwn(FOLLOW_UP_CATALOGUE, key) ? FOLLOW_UP_CATALOGUE[key as FollowUpKey] : undefined;
}

export function followUpByRoute(path: string): FollowUpDefinition | undefined {
  return Object.values(FOLLOW_UP_CATALOGUE).find((d) => d.route === path);
}

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
