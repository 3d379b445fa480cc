import type { Db } from './db';
import { seedDemoAppointments } from './demo-appointments';
import { demoFinishedCases } from './demo-performance';
import { type NewApplicationRow, applicationHistory, applications } from './schema';

/**
 * Demo applications for development and the browser tests: log in to "Find my case" with one of them
 * and read the one-time password at /api/dev/outbox (docs/demo.md). Never loaded in production.
 */
interface DemoEvent {
  /** When it was submitted or issued (Hong Kong time). */
  submitted: string;
  documentType: string;
  status: string;
  submittedBy: 'APPLICANT' | 'AP' | 'RSE' | 'BD';
  /** When BD recorded it. */
  recorded: string;
}

export interface DemoApplication {
  application: NewApplicationRow & { applicationNo: string };
  history: DemoEvent[];
}

const hk = (local: string) => new Date(`${local}+08:00`);

export const demoApplications: readonly DemoApplication[] = [
  {
    application: {
      applicationNo: 'A2-2026-000123',
      formCode: 'A2',
      applicationType: 'NEWSCH',
      status: 'ACKNOWLEDGED',
      applicantNameEn: 'CHAN Tai Man',
      applicantNameZh: '陳大文',
      email: 'applicant.a2@example.hk',
      mobile: null,
      language: 'en',
      premisesAddressEn: 'Unit 1201, 12/F, Focal Industrial Centre, 21 Man Lok Street, Hung Hom, Kowloon',
    },
    history: [
      {
        submitted: '2026-09-01T10:15:00',
        documentType: 'APPLICATION_FORM',
        status: 'SUBMITTED',
        submittedBy: 'APPLICANT',
        recorded: '2026-09-01T10:15:00',
      },
      {
        submitted: '2026-09-01T10:16:00',
        documentType: 'LAYOUT_PLAN',
        status: 'SUBMITTED',
        submittedBy: 'AP',
        recorded: '2026-09-01T10:16:00',
      },
      {
        submitted: '2026-09-03T15:30:00',
        documentType: 'ACKNOWLEDGEMENT',
        status: 'ACKNOWLEDGED',
        submittedBy: 'BD',
        recorded: '2026-09-03T15:30:00',
      },
    ],
  },
  {
    application: {
      applicationNo: 'CCCAI-C2-2026-000045',
      formCode: 'CCCAI-C2',
      applicationType: 'NEWCCC',
      status: 'LOR_ISSUED',
      applicantNameEn: 'LEE Siu Ming',
      applicantNameZh: '李小明',
      email: null,
      mobile: '91234567',
      language: 'tc',
      premisesAddressEn: 'G/F, Southorn Centre, 130 Hennessy Road, Wan Chai, Hong Kong',
    },
    history: [
      {
        submitted: '2026-07-14T09:05:00',
        documentType: 'APPLICATION_FORM',
        status: 'SUBMITTED',
        submittedBy: 'APPLICANT',
        recorded: '2026-07-14T09:05:00',
      },
      {
        submitted: '2026-07-14T09:07:00',
        documentType: 'LAYOUT_PLAN',
        status: 'SUBMITTED',
        submittedBy: 'AP',
        recorded: '2026-07-14T09:07:00',
      },
      {
        submitted: '2026-07-15T11:00:00',
        documentType: 'ACKNOWLEDGEMENT',
        status: 'ACKNOWLEDGED',
        submittedBy: 'BD',
        recorded: '2026-07-15T11:00:00',
      },
      {
        submitted: '2026-07-22T14:20:00',
        documentType: 'SUPPORTING_DOCUMENT',
        status: 'UNDER_EXAMINATION',
        submittedBy: 'APPLICANT',
        recorded: '2026-07-23T09:00:00',
      },
      {
        submitted: '2026-08-18T16:45:00',
        documentType: 'LETTER_OF_REQUIREMENTS',
        status: 'LOR_ISSUED',
        submittedBy: 'BD',
        recorded: '2026-08-18T16:45:00',
      },
    ],
  },
  {
    application: {
      applicationNo: 'C2-2026-000078',
      formCode: 'C2',
      applicationType: 'NLHE',
      status: 'CERTIFICATE_ISSUED',
      applicantNameEn: 'WONG Mei Ling',
      applicantNameZh: '黃美玲',
      email: 'c2.applicant@example.hk',
      mobile: '51234567',
      language: 'sc',
      premisesAddressEn: '15/F, Central Plaza, 18 Harbour Road, Wan Chai, Hong Kong',
    },
    history: [
      {
        submitted: '2026-03-02T10:00:00',
        documentType: 'APPLICATION_FORM',
        status: 'SUBMITTED',
        submittedBy: 'APPLICANT',
        recorded: '2026-03-02T10:00:00',
      },
      {
        submitted: '2026-03-04T12:00:00',
        documentType: 'ACKNOWLEDGEMENT',
        status: 'ACKNOWLEDGED',
        submittedBy: 'BD',
        recorded: '2026-03-04T12:00:00',
      },
      {
        submitted: '2026-04-10T15:00:00',
        documentType: 'LETTER_OF_REQUIREMENTS',
        status: 'LOR_ISSUED',
        submittedBy: 'BD',
        recorded: '2026-04-10T15:00:00',
      },
      {
        submitted: '2026-05-20T11:30:00',
        documentType: 'COMPLIANCE_REPORT',
        status: 'COMPLIANCE_REPORTED',
        submittedBy: 'AP',
        recorded: '2026-05-21T09:00:00',
      },
      {
        submitted: '2026-06-02T10:00:00',
        documentType: 'SUPPORTING_DOCUMENT',
        status: 'INSPECTION_SCHEDULED',
        submittedBy: 'BD',
        recorded: '2026-06-02T10:00:00',
      },
      {
        submitted: '2026-06-30T17:00:00',
        documentType: 'CERTIFICATE',
        status: 'CERTIFICATE_ISSUED',
        submittedBy: 'BD',
        recorded: '2026-06-30T17:00:00',
      },
    ],
  },
  {
    application: {
      applicationNo: 'SCS-1-2026-000012',
      formCode: 'SCS-1',
      applicationType: 'NEWSCH',
      status: 'SUBMITTED',
      applicantNameEn: 'HO Ka Yan',
      applicantNameZh: '何家欣',
      email: 'scs1.applicant@example.hk',
      mobile: '61234567',
      language: 'tc',
      premisesAddressEn: '3/F, North Point Government Offices, 333 Java Road, North Point, Hong Kong',
    },
    history: [
      {
        submitted: '2026-11-02T09:30:00',
        documentType: 'APPLICATION_FORM',
        status: 'SUBMITTED',
        submittedBy: 'APPLICANT',
        recorded: '2026-11-02T09:30:00',
      },
      {
        submitted: '2026-11-02T09:32:00',
        documentType: 'LAYOUT_PLAN',
        status: 'SUBMITTED',
        submittedBy: 'AP',
        recorded: '2026-11-02T09:32:00',
      },
      {
        submitted: '2026-11-02T09:35:00',
        documentType: 'SUPPORTING_DOCUMENT',
        status: 'SUBMITTED',
        submittedBy: 'RSE',
        recorded: '2026-11-02T09:35:00',
      },
    ],
  },
];

/**
 * Idempotent: an application whose number already exists is left alone, history and all, so running it
 * at every start (also from several processes at once) neither duplicates nor overwrites anything.
 */
export async function seedDemo(db: Db): Promise<void> {
  for (const { application, history } of [...demoApplications, ...demoFinishedCases(new Date())]) {
    await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(applications)
        .values(application)
        .onConflictDoNothing({ target: applications.applicationNo })
        .returning({ id: applications.id });
      if (!inserted) return;
      await tx.insert(applicationHistory).values(
        history.map((event) => ({
          applicationId: inserted.id,
          submissionDate: hk(event.submitted),
          documentType: event.documentType,
          status: event.status,
          submittedBy: event.submittedBy,
          date: hk(event.recorded),
        })),
      );
    });
  }
  await seedDemoAppointments(db);
}
