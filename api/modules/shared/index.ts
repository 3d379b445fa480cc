/** The shared module's public face: what other modules may use (docs/architecture.md, "Modules"). */
export { addressRouter } from './address.routes';
export {
  appendAudit,
  audited,
  auditTrace,
  record,
  type AuditActor,
  type AuditEntry,
  type AuditRow,
} from './audit';
export { createAddressService } from './address';
export { createCalendarService, holidaysBetween, type CalendarService } from './calendar';
export { devRouter } from './dev.routes';
export { healthRouter, createReadiness, type Readiness } from './health.routes';
export { applicationRouter } from './master-data.routes';
export {
  createMasterDataService,
  findMasterData,
  type MasterDataService,
  type MasterDataServiceOptions,
} from './master-data';
export {
  SEARCHED_ANSWERS,
  containsPattern,
  foldForSearch,
  searchTextOf,
  type SearchableCase,
} from './search-text';
export { createMessageService, type CaseNoticeMessage, type MessageService } from './messages';
export {
  GREY,
  PdfBlocks,
  answerLines,
  renderApplicationPdf,
  writePdfBlocks,
  type SignedRecord,
} from './pdf/application-pdf';
export { departmentSeal, type DepartmentSeal } from './pdf/seal';
export {
  DEFAULT_DOCUMENT_LIMITS,
  DocumentTooLargeError,
  documentLimitsFromEnv,
  receiveCheckedPdf,
  type DocumentLimits,
} from './uploads/checked-upload';
export { createPdfCheckPool, type PdfCheckLimits, type PdfChecker } from './uploads/pdf-check-pool';
export { HKIC_FIELD_IDS, hkicKeys, openAnswers, sealAnswers } from './answers-at-rest';
