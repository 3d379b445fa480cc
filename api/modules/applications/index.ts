/** The applications module's public face: what other modules may use (docs/architecture.md, "Modules"). */
export { createSigningService } from './application-signing';
export { createCaseCheck } from './case-check';
export { documentsRouter } from './documents.routes';
export { createDocumentService } from './documents.service';
export { purgeExpiredDrafts } from './drafts-purge';
export { draftsRouter } from './drafts.routes';
export { createDraftService, draftValidityDaysFromEnv } from './drafts.service';
export { signingRouter } from './signing.routes';
export { submissionRouters } from './submission.routes';
export { createSubmissionService } from './submission.service';
