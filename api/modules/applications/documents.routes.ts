import { Router } from 'express';
import { z } from 'zod';
import { SUCCESS_CODE, sendEnvelope, sendOk } from '../../http/envelope';
import { BadRequestError } from '../../http/errors';
import type { DocumentService } from './documents.service';
import type { DraftService } from './drafts.service';
import { currentDraft, requireDraftToken } from './drafts.routes';
import { receiveUpload } from '../../http/multipart';
import { audited } from '../shared';

const documentTypeParam = z.string().regex(/^[A-Za-z0-9]{1,60}$/);

/**
 * /api/drafts/:applicationNo/documents (Bearer: the draft's token): list, upload (streamed by
 * api/modules/shared/uploads/upload-receiver.ts, so mounted before the JSON parser) and remove. Answers: docs/api.md.
 */
export function documentsRouter({
  drafts,
  documents,
}: {
  drafts: DraftService;
  documents: DocumentService;
}): Router {
  const router = Router({ mergeParams: true });
  const authorised = requireDraftToken(drafts);
  router.get('/', authorised, async (req, res) => {
    sendOk(req, res, await documents.list(currentDraft(res)));
  });
  router.post('/', authorised, async (req, res) => {
    const saved = await audited(
      req,
      'document.upload',
      () => receiveUpload(req, res, () => documents.upload(currentDraft(res), req)),
      (made) => ({ detail: { documentType: made.documentType } }),
    );
    sendEnvelope(req, res, 201, SUCCESS_CODE, 'documents.uploaded', saved);
  });
  router.delete('/:documentType', authorised, async (req, res) => {
    const type = documentTypeParam.safeParse(req.params.documentType);
    if (!type.success) throw new BadRequestError('documents.typeUnknown');
    await documents.remove(currentDraft(res), type.data);
    res.status(204).end();
  });

  return router;
}
