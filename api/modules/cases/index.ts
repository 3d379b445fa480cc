/** The cases module's public face: what other modules may use (docs/architecture.md, "Modules"). */
export { assignmentOf, insertMessage, messagesOf, requestsOf, staffById } from './case-messages.repo';
export { answerRequestEffect, messageData, requestData } from './case-messages';
export { caseSigningRouter } from './case-signing.routes';
export { createCaseSigning } from './case-signing';
export { caseUploadsRouter } from './case-uploads.routes';
export { createCaseUploadService } from './case-uploads';
export { currentAnswers, listCaseVersions } from './case-versions';
export { indexPendingCases } from './case-search';
export {
  documentOf,
  documentsOf,
  findApplication,
  historyOf,
  insertAudit,
  insertHistory,
  layoutPlanRevisions,
  lockApplication,
} from './cases.repo';
export { caseMessagesRouter, casesRouter, historyRouter } from './cases.routes';
export { createCaseService, type CaseActionEffect } from './cases.service';
export { createHistoryService } from './history';
export { runCaseAction, type CaseAction } from './case-action';
export { caseFacts, latestInspectionRequest, refusalError } from './case-facts';
export { CaseRuleError } from './cases.errors';
export { latestReviews, reviewOf } from './document-reviews';
