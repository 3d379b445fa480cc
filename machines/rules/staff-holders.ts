import { z } from 'zod';
import { registrationNumberSchema } from './appointment';

const invalid = { error: 'staff.invalid' } as const;
const required = { error: 'staff.required' } as const;

/**
 * The department's reset of a registration holder (docs/console.md, "Registered AP/RSE";
 * docs/decisions/025-registration-holders.md): the number as people type it, normalised.
 */
export const holderLookupSchema = z.object({ registrationNumber: registrationNumberSchema });

/** POST /api/staff/holders/reset: the holder the officer saw (`holderId`) and the officer's reason. */
export const holderResetSchema = z.object({
  registrationNumber: registrationNumberSchema,
  holderId: z.number(invalid).int(invalid).positive(invalid).max(2_147_483_647, invalid),
  reason: z.string(required).trim().min(1, required).max(1000, invalid),
});
export type HolderResetBody = z.infer<typeof holderResetSchema>;

/** A case the holder is actively appointed to (what the holder's login reaches). */
export interface HolderCaseData {
  applicationNo: string;
  status: string;
  acceptedAt: string | null;
}

/** GET /api/staff/holders?registrationNumber=: the number's holder (contacts masked) and its history. */
export interface RegistrationHolderData {
  registrationNumber: string;
  identity: 'ap' | 'rse';
  holder: {
    id: number;
    nameEn: string;
    nameZh: string | null;
    email: string;
    mobile: string;
    /** How the holder's first accepted declaration was signed. */
    signer: 'iamsmart' | 'ecert' | null;
    language: 'en' | 'sc' | 'tc';
    establishedAt: string;
    cases: HolderCaseData[];
  } | null;
  /** The holders the department reset, newest first. */
  history: {
    nameEn: string;
    nameZh: string | null;
    establishedAt: string;
    endedAt: string;
    endedBy: { nameEn: string; nameZh: string } | null;
    reason: string;
  }[];
}

/** What a reset did. */
export interface HolderResetResult {
  registrationNumber: string;
  endedAt: string;
  /** The ACTIVE appointments no longer reached by the old holder's login. */
  unlinkedCases: number;
  /** The open invitations of the number cancelled (their applicants invite again). */
  cancelledInvitations: number;
}
