import { readFile } from 'node:fs/promises';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { ECERT_REJECTIONS } from '../../machines/flows/signing/types';

/**
 * Verification of a Hongkong Post e-Cert signature: a CMS (PKCS#7) SignedData in a .p7s file,
 * detached, over the text the portal showed at the signing step.
 *
 * The checks run in this order and the first failure is the answer: `unreadable` → `no-certificate`
 * → `bad-signature` → `untrusted` → `expired` / `not-yet-valid` → `key-usage` → `revoked` /
 * `crl-unavailable` → `name-mismatch`. Nothing here reaches the network: roots, intermediates and
 * CRLs are configured (see {@link loadEcertTrust}); certificates and CRLs inside the .p7s are never
 * trusted on their own (CMS certificates may only serve as intermediates to a configured root).
 */

/** The reasons, in the order of the checks: one list with the signing flow's (the API's 422 `data.reason`). */
export const ECERT_FAILURE_REASONS = ECERT_REJECTIONS;
export type EcertFailureReason = (typeof ECERT_FAILURE_REASONS)[number];

export interface EcertSigner {
  /** Subject DN for display, RFC 4514 order (most specific first), e.g. `CN=CHAN TAI MAN, O=..., C=HK`. */
  subject: string;
  /** Certificate serial number, lowercase hex without leading zero bytes. */
  serialNumber: string;
  issuer: string;
  notBefore: Date;
  notAfter: Date;
}

export type EcertResult =
  | { ok: true; signer: EcertSigner; signedAt?: Date }
  | { ok: false; reason: EcertFailureReason; detail?: string };

/** What the verifier trusts. All values are DER. */
export interface EcertTrust {
  /** Trust anchors (production: the Hongkong Post Root CA 3 certificate). */
  roots: Uint8Array[];
  /** Extra CA certificates to build paths with; never anchors. */
  intermediates?: Uint8Array[];
  /** CRLs (production: the downloaded Hongkong Post CRLs). Each must verify and be current to count. */
  crls?: Uint8Array[];
}

const engine = new pkijs.CryptoEngine({ name: 'nodeEngine', crypto: globalThis.crypto });
pkijs.setEngine('nodeEngine', engine);

