/** The signing module's public face: what other modules may use (docs/architecture.md, "Modules"). */
export { SignerMismatchError, createDigestSigning, type DigestSigningStore } from './digest-signing';
export { crlPathsFromEnv, startCrlRefresh } from './ecert-refresh';
export { loadEcertTrust, type EcertTrust } from './ecert-trust';
export { verifyEcertSignature } from './ecert';
export { answersHash, followUpManifestText, manifestDigest, sha256Hex } from './signing-manifest';
export {
  ECERT_WINDOW_MS,
  EcertRejectedError,
  SIGNATURE_MAX_BYTES,
  SigningOutdatedError,
  type IamSmartStarted,
  type SigningStatus,
  type SigningStatusData,
} from './signing.types';
