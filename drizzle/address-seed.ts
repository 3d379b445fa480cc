import type { Db } from './db';
import { type NewAddressRow, addresses } from './schema';

/**
 * Public Hong Kong addresses for the address search (GET /api/address): government offices, town halls,
 * libraries, museums and theatres, plus the buildings DOMAIN.md names. Names and street addresses are
 * the public ones; latitude and longitude are approximate (to about 100 m) and only for display.
 *
 * The New Territories lot entries at the end are SAMPLES: "Lot No. 1234 in D.D. 112" is how a lot is
 * written, but public buildings mostly stand on unleased government land, which has no lot number, and a
 * leased lot is usually someone's property, so no real lot is listed here. They let the search by
 * demarcation district and lot be used and tested; the real Address Lookup Service adapter replaces
 * this table (docs/decisions/007-drafts.md).
 */
export interface SeedAddress {
  id: string;
  building?: [en: string, zh: string];
  street?: [en: string, zh: string];
  /** Building number, or a range such as '18-20'. */
  number?: string;
  location?: [en: string, zh: string];
  district: District;
  lot?: { lotNo: string; ddNo: string };
  at?: [latitude: number, longitude: number];
}

type District = keyof typeof DISTRICTS;

/** The 18 District Council districts, as ALS names them, and their region. */
export const DISTRICTS = {
  CW: { en: 'CENTRAL & WESTERN DISTRICT', zh: '中西區', region: 'HK' },
  WC: { en: 'WAN CHAI DISTRICT', zh: '灣仔區', region: 'HK' },
  E: { en: 'EASTERN DISTRICT', zh: '東區', region: 'HK' },
  S: { en: 'SOUTHERN DISTRICT', zh: '南區', region: 'HK' },
  YTM: { en: 'YAU TSIM MONG DISTRICT', zh: '油尖旺區', region: 'KLN' },
  SSP: { en: 'SHAM SHUI PO DISTRICT', zh: '深水埗區', region: 'KLN' },
  KC: { en: 'KOWLOON CITY DISTRICT', zh: '九龍城區', region: 'KLN' },
  WTS: { en: 'WONG TAI SIN DISTRICT', zh: '黃大仙區', region: 'KLN' },
  KT: { en: 'KWUN TONG DISTRICT', zh: '觀塘區', region: 'KLN' },
  TW: { en: 'TSUEN WAN DISTRICT', zh: '荃灣區', region: 'NT' },
  TM: { en: 'TUEN MUN DISTRICT', zh: '屯門區', region: 'NT' },
  YL: { en: 'YUEN LONG DISTRICT', zh: '元朗區', region: 'NT' },
  N: { en: 'NORTH DISTRICT', zh: '北區', region: 'NT' },
  TP: { en: 'TAI PO DISTRICT', zh: '大埔區', region: 'NT' },
  SK: { en: 'SAI KUNG DISTRICT', zh: '西貢區', region: 'NT' },
  ST: { en: 'SHA TIN DISTRICT', zh: '沙田區', region: 'NT' },
  KTS: { en: 'KWAI TSING DISTRICT', zh: '葵青區', region: 'NT' },
  IS: { en: 'ISLANDS DISTRICT', zh: '離島區', region: 'NT' },
} as const;

export const REGION_ZH: Record<string, string> = { HK: '香港', KLN: '九龍', NT: '新界' };

