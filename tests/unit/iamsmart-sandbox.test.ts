import { describe, expect, it } from 'vitest';
import {
  createIamSmartSandbox,
  IAM_SMART_CODES,
  IAM_SMART_MESSAGES,
  IAM_SMART_SANDBOX_ORIGIN,
  type SigningRequest,
  sha256Hex,
} from '../../api/adapters/iamsmart';

const START = Date.UTC(2025, 0, 6, 9, 0, 0);
const HASH = sha256Hex('the manifest of application NEWSCH-2025-000123');
const REQUEST: SigningRequest = {
  hash: HASH,
  hkicHash: sha256Hex('A1234563'),
  language: 'zh-HK',
  state: 'req-1',
};

/** A sandbox on a clock that stands still until the test moves it. */
function sandboxAt(ttlSeconds?: number) {
  let current = START;
  const sandbox = createIamSmartSandbox({ now: () => current, ...(ttlSeconds ? { ttlSeconds } : {}) });
  const advance = (ms: number) => {
    current += ms;
  };
  return { sandbox, advance };
}

async function requested(ttlSeconds?: number) {
  const t = sandboxAt(ttlSeconds);
  const started = await t.sandbox.requestSigning(REQUEST);
  if (!started.content) throw new Error(`no transaction: ${started.code}`);
  return { ...t, tx: started.content };
}

