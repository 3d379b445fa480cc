import type { DemoApplication } from './demo';

/**
 * Finished demo cases for the console's performance page (docs/decisions/044-pledges.md): certificates
 * issued from July to November 2026, some within their pledges and some late, so that `npm start` shows
 * figures in every month. Seeded with the demo applications (drizzle/demo.ts), never in production.
 */

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

export const demoFinishedCases: readonly DemoApplication[] = [
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
