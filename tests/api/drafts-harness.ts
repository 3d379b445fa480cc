import type { DraftCreatedData } from '../../machines/rules/drafts';
import type { EnvelopeBody } from '../support/http';
import { type LoginHarness, type LoginHarnessOptions, startLoginHarness } from '../support/login';

/** The login harness (app, test clock, SMTP, SMS gateway) plus draft requests. */
export interface DraftHarness extends LoginHarness {
  request<T = unknown>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: EnvelopeBody<T> }>;
  /** POST /api/drafts; throws unless 201. */
  createDraft(body?: Record<string, unknown>): Promise<DraftCreatedData>;
  saveDraft<T = unknown>(
    applicationNo: string,
    token: string | undefined,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: EnvelopeBody<T> }>;
  getDraft<T = unknown>(
    applicationNo: string,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: EnvelopeBody<T> }>;
}

/**
 * A fresh app and database for one test file. `draftValidityDays` sets env DRAFT_VALIDITY_DAYS while the
 * app is built (so the variable itself is what is tested); `login` goes to startLoginHarness.
 */
export async function startDraftHarness(
  options: { draftValidityDays?: string; login?: LoginHarnessOptions } = {},
): Promise<DraftHarness> {
  const previous = process.env.DRAFT_VALIDITY_DAYS;
  if (options.draftValidityDays !== undefined) process.env.DRAFT_VALIDITY_DAYS = options.draftValidityDays;
  let base: LoginHarness;
  try {
    base = await startLoginHarness(options.login);
  } finally {
    if (previous === undefined) delete process.env.DRAFT_VALIDITY_DAYS;
    else process.env.DRAFT_VALIDITY_DAYS = previous;
  }

  const harness: DraftHarness = {
    ...base,
    async request<T = unknown>(
      method: 'GET' | 'POST' | 'PUT',
      path: string,
      {
        token,
        body,
        headers = {},
      }: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
    ) {
      const response = await fetch(`${base.baseUrl}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as EnvelopeBody<T>,
      };
    },
    async createDraft(body = { formKey: 'a2' }) {
      const res = await harness.request<DraftCreatedData>('POST', '/api/drafts', { body });
      if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    saveDraft: (applicationNo, token, body, headers) =>
      harness.request('PUT', `/api/drafts/${encodeURIComponent(applicationNo)}`, { token, body, headers }),
    getDraft: (applicationNo, token, headers) =>
      harness.request('GET', `/api/drafts/${encodeURIComponent(applicationNo)}`, { token, headers }),
  };
  return harness;
}
