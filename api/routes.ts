import express, { Router } from 'express';
import type { Logger } from 'pino';
import type { Database } from '../drizzle/db';
import type { Clock } from './clock';
import type { AddressLookup } from './adapters/address';
import type { VirusScanner } from './adapters/virus-scanner';
import type { JobQueue } from './jobs/queue';
import type { DocumentStorage } from './adapters/storage';
import type { IamSmartSigning } from './adapters/iamsmart';
import { notFoundHandler } from './http/error-handler';
import type { PortalAddress } from './http/portal-address';
import { createRateLimiters, type RateLimitOptions } from './http/rate-limit';
import {
  createDocumentService,
  createSigningService,
  createSubmissionService,
  documentsRouter,
  signingRouter,
  submissionRouters,
  createDraftService,
  createCaseCheck,
  draftsRouter,
} from './modules/applications';
import {
  auditTrace,
  createAddressService,
  createMasterDataService,
  addressRouter,
  applicationRouter,
  devRouter,
  healthRouter,
  type Readiness,
  createCalendarService,
  type PdfChecker,
  type MasterDataServiceOptions,
  type MessageService,
  type DocumentLimits,
} from './modules/shared';
import {
  createAuthService,
  createOtpService,
  createSessionService,
  authRouter,
  createStaffAdminService,
  createStaffAuthService,
  type SignInLimits,
  type StaffIdentityProvider,
} from './modules/auth';
import {
  createHistoryService,
  historyRouter,
  casesRouter,
  caseUploadsRouter,
  caseSigningRouter,
  createCaseSigning,
  createCaseUploadService,
  createCaseService,
  answerRequestEffect,
  caseMessagesRouter,
} from './modules/cases';
import {
  createAppointeeAuth,
  createAppointmentSigning,
  createAppointmentService,
  appointeeRouters,
  createHolderContact,
  createHolderReset,
  caseAppointmentsRouter,
  invitationRouter,
} from './modules/appointments';
import {
  createConsoleService,
  createInternalNoteService,
  createPerformanceReader,
  createProposalService,
  decisionsRouter,
  staffRouter,
} from './modules/console';
import { createInboxService } from './modules/console/inbox.routes';
import { createVerifyService, verifyRouter } from './modules/verify';
import type { EcertTrust } from './modules/signing';
import { defineAppointmentJobs } from './jobs/appointments';

export interface ApiOptions {
  masterData?: MasterDataServiceOptions;
  clock: Clock;
  logger: Logger;
  /** Where messages go (email, SMS, the outbox). */
  messages: MessageService;
  otp: { secret: string | Buffer; minSendDurationMs?: number };
  /** Staff sign-in: who a sign-in is and its limits (defaults: createStaffAuthService's). */
  staff?: { provider?: StaffIdentityProvider; limits?: Partial<SignInLimits> };
  /** Mount /api/dev (the outbox page). */
  devRoutes: boolean;
  /** Days a draft stays valid after its last save. */
  draftValidityDays: number;
  /** The address search behind GET /api/address. */
  address: AddressLookup;
  /** Where uploaded documents and the signed application PDFs are kept, the limits, the checks and scan. */
  documents: { storage: DocumentStorage; limits: DocumentLimits; checker: PdfChecker; scanner: VirusScanner };
  /** iAM Smart (the adapter: a sandbox here) and the e-Cert trust (roots and CRLs). */
  signing: { iamSmart: IamSmartSigning; ecertTrust: EcertTrust };
  /** The job queue (its jobs are defined here). */
  jobs?: JobQueue;
  /** The readiness check of GET /api/health (made by app.ts over the database, storage, queue, scanner). */
  health: Readiness;
  /** HMAC key of the signed download links. */
  linkSecret: string | Buffer;
  /** The rate limits of the endpoints that cost CPU or storage (false: none). */
  rateLimits?: RateLimitOptions;
  /** The portal's address: every link in a message is made by it (api/http/portal-address.ts). */
  portal: PortalAddress;
  /** Register the cron schedules of the jobs defined here (default true). */
  jobSchedule?: boolean;
}