const OID = {
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
const SHA2_DIGESTS = new Set(['2.16.840.1.101.3.4.2.1', '2.16.840.1.101.3.4.2.2', '2.16.840.1.101.3.4.2.3']);
/** Critical certificate extensions this verifier processes or may safely ignore (RFC 5280 6.1.4 o). */
const KNOWN_CERT_CRITICAL = new Set([
  OID.keyUsage,
  OID.basicConstraints,
  '2.5.29.32',
  '2.5.29.17',
  '2.5.29.14',
  '2.5.29.35',
]);
/** Critical CRL extensions understood: CRL number, authority key id, issuing distribution point. */
const KNOWN_CRL_CRITICAL = new Set(['2.5.29.20', '2.5.29.35', OID.issuingDistributionPoint]);
const KU = { digitalSignature: 0, nonRepudiation: 1, keyCertSign: 5, cRLSign: 6 } as const;
const MAX_PATH = 6;

type Failure = Extract<EcertResult, { ok: false }>;
const fail = (reason: EcertFailureReason, detail?: string): Failure =>
  detail === undefined ? { ok: false, reason } : { ok: false, reason, detail };

/**
 * Verifies an applicant's e-Cert signature.
 *
 * Content rule: `expected.content` is what the applicant signed, namely the bytes (ASCII) of the
 * signing digest's SHA-256 hex string exactly as the portal showed it. The .p7s must be a detached
 * SignedData whose messageDigest attribute equals the hash (SHA-256; SHA-384/512 also accepted,
 * SHA-1 is not) of those bytes, and whose signature verifies with the signer certificate's key. An
 * attached signature is accepted only when its embedded content is byte-for-byte that text. Only the
 * first SignerInfo is verified.
 *
 * Name rule: see {@link signerNameMatches}.
 *
 * @param p7s the uploaded file, DER or PEM (`-----BEGIN PKCS7-----` or `-----BEGIN CMS-----`)
 * @param now the time validity dates and CRL freshness are judged against
 */
export async function verifyEcertSignature(
  p7s: Uint8Array,
  expected: { content: Uint8Array; signerName: string },
  trust: EcertTrust,
  now: Date,
): Promise<EcertResult> {
  const signedData = readSignedData(p7s);
  if (!signedData) return fail('unreadable', 'not a CMS SignedData');
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo) return fail('unreadable', 'no SignerInfo');

  const checked = await checkSignature(signedData, signerInfo, expected.content);
  if (!checked.ok) return checked;
  const { signer } = checked;
  const signedAt = readSigningTime(signerInfo);
  if (signedAt === 'invalid') return fail('unreadable', 'malformed signingTime attribute');

  const cmsCerts = (signedData.certificates ?? []).filter((c) => c instanceof pkijs.Certificate);
  const roots = parseAll(trust.roots, parseCertificate);
  const pool = [...cmsCerts, ...parseAll(trust.intermediates ?? [], parseCertificate)];
  const path = await buildPath(signer, pool, roots);
  if (!path) return fail('untrusted', `no path from ${dn(signer.issuer)} to a configured root`);
  const pathProblem = checkIssuers(path);
  if (pathProblem) return fail('untrusted', pathProblem);

  for (const cert of path) {
    const dates = checkDates(cert, now, cert === signer ? 'signer certificate' : `CA ${dn(cert.subject)}`);
    if (dates) return dates;
  }
  if (signedAt) {
    const dates = checkDates(signer, signedAt, 'signing time');
    if (dates) return dates;
  }

  if (isCa(signer)) return fail('key-usage', 'the signer certificate is a CA certificate');
  const usage = keyUsage(signer);
  if (usage && !usage.has(KU.digitalSignature) && !usage.has(KU.nonRepudiation)) {
    return fail('key-usage', 'keyUsage has neither digitalSignature nor nonRepudiation');
  }

  const crls = parseAll(trust.crls ?? [], parseCrl);
  for (let i = 0; i < path.length - 1; i++) {
    const cert = path[i];
    const issuer = path[i + 1];
    if (!cert || !issuer) break;
    const revocation = await checkRevocation(cert, issuer, crls, now, i === 0);
    if (revocation) return revocation;
  }

  if (!signerNameMatches(commonNames(signer), expected.signerName)) {
    return fail('name-mismatch', `certificate holder ${commonNames(signer).join(' / ') || '(no CN)'}`);
  }
  const result: EcertResult = { ok: true, signer: describe(signer) };
  if (signedAt) result.signedAt = signedAt;
  return result;
}

/**
 * Name rule: the applicant's name matches when it equals the certificate subject's CN (Hongkong
 * Post personal e-Certs put the holder's name there, e.g. "CHAN TAI MAN") after normalising both:
 * Unicode NFKC, upper case, every run of whitespace and punctuation (hyphens, commas, full stops,
 * apostrophes) made one space, trimmed. So "Chan  Tai-Man" matches "CHAN TAI MAN", but word order
 * and spelling must agree ("Tai Man Chan" does not match). When the CN or the given name also holds
 * Chinese characters, a match on the English name (the Latin letters alone) is enough. An empty
 * name never matches.
 */
export function signerNameMatches(commonNamesInCert: string[], expectedName: string): boolean {
  const whole = normaliseName(expectedName);
  const english = normaliseName(latinOnly(expectedName));
  return commonNamesInCert.some((cn) => {
    const cnWhole = normaliseName(cn);
    const cnEnglish = normaliseName(latinOnly(cn));
    return (whole !== '' && whole === cnWhole) || (english !== '' && english === cnEnglish);
  });
}

