/**
 * A test PKI shaped like Hongkong Post's, made at test time, and a signer of detached CMS (.p7s)
 * signatures, for the e-Cert verifier (api/modules/signing/ecert.ts) and the tests that upload .p7s files.
 *
 *   Test Hongkong Post Root CA 3                     (trusted root, in `pki.trust.roots`)
 *   └─ Test Hongkong Post e-Cert CA 2 - 17            (intermediate; signs the CRLs)
 *      ├─ valid, otherPerson, expired, notYetValid, revoked, caAsSigner, wrongKeyUsage
 *   Test Other Root CA (not trusted) └─ untrusted
 *   "Test Hongkong Post e-Cert CA 2 - 17" impostor (same name, other key) └─ impostor
 *
 * Usage:
 *   const pki = await makeTestPki(now);
 *   const p7s = await signDetached(new TextEncoder().encode(hashHex), pki.signers.valid);
 *   await verifyEcertSignature(p7s, { content, signerName: 'CHAN TAI MAN' }, pki.trust, now);
 *
 * Every signer is valid at `now` except for its one named defect, so each makes exactly one check
 * fail. Keys are ECDSA P-256 (fast to make); everything is DER unless said otherwise. Keep the
 * exported names stable: API and browser tests import this module.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { EcertTrust } from '../../api/modules/signing/ecert-trust';

export interface TestCertificate {
  der: Uint8Array;
  keys: CryptoKeyPair;
  /**
   * Subject DN, most specific first as verifyEcertSignature reports it, e.g.
   * `CN=CHAN TAI MAN, O=Hongkong Post e-Cert (Personal), C=HK` (encoded C, O, CN as real certificates are).
   */
  subject: string;
  /** Serial number, lowercase hex. */
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
}

export interface TestSigner extends TestCertificate {
  /** The CA certificates `signDetached` embeds after the signer's own (its issuer; never a trusted root). */
  chain: Uint8Array[];
  /** The signingTime `signDetached` writes by default: inside the certificate's validity. */
  signingTime: Date;
}

export interface TestSigners {
  /** CN "CHAN TAI MAN", valid at `now`, keyUsage digitalSignature + nonRepudiation. */
  valid: TestSigner;
  /** CN "WONG SIU MING", otherwise like `valid`. */
  otherPerson: TestSigner;
  /** Expired 35 days before `now` (its default signingTime lies inside its validity). */
  expired: TestSigner;
  /** Valid from 10 days after `now` (its default signingTime lies inside its validity). */
  notYetValid: TestSigner;
  /** Issued by "Test Other Root CA", which is not trusted. */
  untrusted: TestSigner;
  /** Issued by a CA named like the intermediate but with another key (a forged chain). */
  impostor: TestSigner;
  /** Listed in `crl` (and `staleCrl`). */
  revoked: TestSigner;
  /** basicConstraints cA = true, with digitalSignature in its keyUsage. */
  caAsSigner: TestSigner;
  /** keyUsage keyEncipherment + dataEncipherment only. */
  wrongKeyUsage: TestSigner;
}

export interface TestPki {
  now: Date;
  root: TestCertificate;
  intermediate: TestCertificate;
  otherRoot: TestCertificate;
  impostorCa: TestCertificate;
  signers: TestSigners;
  /** The intermediate's current CRL (now − 2 h to now + 1 day), listing `signers.revoked`. */
  crl: Uint8Array;
  /** The intermediate's CRL whose nextUpdate passed two days before `now`. */
  staleCrl: Uint8Array;
  /** A current CRL in the intermediate's name, signed by the impostor's key; lists nobody. */
  forgedCrl: Uint8Array;
  /** A current CRL of the intermediate whose issuing distribution point is another URL (another partition). */
  otherScopeCrl: Uint8Array;
  /** What production would configure: the root and the current CRL. */
  trust: EcertTrust;
}

export const TEST_CRL_URL = 'http://crl1.test-hongkongpost.invalid/crl/eCertCA2-17CRL1.crl';
const DAY = 86_400_000;
const EC: EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const SIGNING: EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };
const engine = new pkijs.CryptoEngine({ name: 'test-ca', crypto: globalThis.crypto });
const KU = x509.KeyUsageFlags;

const at = (now: Date, days: number): Date => new Date(now.getTime() + days * DAY);
/** @peculiar/x509 encodes a DN string in the order written; certificates encode the country first. */
const encodedOrder = (dn: string): string => dn.split(', ').reverse().join(', ');

