import { get as httpGet, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface TestServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** Serves `app` on a free port of 127.0.0.1, so tests call it over real HTTP with fetch. */
export async function listen(app: Express): Promise<TestServer> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export interface EnvelopeBody<T = unknown> {
  meta: { code: string; message: string };
  data: T;
}

/** POSTs a JSON body (or a raw string, sent as is) and returns status, headers and parsed envelope. */
export async function postJson<T = unknown>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: EnvelopeBody<T> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as EnvelopeBody<T>,
  };
}

export async function getJson<T = unknown>(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: EnvelopeBody<T> }> {
  const response = await fetch(url, { headers });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as EnvelopeBody<T>,
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body exactly as it came over the wire (not decompressed, unlike fetch's). */
  body: Buffer;
}

/** A GET whose body is not decoded: to check what a server really sends for an Accept-Encoding. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}
