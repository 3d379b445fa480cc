import ky, { HTTPError } from 'ky';
import i18next from 'i18next';
import type { Envelope } from '../api/client';

/**
 * The console's calls to /api/staff (docs/decisions/022-case-officer-console.md). The staff session is an HttpOnly cookie the browser sends
 * itself (never readable here, never the applicant's Bearer token); each call names the page language
 * so that messages come back in it.
 */
export class ConsoleApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

const client = ky.create({ prefixUrl: '/api/staff', credentials: 'same-origin', timeout: 60_000, retry: 0 });

async function call<T>(
  method: 'get' | 'post' | 'put' | 'delete',
  path: string,
  body?: unknown,
  search?: Record<string, string>,
): Promise<T> {
  try {
    const searchParams = { ...search, lang: i18next.language || 'en' };
    const answer = await client(path, { method, json: body, searchParams }).json<Envelope<T>>();
    return answer.data;
  } catch (error) {
    // The staff session ended (idle timeout, signed out elsewhere): back to the sign-in.
    if (error instanceof HTTPError && error.response.status === 401 && path !== 'session')
      window.location.assign('/console/sign-in');
    if (error instanceof HTTPError) {
      const envelope = (await error.response.json().catch(() => null)) as Envelope<{
        errors?: { path: string; message: string }[];
      } | null> | null;
      throw new ConsoleApiError(
        error.response.status,
        envelope?.meta.code ?? 'INTERNAL',
        envelope?.meta.message ?? i18next.t('console:errors.network'),
        envelope?.data?.errors ?? [],
      );
    }
    throw new ConsoleApiError(0, 'NETWORK', i18next.t('console:errors.network'));
  }
}

export const consoleApi = {
  get: <T>(path: string, search?: Record<string, string>) => call<T>('get', path, undefined, search),
  post: <T>(path: string, body: unknown) => call<T>('post', path, body),
  put: <T>(path: string, body: unknown) => call<T>('put', path, body),
  del: <T>(path: string) => call<T>('delete', path),
};
