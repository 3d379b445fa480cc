import type { Db } from '../../../drizzle/db';
import type { AppointmentStatus } from '../../../machines/rules/appointment';
import { isLanguage, type Language } from '../../../machines/rules/language';
import { hongKongDate } from '../../../machines/rules/working-days';
import { type Clock, addMs } from '../../clock';
import { bilingualTexts, type createTeller, paramsOf, recordAppointmentEvent } from './appointment-notices';
import * as repo from './appointments.repo';
import { lockApplication } from '../cases';

const DAY_MS = 24 * 3_600_000;

/**
 * Registration expiry (docs/decisions/020-appointments.md), run daily by the job `appointments.expiry`: tells the appointee and the
 * applicant `noticeDays` before a registration expires (once per appointment), and lapses every appointment
 * and open invitation whose registration expired before today in Hong Kong (history row, audit event, both
 * told). Safe to run twice; access ends at once anyway, since every AP/RSE request checks the expiry date.
 */
export async function sweepAppointmentExpiry(
  { db, clock, tell }: { db: Db; clock: Clock; tell: ReturnType<typeof createTeller> },
  noticeDays: number,
): Promise<{ noticed: number; lapsed: number }> {
  const now = clock.now();
  const day = hongKongDate(now);
  const until = hongKongDate(addMs(now, noticeDays * DAY_MS));
  const languageOf = (value: string): Language => (isLanguage(value) ? value : 'tc');
  let noticed = 0;
  let lapsed = 0;
  for (const a of await repo.expiringBy(db, until)) {
    if (a.expiryDate < day || !(await repo.markNoticed(db, a.id, now))) continue;
    const application = await repo.applicationOf(db, a.applicationId);
    if (!application) continue;
    noticed += 1;
    const texts = bilingualTexts(languageOf(a.language), 'expiring', paramsOf(a, application.applicationNo));
    await tell(a, languageOf(a.language), texts);
    await tell(application, languageOf(a.language), texts);
  }
  for (const a of await repo.expiredBefore(db, day)) {
    const done = await db.transaction(async (tx) => {
      const application = await lockApplication(tx, a.applicationId);
      if (!application || !(await repo.endAppointment(tx, a.id, a.status, 'LAPSED', now, 'expired')))
        return undefined;
      await recordAppointmentEvent(
        tx,
        a,
        'appointment.lapse',
        'APPOINTMENT_LAPSED',
        { actor: 'system', ref: 'job:appointments.expiry' },
        a.status as AppointmentStatus,
        'LAPSED',
        now,
        `APT-${application.applicationNo}-${a.caseActionId ?? a.id}`,
      );
      return application;
    });
    if (!done) continue;
    lapsed += 1;
    const texts = bilingualTexts(languageOf(a.language), 'lapsed', paramsOf(a, done.applicationNo));
    await tell(a, languageOf(a.language), texts);
    await tell(done, languageOf(a.language), texts);
  }
  return { noticed, lapsed };
}
