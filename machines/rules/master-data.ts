import { z } from 'zod';

/**
 * The master data lookup `{ type, code }` (POST /api/application/getmasterdata), shared by the
 * browser and the API. Error messages are i18n keys (namespace `api`), never English text.
 */
export const MASTER_DATA_KEY_MAX_LENGTH = 64;
export const MASTER_DATA_KEY_PATTERN = /^[A-Za-z0-9_.-]+$/;

/** The setting the idle-session timer reads, and its fallback when the server has none. */
export const IDLE_TIMEOUT_LOOKUP = { type: 'admin_setting', code: 'logout_idletime_frontend' } as const;
export const DEFAULT_IDLE_TIMEOUT_MINUTES = 30;

function keyField(field: 'type' | 'code') {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? `validation.${field}.required`
          : `validation.${field}.notText`,
    })
    .trim()
    .min(1, { error: `validation.${field}.required`, abort: true })
    .max(MASTER_DATA_KEY_MAX_LENGTH, { error: `validation.${field}.tooLong`, abort: true })
    .regex(MASTER_DATA_KEY_PATTERN, { error: `validation.${field}.invalidCharacters` });
}

export const masterDataQuerySchema = z.object(
  {
    type: keyField('type'),
    code: keyField('code'),
  },
  { error: 'validation.body.notObject' },
);

export type MasterDataQuery = z.infer<typeof masterDataQuerySchema>;

/** One entry of the answer's `data` list. */
export interface MasterDataEntry {
  dataValue: string;
  type: string;
  code: string;
  description: string | null;
}
