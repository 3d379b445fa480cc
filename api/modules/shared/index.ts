/** The shared module's public face: what other modules may use (docs/architecture.md, "Modules"). */
export { addressRouter } from './address.routes';
export { createAddressService } from './address';
export { createCalendarService, type CalendarService } from './calendar';
export { devRouter } from './dev.routes';
export { healthRouter } from './health.routes';
export { applicationRouter } from './master-data.routes';
export {
  createMasterDataService,
  type MasterDataService,
  type MasterDataServiceOptions,
} from './master-data';
export { createMessageService, type CaseNoticeMessage, type MessageService } from './messages';
export { GREY, PdfBlocks, answerLines, renderApplicationPdf, writePdfBlocks } from './pdf/application-pdf';
export {
  DEFAULT_DOCUMENT_LIMITS,
  DocumentTooLargeError,
  documentLimitsFromEnv,
  receiveCheckedPdf,
  type DocumentLimits,
} from './uploads/checked-upload';
export { createPdfCheckPool, type PdfCheckLimits, type PdfChecker } from './uploads/pdf-check-pool';
