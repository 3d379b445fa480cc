import { asc, ilike, or } from 'drizzle-orm';
import { REGION_ZH, chineseLot, englishLot } from '../../drizzle/address-seed';
import type { Db } from '../../drizzle/db';
import { type AddressRow, addresses } from '../../drizzle/schema';
import type { AlsSuggestedAddress } from '../../machines/rules/drafts';
import {
  MIN_SCORE,
  type SearchableAddress,
  candidatePatterns,
  score,
  tokenize,
  wordsOf,
} from './address-search';

/**
 * Address search, in the shape of the government's Address Lookup Service (ALS): `GET /lookup?q=&n=`
 * answers `SuggestedAddress[]`, best first. The default here searches the seeded table `addresses`; a
 * client of the real ALS implements the same interface and is passed to `createApp({ address })`.
 */
export interface AddressLookup {
  /** At most `n` suggestions for the free text `q`, best first; [] when nothing matches. */
  search(q: string, n: number): Promise<AlsSuggestedAddress[]>;
}

/** Most rows a query reads before scoring (the table is small; this bounds a query such as `1`). */
const MAX_CANDIDATES = 1_000;

const REGION_WORDS: Record<string, string> = { HK: 'hong kong', KLN: 'kowloon', NT: 'new territories' };

/**
 * HK 1980 Grid from WGS 84 latitude and longitude: a linear approximation around the grid's origin,
 * within a few metres across Hong Kong, enough for the approximate points of the seeded table.
 */
export function hk1980Grid(latitude: number, longitude: number): { northing: number; easting: number } {
  const originLat = 22.312133;
  const originLon = 114.178556;
  // Metres per degree of latitude and of longitude at 22.3° N.
  const northing = 819069.8 + (latitude - originLat) * 110_734;
  const easting = 836694.05 + (longitude - originLon) * 103_035;
  return { northing: Math.round(northing), easting: Math.round(easting) };
}

function searchable(row: AddressRow): SearchableAddress {
  const english = [
    row.buildingNameEn,
    row.estateNameEn,
    row.blockEn,
    row.streetNameEn,
    row.buildingNoFrom,
    row.buildingNoTo,
    row.locationEn,
    row.districtEn,
    REGION_WORDS[row.region],
  ]
    .filter(Boolean)
    .join(' ');
  const { words, numbers } = wordsOf(english);
  return {
    words,
    numbers,
    lotNo: row.lotNo,
    ddNo: row.ddNo,
    chinese: row.searchText.slice(row.searchText.indexOf('|') + 1),
  };
}

const street = (name: string | null, from: string | null, to: string | null, location: string | null) =>
  name
    ? {
        StreetName: name,
        ...(from ? { BuildingNoFrom: from } : {}),
        ...(to && to !== from ? { BuildingNoTo: to } : {}),
        ...(location ? { LocationName: location } : {}),
      }
    : undefined;

/** A row in ALS's shape (fields ALS leaves out when empty are left out here too). */
export function toSuggestedAddress(row: AddressRow, matchScore: number): AlsSuggestedAddress {
  const engStreet = street(row.streetNameEn, row.buildingNoFrom, row.buildingNoTo, row.locationEn);
  const chiStreet = street(row.streetNameZh, row.buildingNoFrom, row.buildingNoTo, row.locationZh);
  const grid =
    row.latitude !== null && row.longitude !== null ? hk1980Grid(row.latitude, row.longitude) : undefined;
  const lot = row.lotNo && row.ddNo ? { lotNo: row.lotNo, ddNo: row.ddNo } : undefined;
  return {
    Address: {
      PremisesAddress: {
        EngPremisesAddress: {
          ...(row.buildingNameEn ? { BuildingName: row.buildingNameEn } : {}),
          ...(row.estateNameEn ? { EngEstate: { EstateName: row.estateNameEn } } : {}),
          ...(row.blockEn ? { EngBlock: { BlockDescriptor: row.blockEn } } : {}),
          ...(engStreet ? { EngStreet: engStreet } : {}),
          EngDistrict: { DcDistrict: row.districtEn },
          Region: row.region,
        },
        ChiPremisesAddress: {
          ...(row.buildingNameZh ? { BuildingName: row.buildingNameZh } : {}),
          ...(row.estateNameZh ? { ChiEstate: { EstateName: row.estateNameZh } } : {}),
          ...(row.blockZh ? { ChiBlock: { BlockDescriptor: row.blockZh } } : {}),
          ...(chiStreet ? { ChiStreet: chiStreet } : {}),
          ChiDistrict: { DcDistrict: row.districtZh },
          Region: REGION_ZH[row.region] ?? row.region,
        },
        GeoAddress: row.geoAddress,
        ...(grid && row.latitude !== null && row.longitude !== null
          ? {
              GeospatialInformation: {
                Latitude: row.latitude.toFixed(4),
                Longitude: row.longitude.toFixed(4),
                Northing: String(grid.northing),
                Easting: String(grid.easting),
              },
            }
          : {}),
        ...(lot
          ? {
              Lot: {
                LotNo: lot.lotNo,
                DdNo: lot.ddNo,
                EngLot: englishLot(lot),
                ChiLot: chineseLot(lot),
              },
            }
          : {}),
      },
    },
    ValidationInformation: { Score: matchScore },
  };
}

/** The default lookup: the seeded `addresses` table, matched and scored by services/address-search.ts. */
export function seededAddressLookup(db: Db): AddressLookup {
  return {
    async search(q, n) {
      const tokens = tokenize(q);
      const patterns = candidatePatterns(tokens);
      if (patterns.length === 0) return [];
      const rows = await db
        .select()
        .from(addresses)
        .where(or(...patterns.map((pattern) => ilike(addresses.searchText, pattern))))
        .orderBy(asc(addresses.id))
        .limit(MAX_CANDIDATES);
      return rows
        .map((row) => ({ row, score: score(tokens, searchable(row)) }))
        .filter((candidate) => candidate.score >= MIN_SCORE)
        .sort((a, b) => b.score - a.score || a.row.id - b.row.id)
        .slice(0, n)
        .map((candidate) => toSuggestedAddress(candidate.row, candidate.score));
    },
  };
}
