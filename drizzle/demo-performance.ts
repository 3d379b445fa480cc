import type { DemoApplication } from './demo';

/**
 * Finished demo cases for the console's performance page (docs/decisions/044-pledges.md): certificates
 * issued in the four months before the current one (written as of November 2026, moved on by whole months
 * to the month the demo is seeded in), some within their pledges and some late, so that `npm start` shows
 * figures in every month of the page's window. Seeded with the demo applications (drizzle/demo.ts), never
 * in production.
 */

/** The month the dates below are written for. */
const WRITTEN_FOR = { year: 2026, month: 11 };

/** `YYYY-MM-DD` moved on by `months` whole months (the day kept, or the month's last day). */
function moved(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** Whole months from the month the dates are written for to `now`'s month in Hong Kong. */
export function demoMonthShift(now: Date): number {
  const hk = new Date(now.getTime() + 8 * 3_600_000);
  return (hk.getUTCFullYear() - WRITTEN_FOR.year) * 12 + (hk.getUTCMonth() + 1 - WRITTEN_FOR.month);
}

/** One finished case: submitted, acknowledged, examined, Letter of Requirements, inspection, certificate. */
function finished(
  n: number,
  names: [string, string],
  dates: {
    submitted: string;
    ack: string;
    lor: string;
    request: string;
    inspected: string;
    certificate: string;
  },
): DemoApplication {
  const bd = (documentType: string, status: string, day: string) => ({
    submitted: `${day}T10:00:00`,
    documentType,
    status,
    submittedBy: 'BD' as const,
    recorded: `${day}T10:00:00`,
  });
  return {
    application: {
      applicationNo: `A2-2026-0009${String(n).padStart(2, '0')}`,
      formCode: 'A2',
      applicationType: 'NEWSCH',
      status: 'CERTIFICATE_ISSUED',
      applicantNameEn: names[0],
      applicantNameZh: names[1],
      email: `performance${n}@example.hk`,
      language: 'en',
      premisesAddressEn: `G/F, ${n} Tung Chau Street, Tai Kok Tsui, Kowloon`,
    },
    history: [
      { ...bd('APPLICATION_FORM', 'SUBMITTED', dates.submitted), submittedBy: 'APPLICANT' },
      bd('ACKNOWLEDGEMENT', 'ACKNOWLEDGED', dates.ack),
      bd('LETTER_OF_REQUIREMENTS', 'LOR_ISSUED', dates.lor),
      { ...bd('INSPECTION_REQUEST', 'INSPECTION_REQUESTED', dates.request), submittedBy: 'AP' },
      bd('INSPECTION_REPORT', 'INSPECTED', dates.inspected),
      bd('CERTIFICATE', 'CERTIFICATE_ISSUED', dates.certificate),
    ],
  };
}

const written: readonly DemoApplication[] = [
  finished(1, ['LEE Siu Ming', '李小明'], {
    submitted: '2026-06-01',
    ack: '2026-06-02',
    lor: '2026-06-22',
    request: '2026-07-06',
    inspected: '2026-07-14',
    certificate: '2026-07-20',
  }),
  finished(2, ['CHEUNG Wai Man', '張偉文'], {
    submitted: '2026-07-02',
    ack: '2026-07-08',
    lor: '2026-08-25',
    request: '2026-09-01',
    inspected: '2026-09-21',
    certificate: '2026-09-28',
  }),
  finished(3, ['NG Ka Wai', '吳家偉'], {
    submitted: '2026-08-03',
    ack: '2026-08-04',
    lor: '2026-08-31',
    request: '2026-09-14',
    inspected: '2026-09-22',
    certificate: '2026-10-06',
  }),
  finished(4, ['YIP Hoi Yan', '葉凱欣'], {
    submitted: '2026-09-07',
    ack: '2026-09-08',
    lor: '2026-10-12',
    request: '2026-10-26',
    inspected: '2026-11-02',
    certificate: '2026-11-16',
  }),
];

/** The finished cases as of `now`: every date moved on to keep them in the page's last months. */
export function demoFinishedCases(now: Date): DemoApplication[] {
  const shift = demoMonthShift(now);
  const at = (local: string) => `${moved(local.slice(0, 10), shift)}${local.slice(10)}`;
  return written.map(({ application, history }) => ({
    application,
    history: history.map((e) => ({ ...e, submitted: at(e.submitted), recorded: at(e.recorded) })),
  }));
}
