/** The selfcert module's public face: what other modules may use (docs/architecture.md, "Modules"). */
export {
  certifiedCase,
  certifiedCaseLocked,
  recordSelfCertification,
  selfCertificationNotice,
  type CertifiedCase,
} from './selfcert.service';
