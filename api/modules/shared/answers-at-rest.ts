import type { Logger } from 'pino';
import { FORM_CATALOGUE, fieldsOf } from '../../../machines/forms';
import { readVariable } from '../../config';
import { developmentHkicKeys, isSealedHkic, openHkic, sealHkic, type HkicKeyRing } from './hkic-crypto';

/**
 * Answers as the database keeps them (docs/decisions/035-hkic-at-rest.md): the value of every HKIC field
 * sealed. The repositories seal answers as they write them (drafts, case versions, case actions) and open
 * them as they read them, so services, validation, PDFs and signing see the plain value as before. A
 * plain value read back (a row written before sealing) is answered as it is and sealed at its next write.
 */

/** The ids of the catalogue's fields of kind 'hkic' (today `applicantHkic`): top-level keys of answers. */
export const HKIC_FIELD_IDS: readonly string[] = [
  ...new Set(
    Object.values(FORM_CATALOGUE).flatMap((form) =>
      fieldsOf(form)
        .filter(({ field }) => field.kind === 'hkic')
        .map(({ field }) => field.id),
    ),
  ),
];

let ring: HkicKeyRing | undefined;
let warned = false;

/**
 * The process's keys: HKIC_KEYS, else (never in production) the public development key, with one warning
 * in development (none under tests). createApp calls it with its logger; a repository used alone asks it
 * at its first seal or open.
 */
export function hkicKeys(logger?: Logger, env: NodeJS.ProcessEnv = process.env): HkicKeyRing {
  if (ring) return ring;
  const configured = readVariable('HKIC_KEYS', env);
  if (configured) return (ring = configured);
  if (env.NODE_ENV === 'production') throw new Error('HKIC_KEYS must be set in production');
  if (!warned && logger && env.NODE_ENV !== 'test') {
    warned = true;
    logger.warn(
      'HKIC_KEYS is not set: HKIC numbers are sealed with the public development key (development only)',
    );
  }
  return (ring = developmentHkicKeys());
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The answers with every HKIC field's value sealed (a new object; the same one when there is none). */
export function sealAnswers<T>(answers: T): T {
  if (!isRecord(answers)) return answers;
  let out: Record<string, unknown> | undefined;
  for (const id of HKIC_FIELD_IDS) {
    const value = answers[id];
    if (typeof value !== 'string' || value === '') continue;
    out ??= { ...answers };
    out[id] = sealHkic(hkicKeys(), id, value);
  }
  return (out ?? answers) as T;
}

/**
 * The answers with every sealed HKIC opened; a plain value is kept. Throws (a 500: the keys or the row are
 * wrong, not the request) when a sealed value names a key HKIC_KEYS lacks or does not authenticate.
 */
export function openAnswers<T>(answers: T): T {
  if (!isRecord(answers)) return answers;
  let out: Record<string, unknown> | undefined;
  for (const id of HKIC_FIELD_IDS) {
    const value = answers[id];
    if (typeof value !== 'string' || !isSealedHkic(value)) continue;
    out ??= { ...answers };
    out[id] = openHkic(hkicKeys(), id, value);
  }
  return (out ?? answers) as T;
}
