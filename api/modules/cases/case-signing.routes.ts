import { Router } from 'express';
import {
  caseIamSmartBodySchema,
  caseSigningBodySchema,
  caseSigningRequestIdSchema,
} from '../../../machines/rules/case';
import { SUCCESS_CODE, sendEnvelope, sendOk } from '../../http/envelope';
import { BadRequestError } from '../../http/errors';
import { requestLanguage } from '../../http/i18n';
import { currentSession, requireSession, authorise, ownCaseOnly, type SessionService } from '../auth';
import { SIGNATURE_MAX_BYTES } from '../signing';
import { requireJson } from '../../http/require-json';
import type { CaseSigning } from './case-signing';
import { readSmallFile, requireMultipart } from '../../http/multipart';
import { audited } from '../shared';

const IAM_SMART = { detail: { method: 'iamsmart' } } as const;
const E_CERT = { detail: { method: 'ecert' } } as const;

/** A request id in the path or header; a malformed one is 400 with the "no such signing" message. */
function requestIdOf(value: unknown): string {
  const id = caseSigningRequestIdSchema.safeParse(value);
  if (!id.success) throw new BadRequestError('signing.notFound');
  return id.data;
}

/**
 * /api/cases/current/signing (Bearer: the applicant's Find my case session or an AP's/RSE's; `case.act`):
 * signing a follow-up with a sign step before it is submitted (api/modules/cases/case-signing.ts). docs/api.md.
 * Every endpoint: 401; 403 a role that may not act, or `?applicationNo=` of another case.
 *
 * POST /iamsmart  { followUp, answers, uploads, baseVersion?, hkic? } → 201 { requestId, identificationCode,
 *      qrText, expiresAt, digest }; 400 field errors (answers.<field>, uploads), a follow-up without a sign
 *      step; 403 another case's file; 404 an unknown follow-up; 409 CASE_ACTION_NOT_ALLOWED;
 *      422 HKIC_REQUIRED (an AP/RSE gives their HKIC); 503 iAM Smart cannot be reached.
 * GET /iamsmart/:requestId → 200 { status, code?, reference? }; 400 malformed id; 404 unknown or another case's.
 * DELETE /iamsmart/:requestId → 204 (cancelled if it was pending); 400; 404.
 * POST /ecert/prepare  { followUp, answers, uploads, baseVersion? } → 200 { requestId, digest, content }
 *      (content: the text to sign with the e-Cert); the errors of POST /iamsmart but 422 and 503.
 * POST /ecert  multipart `signature` (.p7s, at most 64 kB), header X-Signing-Request → 200 { reference };
 *      404 no open e-Cert request; 413; 415; 422 SIGNER_MISMATCH (names who must sign) | ECERT_REJECTED.
 */
export function caseSigningRouter({
  signing,
  sessions,
}: {
  signing: CaseSigning;
  sessions: SessionService;
}): Router {
  const router = Router();
  router.use(requireSession(sessions), ownCaseOnly, authorise('case.act'));
  router.post('/iamsmart', requireJson, async (req, res) => {
    const body = caseIamSmartBodySchema.parse(req.body);
    const started = await audited(
      req,
      'signing.start',
      () => signing.startIamSmart(currentSession(res), body, requestLanguage(req)),
      () => IAM_SMART,
    );
    sendEnvelope(req, res, 201, SUCCESS_CODE, 'signing.started', started);
  });
  router.get('/iamsmart/:requestId', async (req, res) => {
    sendOk(req, res, await signing.iamSmartStatus(currentSession(res), requestIdOf(req.params.requestId)));
  });
  router.delete('/iamsmart/:requestId', async (req, res) => {
    await signing.cancelIamSmart(currentSession(res), requestIdOf(req.params.requestId));
    res.status(204).end();
  });
  router.post('/ecert/prepare', requireJson, async (req, res) => {
    const body = caseSigningBodySchema.parse(req.body);
    const prepared = await audited(
      req,
      'signing.start',
      () => signing.prepareEcert(currentSession(res), body, requestLanguage(req)),
      () => E_CERT,
    );
    sendOk(req, res, prepared);
  });
  router.post('/ecert', async (req, res) => {
    const requestId = requestIdOf(req.get('x-signing-request'));
    requireMultipart(req);
    const signature = await readSmallFile(req, 'signature', SIGNATURE_MAX_BYTES);
    const signed = await audited(
      req,
      'signing.complete',
      () => signing.verifyEcert(currentSession(res), requestId, signature),
      () => E_CERT,
    );
    sendOk(req, res, signed, 'signing.ecert.signed');
  });
  return router;
}
