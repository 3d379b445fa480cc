import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyEcertSignature } from '../../api/modules/signing/ecert';
import { refreshCrls } from '../../api/modules/signing/ecert-refresh';
import { type TestPki, makeTestPki, signDetached } from '../support/test-ca';
import { loadEcertTrust } from '../../api/modules/signing/ecert-trust';

const NOW = new Date('2026-06-01T04:00:00Z');
const content = new TextEncoder().encode('the application form');
let pki: TestPki;
let dir: string;

beforeAll(async () => {
  pki = await makeTestPki(NOW);
  dir = await mkdtemp(path.join(tmpdir(), 'bd-crl-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('refreshCrls', () => {
  it('picks up a new CRL file, so signatures checked against an out-of-date one pass again', async () => {
    const root = path.join(dir, 'root.der');
    const crl = path.join(dir, 'crl.der');
    await writeFile(root, pki.root.der);
    await writeFile(crl, pki.staleCrl);
    const trust = await loadEcertTrust({ rootPaths: [root], crlPaths: [crl] });
    const p7s = await signDetached(content, pki.signers.valid);
    const check = () => verifyEcertSignature(p7s, { content, signerName: 'CHAN TAI MAN' }, trust, NOW);
    const before = await check();

    await writeFile(crl, pki.crl);
    await refreshCrls(trust, [crl]);

    expect(before).toMatchObject({ ok: false, reason: 'crl-unavailable' });
    expect(await check()).toMatchObject({ ok: true });
  });

  it('keeps the CRLs it had when the new file is not a CRL (a download cut off)', async () => {
    const root = path.join(dir, 'root.der');
    const crl = path.join(dir, 'crl2.der');
    await writeFile(root, pki.root.der);
    await writeFile(crl, pki.crl);
    const trust = await loadEcertTrust({ rootPaths: [root], crlPaths: [crl] });

    await writeFile(crl, 'half a file');

    await expect(refreshCrls(trust, [crl])).rejects.toThrow('ECERT_CRLS');
    expect(trust.crls).toEqual([pki.crl]);
  });
});
