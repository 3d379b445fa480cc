import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../drizzle/db';
import { appointmentSignings } from '../../drizzle/schema';
import { declarationText } from '../../machines/rules/appointment';
import type { Language } from '../../machines/rules/language';
import { IAM_SMART_CODES, sha256Hex, type IamSmartSigning } from '../adapters/iamsmart';
import { type Clock, addMs } from '../clock';
import { ApiError, NotFoundError, ServiceUnavailableError } from '../errors';
import type { AppointmentService } from './appointments';
import { type EcertTrust, verifyEcertSignature } from './ecert';
import { ECERT_WINDOW_MS, EcertRejectedError, type SigningStatusData } from './signing';

/**
 * Signing the declaration of appointment (issue 12): the same iAM Smart adapter (the sandbox here) and the
 * same e-Cert check (real CMS / X.509 against the configured CA) as the application's signing, over the
 * SHA-256 of the declaration. The signer must be the appointee: for an e-Cert the certificate holder's
 * name must match the appointee's English name (the rule of api/services/ecert.ts), else 422
 * SIGNER_MISMATCH naming the appointee; for iAM Smart the appointee gives their HKIC and the service
 * refuses a phone whose holder has another (D70005), as for applicants.
 */

const HKIC_LANGUAGE: Record<Language, 'en' | 'zh-HK' | 'zh-CN'> = { en: 'en', tc: 'zh-HK', sc: 'zh-CN' };

export class SignerMismatchError extends ApiError {
  constructor(name: string) {
    super(
      422,
      'SIGNER_MISMATCH',
      'appointment.signerMismatch',
      { reason: 'name-mismatch' },
      { params: { name } },
    );
  }
}

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
  /** The invitation, which must be confirmed, and the digest of its declaration. */
  async function confirmed(token: string) {
    const view = await appointments.invitation(token);
    if (!view.confirmed) throw new ApiError(409, 'CONTACT_NOT_CONFIRMED', 'appointment.notConfirmed');
    const { appointment } = await appointments.resolve(token);
    const digest = sha256Hex(
      declarationText({
        applicationNo: view.applicationNo,
        identity: view.appointment.identity,
        nameEn: appointment.nameEn,
        registrationNumber: appointment.registrationNumber,
        expiryDate: appointment.expiryDate,
        appointmentId: appointment.id,
      }),
    );
    return { appointment, digest };
  }

  async function requestOf(appointmentId: number, requestId: string, method?: string) {
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
    if (!row) throw new NotFoundError('signing.notFound');
    return row;
  }

  async function finish(id: number, status: string, extra: { code?: string; signer?: unknown } = {}) {
    await db
      .update(appointmentSignings)
      .set({ status, code: extra.code ?? null, signer: extra.signer ?? null })
      .where(and(eq(appointmentSignings.id, id), eq(appointmentSignings.status, 'pending')));
  }

  return {
    async startIamSmart(token: string, hkic: string, language: Language) {
      const { appointment, digest } = await confirmed(token);
      const requestId = randomBytes(16).toString('hex');
      const answer = await iamSmart
        .requestSigning({
          hash: digest,
          hkicHash: sha256Hex(hkic.toUpperCase().replace(/[()]/g, '')),
          language: HKIC_LANGUAGE[language],
          state: requestId,
        })
        .catch(() => undefined);
      if (!answer || answer.code !== IAM_SMART_CODES.success || !answer.content)
        throw new ServiceUnavailableError('signing.unavailable');
      const { txId, identificationCode, qrText, expiresAt } = answer.content;
      await db.insert(appointmentSignings).values({
        appointmentId: appointment.id,
        method: 'iamsmart',
        requestId,
        externalId: txId,
        identificationCode,
        digest,
        status: 'pending',
        createdAt: clock.now(),
        expiresAt: new Date(expiresAt),
      });
      return { requestId, identificationCode, qrText, expiresAt, digest };
    },

    async iamSmartStatus(token: string, requestId: string): Promise<SigningStatusData> {
      const { appointment } = await appointments.resolve(token);
      const row = await requestOf(appointment.id, requestId, 'iamsmart');
      if (row.status === 'pending') {
        if (clock.now() >= row.expiresAt) await finish(row.id, 'expired');
        else {
          const result = await iamSmart.getSigningResult(row.externalId ?? '').catch(() => undefined);
          if (!result || result.code === IAM_SMART_CODES.pending) return { status: 'pending' };
          if (result.code === IAM_SMART_CODES.success && result.content?.hash === row.digest)
            await finish(row.id, 'signed', {
              signer: {
                method: 'iamsmart',
                certificate: result.content.certificate,
                signedAt: result.content.signedAt,
              },
            });
          else if (result.code === IAM_SMART_CODES.expired) await finish(row.id, 'expired');
          else if (result.code === IAM_SMART_CODES.cancelled) await finish(row.id, 'cancelled');
          else await finish(row.id, 'failed', { code: result.code });
        }
      }
      const after = await requestOf(appointment.id, requestId);
      return {
        status: after.status as SigningStatusData['status'],
        ...(after.code ? { code: after.code } : {}),
        ...(after.status === 'signed' ? { reference: after.requestId } : {}),
      };
    },

    async prepareEcert(token: string) {
      const { appointment, digest } = await confirmed(token);
      const requestId = randomBytes(16).toString('hex');
      await db.insert(appointmentSignings).values({
        appointmentId: appointment.id,
        method: 'ecert',
        requestId,
        digest,
        status: 'pending',
        createdAt: clock.now(),
        expiresAt: addMs(clock.now(), ECERT_WINDOW_MS),
      });
      return { requestId, digest, content: digest };
    },

    async verifyEcert(token: string, requestId: string, signature: Uint8Array) {
      const { appointment } = await confirmed(token);
      const row = await requestOf(appointment.id, requestId, 'ecert');
      if (row.status !== 'pending' || clock.now() >= row.expiresAt)
        throw new NotFoundError('signing.notFound');
      const result = await verifyEcertSignature(
        signature,
        { content: new TextEncoder().encode(row.digest), signerName: appointment.nameEn },
        ecertTrust,
        clock.now(),
      );
      if (!result.ok && result.reason === 'name-mismatch') throw new SignerMismatchError(appointment.nameEn);
      if (!result.ok) throw new EcertRejectedError(result.reason);
      await finish(row.id, 'signed', {
        signer: {
          method: 'ecert',
          subject: result.signer.subject,
          serialNumber: result.signer.serialNumber,
          issuer: result.signer.issuer,
        },
      });
      return { reference: requestId };
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
