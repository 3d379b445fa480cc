import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../../drizzle/db';
import {
  appointeeSessions,
  appointments,
  applications,
  sessions,
  type RegistrationHolderRow,
} from '../../../drizzle/schema';
import { staffAccounts, type StaffAccountRow } from '../../../drizzle/schema-staff';
import { maskEmail, maskMobile } from '../../../machines/rules/appointment';
import { isLanguage, type Language } from '../../../machines/rules/language';
import { parseRegistrationNumber } from '../../../machines/rules/registration';
import type { HolderResetResult, RegistrationHolderData } from '../../../machines/rules/staff-holders';
import type { Clock } from '../../clock';
import { ApiError, NotFoundError } from '../../http/errors';
import { translate } from '../../http/i18n';
import { insertAudit } from '../cases';
import type { MessageService } from '../shared';
import { recordAppointmentEvent } from './appointment-notices';
import * as repo from './appointments.repo';
import * as holders from './holders.repo';

/**
 * The department's reset of a registration holder (docs/decisions/025-registration-holders.md, "Reset";
 * docs/console.md, "Registered AP/RSE"): a senior officer or an admin ends the holder of a number, in one
 * transaction under the holder's row lock:
 *
 * - the holder row is ended (`ended_at`, `ended_by`, `end_reason`), kept as the number's history;
 * - the number's ACTIVE appointments the holder accepted are unlinked (`holder_id` null): they stay ACTIVE
 *   for the applicant, but no AP/RSE login reaches them (decision 025: only linked ones count);
 * - the number's open invitations are cancelled (their codes would go to the old holder's contacts, or to
 *   contacts typed before the holder existed): each applicant invites again;
 * - the old holder's AP/RSE sessions end;
 * - an audit event `holder.reset` (the staff account, the reason, the number).
 *
 * The next acceptance of the number establishes a new holder. After the transaction, the old holder's
 * email and mobile are told, in the holder's language and in English (durable message jobs).
 */

/** 409: the number has no holder now (reset meanwhile, or never established). */
export class HolderNoneError extends ApiError {
  constructor() {
    super(409, 'HOLDER_NONE', 'holder.none');
  }
}

/** 409: the holder is not the one the officer saw (reset, and perhaps established again, meanwhile). */
export class HolderChangedError extends ApiError {
  constructor() {
    super(409, 'HOLDER_CHANGED', 'holder.changed');
  }
}

const signerKind = (signer: unknown): 'iamsmart' | 'ecert' | null => {
  if (typeof signer !== 'object' || signer === null) return null;
  const method = (signer as Record<string, unknown>).method;
  return method === 'iamsmart' || method === 'ecert' ? method : null;
};