function normaliseName(name: string): string {
  return name
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\p{P}]+/gu, ' ')
    .trim();
}

function latinOnly(name: string): string {
  return name.normalize('NFKC').replace(/(?!\p{Script=Latin})\p{L}/gu, ' ');
}

/**
 * Reads the trust configuration from files, PEM or DER. In production the API reads the comma-
 * separated paths from the environment: `ECERT_ROOTS` (the Hongkong Post Root CA 3 certificate;
 * a bundle may also hold the e-Cert CA certificates) and `ECERT_CRLS` (the downloaded CRLs of the
 * e-Cert CAs, and the root's ARL if wanted). Certificates from `rootPaths` that are not self-signed
 * become intermediates, never anchors. The result is a snapshot: Hongkong Post publishes CRLs several
 * times a day, so reload after refreshing the files, or every signature answers `crl-unavailable`
 * once the CRL's nextUpdate passes. Throws on a file that holds no readable certificate or CRL.
 */
export async function loadEcertTrust(config: {
  rootPaths: string[];
  crlPaths: string[];
}): Promise<EcertTrust> {
  const trust: Required<EcertTrust> = { roots: [], intermediates: [], crls: [] };
  for (const path of config.rootPaths) {
    const blocks = pemOrDer(await readFile(path), ['CERTIFICATE']);
    if (blocks.length === 0) throw new Error(`ECERT_ROOTS: ${path} holds no certificate`);
    for (const der of blocks) {
      const cert = parseCertificate(der);
      if (!cert) throw new Error(`ECERT_ROOTS: ${path} holds something that is not a certificate`);
      const selfSigned = cert.subject.isEqual(cert.issuer) && (await signedBy(cert, cert));
      (selfSigned ? trust.roots : trust.intermediates).push(der);
    }
  }
  for (const path of config.crlPaths) {
    const blocks = pemOrDer(await readFile(path), ['X509 CRL']);
    if (blocks.length === 0) throw new Error(`ECERT_CRLS: ${path} holds no CRL`);
    for (const der of blocks) {
      if (!parseCrl(der)) throw new Error(`ECERT_CRLS: ${path} holds something that is not a CRL`);
      trust.crls.push(der);
    }
  }
  return trust;
}

// ---- parsing ----

/** The DER blocks of a PEM file with one of `labels`, or the bytes themselves when not PEM. */
function pemOrDer(bytes: Uint8Array, labels: string[]): Uint8Array[] {
  const text = Buffer.from(bytes).toString('latin1');
  if (!text.trimStart().startsWith('-----BEGIN ')) return [new Uint8Array(bytes)];
  const blocks: Uint8Array[] = [];
  for (const m of text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g)) {
    const [, label = '', body = ''] = m;
    if (labels.includes(label)) blocks.push(new Uint8Array(Buffer.from(body.replace(/\s+/g, ''), 'base64')));
  }
  return blocks;
}

function readSignedData(p7s: Uint8Array): pkijs.SignedData | null {
  const der = pemOrDer(p7s, ['PKCS7', 'CMS'])[0];
  if (!der || der.length === 0) return null;
  try {
    const info = pkijs.ContentInfo.fromBER(der.slice());
    if (info.contentType !== OID.signedData) return null;
    return new pkijs.SignedData({ schema: info.content });
  } catch {
    return null;
  }
}

function parseCertificate(der: Uint8Array): pkijs.Certificate | null {
  try {
    return pkijs.Certificate.fromBER(der.slice());
  } catch {
    return null;
  }
}

function parseCrl(der: Uint8Array): pkijs.CertificateRevocationList | null {
  try {
    return pkijs.CertificateRevocationList.fromBER(der.slice());
  } catch {
    return null;
  }
}

function parseAll<T>(items: Uint8Array[], parse: (der: Uint8Array) => T | null): T[] {
  return items.map(parse).filter((x): x is T => x !== null);
}

