import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApp } from '../../api/app';
import type { AddressLookup } from '../../api/adapters/address';
import { tokenize } from '../../api/adapters/address-search';
import { seedAddresses } from '../../drizzle/address-seed';
import { seed } from '../../drizzle/seed';
import type { FieldError } from '../../api/http/error-handler';
import type { AddressSearchData, AlsSuggestedAddress } from '../../machines/rules/drafts';
import { type TestServer, getJson, listen } from '../support/http';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

let database: TestDatabase;
let server: TestServer;

beforeAll(async () => {
  database = await createTestDatabase({ seed: true });
  server = await listen(createApp({ db: database, logger: pino({ level: 'silent' }) }));
});

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

const search = (query: Record<string, string | string[]>, headers: Record<string, string> = {}) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  return getJson<AddressSearchData>(`${server.baseUrl}/api/address?${params.toString()}`, headers);
};

const premises = (s: AlsSuggestedAddress | undefined) => s?.Address.PremisesAddress;
const buildings = (data: AddressSearchData) =>
  data.SuggestedAddress.map((s) => premises(s)?.EngPremisesAddress.BuildingName);

describe('GET /api/address', () => {
  it('finds by building name, in the shape of the Address Lookup Service, English and Chinese', async () => {
    const res = await search({ q: 'West Kowloon Government Offices' });

    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ code: '200', message: 'Addresses found.' });
    expect(buildings(res.body.data).slice(0, 2).sort()).toEqual([
      'WEST KOWLOON GOVERNMENT OFFICES NORTH TOWER',
      'WEST KOWLOON GOVERNMENT OFFICES SOUTH TOWER',
    ]);
    const north = res.body.data.SuggestedAddress.find((s) =>
      premises(s)?.EngPremisesAddress.BuildingName?.endsWith('NORTH TOWER'),
    );
    expect(north).toEqual({
      Address: {
        PremisesAddress: {
          EngPremisesAddress: {
            BuildingName: 'WEST KOWLOON GOVERNMENT OFFICES NORTH TOWER',
            EngStreet: { StreetName: 'HOI TING ROAD', BuildingNoFrom: '11', LocationName: 'YAU MA TEI' },
            EngDistrict: { DcDistrict: 'YAU TSIM MONG DISTRICT' },
            Region: 'KLN',
          },
          ChiPremisesAddress: {
            BuildingName: '西九龍政府合署北座',
            ChiStreet: { StreetName: '海庭道', BuildingNoFrom: '11', LocationName: '油麻地' },
            ChiDistrict: { DcDistrict: '油尖旺區' },
            Region: '九龍',
          },
          GeoAddress: 'BD0001',
          GeospatialInformation: {
            Latitude: '22.3068',
            Longitude: '114.1660',
            Northing: expect.stringMatching(/^81[0-9]{4}$/) as unknown,
            Easting: expect.stringMatching(/^83[0-9]{4}$/) as unknown,
          },
        },
      },
      ValidationInformation: { Score: 100 },
    });
  });

  it('finds by street name and number, the exact building first', async () => {
    const java = await search({ q: '333 Java Road' });
    const harbour = await search({ q: 'Harbour Road 18' });

    expect(buildings(java.body.data)[0]).toBe('NORTH POINT GOVERNMENT OFFICES');
    expect(java.body.data.SuggestedAddress[0]?.ValidationInformation.Score).toBe(100);
    expect(buildings(harbour.body.data)[0]).toBe('CENTRAL PLAZA');
    expect(buildings(harbour.body.data)).toContain('WANCHAI TOWER');
  });

  it('finds a New Territories lot by demarcation district and lot number, however it is written', async () => {
    const queries = [
      'Lot No. 1234 in D.D. 112',
      'DD112 lot 1234',
      'd.d.112 lot no 1234',
      '丈量約份第112約地段第1234號',
    ];

    for (const q of queries) {
      const res = await search({ q });
      const first = premises(res.body.data.SuggestedAddress[0]);
      expect(first?.Lot, q).toEqual({
        LotNo: '1234',
        DdNo: '112',
        EngLot: 'Lot No. 1234 in D.D. 112',
        ChiLot: '丈量約份第112約地段第1234號',
      });
      expect(res.body.data.SuggestedAddress[0]?.ValidationInformation.Score, q).toBe(100);
    }
  });

  it('ranks the other lots of the same district below the exact lot', async () => {
    const res = await search({ q: 'Lot 1234 DD 112' });

    expect(res.body.data.SuggestedAddress.map((s) => premises(s)?.Lot?.LotNo)).toEqual(['1234', '1235']);
    expect(res.body.data.SuggestedAddress[1]?.ValidationInformation.Score).toBeLessThan(100);
  });

  it('finds by a Chinese query, with or without spaces and 號', async () => {
    const street = await search({ q: '海庭道11號' });
    const name = await search({ q: '政府總部' });
    const spaced = await search({ q: '添美道 2' });

    expect(premises(street.body.data.SuggestedAddress[0])?.ChiPremisesAddress.BuildingName).toMatch(
      /^西九龍政府合署/,
    );
    expect(premises(name.body.data.SuggestedAddress[0])?.ChiPremisesAddress.BuildingName).toBe('政府總部');
    expect(premises(spaced.body.data.SuggestedAddress[0])?.ChiPremisesAddress.BuildingName).toBe('政府總部');
  });

  it('answers at most n suggestions: 10 by default, n when given', async () => {
    const byDefault = await search({ q: 'government offices' });
    const three = await search({ q: 'government offices', n: '3' });
    const fifty = await search({ q: 'road', n: '50' });

    expect(byDefault.body.data.SuggestedAddress).toHaveLength(10);
    expect(three.body.data.SuggestedAddress).toHaveLength(3);
    expect(fifty.body.data.SuggestedAddress.length).toBeGreaterThan(10);
    expect(fifty.body.data.SuggestedAddress.length).toBeLessThanOrEqual(50);
  });

  it('answers 200 with an empty list, and says so, when nothing matches', async () => {
    const res = await search({ q: 'Nowhere Street 9999' }, { 'accept-language': 'zh-HK' });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      meta: { code: '200', message: '找不到符合的地址。請檢查拼寫、減少字詞，或自行輸入地址。' },
      data: { SuggestedAddress: [] },
    });
  });

  it.each<[string, Record<string, string | string[]>, string, string]>([
    ['q is missing', {}, 'q', 'Enter an address to search for.'],
    ['q is one character', { q: 'a' }, 'q', 'Enter at least 2 characters to search for an address.'],
    ['q is only spaces', { q: '     ' }, 'q', 'Enter at least 2 characters to search for an address.'],
    [
      'q is 121 characters',
      { q: 'a'.repeat(121) },
      'q',
      'Enter at most 120 characters to search for an address.',
    ],
    ['q is given twice', { q: ['road', 'street'] }, 'q', 'The address to search for must be text.'],
    ['n is 0', { q: 'road', n: '0' }, 'n', 'The number of results must be a whole number from 1 to 50.'],
    ['n is 51', { q: 'road', n: '51' }, 'n', 'The number of results must be a whole number from 1 to 50.'],
    [
      'n is not a number',
      { q: 'road', n: 'ten' },
      'n',
      'The number of results must be a whole number from 1 to 50.',
    ],
  ])('answers 400 with a field error when %s', async (_case, query, path, message) => {
    const res = await search(query);

    expect(res.status).toBe(400);
    expect((res.body.data as unknown as { errors: FieldError[] }).errors).toContainEqual({ path, message });
  });

  it('treats LIKE wildcards in the query as text', async () => {
    const res = await search({ q: '%_%_' });

    expect(res.status).toBe(200);
    expect(res.body.data.SuggestedAddress).toEqual([]);
  });
});