export const seedAddresses: readonly SeedAddress[] = [
  {
    id: 'BD0001',
    building: ['WEST KOWLOON GOVERNMENT OFFICES NORTH TOWER', '西九龍政府合署北座'],
    street: ['HOI TING ROAD', '海庭道'],
    number: '11',
    location: ['YAU MA TEI', '油麻地'],
    district: 'YTM',
    at: [22.3068, 114.166],
  },
  {
    id: 'BD0002',
    building: ['WEST KOWLOON GOVERNMENT OFFICES SOUTH TOWER', '西九龍政府合署南座'],
    street: ['HOI TING ROAD', '海庭道'],
    number: '11',
    location: ['YAU MA TEI', '油麻地'],
    district: 'YTM',
    at: [22.3063, 114.1662],
  },
  {
    id: 'BD0003',
    building: ['CENTRAL GOVERNMENT OFFICES', '政府總部'],
    street: ['TIM MEI AVENUE', '添美道'],
    number: '2',
    location: ['ADMIRALTY', '金鐘'],
    district: 'CW',
    at: [22.2806, 114.1653],
  },
  {
    id: 'BD0004',
    building: ['SOUTHORN CENTRE', '修頓中心'],
    street: ['HENNESSY ROAD', '軒尼詩道'],
    number: '130',
    location: ['WAN CHAI', '灣仔'],
    district: 'WC',
    at: [22.2776, 114.1726],
  },
  {
    id: 'BD0005',
    building: ['NORTH POINT GOVERNMENT OFFICES', '北角政府合署'],
    street: ['JAVA ROAD', '渣華道'],
    number: '333',
    location: ['NORTH POINT', '北角'],
    district: 'E',
    at: [22.2912, 114.1996],
  },
  {
    id: 'BD0006',
    building: ['FOCAL INDUSTRIAL CENTRE', '富高工業中心'],
    street: ['MAN LOK STREET', '民樂街'],
    number: '21',
    location: ['HUNG HOM', '紅磡'],
    district: 'KC',
    at: [22.304, 114.1887],
  },
  {
    id: 'BD0007',
    building: ['CENTRAL PLAZA', '中央廣場'],
    street: ['HARBOUR ROAD', '港灣道'],
    number: '18',
    location: ['WAN CHAI', '灣仔'],
    district: 'WC',
    at: [22.2797, 114.1738],
  },
  {
    id: 'BD0008',
    building: ['HONG KONG CENTRAL LIBRARY', '香港中央圖書館'],
    street: ['CAUSEWAY ROAD', '高士威道'],
    number: '66',
    location: ['CAUSEWAY BAY', '銅鑼灣'],
    district: 'WC',
    at: [22.2803, 114.1892],
  },
  {
    id: 'BD0009',
    building: ['QUEENSWAY GOVERNMENT OFFICES', '金鐘道政府合署'],
    street: ['QUEENSWAY', '金鐘道'],
    number: '66',
    location: ['ADMIRALTY', '金鐘'],
    district: 'CW',
    at: [22.2784, 114.1653],
  },
  {
    id: 'BD0010',
    building: ['IMMIGRATION TOWER', '入境事務大樓'],
    street: ['GLOUCESTER ROAD', '告士打道'],
    number: '7',
    location: ['WAN CHAI', '灣仔'],
    district: 'WC',
    at: [22.2802, 114.172],
  },
  {
    id: 'BD0011',
    building: ['REVENUE TOWER', '稅務大樓'],
    street: ['GLOUCESTER ROAD', '告士打道'],
    number: '5',
    location: ['WAN CHAI', '灣仔'],
    district: 'WC',
    at: [22.2801, 114.1715],
  },
  {
    id: 'BD0012',
    building: ['WANCHAI TOWER', '灣仔政府大樓'],
    street: ['HARBOUR ROAD', '港灣道'],
    number: '12',
    location: ['WAN CHAI', '灣仔'],
    district: 'WC',
    at: [22.2809, 114.1727],
  },
  {
    id: 'BD0013',
    building: ['HARBOUR BUILDING', '海港政府大樓'],
    street: ['PIER ROAD', '統一碼頭道'],
    number: '38',
    location: ['CENTRAL', '中環'],
    district: 'CW',
    at: [22.2868, 114.1545],
  },
  {
    id: 'BD0014',
    building: ['MONGKOK GOVERNMENT OFFICES', '旺角政府合署'],
    street: ['LUEN WAN STREET', '聯運街'],
    number: '30',
    location: ['MONG KOK', '旺角'],
    district: 'YTM',
    at: [22.3216, 114.1718],
  },
  {
    id: 'BD0015',
    building: ['CHEUNG SHA WAN GOVERNMENT OFFICES', '長沙灣政府合署'],
    street: ['CHEUNG SHA WAN ROAD', '長沙灣道'],
    number: '303',
    location: ['CHEUNG SHA WAN', '長沙灣'],
    district: 'SSP',
    at: [22.3337, 114.1598],
  },
  {
    id: 'BD0016',
    building: ['KOWLOON GOVERNMENT OFFICES', '九龍政府合署'],
    street: ['NATHAN ROAD', '彌敦道'],
    number: '405',
    location: ['YAU MA TEI', '油麻地'],
    district: 'YTM',
    at: [22.3087, 114.1712],
  },
  {
    id: 'BD0017',
    building: ['SHA TIN GOVERNMENT OFFICES', '沙田政府合署'],
    street: ['SHEUNG WO CHE ROAD', '上禾輋路'],
    number: '1',
    location: ['SHA TIN', '沙田'],
    district: 'ST',
    at: [22.3812, 114.1879],
  },
  {
    id: 'BD0018',
    building: ['TSUEN WAN GOVERNMENT OFFICES', '荃灣政府合署'],
    street: ['SAI LAU KOK ROAD', '西樓角路'],
    number: '38',
    location: ['TSUEN WAN', '荃灣'],
    district: 'TW',
    at: [22.3718, 114.115],
  },
  {
    id: 'BD0019',
    building: ['TUEN MUN GOVERNMENT OFFICES', '屯門政府合署'],
    street: ['TUEN HI ROAD', '屯喜路'],
    number: '1',
    location: ['TUEN MUN', '屯門'],
    district: 'TM',
    at: [22.3917, 113.9768],
  },
  {
    id: 'BD0020',
    building: ['YUEN LONG GOVERNMENT OFFICES', '元朗政府合署'],
    street: ['KIU LOK SQUARE', '橋樂坊'],
    number: '2',
    location: ['YUEN LONG', '元朗'],
    district: 'YL',
    at: [22.4448, 114.0287],
  },
  {
    id: 'BD0021',
    building: ['TAI PO GOVERNMENT OFFICES', '大埔政府合署'],
    street: ['TING KOK ROAD', '汀角路'],
    number: '1',
    location: ['TAI PO', '大埔'],
    district: 'TP',
    at: [22.4506, 114.17],
  },
  {
    id: 'BD0022',
    building: ['NORTH DISTRICT GOVERNMENT OFFICES', '北區政府合署'],
    street: ['PIK FUNG ROAD', '璧峰路'],
    number: '3',
    location: ['FANLING', '粉嶺'],
    district: 'N',
    at: [22.4966, 114.1405],
  },
  {
    id: 'BD0023',
    building: ['SAI KUNG GOVERNMENT OFFICES', '西貢政府合署'],
    street: ['CHAN MAN STREET', '親民街'],
    number: '34',
    location: ['SAI KUNG', '西貢'],
    district: 'SK',
    at: [22.3816, 114.2707],
  },
  {
    id: 'BD0024',
    building: ['KOWLOON EAST GOVERNMENT OFFICES', '九龍東政府合署'],
    street: ['LEI YUE MUN ROAD', '鯉魚門道'],
    number: '12',
    location: ['KWUN TONG', '觀塘'],
    district: 'KT',
    at: [22.3104, 114.2265],
  },
  {
    id: 'BD0025',
    building: ['HONG KONG CITY HALL', '香港大會堂'],
    street: ['EDINBURGH PLACE', '愛丁堡廣場'],
    number: '5',
    location: ['CENTRAL', '中環'],
    district: 'CW',
    at: [22.2818, 114.1614],
  },
  {
    id: 'BD0026',
    building: ['KOWLOON PUBLIC LIBRARY', '九龍公共圖書館'],
    street: ['PUI CHING ROAD', '培正道'],
    number: '5',
    location: ['HO MAN TIN', '何文田'],
    district: 'KC',
    at: [22.317, 114.1799],
  },
  {
    id: 'BD0027',
    building: ['SHA TIN TOWN HALL', '沙田大會堂'],
    street: ['YUEN WO ROAD', '源禾路'],
    number: '1',
    location: ['SHA TIN', '沙田'],
    district: 'ST',
    at: [22.3815, 114.1873],
  },
  {
    id: 'BD0028',
    building: ['TSUEN WAN TOWN HALL', '荃灣大會堂'],
    street: ['TAI HO ROAD', '大河道'],
    number: '72',
    location: ['TSUEN WAN', '荃灣'],
    district: 'TW',
    at: [22.3731, 114.1161],
  },
  {
    id: 'BD0029',
    building: ['TUEN MUN TOWN HALL', '屯門大會堂'],
    street: ['TUEN HI ROAD', '屯喜路'],
    number: '3',
    location: ['TUEN MUN', '屯門'],
    district: 'TM',
    at: [22.392, 113.9762],
  },
  {
    id: 'BD0030',
    building: ['KWAI TSING THEATRE', '葵青劇院'],
    street: ['HING NING ROAD', '興寧路'],
    number: '12',
    location: ['KWAI CHUNG', '葵涌'],
    district: 'KTS',
    at: [22.3572, 114.1285],
  },
  {
    id: 'BD0031',
    building: ['KO SHAN THEATRE', '高山劇場'],
    street: ['KO SHAN ROAD', '高山道'],
    number: '77',
    location: ['HUNG HOM', '紅磡'],
    district: 'KC',
    at: [22.313, 114.186],
  },
  {
    id: 'BD0032',
    building: ['HONG KONG CULTURAL CENTRE', '香港文化中心'],
    street: ['SALISBURY ROAD', '梳士巴利道'],
    number: '10',
    location: ['TSIM SHA TSUI', '尖沙咀'],
    district: 'YTM',
    at: [22.2938, 114.1701],
  },
  {
    id: 'BD0033',
    building: ['HONG KONG HERITAGE MUSEUM', '香港文化博物館'],
    street: ['MAN LAM ROAD', '文林路'],
    number: '1',
    location: ['SHA TIN', '沙田'],
    district: 'ST',
    at: [22.377, 114.1853],
  },
  {
    id: 'BD0034',
    building: ['HONG KONG MUSEUM OF HISTORY', '香港歷史博物館'],
    street: ['CHATHAM ROAD SOUTH', '漆咸道南'],
    number: '100',
    location: ['TSIM SHA TSUI', '尖沙咀'],
    district: 'YTM',
    at: [22.3018, 114.1773],
  },
  {
    id: 'BD0035',
    building: ['HONG KONG SCIENCE MUSEUM', '香港科學館'],
    street: ['SCIENCE MUSEUM ROAD', '科學館道'],
    number: '2',
    location: ['TSIM SHA TSUI EAST', '尖沙咀東部'],
    district: 'YTM',
    at: [22.3013, 114.1776],
  },
  {
    id: 'BD0036',
    building: ['SHEUNG WAN MUNICIPAL SERVICES BUILDING', '上環市政大廈'],
    street: ["QUEEN'S ROAD CENTRAL", '皇后大道中'],
    number: '345',
    location: ['SHEUNG WAN', '上環'],
    district: 'CW',
    at: [22.2862, 114.1497],
  },
  // Samples of New Territories lots (see above): not real lots.
  { id: 'BDLOT01', lot: { lotNo: '1234', ddNo: '112' }, location: ['KAM TIN', '錦田'], district: 'YL' },
  { id: 'BDLOT02', lot: { lotNo: '1235', ddNo: '112' }, location: ['KAM TIN', '錦田'], district: 'YL' },
  { id: 'BDLOT03', lot: { lotNo: '567', ddNo: '130' }, location: ['LAM TEI', '藍地'], district: 'TM' },
  { id: 'BDLOT04', lot: { lotNo: '2041', ddNo: '92' }, location: ['KWU TUNG', '古洞'], district: 'N' },
  { id: 'BDLOT05', lot: { lotNo: '315', ddNo: '215' }, location: ['SAI KUNG', '西貢'], district: 'SK' },
];

