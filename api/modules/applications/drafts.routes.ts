import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import {
  DRAFT_BODY_LIMIT_BYTES,
  contactSendSchema,
  contactVerifySchema,
  draftCreateSchema,
  draftSaveSchema,
} from '../../../machines/rules/drafts';
import { otpSendSchema, otpVerifySchema } from '../../../machines/rules/otp';
import { SUCCESS_CODE, sendEnvelope, sendOk } from '../../http/envelope';
import { NotFoundError, UnauthorizedError } from '../../http/errors';
import { requestLanguage } from '../../http/i18n';
import { requireJson } from '../../http/require-json';
import { type Clock, systemClock } from '../../clock';
import { formByKey } from '../../../machines/forms';
import { renderApplicationPdf } from '../shared';
import { ApplicationIncompleteError } from './readiness';
import { draftSchemaFor } from '../../../machines/forms/schema';
import { caseCheckSchema } from '../../../machines/rules/selfcert';
import type { CaseCheck } from './case-check';
import type { DraftAccess, DraftService } from './drafts.service';
import { audited, record } from '../shared';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
/** What the audit log says of the codes of a resume and of a contact's confirmation. */
const RESUME = { detail: { purpose: 'resume' } } as const;
const CONTACT = { detail: { purpose: 'contact' } } as const;

/** The draft the request's bearer token opens, checked against `:applicationNo` (res.locals.draft). */
export function requireDraftToken(
  drafts: DraftService,
  options: { anyValidity?: boolean } = {},
): RequestHandler {
  return async (req, res, next) => {
    const token = BEARER.exec(req.get('authorization') ?? '')?.[1];
    res.locals.draft = await drafts.authorise(token, String(req.params.applicationNo ?? ''), options);
    next();
  };
}

export function currentDraft(res: Response): DraftAccess {
  const draft: unknown = res.locals.draft;
  if (!draft) throw new UnauthorizedError('drafts.unauthorized');
  return draft as DraftAccess;
}

/**
 * /api/drafts: save and resume. Mounted before the API's 100 kB JSON parser: creating and saving a draft
 * take bodies up to DRAFT_BODY_LIMIT_BYTES (256 kB); the resume endpoints keep 100 kB.
 */
