import type { AddressQuery, AddressSearchData } from '../../../machines/rules/drafts';
import type { AddressLookup } from '../../adapters/address';

/** The address search behind GET /api/address: the lookup (the seeded table, or the real ALS) in ALS's shape. */
export interface AddressService {
  search(query: AddressQuery): Promise<AddressSearchData>;
}

export function createAddressService(lookup: AddressLookup): AddressService {
  return {
    async search({ q, n }) {
      return { SuggestedAddress: await lookup.search(q, n) };
    },
  };
}
