import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { fail, type EcertResult, type Failure } from './ecert-result';
import { buildPath, checkDates, checkIssuers, checkRevocation, type EcertTrust } from './ecert-trust';
import {
  commonNames,
  describe,
  dn,
  engine,
  isCa,
  keyUsage,
  KU,
  OID,
  parseAll,
  parseCertificate,
  parseCrl,
  pemOrDer,
} from './ecert-x509';

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

const SHA2_DIGESTS = new Set(['2.16.840.1.101.3.4.2.1', '2.16.840.1.101.3.4.2.2', '2.16.840.1.101.3.4.2.3']);

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

// ---- the signature ----

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