// ---- the signature ----

async function checkSignature(
  signedData: pkijs.SignedData,
  signerInfo: pkijs.SignerInfo,
  content: Uint8Array,
): Promise<{ ok: true; signer: pkijs.Certificate } | Failure> {
  let signer: pkijs.Certificate;
  try {
    const data = content.slice().buffer;
    const result = await signedData.verify(
      { signer: 0, data, checkChain: false, extendedMode: true },
      engine,
    );
    if (!result.signerCertificate) return fail('no-certificate');
    if (result.signatureVerified !== true) return fail('bad-signature', 'the signature does not verify');
    signer = result.signerCertificate;
  } catch (error) {
    if (!(error instanceof pkijs.SignedDataVerifyError)) return fail('bad-signature', String(error));
    if (error.code === 2 || error.code === 3) return fail('no-certificate', error.message);
    if (error.code === 1) return fail('unreadable', error.message);
    return fail('bad-signature', error.message);
  }
  // pkijs verifies an attached signature over its embedded content and does not look at the
  // contentType attribute's value, nor refuse weak digests: those are checked here.
  const { eContentType, eContent } = signedData.encapContentInfo;
  if (eContentType !== OID.data) return fail('bad-signature', `content type ${eContentType} is not data`);
  if (eContent && !Buffer.from(eContent.getValue()).equals(content)) {
    return fail('bad-signature', 'the embedded content is not the expected text');
  }
  if (!SHA2_DIGESTS.has(signerInfo.digestAlgorithm.algorithmId)) {
    return fail('bad-signature', `digest algorithm ${signerInfo.digestAlgorithm.algorithmId} not accepted`);
  }
  const contentTypeAttr = signerInfo.signedAttrs?.attributes.find((a) => a.type === OID.contentType);
  const signedType: unknown = contentTypeAttr?.values[0];
  if (
    contentTypeAttr &&
    !(signedType instanceof asn1js.ObjectIdentifier && signedType.getValue() === eContentType)
  ) {
    return fail('bad-signature', 'the contentType attribute does not match the content');
  }
  return { ok: true, signer };
}

/** The signingTime attribute: undefined when absent, 'invalid' when present but malformed. */
function readSigningTime(signerInfo: pkijs.SignerInfo): Date | undefined | 'invalid' {
  const attr = signerInfo.signedAttrs?.attributes.find((a) => a.type === OID.signingTime);
  if (!attr) return undefined;
  const value: unknown = attr.values[0];
  if (value instanceof asn1js.UTCTime || value instanceof asn1js.GeneralizedTime) {
    const date = value.toDate();
    return Number.isNaN(date.getTime()) ? 'invalid' : date;
  }
  return 'invalid';
}

// ---- the chain ----

/** A path [signer, ..., anchor] whose every certificate is signed by the next; null if none. */
async function buildPath(
  leaf: pkijs.Certificate,
  pool: pkijs.Certificate[],
  roots: pkijs.Certificate[],
): Promise<pkijs.Certificate[] | null> {
  const walk = async (path: pkijs.Certificate[]): Promise<pkijs.Certificate[] | null> => {
    const cert = path[path.length - 1];
    if (!cert || path.length > MAX_PATH) return null;
    if (roots.some((root) => sameCert(root, cert))) return path;
    for (const root of roots) {
      if (root.subject.isEqual(cert.issuer) && (await signedBy(cert, root))) return [...path, root];
    }
    for (const candidate of pool) {
      if (path.some((p) => sameCert(p, candidate)) || !candidate.subject.isEqual(cert.issuer)) continue;
      if (!(await signedBy(cert, candidate))) continue;
      const found = await walk([...path, candidate]);
      if (found) return found;
    }
    return null;
  };
  return walk([leaf]);
}

