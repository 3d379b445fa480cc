import { z } from 'zod';
import { CASE_STATUSES } from './case-lifecycle';
import { INBOX_TABS } from './staff-inbox';

/**
 * The console's work queue (docs/console.md, "The work queue"): its filters, as the API parses them and
 * the queue page sends them; the rows it answers are `QueuePage` of machines/rules/staff.ts.
 */

const invalid = { error: 'staff.invalid' } as const;

/** The longest search the queue takes, in characters. */
export const QUEUE_SEARCH_MAX = 100;

/** GET /api/staff/cases?status=&form=&officer=&q= (and the same filters for cases.csv) */
export const queueQuerySchema = z.object({
  status: z.enum(CASE_STATUSES, invalid).optional(),
  form: z
    .string(invalid)
    .regex(/^[A-Z0-9-]{1,20}$/, invalid)
    .optional(),
  /** A staff id, or 'me', or 'none' (unassigned). */
  officer: z
    .string(invalid)
    .regex(/^(\d{1,9}|me|none)$/, invalid)
    .optional(),
  /**
   * The search box (docs/console.md, "The work queue"): part of the application number, an applicant's,
   * school's or centre's name, the premises address or a BD reference, in English or Chinese (Simplified
   * finds Traditional and the reverse). Blank is no search.
   */
  q: z
    .string(invalid)
    .trim()
    .max(QUEUE_SEARCH_MAX, { error: 'staff.searchLong' })
    .refine((v) => !/[\p{Cc}\p{Cf}\p{Co}\p{Cn}]/u.test(v), { error: 'staff.searchCharacters' })
    .transform((v) => v || undefined)
    .optional(),
  /** One case by its application number (any case of letters). */
  applicationNo: z
    .string(invalid)
    .trim()
    .regex(/^[A-Za-z0-9-]{1,40}$/, invalid)
    .transform((v) => v.toUpperCase())
    .optional(),
  /** The officer's inbox tab (docs/decisions/039-officer-inbox.md): only the signed-in officer's cases. */
  tab: z.enum(INBOX_TABS, invalid).optional(),
  /**
   * 'me': the cases whose pending proposal waits for this senior officer's approval (proposed by someone
   * else: docs/decisions/040-four-eyes-decisions.md); none for any other role.
   */
  awaiting: z.literal('me', invalid).optional(),
  /** The page of the queue, from 1 ({@link QUEUE_PAGE_SIZE} cases a page). */
  page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(100_000, invalid).optional(),
});

/** Cases on a page of the work queue. */
export const QUEUE_PAGE_SIZE = 50;
export type QueueQuery = z.infer<typeof queueQuerySchema>;
