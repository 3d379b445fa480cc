import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signerNameMatches, verifyEcertSignature } from '../../api/modules/signing/ecert';
import { type TestPki, makeTestPki, signDetached, toPem } from '../support/test-ca';
import { loadEcertTrust, type EcertTrust } from '../../api/modules/signing/ecert-trust';

const NOW = new Date('2026-03-02T02:00:00.000Z');
const hashText = (document: string) => createHash('sha256').update(document).digest('hex');
// What the portal shows at the signing step, and what the applicant's e-Cert software signs.
const content = new TextEncoder().encode(hashText('signing digest of application BD-2026-000123'));

let pki: TestPki;

beforeAll(async () => {
  pki = await makeTestPki(NOW);
});

/** The same SignedData with `embedded` as its encapsulated content (an attached signature). */
function attach(p7s: Uint8Array, embedded: Uint8Array): Uint8Array {
  const info = pkijs.ContentInfo.fromBER(p7s.slice());
  const signedData = new pkijs.SignedData({ schema: info.content });
  signedData.encapContentInfo.eContent = new asn1js.OctetString({ valueHex: embedded.slice() });
  const out = new pkijs.ContentInfo({ contentType: info.contentType, content: signedData.toSchema(true) });
  return new Uint8Array(out.toSchema().toBER());
}

function verify(p7s: Uint8Array, options: { signerName?: string; trust?: Partial<EcertTrust> } = {}) {
  const trust = { ...pki.trust, ...options.trust };
  return verifyEcertSignature(p7s, { content, signerName: options.signerName ?? 'CHAN TAI MAN' }, trust, NOW);
}

describe('verifyEcertSignature', () => {
  it('accepts a DER signature by a valid e-Cert and describes the signer', async () => {
    const p7s = await signDetached(content, pki.signers.valid);

    const result = await verify(p7s);

    expect(result).toEqual({
      ok: true,
      signer: {
        subject: 'CN=CHAN TAI MAN, O=Hongkong Post e-Cert (Personal), C=HK',
        serialNumber: '1001',
        issuer: 'CN=Test Hongkong Post e-Cert CA 2 - 17, O=Hongkong Post, C=HK',
        notBefore: pki.signers.valid.notBefore,
        notAfter: pki.signers.valid.notAfter,
      },
      signedAt: pki.signers.valid.signingTime,
    });
  });

  it.each(['PKCS7', 'CMS'])('accepts the same signature in PEM with the %s label', async (label) => {
    const p7s = new TextEncoder().encode(toPem(label, await signDetached(content, pki.signers.valid)));

    const result = await verify(p7s);

    expect(result.ok).toBe(true);
  });

  it('accepts a signature without a signing time and reports none', async () => {
    const p7s = await signDetached(content, pki.signers.valid, { signingTime: null });

    const result = await verify(p7s);

    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.signedAt).toBeUndefined();
  });

  it('rejects a signature over another document as bad-signature', async () => {
    const other = new TextEncoder().encode(hashText('signing digest of application BD-2026-000999'));
    const p7s = await signDetached(other, pki.signers.valid);

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('rejects an attached signature whose embedded document is another one as bad-signature', async () => {
    const other = new TextEncoder().encode(hashText('signing digest of application BD-2026-000999'));
    const p7s = attach(await signDetached(other, pki.signers.valid), other);

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('accepts an attached signature whose embedded content is the expected text', async () => {
    const p7s = attach(await signDetached(content, pki.signers.valid), content);

    expect(await verify(p7s)).toMatchObject({ ok: true });
  });

  it('rejects a signature made with a key other than the certificate’s as bad-signature', async () => {
    const p7s = await signDetached(content, pki.signers.valid, {
      signingKey: pki.signers.otherPerson.keys.privateKey,
    });

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('rejects a certificate that expired before now, though it signed while valid', async () => {
    const p7s = await signDetached(content, pki.signers.expired);

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('rejects a certificate that is not valid yet', async () => {
    const p7s = await signDetached(content, pki.signers.notYetValid);

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'not-yet-valid' });
  });

  it('rejects a signing time before the certificate’s validity as not-yet-valid', async () => {
    const signingTime = new Date(pki.signers.valid.notBefore.getTime() - 86_400_000);
    const p7s = await signDetached(content, pki.signers.valid, { signingTime });

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'not-yet-valid' });
  });

  it('rejects a signing time after the certificate’s validity as expired', async () => {
    const signingTime = new Date(pki.signers.valid.notAfter.getTime() + 86_400_000);
    const p7s = await signDetached(content, pki.signers.valid, { signingTime });

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('rejects a certificate from another CA as untrusted, even with that CA embedded', async () => {
    const p7s = await signDetached(content, pki.signers.untrusted);

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'untrusted' });
  });

  it('rejects a certificate from a CA that only borrows the e-Cert CA’s name as untrusted', async () => {
    // The real e-Cert CA certificate is public, so a forger can embed it too: names alone would chain.
    const { impostor } = pki.signers;
    const p7s = await signDetached(content, impostor, {
      certificates: [impostor.der, pki.intermediate.der, pki.impostorCa.der],
    });

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'untrusted' });
  });

  it('rejects a certificate listed in the current CRL as revoked', async () => {
    const p7s = await signDetached(content, pki.signers.revoked);

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'revoked' });
  });

  it('answers crl-unavailable when the only CRL is past its nextUpdate', async () => {
    const p7s = await signDetached(content, pki.signers.valid);

    const result = await verify(p7s, { trust: { crls: [pki.staleCrl] } });

    expect(result).toMatchObject({ ok: false, reason: 'crl-unavailable' });
  });

  it('answers crl-unavailable when the only CRL is not signed by the issuing CA', async () => {
    const p7s = await signDetached(content, pki.signers.valid);

    const result = await verify(p7s, { trust: { crls: [pki.forgedCrl] } });

    expect(result).toMatchObject({ ok: false, reason: 'crl-unavailable' });
  });

  it('answers crl-unavailable when the only CRL covers another distribution point', async () => {
    const p7s = await signDetached(content, pki.signers.valid);

    const result = await verify(p7s, { trust: { crls: [pki.otherScopeCrl] } });

    expect(result).toMatchObject({ ok: false, reason: 'crl-unavailable' });
  });

  it('answers crl-unavailable when no CRL of the issuing CA is configured', async () => {
    const p7s = await signDetached(content, pki.signers.valid);

    const result = await verify(p7s, { trust: { crls: [] } });

    expect(result).toMatchObject({ ok: false, reason: 'crl-unavailable' });
  });

  it('goes by the current CRL when a stale and a forged one are configured too', async () => {
    const crls = [pki.staleCrl, pki.forgedCrl, pki.crl];

    expect(await verify(await signDetached(content, pki.signers.valid), { trust: { crls } })).toMatchObject({
      ok: true,
    });
    expect(await verify(await signDetached(content, pki.signers.revoked), { trust: { crls } })).toMatchObject(
      {
        ok: false,
        reason: 'revoked',
      },
    );
  });

  it('rejects a certificate whose key usage allows neither signing nor non-repudiation', async () => {
    const p7s = await signDetached(content, pki.signers.wrongKeyUsage);

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'key-usage' });
  });

  it('rejects a CA certificate used as the signer as key-usage', async () => {
    const p7s = await signDetached(content, pki.signers.caAsSigner);

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'key-usage' });
  });

  it('rejects a certificate of WONG SIU MING when CHAN TAI MAN is the applicant', async () => {
    const p7s = await signDetached(content, pki.signers.otherPerson);

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'name-mismatch' });
  });

  it('matches the applicant’s name whatever its case, spacing and hyphens', async () => {
    const p7s = await signDetached(content, pki.signers.valid);

    expect(await verify(p7s, { signerName: 'Chan  Tai-Man' })).toMatchObject({ ok: true });
  });

  it.each([
    ['random bytes', new Uint8Array([0x30, 0x82, 0xde, 0xad, 0xbe, 0xef, 1, 2, 3])],
    ['an empty file', new Uint8Array()],
    ['a certificate instead of a signature', null],
  ])('rejects %s as unreadable', async (_, bytes) => {
    const p7s = bytes ?? pki.signers.valid.der;

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'unreadable' });
  });

  it('rejects a signature that carries no certificate as no-certificate', async () => {
    const p7s = await signDetached(content, pki.signers.valid, { certificates: [] });

    expect(await verify(p7s)).toMatchObject({ ok: false, reason: 'no-certificate' });
  });
});

