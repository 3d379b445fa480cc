import { Router } from 'express';
import { formatHkDate } from '../../../machines/rules/dates';
import { type VerifyAnswer, verifyQuerySchema, verifyReferenceSchema } from '../../../machines/rules/verify';
import { SUCCESS_CODE, sendEnvelope } from '../../http/envelope';
import { type ApiMessageKey, requestLanguage, translate } from '../../http/i18n';
import { readSmallUpload, requireMultipart } from '../../http/multipart';
import type { Request, Response } from 'express';
import type { VerifyService } from './verify.service';

/** The answer's sentence, in the caller's language, with the dates in Hong Kong time. */
function send(req: Request, res: Response, answer: VerifyAnswer) {
  const lang = requestLanguage(req);
  const date = answer.issuedOn ? formatHkDate(answer.issuedOn, lang) : '';
  let key: ApiMessageKey;
  if (!answer.issued && answer.fileMatches === false)
    key = answer.kind ? 'verify.fileChanged' : 'verify.fileNotIssued';
  else if (!answer.issued) key = 'verify.notIssued';
  else key = answer.standing === 'STANDS' ? 'verify.stands' : 'verify.ended';
  sendEnvelope(req, res, 200, SUCCESS_CODE, key, answer, {
    date,
    since: answer.standingSince ? formatHkDate(answer.standingSince, lang) : '',
    standing:
      answer.standing && answer.standing !== 'STANDS'
        ? translate(lang, `verify.standing.${answer.standing}`)
        : '',
  });
}

export function verifyRouter({
  verify,
  maxFileBytes,
}: {
  verify: VerifyService;
  maxFileBytes: number;
}): Router {
  const router = Router();

  /**
   * GET /api/verify?reference=LOR-…  (no authentication; rate-limited)
   * 200 data VerifyAnswer (machines/rules/verify.ts): issued or not, kind, issuedOn, standing and since
   *     (Hong Kong dates), no personal data; meta.message says it in a sentence;
   * 400 BAD_REQUEST reference missing or not a reference.
   */
  router.get('/', async (req, res) => {
    const { reference } = verifyQuerySchema.parse(req.query);
    send(req, res, await verify.byReference(reference));
  });

  /**
   * POST /api/verify  multipart/form-data: file (the PDF, at most UPLOAD_MAX_FILE_MB), reference (optional)
   * 200 data VerifyAnswer with fileMatches: the file's SHA-256 against the stored sealed letter's;
   * 400 no file, or a reference that is not one; 413 file too large; 415 not multipart.
   */
  router.post('/', async (req, res) => {
    requireMultipart(req);
    const { file, fields } = await readSmallUpload(req, 'file', maxFileBytes, {
      tooLarge: 'verify.tooLarge',
      noFile: 'verify.noFile',
    });
    const given = fields.reference?.trim() ? verifyReferenceSchema.parse(fields.reference) : null;
    send(req, res, await verify.byFile(file, given));
  });

  return router;
}
