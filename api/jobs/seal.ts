import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * A message's text waits in the job queue until it is sent. A one-time code must not be readable there
 * (the database keeps only its hash), so the text is sealed with AES-256-GCM under a key derived from the
 * OTP secret, which every process of the portal shares.
 */
export function messageKey(otpSecret: string): Buffer {
  return createHmac('sha256', otpSecret).update('queued-messages').digest();
}

export function seal(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** Throws when the text was sealed under another key or changed. */
export function unseal(key: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
