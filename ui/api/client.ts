import ky, { HTTPError, TimeoutError, type KyInstance, type Options } from 'ky';

/** The envelope every API answer comes in (spec §7). */
export interface Envelope<T> {
  meta: { code: string; message: string };
  data: T;
}

export const REQUEST_TIMEOUT_MS = 60_000;
/** A request carrying this header does not show the global loading overlay (spec §7). */
export const NO_LOADING_HEADER = 'x-no-loading';

/** What the client needs from the rest of the app; the UI wires these to the session, router and toasts. */
export interface ApiClientHooks {
  /** The stored session token ('' when logged out). */
  getToken(): string;
  /** A 401 answer: clear the token and go home (spec §8). */
  onUnauthorized(): void;
  /** An error toast with this text. */
  onError(message: string): void;
  /** A request that shows the loading overlay started (+1) or ended (−1). */
  onLoading(delta: 1 | -1): void;
  /** The translated "request timed out" and "network failed" texts. */
  messages(): { timeout: string; network: string };
}

export interface RequestOptions {
  /** Do not show the global loading overlay for this request. */
  noLoading?: boolean;
  /** The caller shows this request's errors in place (a field message, a state of its flow): no toast. */
  quiet?: boolean;
  /** Extra ky options (headers, signal ...). */
  ky?: Options;
}

export type Params = Record<string, string | number | boolean | undefined>;

/** The error every helper rejects with: the HTTP status (0 without an answer) and the envelope if any. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly body: Envelope<unknown> | null,
    readonly retryAfterSeconds: number | null,
    readonly aborted = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function searchParams(params: Params | undefined): Record<string, string> | undefined {
  if (!params) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) out[k] = String(v);
  return out;
}

function isEnvelope(v: unknown): v is Envelope<unknown> {
  return typeof v === 'object' && v !== null && 'meta' in v && typeof v.meta === 'object';
}

export interface ApiClient {
  get<T>(url: string, params?: Params, options?: RequestOptions): Promise<Envelope<T>>;
  post<T>(url: string, body?: unknown, options?: RequestOptions): Promise<Envelope<T>>;
  put<T>(url: string, body?: unknown, options?: RequestOptions): Promise<Envelope<T>>;
  delete<T>(url: string, params?: Params, options?: RequestOptions): Promise<Envelope<T>>;
  upload<T>(url: string, form: FormData, options?: RequestOptions): Promise<Envelope<T>>;
  /** A GET whose answer is a file (a PDF), not an envelope; errors as for the others (their envelope). */
  blob(url: string, params?: Params, options?: RequestOptions): Promise<Blob>;
}

/**
 * The API client of spec §7 and §8: base /api, 60 s time-out, no credentials flag, a bearer header from
 * the stored token; an identical request in flight (same method, url, body and params) is cancelled by
 * the newer one; a loading overlay per request unless marked no-loading; 401 → onUnauthorized and
 * reject; time-out → an error toast saying so; other errors → their `meta.message` as an error toast.
 */
export function createApiClient(hooks: ApiClientHooks, base = '/api'): ApiClient {
  const http: KyInstance = ky.create({
    prefixUrl: base,
    timeout: REQUEST_TIMEOUT_MS,
    retry: 0,
    hooks: {
      beforeRequest: [
        (request) => {
          // A request that brings its own credentials (a draft's token) keeps them.
          const token = hooks.getToken();
          if (token && !request.headers.has('Authorization'))
            request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
    },
  });
  const inFlight = new Map<string, AbortController>();

  const readEnvelope = async <T>(response: Response): Promise<Envelope<T>> => {
    const text = await response.text();
    return (
      text ? JSON.parse(text) : { meta: { code: String(response.status), message: '' }, data: null }
    ) as Envelope<T>;
  };

  async function send<T>(
    method: 'get' | 'post' | 'put' | 'delete',
    url: string,
    payload: { json?: unknown; body?: FormData; params?: Params },
    options: RequestOptions = {},
  ): Promise<Envelope<T>> {
    return request(method, url, payload, options, readEnvelope<T>);
  }

  async function request<R>(
    method: 'get' | 'post' | 'put' | 'delete',
    url: string,
    payload: { json?: unknown; body?: FormData; params?: Params },
    options: RequestOptions,
    read: (response: Response) => Promise<R>,
  ): Promise<R> {
    const key = `${method} ${url} ${payload.json === undefined ? '' : JSON.stringify(payload.json)} ${
      payload.params ? JSON.stringify(payload.params) : ''
    }`;
    // Uploads are never "identical": two files are two requests.
    const dedupe = payload.body === undefined;
    if (dedupe) inFlight.get(key)?.abort();
    const controller = new AbortController();
    if (dedupe) inFlight.set(key, controller);
    const headers = new Headers(options.ky?.headers as HeadersInit | undefined);
    const noLoading = options.noLoading === true || headers.get(NO_LOADING_HEADER) === 'true';
    headers.delete(NO_LOADING_HEADER);
    if (!noLoading) hooks.onLoading(1);
    try {
      const response = await http(url, {
        ...options.ky,
        method,
        headers,
        json: payload.json,
        body: payload.body,
        searchParams: searchParams(payload.params),
        signal: controller.signal,
      });
      return await read(response);
    } catch (error) {
      throw await toApiError(error, controller.signal.aborted, options.quiet === true);
    } finally {
      if (!noLoading) hooks.onLoading(-1);
      if (dedupe && inFlight.get(key) === controller) inFlight.delete(key);
    }
  }

  async function toApiError(error: unknown, aborted: boolean, quiet: boolean): Promise<ApiError> {
    if (aborted) return new ApiError('cancelled', 0, 'ABORTED', null, null, true);
    const toast = (message: string) => {
      if (!quiet) hooks.onError(message);
    };
    if (error instanceof TimeoutError) {
      const message = hooks.messages().timeout;
      toast(message);
      return new ApiError(message, 0, 'TIMEOUT', null, null);
    }
    if (error instanceof HTTPError) {
      const body: unknown = await error.response.json().catch(() => null);
      const envelope = isEnvelope(body) ? body : null;
      const retry = Number(error.response.headers.get('Retry-After'));
      const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : null;
      const status = error.response.status;
      const message = envelope?.meta.message || `HTTP ${status}`;
      if (status === 401) hooks.onUnauthorized();
      else if (envelope?.meta.message) toast(envelope.meta.message);
      // An AP's or RSE's appointment ended (docs/decisions/020-appointments.md): the message is shown, and the session can do no more.
      if (status === 403 && envelope?.meta.code === 'APPOINTMENT_ENDED') hooks.onUnauthorized();
      return new ApiError(message, status, envelope?.meta.code ?? String(status), envelope, retryAfter);
    }
    const message = hooks.messages().network;
    toast(message);
    return new ApiError(message, 0, 'NETWORK', null, null);
  }

  return {
    get: (url, params, options) => send('get', url, { params }, options),
    post: (url, body, options) => send('post', url, { json: body }, options),
    put: (url, body, options) => send('put', url, { json: body }, options),
    delete: (url, params, options) => send('delete', url, { params }, options),
    upload: (url, form, options) => send('post', url, { body: form }, options),
    blob: (url, params, options = {}) => request('get', url, { params }, options, (r) => r.blob()),
  };
}
