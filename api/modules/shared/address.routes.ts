import { Router } from 'express';
import { addressQuerySchema } from '../../../machines/rules/drafts';
import { sendOk } from '../../http/envelope';
import type { AddressService } from './address';

export function addressRouter({ address }: { address: AddressService }): Router {
  const router = Router();

  /**
   * GET /api/address?q=…&n=…  (no authentication)
   * 200 data { SuggestedAddress: [{ Address: { PremisesAddress: { EngPremisesAddress, ChiPremisesAddress,
   *     GeoAddress, GeospatialInformation?, Lot? } }, ValidationInformation: { Score } }] }, best first, at
   *     most n (default 10, at most 50); an empty list when nothing matches (meta.message says so);
   * 400 BAD_REQUEST q missing, shorter than 2 or longer than 120 characters, or n not 1 to 50.
   */
  router.get('/', async (req, res) => {
    const query = addressQuerySchema.parse(req.query);
    const data = await address.search(query);
    sendOk(req, res, data, data.SuggestedAddress.length > 0 ? 'address.found' : 'address.none');
  });

  return router;
}
