import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../../../drizzle/db';
import {
  type AppointmentView,
  type InvitationView,
  INVITATION_DAYS,
  declarationText,
} from '../../../machines/rules/appointment';
import type { CaseActor } from '../../../machines/rules/case-lifecycle';
import { isLanguage, type Language } from '../../../machines/rules/language';
import { normaliseEmail, type OtpSentData } from '../../../machines/rules/otp';
import { normaliseRegistrationNumber } from '../../../machines/rules/registration';
import { type Clock, addMs } from '../../clock';
import { ApiError, NotFoundError } from '../../http/errors';
import { translate } from '../../http/i18n';
import type { PortalAddress } from '../../http/portal-address';
import { insertAudit, lockApplication, type CaseActionEffect } from '../cases';
import { type MessageService } from '../shared';
import { hashToken, type OtpService, type AuthSession } from '../auth';
import * as repo from './appointments.repo';
import * as holders from './holders.repo';
import { viewOf } from './appointment-view';
import { contactsOnFile, holderForAcceptance, sameContacts } from './registration-holder';
import { bilingualTexts, createTeller, paramsOf, recordAppointmentEvent } from './appointment-notices';
import { sweepAppointmentExpiry } from './appointment-expiry';
import { normaliseHkMobile } from '../../../machines/rules/phone';

/**
 * Appointments of APs and RSEs (docs/decisions/020-appointments.md). The applicant's
 * `appointment` follow-up invites the appointee (this service's `effect`, inside the follow-up's
 * transaction); the appointee opens the link, confirms the email or mobile by a one-time password, signs the
 * declaration (api/modules/appointments/appointment-signing.ts) and accepts; the applicant cancels an invitation or
 * revokes an appointment; the daily job lapses appointments whose registration expired. Every event is a
 * history row and an audit event, written under the case's row lock.
 */

const DAY_MS = 24 * 3_600_000;

export class InvitationError extends ApiError {
  constructor(kind: 'unknown' | 'expired' | 'cancelled' | 'used') {
    const table = {
      unknown: [404, 'INVITATION_UNKNOWN', 'appointment.invitationUnknown'],
      expired: [410, 'INVITATION_EXPIRED', 'appointment.invitationExpired'],
      cancelled: [410, 'INVITATION_CANCELLED', 'appointment.invitationCancelled'],
      used: [410, 'INVITATION_USED', 'appointment.invitationUsed'],
    } as const;
    const [status, code, key] = table[kind];
    super(status, code, key);
  }
}

export interface AppointmentServiceOptions {
  db: Db;
  clock: Clock;
  messages: MessageService;
  otp: OtpService;
  logger: Logger;
  /** The portal's address: the invitation's link is made by it (api/http/portal-address.ts). */
  portal: PortalAddress;
}

export type AppointmentService = ReturnType<typeof createAppointmentService>;

