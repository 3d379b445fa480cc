import { Router } from 'express';
import { z } from 'zod';
import { SUCCESS_CODE, sendEnvelope, sendOk } from '../../http/envelope';
import { currentSession, requireSession, authorise, type SessionService } from '../auth';
import { uploadFollowUpOf, type CaseUploadService } from './case-uploads';
import { receiveUpload } from '../../http/multipart';
import { audited } from '../shared';

const idParam = z.coerce.number().int().positive().max(2_147_483_647);

/**
 * /api/cases/current/uploads (Bearer: a Find my case or AP/RSE session): the files of a follow-up's upload
 * step, streamed (mounted before the JSON parser). docs/api.md.
 *
 * GET /?forType=&requestId=: 200 data CaseUploadListData (the files waiting for that follow-up — the
 * document type chosen on its form and the request it answers — oldest first, and the limits); 400 no type.
 * POST / multipart (`documentType`, `forType`, optional `requestId`, then `file`): 201 data CaseUploadData;
 * 400 an unknown type, no follow-up type, no file; 401; 403 role; 409 DOCUMENT_DUPLICATE (the same content
 * already in this follow-up); 413 past a limit (the total: this follow-up's files); 422 DOCUMENT_INVALID
 * (not a landscape A4/A3 PDF, infected); 503 busy.
 * DELETE /:id: 204; 400 a malformed id; 404 not a file of this case waiting for its follow-up.
 */
export function caseUploadsRouter({
  uploads,
  sessions,
}: {
  uploads: CaseUploadService;
  sessions: SessionService;
}): Router {
  const router = Router();
  router.use(requireSession(sessions), authorise('case.act'));
  router.get('/', async (req, res) => {
    sendOk(req, res, await uploads.list(currentSession(res), uploadFollowUpOf(req.query)));
  });
  router.post('/', async (req, res) => {
    const saved = await audited(req, 'document.upload', () =>
      receiveUpload(req, res, () => uploads.upload(currentSession(res), req)),
    );
    sendEnvelope(req, res, 201, SUCCESS_CODE, 'documents.uploaded', saved);
  });
  router.delete('/:id', async (req, res) => {
    await uploads.remove(currentSession(res), idParam.parse(req.params.id));
    res.status(204).end();
  });
  return router;
}