/**
 * Everything under /api. Answers are never cached by HTTP caches; bodies are JSON up to 100 kB (drafts:
 * 256 kB).
 */
export function apiRouter(database: Database, options: ApiOptions): Router {
  const { db } = database;
  const { clock, logger, messages } = options;
  const masterData = createMasterDataService(db, options.masterData);
  // An AP's or RSE's session is checked against their appointment on every request (docs/decisions/020-appointments.md).
  const sessions = createSessionService({
    db,
    clock,
    masterData,
    appointeeCheck: (record) => appointeeAuth.check(record),
  });
  const otp = createOtpService({
    db,
    clock,
    messages,
    logger,
    secret: options.otp.secret,
    minSendDurationMs: options.otp.minSendDurationMs,
  });
  const auth = createAuthService({ otp, sessions });
  const appointeeAuth = createAppointeeAuth({ db, clock, otp });
  const appointments = createAppointmentService({
    db,
    clock,
    messages,
    otp,
    logger,
    portal: options.portal,
  });
  if (options.jobs)
    defineAppointmentJobs(options.jobs, { appointments, logger, schedule: options.jobSchedule ?? true });
  const drafts = createDraftService({ db, clock, otp, validityDays: options.draftValidityDays });

  const documents = createDocumentService({
    db,
    clock,
    storage: options.documents.storage,
    limits: options.documents.limits,
    checker: options.documents.checker,
    scanner: options.documents.scanner,
  });
  const signing = createSigningService({
    db,
    clock,
    storage: options.documents.storage,
    documents,
    iamSmart: options.signing.iamSmart,
    ecertTrust: options.signing.ecertTrust,
  });
  const submission = createSubmissionService({
    db,
    clock,
    documents,
    messages,
    linkSecret: options.linkSecret,
    logger: options.logger,
  });
  const submitted = submissionRouters({
    drafts,
    submission,
    storage: options.documents.storage,
    sessions,
  });
  // One draft's documents, signing and submission (Bearer: the draft's token).
  const perDraft = Router({ mergeParams: true });
  perDraft.use('/documents', documentsRouter({ drafts, documents }));
  perDraft.use('/signing', signingRouter({ drafts, signing }));
  perDraft.use('/submission', submitted.perDraft);

  const router = Router();
  // Each audit row of the request carries its id and address (api/modules/shared/audit.ts).
  router.use(auditTrace(db, clock));
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  // Before the routers, so that a request past its limit costs one counter and nothing else.
  const limit = createRateLimiters({ db, secret: options.linkSecret, logger, options: options.rateLimits });
  router.post('/drafts', limit.draftCreate);
  router.put('/drafts/:applicationNo', limit.draftSave);
  router.post('/drafts/:applicationNo/check-case', limit.caseCheck);
  router.get('/drafts/:applicationNo/pdf', limit.pdf);
  router.post('/drafts/:applicationNo/documents', limit.upload);
  router.post('/drafts/:applicationNo/signing/iamsmart', limit.signing);
  router.get('/drafts/:applicationNo/signing/ecert', limit.signing);
  router.post('/drafts/:applicationNo/signing/ecert', limit.signing);
  router.post('/drafts/:applicationNo/submission', limit.submission);
  router.get('/drafts/:applicationNo/submission/files/:fileId', limit.download);
  router.get('/submissions/:applicationNo/files/:fileId', limit.download);
  router.get('/address', limit.address);
  router.get('/verify', limit.verify);
  router.post('/verify', limit.verify);
  // Every route that sends a one-time code (docs/decisions/030-sign-in-lockouts.md).
  for (const sends of [
    '/auth/otp/send',
    '/auth/appointee/otp/send',
    '/appointee/contact/send',
    '/appointments/invitation/otp/send',
    '/drafts/resume/send',
    '/drafts/:applicationNo/contact/send',
  ])
    router.post(sends, limit.otpSend);
  // Before the 100 kB parser: drafts take bodies up to 256 kB and parse them themselves.
  // Uploads are streamed, never parsed as JSON: these come first.
  router.use('/drafts/:applicationNo', perDraft);
  router.use('/submissions', submitted.links);
  router.use('/drafts', draftsRouter({ drafts, caseCheck: createCaseCheck({ db, clock }), clock }));
  router.post('/cases/current/uploads', limit.upload);
  router.use(
    '/cases/current/uploads',
    caseUploadsRouter({
      uploads: createCaseUploadService({ db, clock, ...options.documents }),
      sessions,
    }),
  );
  // The public check of issued letters: a multipart file, so before the JSON parser.
  router.use(
    '/verify',
    verifyRouter({
      verify: createVerifyService({ db }),
      maxFileBytes: options.documents.limits.maxFileBytes,
    }),
  );
  router.use(express.json({ limit: '100kb' }));
  router.use('/address', addressRouter({ address: createAddressService(options.address) }));
  router.use('/application/history', historyRouter({ history: createHistoryService(db), sessions }));
  router.use('/application/submission', submitted.bySession);
  router.use('/application', applicationRouter(masterData));
  router.use('/auth', authRouter({ auth, sessions }));
  const cases = createCaseService({
    db,
    clock,
    calendar: createCalendarService(clock),
    messages,
    logger,
    effects: { appointment: appointments.effect, submitDocument: answerRequestEffect },
  });
  router.use('/cases/current/appointments', caseAppointmentsRouter({ appointments, sessions }));
  router.use(
    '/appointments/invitation',
    invitationRouter({
      appointments,
      signing: createAppointmentSigning({
        db,
        clock,
        appointments,
        iamSmart: options.signing.iamSmart,
        ecertTrust: options.signing.ecertTrust,
      }),
    }),
  );
  const appointee = appointeeRouters({
    auth: appointeeAuth,
    contact: createHolderContact({ db, clock, otp }),
    sessions,
  });
  router.use('/auth/appointee', appointee.login);
  router.use('/appointee/cases', appointee.cases);
  router.use('/appointee/contact', appointee.contacts);
  router.use('/cases/current/messages', caseMessagesRouter({ db, clock, sessions }));
  router.post('/cases/current/signing/iamsmart', limit.signing);
  router.post('/cases/current/signing/ecert/prepare', limit.signing);
  router.post('/cases/current/signing/ecert', limit.signing);
  router.use(
    '/cases/current/signing',
    caseSigningRouter({
      signing: createCaseSigning({
        db,
        clock,
        calendar: createCalendarService(clock),
        iamSmart: options.signing.iamSmart,
        ecertTrust: options.signing.ecertTrust,
      }),
      sessions,
    }),
  );
  router.use('/cases', casesRouter({ cases, sessions, storage: options.documents.storage }));
  // The department's console (docs/decisions/022-case-officer-console.md): staff sessions of their own.
  const staffAuth = createStaffAuthService({
    db,
    clock,
    masterData,
    secret: options.linkSecret,
    provider: options.staff?.provider,
    limits: options.staff?.limits,
  });
  const consoleService = createConsoleService({
    db,
    clock,
    calendar: createCalendarService(clock),
    messages,
    storage: options.documents.storage,
    logger,
  });
  router.use(
    '/staff',
    staffRouter({
      auth: staffAuth,
      admin: createStaffAdminService({ db, clock, gate: staffAuth.gate }),
      console: consoleService,
      decisions: decisionsRouter({
        proposals: createProposalService({ db, clock, console: consoleService }),
        notes: createInternalNoteService({ db, clock }),
      }),
      storage: options.documents.storage,
      holders: createHolderReset({ db, clock, messages, logger }),
      inbox: createInboxService({ db, clock }),
      performance: createPerformanceReader({ db, clock, calendar: createCalendarService(clock) }),
    }),
  );
  router.use('/health', healthRouter(options.health));
  if (options.devRoutes) router.use('/dev', devRouter({ db, messages, iamSmart: options.signing.iamSmart }));
  // Unknown path or method under /api: 404 envelope, never the SPA's index.html.
  router.use(notFoundHandler);
  return router;
}
