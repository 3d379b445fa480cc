/** The cases module's public face: what other modules may use (docs/architecture.md, "Modules"). */
export { assignmentOf, insertMessage, messagesOf, requestsOf, staffById } from './case-messages.repo';
export { caseMessagesRouter } from './case-messages.routes';
export { answerRequestEffect, messageData, requestData } from './case-messages';
export { caseSigningRouter } from './case-signing.routes';
export { createCaseSigning } from './case-signing';
export { caseUploadsRouter } from './case-uploads.routes';
export { createCaseUploadService } from './case-uploads';
export { listCaseVersions } from './case-versions';
export { CaseActionNotAllowedError } from './cases.errors';
export {
  actionByKey,
  countActions,
  documentOf,
  documentsOf,
  findApplication,
  historyOf,
  insertAction,
  insertAudit,
  insertHistory,
  layoutPlanRevisions,
  lockApplication,
  setStatus,
} from './cases.repo';
export { casesRouter, historyRouter } from './cases.routes';
export { createCaseService, type CaseActionEffect } from './cases.service';

export { createHistoryService } from './history';
