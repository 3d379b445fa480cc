import express, { Router } from 'express';
import { z } from 'zod';
import { SUCCESS_CODE, sendEnvelope, sendOk } from '../../http/envelope';
import { BadRequestError } from '../../http/errors';
import { requestLanguage } from '../../http/i18n';
import type { DraftService } from './drafts.service';
import type { SigningService } from './application-signing';
import { currentDraft, requireDraftToken } from './drafts.routes';
import { readSmallFile, requireMultipart } from '../../http/multipart';
import { SIGNATURE_MAX_BYTES } from '../signing';
import { audited } from '../shared';

const requestIdParam = z.string().regex(/^[0-9a-f]{32}$/);

/** /api/drafts/:applicationNo/signing/{iamsmart,ecert} (Bearer: the draft's token). Answers: docs/api.md. */
export function signingRouter({
  drafts,
  signing,
}: {
  drafts: DraftService;
  signing: SigningService;
}): Router {
  const router = Router({ mergeParams: true });
  const authorised = requireDraftToken(drafts);
  const smallJson = express.json({ limit: '10kb' });
  router.post('/iamsmart', authorised, smallJson, async (req, res) => {
    const started = await audited(
      req,
      'signing.start',
      () => signing.startIamSmart(currentDraft(res), requestLanguage(req)),
      () => ({ detail: { method: 'iamsmart' } }),
    );
    sendEnvelope(req, res, 201, SUCCESS_CODE, 'signing.started', started);
  });
  router.get('/iamsmart/:requestId', authorised, async (req, res) => {
    const id = requestIdParam.safeParse(req.params.requestId);
    if (!id.success) throw new BadRequestError('signing.notFound');
    sendOk(req, res, await signing.iamSmartStatus(currentDraft(res), id.data));
  });
  router.delete('/iamsmart/:requestId', authorised, async (req, res) => {
    const id = requestIdParam.safeParse(req.params.requestId);
    if (!id.success) throw new BadRequestError('signing.notFound');
    await signing.cancelIamSmart(currentDraft(res), id.data);
    res.status(204).end();
  });
  router.get('/ecert', authorised, async (req, res) => {
    const prepared = await audited(
      req,
      'signing.start',
      () => signing.prepareEcert(currentDraft(res), requestLanguage(req)),
      () => ({ detail: { method: 'ecert' } }),
    );
    sendOk(req, res, prepared);
  });
  router.post('/ecert', authorised, async (req, res) => {
    requireMultipart(req);
    const signature = await readSmallFile(req, 'signature', SIGNATURE_MAX_BYTES);
    const signed = await audited(
      req,
      'signing.complete',
      () => signing.verifyEcert(currentDraft(res), signature),
      () => ({ detail: { method: 'ecert' } }),
    );
    sendOk(req, res, signed, 'signing.ecert.signed');
  });

  return router;
}
