import { Router } from 'express';
import { masterDataQuerySchema } from '../../../machines/rules/master-data';
import { sendOk } from '../../http/envelope';
import { requireJson } from '../../http/require-json';
import type { MasterDataService } from './master-data';

export function applicationRouter(masterData: MasterDataService): Router {
  const router = Router();

  /**
   * POST /api/application/getmasterdata  body { type, code }
   * 200 `data` = [{ dataValue, type, code, description }] ordered by sortOrder ([] for an unknown pair);
   * 400 missing, empty, too long, non-text or badly formed type/code, or malformed JSON (field errors);
   * 413 body over 100 kB; 415 body not JSON; 500 unexpected.
   */
  router.post('/getmasterdata', requireJson, async (req, res) => {
    const query = masterDataQuerySchema.parse(req.body);
    sendOk(req, res, await masterData.find(query));
  });

  return router;
}