export function createHolderReset({
  db,
  clock,
  messages,
  logger,
}: {
  db: Db;
  clock: Clock;
  messages: MessageService;
  logger: Logger;
}) {
  /** The cases the holder is actively appointed to (what their login reaches). */
  const casesOf = (tx: Db, holder: RegistrationHolderRow) =>
    tx
      .select({
        applicationNo: applications.applicationNo,
        status: applications.status,
        acceptedAt: appointments.acceptedAt,
      })
      .from(appointments)
      .innerJoin(applications, eq(applications.id, appointments.applicationId))
      .where(and(eq(appointments.holderId, holder.id), eq(appointments.status, 'ACTIVE')))
      .orderBy(applications.applicationNo);

  const staffNames = async (tx: Db, ids: number[]) => {
    if (ids.length === 0) return new Map<number, StaffAccountRow>();
    const rows = await tx.select().from(staffAccounts).where(inArray(staffAccounts.id, ids));
    return new Map(rows.map((r) => [r.id, r]));
  };

  /** The notice to the old holder: in their language and, when that is not English, in English after it. */
  function resetTexts(language: Language, registrationNumber: string) {
    const one = (lang: Language, part: string) =>
      translate(lang, `message.holderReset.${part}`, { registrationNumber });
    const both = (part: string, sep: string) =>
      language === 'en' ? one('en', part) : `${one(language, part)}${sep}${one('en', part)}`;
    return { subject: both('subject', ' / '), email: both('email', '\n\n————\n\n'), sms: both('sms', ' / ') };
  }

  return {
    /**
     * The number's holder as an officer sees it (contacts masked), and the holders reset before; 404 when
     * the department knows nothing of the number (no holder, no history, no appointment).
     */
    async lookup(registrationNumber: string): Promise<RegistrationHolderData> {
      const identity = parseRegistrationNumber(registrationNumber)?.identity ?? 'ap';
      const holder = await holders.holderOf(db, registrationNumber, identity);
      const ended = await holders.endedHolders(db, registrationNumber, identity);
      const [anyAppointment] = await db
        .select({ id: appointments.id })
        .from(appointments)
        .where(eq(appointments.registrationNumber, registrationNumber))
        .limit(1);
      if (!holder && ended.length === 0 && !anyAppointment) throw new NotFoundError('holder.notFound');
      const names = await staffNames(
        db,
        ended.map((e) => e.endedBy).filter((id): id is number => id !== null),
      );
      return {
        registrationNumber,
        identity,
        holder: holder
          ? {
              id: holder.id,
              nameEn: holder.nameEn,
              nameZh: holder.nameZh,
              email: maskEmail(holder.email),
              mobile: maskMobile(holder.mobile),
              signer: signerKind(holder.signer),
              language: isLanguage(holder.language) ? holder.language : 'tc',
              establishedAt: holder.establishedAt.toISOString(),
              cases: (await casesOf(db, holder)).map((c) => ({
                applicationNo: c.applicationNo,
                status: c.status,
                acceptedAt: c.acceptedAt?.toISOString() ?? null,
              })),
            }
          : null,
        history: ended.map((e) => {
          const by = e.endedBy === null ? undefined : names.get(e.endedBy);
          return {
            nameEn: e.nameEn,
            nameZh: e.nameZh,
            establishedAt: e.establishedAt.toISOString(),
            endedAt: (e.endedAt ?? e.updatedAt).toISOString(),
            endedBy: by ? { nameEn: by.nameEn, nameZh: by.nameZh } : null,
            reason: e.endReason ?? '',
          };
        }),
      };
    },

    /** Resets the holder the officer saw (`holderId`); 404 unknown number, 409 no holder or another one. */
    async reset(
      staff: StaffAccountRow,
      request: { registrationNumber: string; holderId: number; reason: string },
      address: string,
    ): Promise<HolderResetResult> {
      const { registrationNumber, holderId, reason } = request;
      const identity = parseRegistrationNumber(registrationNumber)?.identity ?? 'ap';
      const now = clock.now();
      const ref = `staff:${staff.id}`;
      // The history of each case names the department; an admin is no actor of the case lifecycle.
      const caseActor = staff.role === 'seniorOfficer' ? 'seniorOfficer' : 'system';
      const outcome = await db.transaction(async (tx) => {
        const holder = await holders.lockHolder(tx, registrationNumber, identity);
        if (!holder) {
          const ended = await holders.endedHolders(tx, registrationNumber, identity);
          if (ended.length === 0) throw new NotFoundError('holder.notFound');
          throw new HolderNoneError();
        }
        if (holder.id !== holderId) throw new HolderChangedError();
        await holders.endHolder(tx, holder.id, { at: now, by: staff.id, reason });

        const unlinked = await tx
          .update(appointments)
          .set({ holderId: null })
          .where(and(eq(appointments.holderId, holder.id), eq(appointments.status, 'ACTIVE')))
          .returning({ id: appointments.id, applicationId: appointments.applicationId });

        const open = await tx
          .select({ appointment: appointments, applicationNo: applications.applicationNo })
          .from(appointments)
          .innerJoin(applications, eq(applications.id, appointments.applicationId))
          .where(
            and(
              eq(appointments.registrationNumber, registrationNumber),
              eq(appointments.identity, identity),
              eq(appointments.status, 'INVITED'),
            ),
          )
          .for('update', { of: appointments });
        let cancelled = 0;
        for (const { appointment, applicationNo } of open) {
          if (!(await repo.endAppointment(tx, appointment.id, 'INVITED', 'CANCELLED', now, 'holderReset')))
            continue;
          cancelled += 1;
          await recordAppointmentEvent(
            tx,
            appointment,
            'appointment.cancel',
            'APPOINTMENT_CANCELLED',
            { actor: caseActor, ref },
            'INVITED',
            'CANCELLED',
            now,
            `APT-${applicationNo}-${appointment.caseActionId ?? appointment.id}`,
          );
        }

        // The old holder's AP/RSE sessions end now, not at their next request.
        const ofNumber = tx
          .select({ id: appointeeSessions.sessionId })
          .from(appointeeSessions)
          .where(
            and(
              eq(appointeeSessions.registrationNumber, registrationNumber),
              eq(appointeeSessions.identity, identity),
            ),
          );
        await tx
          .update(sessions)
          .set({ revokedAt: now })
          .where(and(inArray(sessions.id, ofNumber), isNull(sessions.revokedAt)));

        await insertAudit(tx, {
          at: now,
          actor: staff.role,
          actorRef: ref,
          event: 'holder.reset',
          reference: registrationNumber,
          before: {
            holder: holder.id,
            registrationNumber,
            identity,
            establishedAt: holder.establishedAt.toISOString(),
          },
          after: {
            reason,
            unlinkedAppointments: unlinked.map((u) => u.id),
            cancelledInvitations: cancelled,
          },
          address,
        });
        return { holder, unlinked: unlinked.length, cancelled };
      });

      const { holder } = outcome;
      const language: Language = isLanguage(holder.language) ? holder.language : 'tc';
      const texts = resetTexts(language, registrationNumber);
      for (const [channel, to] of [
        ['email', holder.email],
        ['sms', holder.mobile],
      ] as const)
        await messages
          .sendText({ channel, to, language, texts })
          .catch((err: unknown) => logger.error({ err }, 'holder reset notice not queued'));
      return {
        registrationNumber,
        endedAt: now.toISOString(),
        unlinkedCases: outcome.unlinked,
        cancelledInvitations: outcome.cancelled,
      };
    },
  };
}

export type HolderReset = ReturnType<typeof createHolderReset>;