describe('signerNameMatches', () => {
  it.each([
    ['CHAN TAI MAN', 'chan tai man'],
    ['CHAN TAI MAN', ' Chan, Tai-Man. '],
    ['CHAN TAI MAN 陳大文', 'Chan Tai Man'],
    ['陳大文', '陳大文'],
  ])('matches the CN %s with %s', (cn, name) => {
    expect(signerNameMatches([cn], name)).toBe(true);
  });

  it.each([
    ['CHAN TAI MAN', 'Tai Man Chan'],
    ['CHAN TAI MAN', 'CHAN TAIMAN'],
    ['CHAN TAI MAN', ''],
    ['CHAN TAI MAN', '--'],
  ])('does not match the CN %s with %j', (cn, name) => {
    expect(signerNameMatches([cn], name)).toBe(false);
  });
});

describe('loadEcertTrust', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ecert-trust-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a PEM bundle and a DER CRL, keeping non-self-issued certificates out of the roots', async () => {
    const bundle = join(dir, 'roots.pem');
    const crl = join(dir, 'ca2-17.crl');
    await writeFile(bundle, toPem('CERTIFICATE', pki.root.der) + toPem('CERTIFICATE', pki.intermediate.der));
    await writeFile(crl, pki.crl);

    const trust = await loadEcertTrust({ rootPaths: [bundle], crlPaths: [crl] });

    expect(trust.roots).toEqual([pki.root.der]);
    expect(trust.intermediates).toEqual([pki.intermediate.der]);
    expect(trust.crls).toEqual([pki.crl]);
    const p7s = await signDetached(content, pki.signers.valid, { certificates: [pki.signers.valid.der] });
    expect(
      await verifyEcertSignature(p7s, { content, signerName: 'CHAN TAI MAN' }, trust, NOW),
    ).toMatchObject({
      ok: true,
    });
  });

  it('refuses a file that holds no certificate', async () => {
    const path = join(dir, 'not-a-cert.der');
    await writeFile(path, new Uint8Array([1, 2, 3]));

    await expect(loadEcertTrust({ rootPaths: [path], crlPaths: [] })).rejects.toThrow(/ECERT_ROOTS/);
  });
});