export function createAppointmentService({
  db,
  clock,
  messages,
  otp,
  logger,
  portal,
}: AppointmentServiceOptions) {
  const tell = createTeller(messages, logger);
  const record = recordAppointmentEvent;

  const newToken = () => randomBytes(32).toString('base64url');

  /** The `appointment` follow-up: a new invitation (an open one of the same role is cancelled by it). */
  const effect: CaseActionEffect = async (tx, action) => {
    const identity = action.answers.identity === 'rse' ? 'rse' : 'ap';
    const str = (k: string) => (typeof action.answers[k] === 'string' ? action.answers[k].trim() : '');
    const reference = `APT-${action.applicationNo}-${action.actionId}`;
    const open = await repo.ofStatus(tx, action.applicationId, identity, 'INVITED');
    if (open && (await repo.endAppointment(tx, open.id, 'INVITED', 'CANCELLED', action.now, 'replaced')))
      await record(
        tx,
        open,
        'appointment.cancel',
        'APPOINTMENT_CANCELLED',
        { actor: action.actor, ref: action.actorRef },
        'INVITED',
        'CANCELLED',
        action.now,
        reference,
      );
    const language: Language = isLanguage(action.language) ? action.language : 'tc';
    const registrationNumber = normaliseRegistrationNumber(str('registrationNumber'));
    // A number with a holder is written to the holder, never to what the applicant typed
    // (docs/decisions/025-registration-holders.md).
    const holder = await holders.holderOf(tx, registrationNumber, identity);
    const typed = {
      nameEn: str('nameEn'),
      nameZh: str('nameZh') || null,
      email: normaliseEmail(str('email')),
      mobile: normaliseHkMobile(str('mobile')) ?? str('mobile'),
    };
    const person = holder
      ? { nameEn: holder.nameEn, nameZh: holder.nameZh, email: holder.email, mobile: holder.mobile }
      : typed;
    const appointment = await repo.insertAppointment(tx, {
      applicationId: action.applicationId,
      caseActionId: action.actionId,
      identity,
      ...person,
      registeredContacts: holder !== undefined,
      registrationNumber,
      expiryDate: str('expiryDate'),
      status: 'INVITED' as const,
      language,
      invitedAt: action.now,
    });
    const token = newToken();
    const expiresAt = addMs(action.now, INVITATION_DAYS * DAY_MS);
    await repo.insertInvitation(tx, {
      appointmentId: appointment.id,
      tokenHash: hashToken(token),
      createdAt: action.now,
      expiresAt,
    });
    await insertAudit(tx, {
      at: action.now,
      actor: action.actor,
      actorRef: action.actorRef,
      event: 'appointment.invite',
      applicationId: action.applicationId,
      reference,
      before: null,
      after: {
        appointment: appointment.id,
        status: 'INVITED',
        identity,
        registrationNumber: appointment.registrationNumber,
        registeredContacts: holder !== undefined,
        typedContactsDiffer: holder !== undefined && !sameContacts(typed, holder),
      },
    });
    return () =>
      tell(
        appointment,
        language,
        bilingualTexts(language, 'invitation', {
          ...paramsOf(appointment, action.applicationNo),
          link: portal.link(`/appointment-accept#${token}`),
          until: expiresAt,
        }),
      );
  };

  /** The invitation of a token: unknown and tampered answer the same 404; ended ones 410. */
  async function resolve(token: string, tx: Db = db) {
    const found = await repo.invitationByHash(tx, hashToken(token));
    if (!found) throw new InvitationError('unknown');
    const { invitation, appointment } = found;
    if (invitation.usedAt || appointment.status === 'ACTIVE') throw new InvitationError('used');
    if (appointment.status !== 'INVITED') throw new InvitationError('cancelled');
    if (clock.now() >= invitation.expiresAt) throw new InvitationError('expired');
    return found;
  }

  async function caseOf(applicationId: number, tx: Db = db) {
    const application = await repo.applicationOf(tx, applicationId);
    if (!application) throw new InvitationError('unknown');
    return application;
  }

  /** The OTP service's key and lookup for an invitation: the appointment's own email and mobile. */
  const otpKey = (appointmentId: number) => `APPOINTMENT-${appointmentId}`;
  const otpContact = (a: { email: string; mobile: string }, channel: 'email' | 'mobile') =>
    channel === 'email'
      ? ({ kind: 'email', value: a.email } as const)
      : ({ kind: 'mobile', value: a.mobile } as const);

  return {
    effect,
    resolve,

    async invitation(token: string, language: Language = 'en'): Promise<InvitationView> {
      const { invitation, appointment } = await resolve(token);
      const application = await caseOf(appointment.applicationId);
      // A contact confirmed before the number had a holder, and not the holder's: confirm again.
      const onFile = await contactsOnFile(db, appointment);
      return {
        appointment: viewOf(appointment, true),
        applicationNo: application.applicationNo,
        formCode: application.formCode,
        caseStatus: application.status,
        premisesAddress: application.premisesAddressEn,
        applicantName: application.applicantNameEn,
        confirmed: invitation.confirmedAt !== null && sameContacts(appointment, onFile),
        declaration: declarationText(
          {
            ...appointment,
            identity: appointment.identity as 'ap' | 'rse',
            applicationNo: application.applicationNo,
            appointmentId: appointment.id,
          },
          language,
        ),
      };
    },

    /** The code goes to the holder's contacts once the number has a holder, else to the appointment's. */
    async sendCode(token: string, channel: 'email' | 'mobile'): Promise<OtpSentData> {
      const { appointment } = await resolve(token);
      const application = await caseOf(appointment.applicationId);
      const onFile = await contactsOnFile(db, appointment);
      return otp.send(
        { applicationNo: otpKey(appointment.id), contact: otpContact(onFile, channel) },
        'appointment',
        () =>
          Promise.resolve({
            id: application.id,
            applicationNo: application.applicationNo,
            email: onFile.email,
            mobile: onFile.mobile,
            language: appointment.language,
          }),
      );
    },

    async verifyCode(token: string, channel: 'email' | 'mobile', code: string): Promise<{ confirmed: true }> {
      const { appointment, invitation } = await resolve(token);
      const onFile = await contactsOnFile(db, appointment);
      return otp.verify(
        { applicationNo: otpKey(appointment.id), contact: otpContact(onFile, channel), code },
        async (tx) => {
          await repo.confirmInvitation(tx, invitation.id, clock.now());
          // The code went to the holder's contacts: the appointment now carries them.
          if (!sameContacts(appointment, onFile)) await repo.setContacts(tx, appointment.id, onFile);
          return { confirmed: true as const };
        },
        'appointment',
      );
    },

    /**
     * Accepts under the appointment's and the case's row locks: one of parallel acceptances wins, the others
     * get 410 INVITATION_USED. The active appointment of the same role (if any) ends as REPLACED now.
     */
    async accept(token: string, signature: { method: string; reference: string; signer: unknown }) {
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        const first = await resolve(token, tx);
        await lockApplication(tx, first.appointment.applicationId);
        await repo.lockAppointment(tx, first.appointment.id);
        const { invitation, appointment } = await resolve(token, tx);
        if (!invitation.confirmedAt)
          throw new ApiError(409, 'CONTACT_NOT_CONFIRMED', 'appointment.notConfirmed');
        const application = await caseOf(appointment.applicationId, tx);
        // The first acceptance of the number establishes its holder; a later one must be the holder's.
        const holder = await holderForAcceptance(tx, appointment, signature.signer, now);
        const reference = `APT-${application.applicationNo}-${appointment.caseActionId ?? appointment.id}`;
        const by = { actor: appointment.identity as CaseActor, ref: `appointment:${appointment.id}` };
        const old = await repo.ofStatus(tx, appointment.applicationId, appointment.identity, 'ACTIVE');
        if (old && (await repo.endAppointment(tx, old.id, 'ACTIVE', 'REPLACED', now, 'replaced')))
          await record(
            tx,
            old,
            'appointment.replace',
            'APPOINTMENT_REVOKED',
            by,
            'ACTIVE',
            'REPLACED',
            now,
            reference,
          );
        await repo.useInvitation(tx, invitation.id, now);
        // Status, time and signature together; the partial unique index keeps one ACTIVE per role.
        await repo.activate(tx, appointment.id, now, signature, holder.id);
        await record(
          tx,
          appointment,
          'appointment.accept',
          'APPOINTMENT_ACCEPTED',
          by,
          'INVITED',
          'ACTIVE',
          now,
          reference,
        );
        return { appointment: { ...appointment, status: 'ACTIVE', acceptedAt: now }, application, old };
      });
      const { appointment, application, old } = outcome;
      const language: Language = isLanguage(appointment.language) ? appointment.language : 'tc';
      await tell(
        application,
        language,
        bilingualTexts(language, 'accepted', paramsOf(appointment, application.applicationNo)),
      );
      if (old)
        await tell(
          old,
          language,
          bilingualTexts(language, 'revoked', {
            ...paramsOf(old, application.applicationNo),
            reason: translate(language, 'message.appointment.reasons.replaced'),
          }),
        );
      return viewOf(appointment);
    },

    async list(session: AuthSession): Promise<AppointmentView[]> {
      return (await repo.appointmentsOfCase(db, session.applicationId)).map((r) => viewOf(r));
    },

    /** Cancel an invitation (INVITED → CANCELLED) or revoke an appointment (ACTIVE → REVOKED). */
    async end(
      session: AuthSession,
      id: number,
      kind: 'cancel' | 'revoke',
      reason: string | null,
    ): Promise<AppointmentView> {
      const now = clock.now();
      const [from, to, doc, reasonKey] =
        kind === 'cancel'
          ? (['INVITED', 'CANCELLED', 'APPOINTMENT_CANCELLED', 'cancelled'] as const)
          : (['ACTIVE', 'REVOKED', 'APPOINTMENT_REVOKED', null] as const);
      const outcome = await db.transaction(async (tx) => {
        const application = await lockApplication(tx, session.applicationId);
        const row = await repo.lockAppointment(tx, id);
        if (!application || !row || row.applicationId !== session.applicationId)
          throw new NotFoundError('appointment.notFound');
        if (row.status !== from)
          throw new ApiError(
            409,
            kind === 'cancel' ? 'APPOINTMENT_NOT_INVITED' : 'APPOINTMENT_NOT_ACTIVE',
            kind === 'cancel' ? 'appointment.notInvited' : 'appointment.notActive',
          );
        const stored = reason ?? reasonKey ?? '';
        await repo.endAppointment(tx, id, from, to, now, stored);
        const reference = `APT-${application.applicationNo}-${row.caseActionId ?? row.id}`;
        await record(
          tx,
          row,
          `appointment.${kind}`,
          doc,
          { actor: 'applicant', ref: `session:${session.id}` },
          from,
          to,
          now,
          reference,
        );
        return { row: { ...row, status: to, endedAt: now, endReason: stored }, application };
      });
      const { row, application } = outcome;
      const language: Language = isLanguage(row.language) ? row.language : 'tc';
      await tell(
        row,
        language,
        bilingualTexts(language, 'revoked', {
          ...paramsOf(row, application.applicationNo),
          reason: reason ?? translate(language, 'message.appointment.reasons.cancelled'),
        }),
      );
      return viewOf(row);
    },

    /** The daily job (api/jobs/appointments.ts): api/modules/appointments/appointment-expiry.ts. */
    sweepExpiry: (noticeDays: number) => sweepAppointmentExpiry({ db, clock, tell }, noticeDays),
  };
}
