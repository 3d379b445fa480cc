import type { IssueParams, RawIssue } from './errors';

/** The outcome of checking one answer: its value as kept, or the issues below the field. */
export type Check = { ok: true; value: unknown } | { ok: false; issues: RawIssue[] };

/** `submit`: every rule, values normalised. `draft`: types and lengths only, values kept as typed. */
export type Mode = 'submit' | 'draft';

export const ok = (value: unknown): Check => ({ ok: true, value });

export const fail = (
  message: string,
  params: IssueParams,
  path: readonly (string | number)[] = [],
): Check => ({
  ok: false,
  issues: [{ path, message, params }],
});

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The items of a `lines` answer: its lines that are not blank, trimmed. */
export function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** Chinese characters, with the HKSCS ones in the supplementary planes (𨋢). */
export const CJK = /[\u3400-\u9fff\uf900-\ufaff\u{20000}-\u{3134f}]/u;

export function assertNever(value: never): never {
  throw new Error(`unhandled field kind: ${JSON.stringify(value)}`);
}
