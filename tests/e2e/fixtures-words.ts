import type { Db } from '../../drizzle/db';
import { applicationHistory, applications, caseActions, caseDocuments } from '../../drizzle/schema';
import { caseMessages } from '../../drizzle/schema-staff';
import { eq } from 'drizzle-orm';
import { testApplicant } from './fixtures';
import { seedTestCase } from './seed-case';

/**
 * The case of console-words.spec.ts (applicant 191, docs/decisions/037-applicant-words-in-console.md): a
 * case in Traditional Chinese whose applicant sent a supporting document with a description and a note,
 * an inspection request with preferred dates, site contact and access notes, a message, and withdrew with a
 * reason; and a message of the appointed AP. Stored as the follow-ups store them (case_actions' answers,
 * the history row by its reference, the documents under the row).
 */
export const WORDS_CASE = {
  n: 191,
  description: '消防裝置及設備證書 (FS 251)',
  note: 'Renewed after the annual inspection in October.',
  preferredDates: ['2026-12-14', '2026-12-15', '2026-12-16'],
  contactName: '李小明',
  contactTelephone: '21234567',
  accessNotes: '請由側門進入，保安會開門。',
  message: '請問何時會安排巡查？',
  apMessage: 'Fire service installations are ready for inspection.',
  reason: 'The school will move to new premises next year.',
  fileName: 'fs251-certificate.pdf',
} as const;

export async function seedWordsCase(db: Db): Promise<void> {
  const w = WORDS_CASE;
  const no = testApplicant(w.n).applicationNo;
  const id = await seedTestCase(db, w.n, {
    status: 'WITHDRAWN',
    date: new Date('2026-11-02T09:00:00+08:00'),
  });
  if (id === undefined) return;
  await db.update(applications).set({ language: 'tc' }).where(eq(applications.id, id));
  const steps = [
    {
      formKey: 'submitDocument',
      reference: `SD-${no}-1`,
      documentType: 'SUPPORTING_DOCUMENT',
      answers: { documentType: 'other', description: w.description, note: w.note },
      before: 'LOR_ISSUED',
      after: 'LOR_ISSUED',
      at: new Date('2026-11-10T10:00:00+08:00'),
    },
    {
      formKey: 'requestForInspection',
      reference: `INS-${no}-1`,
      documentType: 'INSPECTION_REQUEST',
      answers: {
        requesterName: 'Test Applicant',
        requesterRole: 'applicant',
        inspectionContactName: w.contactName,
        inspectionContactTelephone: w.contactTelephone,
        preferredDate1: w.preferredDates[0],
        preferredDate2: w.preferredDates[1],
        preferredDate3: w.preferredDates[2],
        accessNotes: w.accessNotes,
      },
      before: 'LOR_ISSUED',
      after: 'INSPECTION_REQUESTED',
      at: new Date('2026-11-12T10:00:00+08:00'),
    },
    {
      formKey: 'withdrawApplication',
      reference: `WD-${no}-1`,
      documentType: 'WITHDRAWAL',
      answers: { reason: w.reason, confirm: true },
      before: 'INSPECTION_REQUESTED',
      after: 'WITHDRAWN',
      at: new Date('2026-11-20T10:00:00+08:00'),
    },
  ];
  for (const s of steps) {
    await db.insert(caseActions).values({
      applicationId: id,
      formKey: s.formKey,
      reference: s.reference,
      idempotencyKey: `e2e-words-${s.reference}`,
      answers: s.answers,
      statusBefore: s.before,
      statusAfter: s.after,
      actor: 'applicant',
      language: 'tc',
      createdAt: s.at,
    });
    const [row] = await db
      .insert(applicationHistory)
      .values({
        applicationId: id,
        submissionDate: s.at,
        documentType: s.documentType,
        status: s.after,
        submittedBy: 'APPLICANT',
        date: s.at,
        reference: s.reference,
      })
      .returning({ id: applicationHistory.id });
    if (s.formKey === 'submitDocument' && row)
      await db.insert(caseDocuments).values({
        applicationId: id,
        historyId: row.id,
        kind: 'other',
        storageKey: `e2e/words/${w.n}/fs251`,
        fileName: w.fileName,
        bytes: 1024,
        sha256: '0'.repeat(64),
        createdAt: s.at,
      });
  }
  await db.insert(caseMessages).values([
    {
      applicationId: id,
      sender: 'APPLICANT',
      body: w.message,
      createdAt: new Date('2026-11-13T09:00:00+08:00'),
    },
    { applicationId: id, sender: 'AP', body: w.apMessage, createdAt: new Date('2026-11-14T09:00:00+08:00') },
  ]);
}