describe('the iAM Smart sandbox', () => {
  it('answers a request with a transaction, a 4-digit identification code, a deep link and the expiry', async () => {
    const { tx } = await requested();
    expect(tx.identificationCode).toMatch(/^\d{4}$/);
    expect(tx.qrText).toBe(`${IAM_SMART_SANDBOX_ORIGIN}/sign?tx=${tx.txId}`);
    expect(tx.expiresAt).toBe(new Date(START + 120_000).toISOString());
  });

  it('answers in the service shape with D00000 for success', async () => {
    const { sandbox } = sandboxAt();
    const started = await sandbox.requestSigning(REQUEST);
    expect(started).toMatchObject({ code: 'D00000', message: IAM_SMART_MESSAGES.D00000 });
  });

  it('refuses a request whose hashes are not hex SHA-256 or whose language is unknown', async () => {
    const { sandbox } = sandboxAt();
    for (const bad of [
      { ...REQUEST, hash: 'abc' },
      { ...REQUEST, hkicHash: 'A1234563' },
      { ...REQUEST, language: 'fr' as never },
    ])
      expect(await sandbox.requestSigning(bad)).toEqual({
        code: IAM_SMART_CODES.invalidRequest,
        message: IAM_SMART_MESSAGES.D40000,
        content: null,
      });
  });

  it('reports pending until the phone answers, and lists the request for the phone', async () => {
    const { sandbox, tx } = await requested();
    expect((await sandbox.getSigningResult(tx.txId)).code).toBe(IAM_SMART_CODES.pending);
    expect(await sandbox.phone.list()).toEqual([
      {
        txId: tx.txId,
        identificationCode: tx.identificationCode,
        hash: HASH,
        language: 'zh-HK',
        qrText: tx.qrText,
        expiresAt: tx.expiresAt,
      },
    ]);
  });

  it('signs the hash with its key when the phone approves', async () => {
    const { sandbox, tx, advance } = await requested();
    advance(30_000);
    expect(await sandbox.phone.act(tx.txId, 'approve')).toEqual({ ok: true, code: 'D00000' });
    const result = await sandbox.getSigningResult(tx.txId);
    expect(result.code).toBe('D00000');
    expect(result.content).toMatchObject({
      certificate: expect.any(String) as string,
      signedAt: new Date(START + 30_000).toISOString(),
      hash: HASH,
      state: 'req-1',
    });
    expect(await sandbox.verifySignature(HASH, result.content?.signature ?? '')).toBe(true);
    expect(await sandbox.verifySignature(sha256Hex('another text'), result.content?.signature ?? '')).toBe(
      false,
    );
    expect(await sandbox.phone.list()).toEqual([]);
  });

  it('reports cancelled when the phone declines', async () => {
    const { sandbox, tx } = await requested();
    await sandbox.phone.act(tx.txId, 'decline');
    expect(await sandbox.getSigningResult(tx.txId)).toEqual({
      code: IAM_SMART_CODES.cancelled,
      message: IAM_SMART_MESSAGES.D40003,
      content: null,
    });
  });

  it('reports D70004 when the account has no digital signing function', async () => {
    const { sandbox, tx } = await requested();
    expect(await sandbox.phone.act(tx.txId, 'no-signing-function')).toEqual({ ok: true, code: 'D70004' });
    const result = await sandbox.getSigningResult(tx.txId);
    expect(result).toEqual({
      code: 'D70004',
      message:
        'iAM Smart account does not have digital signing function. Please obtain digital signing function to proceed',
      content: null,
    });
  });

  it('reports D70005 when the signer on the phone has another HKIC', async () => {
    const { sandbox, tx } = await requested();
    expect(await sandbox.phone.act(tx.txId, 'other-hkic')).toEqual({ ok: true, code: 'D70005' });
    expect(await sandbox.getSigningResult(tx.txId)).toEqual({
      code: 'D70005',
      message: 'HKIC mismatch. Please confirm the identity of the signer and try again.',
      content: null,
    });
  });

  it('expires a request at ttlSeconds by the clock, and the phone can no longer answer it', async () => {
    const { sandbox, tx, advance } = await requested(60);
    advance(59_999);
    expect((await sandbox.getSigningResult(tx.txId)).code).toBe(IAM_SMART_CODES.pending);
    advance(1);
    expect((await sandbox.getSigningResult(tx.txId)).code).toBe(IAM_SMART_CODES.expired);
    expect(await sandbox.phone.list()).toEqual([]);
    expect(await sandbox.phone.act(tx.txId, 'approve')).toEqual({ ok: false, reason: 'expired' });
    expect((await sandbox.cancelSigning(tx.txId)).code).toBe(IAM_SMART_CODES.alreadyEnded);
  });

  it('keeps a signed result after the request time has passed', async () => {
    const { sandbox, tx, advance } = await requested();
    await sandbox.phone.act(tx.txId, 'approve');
    advance(600_000);
    expect((await sandbox.getSigningResult(tx.txId)).code).toBe('D00000');
  });

  it('cancels a pending request for the portal, and then the phone cannot answer it', async () => {
    const { sandbox, tx } = await requested();
    expect((await sandbox.cancelSigning(tx.txId)).code).toBe('D00000');
    expect((await sandbox.getSigningResult(tx.txId)).code).toBe(IAM_SMART_CODES.cancelled);
    expect(await sandbox.phone.act(tx.txId, 'approve')).toEqual({ ok: false, reason: 'ended' });
  });

  it('does not cancel a signed request', async () => {
    const { sandbox, tx } = await requested();
    await sandbox.phone.act(tx.txId, 'approve');
    expect((await sandbox.cancelSigning(tx.txId)).code).toBe(IAM_SMART_CODES.alreadyEnded);
    expect((await sandbox.getSigningResult(tx.txId)).code).toBe('D00000');
  });

  it('answers D40004 for a transaction it does not know', async () => {
    const { sandbox } = sandboxAt();
    expect((await sandbox.getSigningResult('nope')).code).toBe(IAM_SMART_CODES.unknownTransaction);
    expect((await sandbox.cancelSigning('nope')).code).toBe(IAM_SMART_CODES.unknownTransaction);
    expect(await sandbox.phone.act('nope', 'approve')).toEqual({ ok: false, reason: 'unknown' });
  });

  it('keeps each request apart', async () => {
    const { sandbox } = sandboxAt();
    const a = (await sandbox.requestSigning(REQUEST)).content;
    const b = (await sandbox.requestSigning({ ...REQUEST, state: 'req-2' })).content;
    expect(a?.txId).not.toBe(b?.txId);
    await sandbox.phone.act(a?.txId ?? '', 'decline');
    expect((await sandbox.getSigningResult(b?.txId ?? '')).code).toBe(IAM_SMART_CODES.pending);
    expect((await sandbox.phone.list()).map((r) => r.txId)).toEqual([b?.txId]);
  });
});