describe('the address table', () => {
  it('holds at least 25 real public addresses and the lots, each in English and Chinese', () => {
    const buildingsSeeded = seedAddresses.filter((a) => a.building);

    expect(buildingsSeeded.length).toBeGreaterThanOrEqual(25);
    expect(seedAddresses.filter((a) => a.lot).length).toBeGreaterThanOrEqual(3);
    for (const a of buildingsSeeded) {
      expect(a.building?.[1], a.id).toMatch(/[\u4e00-\u9fff]/);
      expect(a.street?.[1], a.id).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('is seeded idempotently: seeding again adds nothing', async () => {
    const before = await search({ q: 'road', n: '50' });

    await seed(database.db);
    const after = await search({ q: 'road', n: '50' });

    expect(after.body.data.SuggestedAddress).toHaveLength(before.body.data.SuggestedAddress.length);
  });

  it('can be replaced by another lookup (a real Address Lookup Service client)', async () => {
    const calls: [string, number][] = [];
    const fake: AddressLookup = {
      search(q, n) {
        calls.push([q, n]);
        return Promise.resolve([]);
      },
    };
    const other = await listen(createApp({ db: database, logger: pino({ level: 'silent' }), address: fake }));
    try {
      const res = await getJson(`${other.baseUrl}/api/address?q=%EF%BC%A1%EF%BC%A2%20%20C&n=5`);

      expect(res.status).toBe(200);
      expect(calls).toEqual([['AB C', 5]]);
    } finally {
      await other.close();
    }
  });
});

describe('address query tokens', () => {
  it('read lot and D.D. numbers as such, and pairs of Chinese characters', () => {
    expect(tokenize('Lot No. 1234 in D.D. 112').map((t) => `${t.kind}:${t.value}`)).toEqual([
      'lot:1234',
      'dd:112',
    ]);
    expect(tokenize('海庭道11號').map((t) => `${t.kind}:${t.value}`)).toEqual([
      'chinese:海庭',
      'chinese:庭道',
      'number:11',
    ]);
  });
});