/** PEM text of DER bytes, e.g. `toPem('PKCS7', p7s)`, `toPem('CERTIFICATE', pki.root.der)`. */
export function toPem(label: string, der: Uint8Array): string {
  const lines =
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

interface IssueOptions {
  subject: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** Undefined for self-signed. */
  issuer?: TestCertificate;
  ca?: { pathLength?: number };
  keyUsage: x509.KeyUsageFlags;
  crlUrl?: boolean;
}

async function issue(options: IssueOptions): Promise<TestCertificate> {
  const keys = await crypto.subtle.generateKey(EC, true, ['sign', 'verify']);
  const issuerKeys = options.issuer?.keys ?? keys;
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(options.ca !== undefined, options.ca?.pathLength, true),
    new x509.KeyUsagesExtension(options.keyUsage, true),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(issuerKeys.publicKey),
  ];
  if (options.crlUrl) extensions.push(new x509.CRLDistributionPointsExtension([TEST_CRL_URL]));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: options.serialNumber,
    subject: encodedOrder(options.subject),
    issuer: encodedOrder(options.issuer?.subject ?? options.subject),
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    signingAlgorithm: SIGNING,
    publicKey: keys.publicKey,
    signingKey: issuerKeys.privateKey,
    extensions,
  });
  const { subject, serialNumber, notBefore, notAfter } = options;
  return { der: new Uint8Array(cert.rawData), keys, subject, serialNumber, notBefore, notAfter };
}

async function issueSigner(
  options: Omit<IssueOptions, 'keyUsage'> & { issuer: TestCertificate; keyUsage?: x509.KeyUsageFlags },
  signingTime: Date,
): Promise<TestSigner> {
  const cert = await issue({ crlUrl: true, keyUsage: KU.digitalSignature | KU.nonRepudiation, ...options });
  return { ...cert, chain: [options.issuer.der], signingTime };
}

const person = (name: string) => `CN=${name}, O=Hongkong Post e-Cert (Personal), C=HK`;

async function makeCrl(
  issuer: { subject: string; keys: CryptoKeyPair },
  thisUpdate: Date,
  nextUpdate: Date,
  revoked: TestCertificate[],
  distributionPoint = TEST_CRL_URL,
): Promise<Uint8Array> {
  const idp = new pkijs.IssuingDistributionPoint({
    distributionPoint: [new pkijs.GeneralName({ type: 6, value: distributionPoint })],
  });
  const crl = await x509.X509CrlGenerator.create({
    issuer: encodedOrder(issuer.subject),
    thisUpdate,
    nextUpdate,
    signingAlgorithm: SIGNING,
    signingKey: issuer.keys.privateKey,
    extensions: [new x509.Extension('2.5.29.28', true, idp.toSchema().toBER())],
    entries: revoked.map((cert) => ({
      serialNumber: cert.serialNumber,
      revocationDate: at(thisUpdate, -3),
      reason: x509.X509CrlReason.keyCompromise,
    })),
  });
  return new Uint8Array(crl.rawData);
}

