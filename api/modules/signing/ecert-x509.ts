/**
 * X.509 plumbing for the e-Cert checks: the pkijs crypto engine, the OIDs used, reading PEM or DER
 * certificates and CRLs, and the certificate fields the checks look at (basic constraints, key usage,
 * common names, serial number, distinguished names for messages).
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { EcertSigner } from './ecert-result';

export const engine = new pkijs.CryptoEngine({ name: 'nodeEngine', crypto: globalThis.crypto });
pkijs.setEngine('nodeEngine', engine);

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  signingTime: '1.2.840.113549.1.9.5',
  commonName: '2.5.4.3',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  crlDistributionPoints: '2.5.29.31',
  issuingDistributionPoint: '2.5.29.28',
} as const;
export const KU = { digitalSignature: 0, nonRepudiation: 1, keyCertSign: 5, cRLSign: 6 } as const;

// ---- parsing ----

/** The DER blocks of a PEM file with one of `labels`, or the bytes themselves when not PEM. */
export function pemOrDer(bytes: Uint8Array, labels: string[]): Uint8Array[] {
  const text = Buffer.from(bytes).toString('latin1');
  if (!text.trimStart().startsWith('-----BEGIN ')) return [new Uint8Array(bytes)];
  const blocks: Uint8Array[] = [];
  for (const m of text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g)) {
    const [, label = '', body = ''] = m;
    if (labels.includes(label)) blocks.push(new Uint8Array(Buffer.from(body.replace(/\s+/g, ''), 'base64')));
  }
  return blocks;
}

export function parseCertificate(der: Uint8Array): pkijs.Certificate | null {
  try {
    return pkijs.Certificate.fromBER(der.slice());
  } catch {
    return null;
  }
}

export function parseCrl(der: Uint8Array): pkijs.CertificateRevocationList | null {
  try {
    return pkijs.CertificateRevocationList.fromBER(der.slice());
  } catch {
    return null;
  }
}

export function parseAll<T>(items: Uint8Array[], parse: (der: Uint8Array) => T | null): T[] {
  return items.map(parse).filter((x): x is T => x !== null);
}

export async function signedBy(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<boolean> {
  try {
    return await cert.verify(issuer, engine);
  } catch {
    return false;
  }
}

// ---- certificate fields ----

export function basicConstraints(cert: pkijs.Certificate): pkijs.BasicConstraints | null {
  const value: unknown = cert.extensions?.find((e) => e.extnID === OID.basicConstraints)?.parsedValue;
  return value instanceof pkijs.BasicConstraints ? value : null;
}

export function isCa(cert: pkijs.Certificate): boolean {
  return basicConstraints(cert)?.cA === true;
}

/** The keyUsage bits set (0 = digitalSignature ...), or null when the extension is absent. */
export function keyUsage(cert: pkijs.Certificate): Set<number> | null {
  const ext = cert.extensions?.find((e) => e.extnID === OID.keyUsage);
  if (!ext) return null;
  const bits = new Set<number>();
  const parsed = asn1js.fromBER(ext.extnValue.valueBlock.valueHexView);
  if (!(parsed.result instanceof asn1js.BitString)) return bits;
  parsed.result.valueBlock.valueHexView.forEach((byte, i) => {
    for (let bit = 0; bit < 8; bit++) if (byte & (0x80 >> bit)) bits.add(i * 8 + bit);
  });
  return bits;
}

export function commonNames(cert: pkijs.Certificate): string[] {
  return cert.subject.typesAndValues
    .filter((tv) => tv.type === OID.commonName)
    .map((tv) => tv.value.valueBlock.value);
}

export function sameCert(a: pkijs.Certificate, b: pkijs.Certificate): boolean {
  return Buffer.from(a.toSchema().toBER()).equals(Buffer.from(b.toSchema().toBER()));
}

export function serialHex(cert: pkijs.Certificate): string {
  const hex = Buffer.from(cert.serialNumber.valueBlock.valueHexView)
    .toString('hex')
    .replace(/^(00)+/, '');
  return hex === '' ? '00' : hex;
}

export const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.5': 'serialNumber',
  '1.2.840.113549.1.9.1': 'emailAddress',
};

export function dn(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map(
      (tv) =>
        `${SHORT_NAMES[tv.type] ?? tv.type}=${tv.value.valueBlock.value.replace(/([,+"\\<>;])/g, '\\$1')}`,
    )
    .reverse()
    .join(', ');
}

export function describe(cert: pkijs.Certificate): EcertSigner {
  return {
    subject: dn(cert.subject),
    serialNumber: serialHex(cert),
    issuer: dn(cert.issuer),
    notBefore: cert.notBefore.value,
    notAfter: cert.notAfter.value,
  };
}