/** 'Lot No. 1234 in D.D. 112' */
export const englishLot = (lot: { lotNo: string; ddNo: string }) =>
  `Lot No. ${lot.lotNo} in D.D. ${lot.ddNo}`;
/** '丈量約份第112約地段第1234號' */
export const chineseLot = (lot: { lotNo: string; ddNo: string }) =>
  `丈量約份第${lot.ddNo}約地段第${lot.lotNo}號`;

/** The row of a seed address, with the lower-case English and the Chinese text the search looks in. */
export function addressRow(entry: SeedAddress): NewAddressRow {
  const district = DISTRICTS[entry.district];
  const [from, to] = (entry.number ?? '').split('-');
  const english = [
    entry.building?.[0],
    entry.street?.[0],
    entry.number,
    entry.location?.[0],
    district.en.replace(/ DISTRICT$/, ''),
    entry.lot ? `lot ${entry.lot.lotNo} dd ${entry.lot.ddNo}` : undefined,
  ];
  const chinese = [
    entry.building?.[1],
    entry.location?.[1],
    entry.street?.[1],
    entry.number ? `${entry.number}號` : undefined,
    district.zh,
    REGION_ZH[district.region],
    entry.lot ? chineseLot(entry.lot) : undefined,
  ];
  return {
    geoAddress: entry.id,
    buildingNameEn: entry.building?.[0] ?? null,
    buildingNameZh: entry.building?.[1] ?? null,
    streetNameEn: entry.street?.[0] ?? null,
    streetNameZh: entry.street?.[1] ?? null,
    buildingNoFrom: from || null,
    buildingNoTo: to || from || null,
    locationEn: entry.location?.[0] ?? null,
    locationZh: entry.location?.[1] ?? null,
    districtEn: district.en,
    districtZh: district.zh,
    region: district.region,
    lotNo: entry.lot?.lotNo ?? null,
    ddNo: entry.lot?.ddNo ?? null,
    latitude: entry.at?.[0] ?? null,
    longitude: entry.at?.[1] ?? null,
    searchText: `${english.filter(Boolean).join(' ').toLowerCase()} | ${chinese.filter(Boolean).join('')}`,
  };
}

/** Idempotent: adds the entries whose id is not in the table yet (safe at every start, also in parallel). */
export async function seedAddressTable(db: Db): Promise<void> {
  await db.insert(addresses).values(seedAddresses.map(addressRow)).onConflictDoNothing();
}