/** Makes the whole test PKI around `now` (a few hundred ms). */
export async function makeTestPki(now: Date): Promise<TestPki> {
  x509.cryptoProvider.set(globalThis.crypto);
  const caUsage = KU.keyCertSign | KU.cRLSign;
  const root = await issue({
    subject: 'CN=Test Hongkong Post Root CA 3, O=Hongkong Post, C=HK',
    serialNumber: '10',
    notBefore: at(now, -5 * 365),
    notAfter: at(now, 20 * 365),
    ca: {},
    keyUsage: caUsage,
  });
  const intermediateName = 'CN=Test Hongkong Post e-Cert CA 2 - 17, O=Hongkong Post, C=HK';
  const intermediate = await issue({
    subject: intermediateName,
    serialNumber: '11',
    issuer: root,
    notBefore: at(now, -2 * 365),
    notAfter: at(now, 10 * 365),
    ca: { pathLength: 0 },
    keyUsage: caUsage,
  });
  const otherRoot = await issue({
    subject: 'CN=Test Other Root CA, O=Test Other CA Ltd, C=HK',
    serialNumber: '20',
    notBefore: at(now, -365),
    notAfter: at(now, 10 * 365),
    ca: {},
    keyUsage: caUsage,
  });
  const impostorCa = await issue({
    subject: intermediateName,
    serialNumber: '11',
    notBefore: at(now, -365),
    notAfter: at(now, 10 * 365),
    ca: {},
    keyUsage: caUsage,
  });

  const current = { notBefore: at(now, -30), notAfter: at(now, 3 * 365 - 30) };
  const signedJustNow = new Date(now.getTime() - 5 * 60_000);
  const signer = (serialNumber: string, extra: Partial<IssueOptions> = {}, issuer = intermediate) =>
    issueSigner(
      { subject: person('CHAN TAI MAN'), serialNumber, issuer, ...current, ...extra },
      signedJustNow,
    );

  const expiredDates = { notBefore: at(now, -3 * 365 - 35), notAfter: at(now, -35) };
  const futureDates = { notBefore: at(now, 10), notAfter: at(now, 3 * 365 + 10) };
  const signers: TestSigners = {
    valid: await signer('1001'),
    otherPerson: await signer('1002', { subject: person('WONG SIU MING') }),
    expired: await issueSigner(
      { subject: person('CHAN TAI MAN'), serialNumber: '1003', issuer: intermediate, ...expiredDates },
      at(expiredDates.notAfter, -1),
    ),
    notYetValid: await issueSigner(
      { subject: person('CHAN TAI MAN'), serialNumber: '1004', issuer: intermediate, ...futureDates },
      at(futureDates.notBefore, 1),
    ),
    untrusted: await signer('1005', {}, otherRoot),
    impostor: await signer('1006', {}, impostorCa),
    revoked: await signer('1007'),
    caAsSigner: await signer('1008', {
      ca: {},
      keyUsage: KU.digitalSignature | KU.nonRepudiation | KU.keyCertSign | KU.cRLSign,
    }),
    wrongKeyUsage: await signer('1009', { keyUsage: KU.keyEncipherment | KU.dataEncipherment }),
  };

  const crl = await makeCrl(intermediate, at(now, -2 / 24), at(now, 1), [signers.revoked]);
  return {
    now,
    root,
    intermediate,
    otherRoot,
    impostorCa,
    signers,
    crl,
    staleCrl: await makeCrl(intermediate, at(now, -3), at(now, -2), [signers.revoked]),
    forgedCrl: await makeCrl(impostorCa, at(now, -2 / 24), at(now, 1), []),
    otherScopeCrl: await makeCrl(intermediate, at(now, -2 / 24), at(now, 1), [], `${TEST_CRL_URL}.other`),
    trust: { roots: [root.der], crls: [crl] },
  };
}

export interface SignOptions {
  /** The signingTime attribute; default `signer.signingTime`; null leaves the attribute out. */
  signingTime?: Date | null;
  /** Certificates to embed; default the signer's and its issuer's. `[]` embeds none. */
  certificates?: Uint8Array[];
  /** Sign with this key instead of the signer's own (a signature that must not verify). */
  signingKey?: CryptoKey;
}

/**
 * A detached CMS SignedData (DER) over `content` by `signer`, as e-Cert software makes it: SHA-256,
 * signed attributes contentType (data), messageDigest and signingTime, no embedded content.
 * `toPem('PKCS7', ...)` gives the PEM form.
 */
export async function signDetached(
  content: Uint8Array,
  signer: TestCertificate & Partial<Pick<TestSigner, 'chain' | 'signingTime'>>,
  options: SignOptions = {},
): Promise<Uint8Array> {
  const cert = pkijs.Certificate.fromBER(signer.der.slice());
  const digest = await crypto.subtle.digest('SHA-256', content.slice());
  const attributes = [
    new pkijs.Attribute({
      type: '1.2.840.113549.1.9.3',
      values: [new asn1js.ObjectIdentifier({ value: pkijs.ContentInfo.DATA })],
    }),
    new pkijs.Attribute({
      type: '1.2.840.113549.1.9.4',
      values: [new asn1js.OctetString({ valueHex: digest })],
    }),
  ];
  const signingTime =
    options.signingTime === undefined ? (signer.signingTime ?? new Date()) : options.signingTime;
  if (signingTime) {
    attributes.push(
      new pkijs.Attribute({
        type: '1.2.840.113549.1.9.5',
        values: [new asn1js.UTCTime({ valueDate: signingTime })],
      }),
    );
  }
  const certificates = (options.certificates ?? [signer.der, ...(signer.chain ?? [])]).map((der) =>
    pkijs.Certificate.fromBER(der.slice()),
  );
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: pkijs.ContentInfo.DATA }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes }),
      }),
    ],
    ...(certificates.length > 0 ? { certificates } : {}),
  });
  await signedData.sign(options.signingKey ?? signer.keys.privateKey, 0, 'SHA-256', content.slice(), engine);
  const info = new pkijs.ContentInfo({
    contentType: pkijs.ContentInfo.SIGNED_DATA,
    content: signedData.toSchema(true),
  });
  return new Uint8Array(info.toSchema().toBER());
}
