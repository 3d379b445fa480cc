import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * HKIC numbers at rest (docs/decisions/035-hkic-at-rest.md): AES-256-GCM under a versioned key from
 * HKIC_KEYS (`k2:BASE64,k1:BASE64`: the first seals, every one opens, so a key is rotated by putting a new
 * one first). A sealed value reads `hkic:<key id>:<base64url(iv 12 bytes | ciphertext | tag 16 bytes)>`; the
 * field's id is the additional authenticated data, so a value moved to another field does not open.
 * This file holds only the cryptography; which answers are sealed is api/modules/shared/answers-at-rest.ts.
 */

export const SEALED_PREFIX = 'hkic:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * The throw-away key of development and tests, when HKIC_KEYS is not set: the SHA-256 of this sentence,
 * under the id `dev`. It is public, so it protects nothing; production refuses to start without HKIC_KEYS.
 */
export const DEV_HKIC_KEY_SEED = 'bd-portal development HKIC key: public, never for production';
export const DEV_HKIC_KEY_ID = 'dev';

export interface HkicKeyRing {
  /** The id of the key that seals (the first of HKIC_KEYS). */
  readonly sealWith: string;
  /** Every key by its id: each opens what it sealed. */
  readonly keys: ReadonlyMap<string, Buffer>;
}

/** HKIC_KEYS is not `id:base64,id:base64...` of 32-byte keys. The message never holds key material. */
export class HkicKeyFormatError extends Error {
  constructor(problem: string) {
    super(problem);
    this.name = 'HkicKeyFormatError';
  }
}

/** A sealed value names a key that HKIC_KEYS no longer (or not yet) holds. */
export class HkicKeyUnknownError extends Error {
  constructor(
    readonly keyId: string,
    known: readonly string[],
  ) {
    super(
      `An HKIC was sealed with key "${keyId}", which HKIC_KEYS does not hold (it holds ${known.join(', ')}): ` +
        'put the old key back after the new one (docs/operations.md, "HKIC numbers at rest")',
    );
    this.name = 'HkicKeyUnknownError';
  }
}

/** A sealed value does not open: changed, cut, moved from another field, or sealed under another key. */
export class HkicSealRefusedError extends Error {
  constructor(readonly fieldId: string) {
    super(
      `The sealed HKIC of field "${fieldId}" was refused: it was changed, moved from another field, or sealed under another key of the same id`,
    );
    this.name = 'HkicSealRefusedError';
  }
}

/** Parses HKIC_KEYS; throws an HkicKeyFormatError naming the first problem (never the key). */
export function parseHkicKeys(text: string): HkicKeyRing {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 0) throw new HkicKeyFormatError('must list at least one key as id:base64');
  const keys = new Map<string, Buffer>();
  for (const [i, entry] of entries.entries()) {
    const colon = entry.indexOf(':');
    const id = colon < 0 ? '' : entry.slice(0, colon);
    const encoded = colon < 0 ? '' : entry.slice(colon + 1);
    if (!KEY_ID.test(id))
      throw new HkicKeyFormatError(
        `key ${i + 1} must be id:base64, the id of letters, digits, - or _ (at most 32)`,
      );
    if (keys.has(id)) throw new HkicKeyFormatError(`key id "${id}" is listed twice`);
    const key = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
    if (key.length !== KEY_BYTES)
      throw new HkicKeyFormatError(
        `key "${id}" must be ${KEY_BYTES} random bytes in base64 (openssl rand -base64 32)`,
      );
    keys.set(id, key);
  }
  return { sealWith: [...keys.keys()][0]!, keys };
}

/** The development ring: the public key derived from DEV_HKIC_KEY_SEED. */
export function developmentHkicKeys(): HkicKeyRing {
  const key = createHash('sha256').update(DEV_HKIC_KEY_SEED).digest();
  return { sealWith: DEV_HKIC_KEY_ID, keys: new Map([[DEV_HKIC_KEY_ID, key]]) };
}

export const isSealedHkic = (value: string): boolean => value.startsWith(SEALED_PREFIX);

/** Seals `plain` as the value of field `fieldId` under the ring's first key (a fresh IV each time). */
export function sealHkic(ring: HkicKeyRing, fieldId: string, plain: string): string {
  const key = ring.keys.get(ring.sealWith);
  if (!key) throw new HkicKeyUnknownError(ring.sealWith, [...ring.keys.keys()]);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(fieldId, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const sealed = Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  return `${SEALED_PREFIX}${ring.sealWith}:${sealed}`;
}

/**
 * Opens a value sealed by `sealHkic` for field `fieldId`. Throws HkicKeyUnknownError when its key is not
 * in the ring, HkicSealRefusedError when it does not authenticate (or is not a sealed value at all).
 */
export function openHkic(ring: HkicKeyRing, fieldId: string, sealed: string): string {
  const rest = isSealedHkic(sealed) ? sealed.slice(SEALED_PREFIX.length) : '';
  const colon = rest.indexOf(':');
  if (colon <= 0) throw new HkicSealRefusedError(fieldId);
  const keyId = rest.slice(0, colon);
  const key = ring.keys.get(keyId);
  if (!key) throw new HkicKeyUnknownError(keyId, [...ring.keys.keys()]);
  const raw = Buffer.from(rest.slice(colon + 1), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new HkicSealRefusedError(fieldId);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(fieldId, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const body = raw.subarray(IV_BYTES, raw.length - TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new HkicSealRefusedError(fieldId);
  }
}
