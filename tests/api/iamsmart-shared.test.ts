import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIamSmartSandbox, sha256Hex } from '../../api/adapters/iamsmart';
import { postgresSandboxStore } from '../../api/adapters/iamsmart-store';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

/**
 * The iAM Smart sandbox of two processes on one database (as behind a load balancer): one store in
 * Postgres, so whichever process a request reaches sees the same transactions and the same key.
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

const sandboxOf = () =>
  createIamSmartSandbox({ now: () => Date.now(), store: postgresSandboxStore(database.db) });
const request = (text: string) => ({
  hash: sha256Hex(text),
  hkicHash: sha256Hex('A1234563'),
  language: 'en' as const,
  state: `state-${text}`,
});

describe('the iAM Smart sandbox in Postgres', () => {
  it('lets a signing started on one process be approved and polled on the other, the signature valid on both', async () => {
    const [one, two] = [sandboxOf(), sandboxOf()];

    const started = await one.requestSigning(request('shared'));
    const txId = started.content?.txId ?? '';
    const listed = await two.phone.list();
    const acted = await two.phone.act(txId, 'approve');
    const result = await one.getSigningResult(txId);

    expect(listed.map((r) => r.txId)).toContain(txId);
    expect(acted).toEqual({ ok: true, code: 'D00000' });
    expect(result.code).toBe('D00000');
    expect(result.content?.state).toBe('state-shared');
    expect(await one.verifySignature(sha256Hex('shared'), result.content?.signature ?? '')).toBe(true);
    expect(await two.verifySignature(sha256Hex('shared'), result.content?.signature ?? '')).toBe(true);
  });

  it('lets only one of two answers given at once on two processes win', async () => {
    const [one, two] = [sandboxOf(), sandboxOf()];
    const started = await one.requestSigning(request('race'));
    const txId = started.content?.txId ?? '';

    const answers = await Promise.all([one.phone.act(txId, 'approve'), two.phone.act(txId, 'decline')]);

    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok)).toEqual([{ ok: false, reason: 'ended' }]);
  });

  it('answers a cancel on the other process, and a second cancel as already ended', async () => {
    const [one, two] = [sandboxOf(), sandboxOf()];
    const txId = (await one.requestSigning(request('cancel'))).content?.txId ?? '';

    expect((await two.cancelSigning(txId)).code).toBe('D00000');
    expect((await one.cancelSigning(txId)).code).toBe('D40005');
    expect((await one.getSigningResult(txId)).code).toBe('D40003');
    expect((await two.cancelSigning('no-such-tx')).code).toBe('D40004');
  });
});
