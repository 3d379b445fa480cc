import type { AddressAnswer } from '../../../machines/forms/types';

/** One suggestion of GET /api/address, in the shape of the government's Address Lookup Service. */
export interface SuggestedAddress {
  Address?: {
    PremisesAddress?: {
      EngPremisesAddress?: Record<string, unknown>;
      ChiPremisesAddress?: Record<string, unknown>;
    };
  };
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};

function street(part: Record<string, unknown>, zh: boolean): string {
  const s = obj(part[zh ? 'ChiStreet' : 'EngStreet']);
  const no = text(s.BuildingNoFrom) + (text(s.BuildingNoTo) ? `-${text(s.BuildingNoTo)}` : '');
  const name = text(s.StreetName);
  if (!name) return '';
  return zh ? `${name}${no ? `${no}號` : ''}` : `${no ? `${no} ` : ''}${name}`;
}

function lot(part: Record<string, unknown>, zh: boolean): string {
  const b = obj(part[zh ? 'ChiBlock' : 'EngBlock']);
  const l = obj(part[zh ? 'ChiLot' : 'EngLot'] ?? part.Lot);
  const lotNo = text(l.LotNo ?? l.LotNumber);
  const dd = text(l.DD ?? l.DemarcationDistrict ?? b.DD);
  if (!lotNo && !dd) return '';
  return zh ? `丈量約份第${dd}約地段第${lotNo}號` : `Lot No. ${lotNo} in D.D. ${dd}`;
}

function line(part: Record<string, unknown> | undefined, zh: boolean): string {
  if (!part) return '';
  const district = obj(part[zh ? 'ChiDistrict' : 'EngDistrict']);
  const pieces = [
    text(part.BuildingName),
    street(part, zh),
    lot(part, zh),
    text(district.DcDistrict),
    text(part.Region),
  ].filter(Boolean);
  return zh ? pieces.reverse().join('') : pieces.join(', ');
}

/** The English and Chinese lines of a suggestion, as they fill the premises address fields. */
export function toAddressAnswer(s: SuggestedAddress): AddressAnswer {
  const p = s.Address?.PremisesAddress;
  return { en: line(p?.EngPremisesAddress, false), zh: line(p?.ChiPremisesAddress, true) };
}
