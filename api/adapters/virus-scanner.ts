import type { Readable } from 'node:stream';
import NodeClam from 'clamscan';
import type { Logger } from 'pino';

/**
 * Uploads are scanned by ClamAV's daemon (clamd) over its INSTREAM protocol, through the maintained
 * `clamscan` client (docs/decisions/014-virus-scanning.md). The scanner is reached on every upload; when
 * it cannot be reached or does not answer, the upload is refused for now (503), never accepted unscanned.
 */
export interface ScanVerdict {
  infected: boolean;
  /** The signatures that matched. */
  viruses: string[];
}

export interface VirusScanner {
  /** 'clamd', or 'off' (development without CLAMD_HOST / CLAMD_SOCKET: nothing is scanned). */
  readonly kind: 'clamd' | 'off';
  /** Rejects with {@link ScannerUnavailableError} when the daemon cannot be reached or gives no verdict. */
  scan(stream: Readable): Promise<ScanVerdict>;
  /** Resolves when the daemon answers (health). */
  ping(): Promise<void>;
}

export class ScannerUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`virus scanner unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ScannerUnavailableError';
  }
}

export const noVirusScanner: VirusScanner = {
  kind: 'off',
  scan: () => Promise.resolve({ infected: false, viruses: [] }),
  ping: () => Promise.resolve(),
};

export interface ClamdAddress {
  host?: string;
  port?: number;
  socket?: string;
  /** Milliseconds a scan may take. Default 30 s. */
  timeoutMs?: number;
}

export function clamdScanner(address: ClamdAddress): VirusScanner {
  const options = {
    removeInfected: false,
    preference: 'clamdscan' as const,
    clamscan: { active: false },
    clamdscan: {
      host: address.host,
      port: address.port,
      socket: address.socket ?? (false as const),
      timeout: address.timeoutMs ?? 30_000,
      localFallback: false,
      active: true,
    },
  };
  // A client per call: `init` pings the daemon, so one that was down at start is used once it is up.
  // (A fresh copy of the options each time: clamscan's init changes the object it is given.)
  const client = () => new NodeClam().init(structuredClone(options));
  return {
    kind: 'clamd',
    async scan(stream) {
      let result;
      try {
        result = await (await client()).scanStream(stream);
      } catch (error) {
        throw new ScannerUnavailableError(error);
      }
      if (result.isInfected === null) throw new ScannerUnavailableError('no verdict');
      return { infected: result.isInfected, viruses: result.viruses };
    },
    async ping() {
      try {
        await (await client()).getVersion();
      } catch (error) {
        throw new ScannerUnavailableError(error);
      }
    },
  };
}

/**
 * The scanner from env: CLAMD_SOCKET (a Unix socket path), or CLAMD_HOST with CLAMD_PORT (default 3310).
 * Neither set: production refuses to start; elsewhere nothing is scanned, with a warning.
 */
export function virusScannerFromEnv(logger: Logger, env: NodeJS.ProcessEnv = process.env): VirusScanner {
  if (env.CLAMD_SOCKET) return clamdScanner({ socket: env.CLAMD_SOCKET });
  if (env.CLAMD_HOST) {
    const port = Number(env.CLAMD_PORT || 3310);
    if (!Number.isInteger(port) || port <= 0 || port > 65535)
      throw new Error(`CLAMD_PORT is not a port number: ${env.CLAMD_PORT}`);
    return clamdScanner({ host: env.CLAMD_HOST, port });
  }
  if (env.NODE_ENV === 'production')
    throw new Error(
      'CLAMD_HOST (with CLAMD_PORT) or CLAMD_SOCKET must be set in production: uploads are virus-scanned',
    );
  logger.warn('CLAMD_HOST / CLAMD_SOCKET not set: uploads are NOT virus-scanned (development only)');
  return noVirusScanner;
}
