import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signDetached, type TestSigner } from '../support/test-ca';

/**
 * The e-Cert holder of the browser tests: serve.ts makes a test PKI, trusts its root and CRL, and writes
 * the valid signer (CN "CHAN TAI MAN", the example applicant's name) here; a test reads it back and signs
 * the text the signing screen shows, as the applicant's e-Cert software would.
 */
const signerFile = () => path.join(tmpdir(), `bd-e2e-ecert-signer-${process.env.E2E_PORT ?? '3100'}.json`);

interface SavedSigner {
  der: string;
  chain: string[];
  pkcs8: string;
  subject: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  signingTime: string;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

export async function writeSignerFile(signer: TestSigner): Promise<void> {
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', signer.keys.privateKey));
  writeFileSync(
    signerFile(),
    JSON.stringify({
      der: b64(signer.der),
      chain: signer.chain.map(b64),
      pkcs8: b64(pkcs8),
      subject: signer.subject,
      serialNumber: signer.serialNumber,
      notBefore: signer.notBefore.toISOString(),
      notAfter: signer.notAfter.toISOString(),
      signingTime: signer.signingTime.toISOString(),
    } satisfies SavedSigner),
  );
}

/** A detached CMS signature of `text` by the tests' e-Cert holder (DER, as a .p7s file holds it). */
export async function signAsApplicant(text: string): Promise<Buffer> {
  const saved = JSON.parse(readFileSync(signerFile(), 'utf8')) as SavedSigner;
  const privateKey = await crypto.subtle.importKey(
    'pkcs8',
    bytes(saved.pkcs8),
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['sign'],
  );
  const p7s = await signDetached(new TextEncoder().encode(text), {
    der: bytes(saved.der),
    chain: saved.chain.map(bytes),
    keys: { privateKey, publicKey: privateKey },
    subject: saved.subject,
    serialNumber: saved.serialNumber,
    notBefore: new Date(saved.notBefore),
    notAfter: new Date(saved.notAfter),
    signingTime: new Date(),
  });
  return Buffer.from(p7s);
}