async function signedBy(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<boolean> {
  try {
    return await cert.verify(issuer, engine);
  } catch {
    return false;
  }
}

/** RFC 5280 checks on the issuing certificates of a path, and unknown critical extensions. */
function checkIssuers(path: pkijs.Certificate[]): string | null {
  for (const [index, cert] of path.entries()) {
    const unknown = cert.extensions?.find((e) => e.critical && !KNOWN_CERT_CRITICAL.has(e.extnID));
    if (unknown) return `${dn(cert.subject)} has an unsupported critical extension ${unknown.extnID}`;
    if (index === 0) continue;
    const constraints = basicConstraints(cert);
    if (!constraints?.cA) return `${dn(cert.subject)} is not a CA certificate`;
    const usage = keyUsage(cert);
    if (usage && !usage.has(KU.keyCertSign)) return `${dn(cert.subject)} may not sign certificates`;
    const pathLen = constraints.pathLenConstraint;
    const limit = typeof pathLen === 'number' ? pathLen : pathLen?.valueBlock.valueDec;
    if (limit !== undefined && index - 1 > limit) return `${dn(cert.subject)} path length exceeded`;
  }
  return null;
}

function checkDates(cert: pkijs.Certificate, at: Date, what: string): Failure | null {
  const notBefore = cert.notBefore.value;
  const notAfter = cert.notAfter.value;
  if (at < notBefore) return fail('not-yet-valid', `${what} before ${notBefore.toISOString()}`);
  if (at > notAfter) return fail('expired', `${what} after ${notAfter.toISOString()}`);
  return null;
}

// ---- revocation ----

/**
 * Revocation of `cert` by the configured CRLs of `issuer`. The signer's issuer must have a usable
 * CRL; a CA certificate is checked when a CRL (ARL) of its issuer is configured. Usable means: signed
 * by the issuer's key (issuer allowed cRLSign), thisUpdate ≤ now ≤ nextUpdate, no unknown critical
 * extension, not a delta CRL, and its scope (issuing distribution point) covers `cert`. The newest
 * usable CRL decides.
 */
async function checkRevocation(
  cert: pkijs.Certificate,
  issuer: pkijs.Certificate,
  crls: pkijs.CertificateRevocationList[],
  now: Date,
  required: boolean,
): Promise<Failure | null> {
  const candidates = crls.filter((crl) => crl.issuer.isEqual(issuer.subject));
  if (candidates.length === 0) {
    return required ? fail('crl-unavailable', `no CRL configured for ${dn(issuer.subject)}`) : null;
  }
  let newest: pkijs.CertificateRevocationList | null = null;
  let problem = '';
  for (const crl of candidates) {
    const unusable = await crlProblem(crl, cert, issuer, now);
    if (unusable) problem = unusable;
    else if (!newest || crl.thisUpdate.value > newest.thisUpdate.value) newest = crl;
  }
  if (!newest) return fail('crl-unavailable', `CRL of ${dn(issuer.subject)}: ${problem}`);
  const entry = newest.revokedCertificates?.find((r) => r.userCertificate.isEqual(cert.serialNumber));
  if (!entry) return null;
  return fail('revoked', `${serialHex(cert)} revoked on ${entry.revocationDate.value.toISOString()}`);
}

async function crlProblem(
  crl: pkijs.CertificateRevocationList,
  cert: pkijs.Certificate,
  issuer: pkijs.Certificate,
  now: Date,
): Promise<string | null> {
  const usage = keyUsage(issuer);
  if (usage && !usage.has(KU.cRLSign)) return 'the issuer may not sign CRLs';
  const verified = await crl.verify({ issuerCertificate: issuer }, engine).catch(() => false);
  if (!verified) return 'its signature does not verify';
  if (crl.thisUpdate.value > now) return 'thisUpdate is in the future';
  if (!crl.nextUpdate) return 'it has no nextUpdate';
  if (crl.nextUpdate.value < now) return `out of date since ${crl.nextUpdate.value.toISOString()}`;
  const extensions = crl.crlExtensions?.extensions ?? [];
  const unknown = extensions.find((e) => e.critical && !KNOWN_CRL_CRITICAL.has(e.extnID));
  if (unknown) return `unsupported critical extension ${unknown.extnID}`;
  const idp: unknown = extensions.find((e) => e.extnID === OID.issuingDistributionPoint)?.parsedValue;
  if (idp === undefined) return null;
  if (!(idp instanceof pkijs.IssuingDistributionPoint)) return 'unreadable issuing distribution point';
  if (idp.indirectCRL || idp.onlyContainsAttributeCerts || idp.onlySomeReasons !== undefined) {
    return 'a partial CRL (indirect, attribute or reason scoped)';
  }
  if ((idp.onlyContainsUserCerts && isCa(cert)) || (idp.onlyContainsCACerts && !isCa(cert))) {
    return 'its scope does not cover this certificate';
  }
  if (idp.distributionPoint === undefined) return null;
  if (!Array.isArray(idp.distributionPoint)) return 'unsupported distribution point name';
  const crlUris = uris(idp.distributionPoint);
  const certUris = distributionPointUris(cert);
  return crlUris.some((u) => certUris.includes(u)) ? null : 'its distribution point is not the certificate’s';
}

function distributionPointUris(cert: pkijs.Certificate): string[] {
  const value: unknown = cert.extensions?.find((e) => e.extnID === OID.crlDistributionPoints)?.parsedValue;
  if (!(value instanceof pkijs.CRLDistributionPoints)) return [];
  return value.distributionPoints.flatMap((dp) =>
    Array.isArray(dp.distributionPoint) ? uris(dp.distributionPoint) : [],
  );
}

function uris(names: pkijs.GeneralName[]): string[] {
  // GeneralName type 6 is uniformResourceIdentifier, whose value pkijs gives as a string.
  return names.filter((n) => n.type === 6 && typeof n.value === 'string').map((n) => String(n.value));
}

// ---- certificate fields ----

function basicConstraints(cert: pkijs.Certificate): pkijs.BasicConstraints | null {
  const value: unknown = cert.extensions?.find((e) => e.extnID === OID.basicConstraints)?.parsedValue;
  return value instanceof pkijs.BasicConstraints ? value : null;
}

function isCa(cert: pkijs.Certificate): boolean {
  return basicConstraints(cert)?.cA === true;
}

/** The keyUsage bits set (0 = digitalSignature ...), or null when the extension is absent. */
function keyUsage(cert: pkijs.Certificate): Set<number> | null {
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

function commonNames(cert: pkijs.Certificate): string[] {
  return cert.subject.typesAndValues
    .filter((tv) => tv.type === OID.commonName)
    .map((tv) => tv.value.valueBlock.value);
}

function sameCert(a: pkijs.Certificate, b: pkijs.Certificate): boolean {
  return Buffer.from(a.toSchema().toBER()).equals(Buffer.from(b.toSchema().toBER()));
}

function serialHex(cert: pkijs.Certificate): string {
  const hex = Buffer.from(cert.serialNumber.valueBlock.valueHexView)
    .toString('hex')
    .replace(/^(00)+/, '');
  return hex === '' ? '00' : hex;
}

const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.5': 'serialNumber',
  '1.2.840.113549.1.9.1': 'emailAddress',
};

function dn(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map(
      (tv) =>
        `${SHORT_NAMES[tv.type] ?? tv.type}=${tv.value.valueBlock.value.replace(/([,+"\\<>;])/g, '\\$1')}`,
    )
    .reverse()
    .join(', ');
}

function describe(cert: pkijs.Certificate): EcertSigner {
  return {
    subject: dn(cert.subject),
    serialNumber: serialHex(cert),
    issuer: dn(cert.issuer),
    notBefore: cert.notBefore.value,
    notAfter: cert.notAfter.value,
  };
}
