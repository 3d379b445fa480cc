import type { Logger } from 'pino';
import { EXPIRY_NOTICE_DAYS } from '../../machines/rules/appointment';
import type { AppointmentService } from '../modules/appointments';
import type { JobQueue } from './queue';

/**
 * | job | when | what |
 * |---|---|---|
 * | appointments.expiry | daily at 00:10 Hong Kong (16:10 UTC) | the 14-day notice of a registration's expiry to the appointee and the applicant; lapses the appointments whose registration expired (history row, audit event, both told) |
 *
 * Safe to run twice: the notice is marked once per appointment, and a lapse changes only a row still
 * ACTIVE or INVITED. Access ends at once anyway: every request of an AP/RSE checks the expiry date.
 */
export const APPOINTMENT_EXPIRY_JOB = 'appointments.expiry';

export function defineAppointmentJobs(
  jobs: JobQueue,
  {
    appointments,
    logger,
    schedule = true,
  }: { appointments: AppointmentService; logger: Logger; schedule?: boolean },
): void {
  jobs.define({
    name: APPOINTMENT_EXPIRY_JOB,
    ...(schedule ? { cron: '10 16 * * *' } : {}),
    retryLimit: 3,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 15 * 60,
    async handler() {
      const counts = await appointments.sweepExpiry(EXPIRY_NOTICE_DAYS);
      if (counts.noticed + counts.lapsed > 0) logger.info(counts, 'appointment expiry swept');
    },
  });
}
