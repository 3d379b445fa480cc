import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import forge from 'node-forge';
import { PDFDocument } from 'pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { P12Signer } from '@signpdf/signer-p12';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import type { Logger } from 'pino';
import { readVariable } from '../../../config';

/**
 * The department's digital seal on every letter it issues (docs/decisions/038-sealed-letters.md): a PAdES
 * signature (/SubFilter /ETSI.CAdES.detached) over the whole PDF, made with the key and certificate of
 * the PKCS#12 file SEAL_P12 (password SEAL_P12_PASSWORD). Production refuses to start without it
 * (api/config.ts); in development and tests a throw-away root and seal certificate are made when the
 * process first seals, named as not the department's (docs/operations.md, "The seal").
 */
export interface DepartmentSeal {
  /** The PDF sealed: the same document with a signature field covering every byte but the signature. */
  seal(pdf: Uint8Array, at?: Date): Promise<Uint8Array>;
  /** The seal's certificate, PEM. */
  certificatePem: string;
  /** The root that issued it (the throw-away one in development and tests), PEM; null for a configured seal. */
  rootPem: string | null;
  /** True for the throw-away seal of development and tests. */
  throwAway: boolean;
}

/** Room for the CMS signature: the certificate chain and attributes of a 4096-bit key fit with room left. */
const SIGNATURE_LENGTH = 16_384;

export const THROWAWAY_ROOT_NAME = 'NOT THE DEPARTMENT - throw-away development seal root';
export const THROWAWAY_SEAL_NAME = 'NOT THE DEPARTMENT - throw-away development seal';

export function createDepartmentSeal(p12: Uint8Array, password: string, rootPem: string | null = null) {
  // Opened once, so a wrong password or a file without a key fails when the server starts.
  const asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(p12).toString('binary')));
  const opened = forge.pkcs12.pkcs12FromAsn1(asn1, password);
  const certBag = forge.pki.oids.certBag as string;
  const keyBag = forge.pki.oids.pkcs8ShroudedKeyBag as string;
  const certs = opened.getBags({ bagType: certBag })[certBag] ?? [];
  const keys = opened.getBags({ bagType: keyBag })[keyBag] ?? [];
  const first = certs[0]?.cert;
  if (!first || keys.length === 0) throw new Error('SEAL_P12 holds no certificate with its private key');
  // A signer per letter: P12Signer reads its PKCS#12 from a buffer it consumes, so it signs only once.
  const signer = () => new P12Signer(Buffer.from(p12), { passphrase: password });
  const sealPdf = async (pdf: Uint8Array, at = new Date()): Promise<Uint8Array> => {
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    pdflibAddPlaceholder({
      pdfDoc: doc,
      reason: 'Issued by the Buildings Department',
      contactInfo: 'Buildings Department',
      name: 'Buildings Department',
      location: 'Hong Kong',
      signatureLength: SIGNATURE_LENGTH,
      subFilter: SUBFILTER_ETSI_CADES_DETACHED,
      signingTime: at,
    });
    const withPlaceholder = Buffer.from(await doc.save({ useObjectStreams: false }));
    return new Uint8Array(await new SignPdf().sign(withPlaceholder, signer(), at));
  };
  return {
    seal: sealPdf,
    certificatePem: forge.pki.certificateToPem(first),
    rootPem,
    throwAway: rootPem !== null,
  } satisfies DepartmentSeal;
}

const name = (cn: string) => [
  { shortName: 'CN', value: cn },
  { shortName: 'O', value: 'Buildings Department portal (development)' },
  { shortName: 'C', value: 'HK' },
];

function newKeys() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

function certificate(
  subject: string,
  keys: ReturnType<typeof newKeys>,
  issuer: { name: string; key: forge.pki.rsa.PrivateKey },
  ca: boolean,
  now: Date,
) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  // From two years back: the tests' clocks stand in the past (a letter signed then is within it).
  cert.validity.notBefore = new Date(now.getTime() - 2 * 365 * 86_400_000);
  cert.validity.notAfter = new Date(now.getTime() + 5 * 365 * 86_400_000);
  cert.setSubject(name(subject));
  cert.setIssuer(name(issuer.name));
  cert.setExtensions(
    ca
      ? [
          { name: 'basicConstraints', cA: true, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
          { name: 'subjectKeyIdentifier' },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
          { name: 'extKeyUsage', emailProtection: true },
          { name: 'subjectKeyIdentifier' },
        ],
  );
  cert.sign(issuer.key, forge.md.sha256.create());
  return cert;
}

/** A throw-away root and seal certificate, as a PKCS#12 with its password (development and tests only). */
export function makeThrowAwaySeal(now = new Date()): DepartmentSeal {
  const rootKeys = newKeys();
  const root = certificate(
    THROWAWAY_ROOT_NAME,
    rootKeys,
    { name: THROWAWAY_ROOT_NAME, key: rootKeys.privateKey },
    true,
    now,
  );
  const sealKeys = newKeys();
  const seal = certificate(
    THROWAWAY_SEAL_NAME,
    sealKeys,
    { name: THROWAWAY_ROOT_NAME, key: rootKeys.privateKey },
    false,
    now,
  );
  const password = randomBytes(16).toString('hex');
  const p12 = forge.pkcs12.toPkcs12Asn1(sealKeys.privateKey, [seal, root], password, { algorithm: '3des' });
  const der = Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
  return createDepartmentSeal(der, password, forge.pki.certificateToPem(root));
}

let processSeal: DepartmentSeal | undefined;

/**
 * The process's seal: SEAL_P12 and SEAL_P12_PASSWORD, else (never in production) a throw-away one, with
 * one warning in development. createApp calls it with its logger at start, so a bad file stops the start.
 */
export function departmentSeal(logger?: Logger, env: NodeJS.ProcessEnv = process.env): DepartmentSeal {
  if (processSeal) return processSeal;
  const file = readVariable('SEAL_P12', env);
  if (file) {
    try {
      return (processSeal = createDepartmentSeal(
        readFileSync(file),
        readVariable('SEAL_P12_PASSWORD', env) ?? '',
      ));
    } catch (err) {
      throw new Error(
        `SEAL_P12 (${file}) cannot be opened with SEAL_P12_PASSWORD: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  if (env.NODE_ENV === 'production') throw new Error('SEAL_P12 must be set in production');
  if (logger && env.NODE_ENV !== 'test')
    logger.warn(
      "SEAL_P12 is not set: letters are sealed with a throw-away certificate, not the department's (development only)",
    );
  return (processSeal = makeThrowAwaySeal());
}