export function draftsRouter({
  drafts,
  caseCheck,
  clock = systemClock,
}: {
  drafts: DraftService;
  /** The self-certification's case check (absent: the route answers 404). */
  caseCheck?: CaseCheck;
  clock?: Clock;
}): Router {
  const router = Router();
  const draftJson = express.json({ limit: DRAFT_BODY_LIMIT_BYTES });
  const smallJson = express.json({ limit: '100kb' });
  const authorised = requireDraftToken(drafts);

  /**
   * POST /api/drafts/resume/send  body { applicationNo, contact, lang? }
   * 200 data { resendAfterSeconds, expiresInSeconds }: the same whether or not a draft has this number
   *     and this contact (the code goes only to the contact in the draft, and only when it matches);
   * 400 BAD_REQUEST field errors or malformed JSON; 413 PAYLOAD_TOO_LARGE over 100 kB; 415 body not JSON;
   * 429 OTP_RESEND_TOO_SOON | OTP_RATE_LIMITED | OTP_LOCKED | RATE_LIMITED (`otpSend`, per address)
   *     with Retry-After and data { retryAfterSeconds }.
   */
  router.post('/resume/send', requireJson, smallJson, async (req, res) => {
    const request = otpSendSchema.parse(req.body);
    const about = { ...RESUME, reference: request.applicationNo };
    const sent = await audited(
      req,
      'otp.send',
      () => drafts.sendResumeCode(request),
      () => about,
      about,
    );
    sendOk(req, res, sent, 'drafts.resume.sent');
  });

  /**
   * POST /api/drafts/resume/verify  body { applicationNo, contact, code, lang? }
   * 200 data { token, applicationNo, formKey, step, version, validUntil }: a new token for the draft;
   * 400 BAD_REQUEST field errors; 409 DRAFT_SUBMITTED the application was submitted;
   * 410 DRAFT_EXPIRED the right code, but the draft's validity is over (the code is used up);
   * 410 OTP_EXPIRED no live code; 422 OTP_WRONG data { attemptsLeft } | OTP_BURNT;
   * 429 OTP_LOCKED with Retry-After; 413 over 100 kB; 415 body not JSON.
   */
  router.post('/resume/verify', requireJson, smallJson, async (req, res) => {
    const request = otpVerifySchema.parse(req.body);
    const resumed = await audited(
      req,
      'otp.verify',
      () => drafts.resume(request),
      () => ({ ...RESUME, reference: request.applicationNo }),
      { ...RESUME, reference: request.applicationNo },
    );
    sendOk(req, res, resumed, 'drafts.resume.verified');
  });

  /**
   * POST /api/drafts  body { formKey, answers?, step?, lang? }
   * 201 data { applicationNo, version: 1, validUntil, token } (meta.code '200'): the number is issued and
   *     `token` opens this draft (Authorization: Bearer);
   * 400 BAD_REQUEST field errors (unknown formKey, answers not an object or over a limit, bad step) or
   *     malformed JSON; 413 PAYLOAD_TOO_LARGE over 256 kB; 415 body not JSON.
   */
  router.post('/', requireJson, draftJson, async (req, res) => {
    const request = draftCreateSchema.parse(req.body);
    const created = await drafts.create(request, requestLanguage(req));
    sendEnvelope(req, res, 201, SUCCESS_CODE, 'drafts.created', created);
  });

  /**
   * GET /api/drafts/:applicationNo  (Bearer: the draft's token)
   * 200 data { applicationNo, formKey, answers, step, version, validUntil, updatedAt, verifiedContacts,
   *     submittedAt }: `verifiedContacts` { email?, mobile? } lists the contacts confirmed by a code whose
   *     answer has not changed since; `submittedAt` is when the application was submitted, else null;
   * 401 UNAUTHORIZED no token, or one that opens no draft; 403 FORBIDDEN a token of another draft (also
   * when no draft has this number); 410 DRAFT_EXPIRED the draft's validity is over.
   */
  router.get('/:applicationNo', authorised, async (req: Request, res: Response) => {
    sendOk(req, res, await drafts.read(currentDraft(res)), 'drafts.loaded');
  });

  /**
   * GET /api/drafts/:applicationNo/pdf  (Bearer: the draft's token)  ?lang=en|sc|tc
   * 200 application/pdf, Content-Disposition inline; filename="<applicationNo>.pdf", Cache-Control
   *     no-store: the application form as it stands (api/modules/shared/pdf/application-pdf.ts); labels in English
   *     and Chinese, the answers' option labels in `lang` (else Accept-Language, else English);
   * 401 UNAUTHORIZED no token, or one that opens no draft; 403 FORBIDDEN a token of another draft (also
   * when no draft has this number); 410 DRAFT_EXPIRED the draft's validity is over (JSON envelopes).
   */
  router.get('/:applicationNo/pdf', authorised, async (req: Request, res: Response) => {
    const draft = await drafts.read(currentDraft(res));
    const definition = formByKey(draft.formKey);
    // Only forms of the catalogue have drafts (validateDraftAnswers): anything else is a bug, a 500.
    if (!definition) throw new Error(`draft ${draft.applicationNo} has no form ${draft.formKey}`);
    // Answers saved before a rule existed (a character the PDF cannot print): 422 naming the fields.
    const checked = draftSchemaFor(definition).safeParse(draft.answers);
    if (!checked.success)
      throw new ApplicationIncompleteError([...new Set(checked.error.issues.map((i) => String(i.path[0])))]);
    const pdf = await renderApplicationPdf({
      definition,
      answers: draft.answers,
      applicationNo: draft.applicationNo,
      language: requestLanguage(req),
      generatedAt: clock.now(),
    });
    await record(req, { action: 'document.download', detail: { file: 'draft' } });
    res
      .status(200)
      .set({
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="${draft.applicationNo}.pdf"`,
        'Cache-Control': 'no-store',
      })
      .end(Buffer.from(pdf));
  });

  /**
   * POST /api/drafts/:applicationNo/contact/send  (Bearer)  body { channel: 'email' | 'mobile', lang? }
   * 200 data { resendAfterSeconds, expiresInSeconds, to }: a one-time code (purpose 'contact') went to the
   *     applicant's email or mobile as last saved (answers applicantEmail / applicantMobile); `to` is that
   *     address masked (`c***@example.hk`, `****4567`);
   * 400 CONTACT_MISSING data { channel }: the draft has no valid answer for the channel; 400 BAD_REQUEST
   *     field errors; 401 / 403 / 410 DRAFT_EXPIRED as for GET; 409 DRAFT_SUBMITTED;
   * 429 OTP_RESEND_TOO_SOON | OTP_RATE_LIMITED | OTP_LOCKED | RATE_LIMITED (`otpSend`, per address)
   *     with Retry-After and data { retryAfterSeconds }
   *     (the limits of the login and resume, keyed on the application number and the address).
   */
  router.post('/:applicationNo/contact/send', authorised, requireJson, smallJson, async (req, res) => {
    const request = contactSendSchema.parse(req.body);
    const sent = await audited(
      req,
      'otp.send',
      () => drafts.sendContactCode(currentDraft(res), request),
      () => CONTACT,
      CONTACT,
    );
    sendOk(req, res, sent, 'drafts.contact.sent');
  });

  /**
   * POST /api/drafts/:applicationNo/contact/verify  (Bearer)  body { channel, code, lang? }
   * 200 data { verifiedContacts: { email?, mobile? } }: the contact is recorded as verified (normalised);
   *     the answer lists every contact verified and unchanged since;
   * 400 CONTACT_MISSING | BAD_REQUEST; 401 / 403 / 410 DRAFT_EXPIRED as for GET; 409 DRAFT_SUBMITTED;
   * 410 OTP_EXPIRED no live code for this channel and address (also a code of another channel, of an
   *     address since changed, or of purpose login / resume); 422 OTP_WRONG data { attemptsLeft } |
   *     OTP_BURNT; 429 OTP_LOCKED with Retry-After.
   */
  router.post('/:applicationNo/contact/verify', authorised, requireJson, smallJson, async (req, res) => {
    const request = contactVerifySchema.parse(req.body);
    const verified = await audited(
      req,
      'otp.verify',
      () => drafts.verifyContact(currentDraft(res), request),
      () => CONTACT,
      CONTACT,
    );
    sendOk(req, res, verified, 'drafts.contact.verified');
  });

  /**
   * POST /api/drafts/:applicationNo/check-case  (Bearer)  body { answers: { caseApplicationNo,
   *     certifierIdentity?, certifierRegNo? }, lang? }: a self-certification's case, checked on leaving
   *     Part A (without the certifier) and Part B (with it), docs/flows/apply.md;
   * 200 data { caseApplicationNo }: the case takes this self-certification (from this certifier, when sent);
   * 400 BAD_REQUEST field errors at `answers.caseApplicationNo` (caseNotFound, caseTypeMismatch, caseNotOpen,
   *     lorMissing) or `answers.certifierRegNo` (notAppointee) in the caller's language, or a malformed body;
   * 401 / 403 / 410 DRAFT_EXPIRED as for GET; 404 NOT_FOUND the draft's form is not a self-certification;
   * 429 RATE_LIMITED (limit `caseCheck`); 413 over 100 kB; 415 body not JSON.
   */
  router.post('/:applicationNo/check-case', authorised, requireJson, smallJson, async (req, res) => {
    const request = caseCheckSchema.parse(req.body);
    if (!caseCheck) throw new NotFoundError();
    sendOk(req, res, await caseCheck.check(currentDraft(res), request), 'drafts.caseChecked');
  });

  /**
   * PUT /api/drafts/:applicationNo  (Bearer)  body { version, answers, step, lang? }
   * 200 data { version: n + 1, validUntil } (valid DRAFT_VALIDITY_DAYS from now);
   * 400 BAD_REQUEST field errors or malformed JSON; 401 UNAUTHORIZED; 403 FORBIDDEN (as for GET);
   * 409 DRAFT_STALE data { currentVersion, updatedAt }: `version` is not the stored one, nothing written;
   * 409 DRAFT_SUBMITTED; 410 DRAFT_EXPIRED; 413 PAYLOAD_TOO_LARGE over 256 kB; 415 body not JSON.
   * The token is checked before the body is read.
   */
  router.put('/:applicationNo', authorised, requireJson, draftJson, async (req: Request, res: Response) => {
    const request = draftSaveSchema.parse(req.body);
    sendOk(req, res, await drafts.save(currentDraft(res), request, requestLanguage(req)), 'drafts.saved');
  });

  return router;
}
