import type { Db } from '../../../drizzle/db';
import type { AppointmentRow } from '../../../drizzle/schema';
import {
  type AppointmentStatus,
  type AppointmentView,
  isIdentity,
  maskEmail,
  maskMobile,
} from '../../../machines/rules/appointment';
import { isLanguage, type Language } from '../../../machines/rules/language';
import * as repo from './appointments.repo';

/** An active AP/RSE of a case, for notices (the department console). */
export interface Appointee {
  identity: 'ap' | 'rse';
  nameEn: string;
  nameZh: string | null;
  registrationNumber: string;
  email: string;
  mobile: string;
  /** Appointees are written to in the applicant's language and in English. */
  language: Language;
}

/** The active AP and RSE of a case (at most one each, accepted by the number's holder), with their contact and language. */
export async function activeAppointees(db: Db, applicationId: number): Promise<Appointee[]> {
  const rows = await repo.appointmentsOfCase(db, applicationId);
  return rows
    .filter((r) => r.status === 'ACTIVE' && r.holderId !== null && isIdentity(r.identity))
    .map((r) => ({
      identity: r.identity as 'ap' | 'rse',
      nameEn: r.nameEn,
      nameZh: r.nameZh,
      registrationNumber: r.registrationNumber,
      email: r.email,
      mobile: r.mobile,
      language: isLanguage(r.language) ? r.language : 'tc',
    }));
}

/**
 * An appointment as the API answers it. `masked`: the appointee before confirming a contact. The applicant
 * never sees the contacts the department holds for a registration number in clear
 * (docs/decisions/025-registration-holders.md): those are masked whatever `masked` says.
 */
export function viewOf(row: AppointmentRow, masked = false): AppointmentView {
  const mask = masked || row.registeredContacts;
  return {
    id: row.id,
    identity: isIdentity(row.identity) ? row.identity : 'ap',
    nameEn: row.nameEn,
    nameZh: row.nameZh,
    registrationNumber: row.registrationNumber,
    email: mask ? maskEmail(row.email) : row.email,
    mobile: mask ? maskMobile(row.mobile) : row.mobile,
    expiryDate: row.expiryDate,
    status: row.status as AppointmentStatus,
    invitedAt: row.invitedAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    endReason: row.endReason,
    registeredContacts: row.registeredContacts,
  };
}
