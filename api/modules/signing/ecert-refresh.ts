import type { Logger } from 'pino';
import { MINUTE_MS } from '../../clock';
import { loadEcertTrust, type EcertTrust } from './ecert-trust';

/** ECERT_CRLS: comma-separated paths of the CRL files (PEM or DER). */
export function crlPathsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.ECERT_CRLS ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/**
 * Re-reads the CRL files into `trust` (in place: the signing service holds this object). Hongkong Post
 * publishes CRLs several times a day; whatever fetches them (docs/operations.md) replaces the files, and
 * each process picks them up here. A file that cannot be read or parsed leaves the CRLs as they were
 * (and is logged), so a half-written download never empties the list. Answers how many CRLs are loaded.
 */
export async function refreshCrls(trust: EcertTrust, crlPaths: string[]): Promise<number> {
  if (crlPaths.length === 0) return trust.crls?.length ?? 0;
  const fresh = await loadEcertTrust({ rootPaths: [], crlPaths });
  trust.crls = fresh.crls ?? [];
  return trust.crls.length;
}

/**
 * Refreshes the CRLs every `intervalMs` (default 15 minutes) in this process. This one is not a queued
 * job: the CRLs live in each process's memory, so every process must read them (docs/decisions/009).
 */
export function startCrlRefresh(
  trust: EcertTrust,
  crlPaths: string[],
  logger: Logger,
  intervalMs = 15 * MINUTE_MS,
): { stop(): void } {
  if (crlPaths.length === 0) return { stop: () => undefined };
  const timer = setInterval(() => {
    refreshCrls(trust, crlPaths).then(
      (count) => logger.debug({ count }, 'e-Cert CRLs refreshed'),
      (err: unknown) => logger.error({ err }, 'e-Cert CRLs not refreshed; the previous ones stay'),
    );
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
