/**
 * The trust side of an e-Cert check: the configured roots, intermediates and CRLs (read from files
 * by {@link loadEcertTrust}), the path from the signer to a configured root with its RFC 5280
 * checks, validity dates, and revocation by the configured CRLs. Nothing here reaches the network.
 */
import { readFile } from 'node:fs/promises';
import * as pkijs from 'pkijs';
import { fail, type Failure } from './ecert-result';
import {
  basicConstraints,
  dn,
  engine,
  isCa,
  keyUsage,
  KU,
  OID,
  parseCertificate,
  parseCrl,
  pemOrDer,
  sameCert,
  serialHex,
  signedBy,
} from './ecert-x509';

/** What the verifier trusts. All values are DER. */
export interface EcertTrust {
  /** Trust anchors (production: the Hongkong Post Root CA 3 certificate). */
  roots: Uint8Array[];
  /** Extra CA certificates to build paths with; never anchors. */
  intermediates?: Uint8Array[];
  /** CRLs (production: the downloaded Hongkong Post CRLs). Each must verify and be current to count. */
  crls?: Uint8Array[];
}

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
const MAX_PATH = 6;

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

// ---- the chain ----

/** A path [signer, ..., anchor] whose every certificate is signed by the next; null if none. */
export async function buildPath(
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

/** RFC 5280 checks on the issuing certificates of a path, and unknown critical extensions. */
export function checkIssuers(path: pkijs.Certificate[]): string | null {
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

export function checkDates(cert: pkijs.Certificate, at: Date, what: string): Failure | null {
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
export async function checkRevocation(
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

export async function crlProblem(
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

export function distributionPointUris(cert: pkijs.Certificate): string[] {
  const value: unknown = cert.extensions?.find((e) => e.extnID === OID.crlDistributionPoints)?.parsedValue;
  if (!(value instanceof pkijs.CRLDistributionPoints)) return [];
  return value.distributionPoints.flatMap((dp) =>
    Array.isArray(dp.distributionPoint) ? uris(dp.distributionPoint) : [],
  );
}

export function uris(names: pkijs.GeneralName[]): string[] {
  // GeneralName type 6 is uniformResourceIdentifier, whose value pkijs gives as a string.
  return names.filter((n) => n.type === 6 && typeof n.value === 'string').map((n) => String(n.value));
}
