import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { appointmentSignings } from '../../../drizzle/schema';
import { declarationText } from '../../../machines/rules/appointment';
import type { Language } from '../../../machines/rules/language';
import { sha256Hex, type IamSmartSigning } from '../../adapters/iamsmart';
import type { Clock } from '../../clock';
import { ApiError } from '../../http/errors';
import type { AppointmentService } from './appointments.service';
import {
  createDigestSigning,
  SignerMismatchError,
  type DigestSigningStore,
  type SigningStatusData,
  type EcertTrust,
} from '../signing';

/**
 * Signing the declaration of appointment (docs/decisions/020-appointments.md): the same iAM Smart adapter (the sandbox here) and the
 * same e-Cert check (real CMS / X.509 against the configured CA) as the application's signing, over the
 * SHA-256 of the declaration. The signer must be the appointee: for an e-Cert the certificate holder's
 * name must match the appointee's English name (the rule of api/modules/signing/ecert.ts), else 422
 * SIGNER_MISMATCH naming the appointee; for iAM Smart the appointee gives their HKIC and the service
 * refuses a phone whose holder has another (D70005), as for applicants. The iAM Smart and e-Cert steps
 * are the shared core's (api/modules/signing/digest-signing.ts) over this table.
 */

export function createAppointmentSigning({
  db,
  clock,
  appointments,
  iamSmart,
  ecertTrust,
}: {
  db: Db;
  clock: Clock;
  appointments: AppointmentService;
  iamSmart: IamSmartSigning;
  ecertTrust: EcertTrust;
}) {
  const core = createDigestSigning({ clock, iamSmart, ecertTrust });

  /** The invitation, which must be confirmed, and the digest of its declaration. */
  async function confirmed(token: string, language: Language) {
    const view = await appointments.invitation(token);
    if (!view.confirmed) throw new ApiError(409, 'CONTACT_NOT_CONFIRMED', 'appointment.notConfirmed');
    const { appointment } = await appointments.resolve(token);
    const digest = sha256Hex(
      declarationText(
        {
          applicationNo: view.applicationNo,
          identity: view.appointment.identity,
          nameEn: appointment.nameEn,
          registrationNumber: appointment.registrationNumber,
          expiryDate: appointment.expiryDate,
          appointmentId: appointment.id,
        },
        language,
      ),
    );
    return { appointment, digest };
  }

  /** The appointment's requests in `appointment_signings`, for the shared core. */
  const storeOf = (appointmentId: number): DigestSigningStore => ({
    async insert(row) {
      await db.insert(appointmentSignings).values({ appointmentId, ...row });
    },
    async find(requestId, method) {
      const [row] = await db
        .select()
        .from(appointmentSignings)
        .where(
          and(
            eq(appointmentSignings.appointmentId, appointmentId),
            eq(appointmentSignings.requestId, requestId),
            ...(method ? [eq(appointmentSignings.method, method)] : []),
          ),
        );
      return row;
    },
    async finish(id, status, extra) {
      await db
        .update(appointmentSignings)
        .set({ status, code: extra.code ?? null, signer: extra.signer ?? null })
        .where(and(eq(appointmentSignings.id, id), eq(appointmentSignings.status, 'pending')));
    },
  });

  return {
    async startIamSmart(token: string, hkic: string, language: Language) {
      const { appointment, digest } = await confirmed(token, language);
      return core.startIamSmart(storeOf(appointment.id), digest, hkic, language);
    },

    async iamSmartStatus(token: string, requestId: string): Promise<SigningStatusData> {
      const { appointment } = await appointments.resolve(token);
      return core.iamSmartStatus(storeOf(appointment.id), requestId);
    },

    async prepareEcert(token: string, language: Language) {
      const { appointment, digest } = await confirmed(token, language);
      return core.prepareEcert(storeOf(appointment.id), digest);
    },

    async verifyEcert(token: string, requestId: string, signature: Uint8Array) {
      const { appointment } = await confirmed(token, 'en');
      return core.verifyEcert(storeOf(appointment.id), requestId, signature, {
        name: appointment.nameEn,
        mismatch: () => new SignerMismatchError(appointment.nameEn),
      });
    },

    /** The signed declaration an acceptance rests on, or 409 when it is not signed (yet). */
    async signed(token: string, requestId: string) {
      const { appointment } = await appointments.resolve(token);
      const [row] = await db
        .select()
        .from(appointmentSignings)
        .where(
          and(
            eq(appointmentSignings.appointmentId, appointment.id),
            eq(appointmentSignings.requestId, requestId),
          ),
        )
        .orderBy(desc(appointmentSignings.id));
      if (!row || row.status !== 'signed')
        throw new ApiError(409, 'SIGNATURE_REQUIRED', 'appointment.notSigned');
      return { method: row.method, reference: row.requestId, signer: row.signer };
    },
  };
}

export type AppointmentSigning = ReturnType<typeof createAppointmentSigning>;
