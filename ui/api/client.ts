import ky from 'ky';

/** The envelope every API answer comes in (spec §7). */
export interface Envelope<T> {
  meta: { code: string; message: string };
  data: T;
}

/** The API client: base /api, 60 s time-out, no credentials flag (spec §7). */
export const api = ky.create({ prefixUrl: '/api', timeout: 60_000, retry: 0 });
