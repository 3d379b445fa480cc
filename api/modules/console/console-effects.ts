import { createHash } from 'node:crypto';
import { formatHkDate } from '../../../machines/rules/dates';
import type { Db } from '../../../drizzle/db';
import type { ApplicationRow } from '../../../drizzle/schema';
import type { StaffAccountRow } from '../../../drizzle/schema-staff';
import { isLanguage, type Language } from '../../../machines/rules/language';
import { eventKey, type ConsoleEvent } from '../../../machines/rules/staff';
import { newStorageKey, type DocumentStorage } from '../../adapters/storage';
import { departmentSeal } from '../shared';
import { translate } from '../../http/i18n';
import {
  renderCertificate,
  renderDecisionLetter,
  renderLetterOfRequirements,
  type LetterOfRequirements,
} from './console-pdf';
import { letterFileName, type LetterContext } from './letter-parts';
import { letterheadOf, type LetterKind } from './letter-settings';
import { letterParties, recordedInspectionDate } from './letter-data';
import type { LifecycleFacts } from '../../../machines/rules/case-rules';
import * as repo from './console.repo';
import { fieldError } from '../../http/field-errors';
import { insertMessage, staffById } from '../cases';
import { documentTypesFor } from '../../../machines/forms/follow-up/submit-document';

/**
 * What each console action writes besides the lifecycle's own records (api/modules/console/console.service.ts), inside
 * its transaction: the assignment, the contact details sent, the issued letter or certificate as a PDF
 * case document on the action's history row, the information request, the message. Answers what goes
 * into the audit event and the parameters of the notice (per recipient language), if one is sent.
 */
export interface EffectContext {
  tx: Db;
  storage: DocumentStorage;
  now: Date;
  staff: StaffAccountRow;
  application: ApplicationRow;
  reference: string;
  historyId: number | null;
  actionId: number;
  current: { staffId: number; contactSentAt: Date | null } | undefined;
  /** The case's facts the lifecycle allowed the action on (the inspection's date for a certificate). */
  facts: LifecycleFacts;
}

export interface Effects {
  audit: Record<string, unknown>;
  notice?: (language: Language) => Record<string, string | number>;
}

const nameIn = (s: Pick<StaffAccountRow, 'nameEn' | 'nameZh'>, l: Language) =>
  l === 'en' ? s.nameEn : s.nameZh;
const postIn = (s: Pick<StaffAccountRow, 'postEn' | 'postZh'>, l: Language) =>
  l === 'en' ? s.postEn : s.postZh;

async function storePdf(
  c: EffectContext,
  kind: string,
  fileName: string,
  bytes: Uint8Array,
): Promise<number | null> {
  // Every issued letter carries the department's seal (docs/decisions/038-sealed-letters.md); the
  // SHA-256 stored is the sealed file's, which /api/verify compares an uploaded file with.
  const sealed = await departmentSeal().seal(bytes, c.now);
  return storeSealed(c, kind, fileName, sealed);
}

async function storeSealed(c: EffectContext, kind: string, fileName: string, bytes: Uint8Array) {
  const storageKey = newStorageKey();
  await c.storage.put(storageKey, bytes);
  return repo.insertDocument(c.tx, {
    applicationId: c.application.id,
    historyId: c.historyId,
    kind,
    storageKey,
    fileName,
    bytes: bytes.byteLength,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    createdAt: c.now,
    downloadUntil: null,
  });
}

async function officerOf(c: EffectContext): Promise<StaffAccountRow> {
  if (c.current && c.current.staffId !== c.staff.id)
    return (await staffById(c.tx, c.current.staffId)) ?? c.staff;
  return c.staff;
}

export async function issueEffects(
  c: EffectContext,
  event: ConsoleEvent,
  answers: Record<string, unknown>,
): Promise<Effects> {
  const language: Language = isLanguage(c.application.language) ? c.application.language : 'tc';
  // What every letter names besides its body (docs/decisions/041-letter-parts.md).
  const letter = async (kind: LetterKind): Promise<LetterContext> => ({
    kind,
    language,
    letterhead: await letterheadOf(c.tx),
    ...(await letterParties(c.tx, c.application, language)),
    applicationNo: c.application.applicationNo,
    applicationType: c.application.applicationType,
    formCode: c.application.formCode,
    reference: c.reference,
    officer: await officerOf(c),
    issuedAt: c.now,
  });
  const fileName = (kind: LetterKind) => letterFileName(kind, language, c.reference);
  const issued = (data: unknown, caseDocumentId: number | null = null) =>
    repo.insertIssued(c.tx, {
      applicationId: c.application.id,
      event,
      reference: c.reference,
      data,
      staffId: c.staff.id,
      caseDocumentId,
      createdAt: c.now,
    });

  switch (event) {
    case 'case.assign': {
      const staffId = answers.staffId as number;
      const target = await staffById(c.tx, staffId);
      if (!target || !target.active || target.role === 'admin') throw unknownOfficer('staffId');
      await repo.setAssignment(c.tx, {
        applicationId: c.application.id,
        staffId,
        assignedAt: c.now,
        assignedBy: c.staff.id,
      });
      return { audit: { assignedTo: staffId } };
    }
    case 'case.acknowledge': {
      // The contact details of the assigned officer (one who acknowledges an unassigned case takes it).
      if (!c.current)
        await repo.setAssignment(c.tx, {
          applicationId: c.application.id,
          staffId: c.staff.id,
          assignedAt: c.now,
          assignedBy: c.staff.id,
        });
      const officer = await officerOf(c);
      await repo.markContactSent(c.tx, c.application.id, c.now);
      await issued({ officerId: officer.id });
      return {
        audit: { contactOf: officer.id },
        notice: (l) => ({
          name: nameIn(officer, l),
          post: postIn(officer, l),
          telephone: officer.telephone,
          email: officer.email,
        }),
      };
    }
    case 'lor.issue': {
      const lor = answers as unknown as LetterOfRequirements;
      const pdf = await renderLetterOfRequirements(lor, await letter('letterOfRequirements'));
      const id = await storePdf(c, 'letterOfRequirements', fileName('letterOfRequirements'), pdf);
      await issued(lor, id);
      return {
        audit: { bdReference: lor.bdReference, documentId: id },
        notice: () => ({ reference: lor.bdReference }),
      };
    }
    case 'inspection.schedule':
    case 'inspection.reschedule': {
      const officer = await staffById(c.tx, answers.officerId as number);
      if (!officer || !officer.active || officer.role === 'admin') throw unknownOfficer('officerId');
      await issued(answers);
      return {
        audit: {
          date: answers.date,
          window: answers.window,
          officerId: officer.id,
          ...(c.facts.inspection ? { earlierDate: c.facts.inspection.date } : {}),
        },
        notice: (l) => ({
          date: formatHkDate(answers.date as string, l),
          window: translate(l, `staff.window.${answers.window as string}`),
          name: nameIn(officer, l),
          telephone: officer.telephone,
          reason: (answers.reason as string | undefined) ?? '',
        }),
      };
    }
    case 'inspection.cancel':
      await issued(answers);
      return {
        audit: { reason: answers.reason, earlierDate: c.facts.inspection?.date ?? null },
        notice: () => ({ reason: answers.reason as string }),
      };
    case 'case.reject':
    case 'lor.withdraw':
    case 'certificate.revoke':
    case 'case.reopen': {
      // A letter stating the decision or correction and its reason, on the action's history row.
      const reason = answers.reason as string;
      const kind = eventKey(event) as LetterKind;
      const pdf = await renderDecisionLetter(reason, await letter(kind));
      const id = await storePdf(c, kind, fileName(kind), pdf);
      await issued(answers, id);
      return { audit: { reason, documentId: id }, notice: () => ({ reason }) };
    }
    case 'information.extend': {
      const requestId = answers.requestId as number;
      if (!(await repo.extendRequest(c.tx, c.application.id, requestId, answers.replyBy as string)))
        throw fieldError(['answers', 'requestId'], 'case.rules.requestNotOpen');
      return {
        audit: { requestId, replyBy: answers.replyBy, reason: answers.reason ?? null },
        notice: (l) => ({ replyBy: formatHkDate(answers.replyBy as string, l) }),
      };
    }
    case 'information.withdraw': {
      const requestId = answers.requestId as number;
      if (!(await repo.withdrawRequest(c.tx, c.application.id, requestId, c.now)))
        throw fieldError(['answers', 'requestId'], 'case.rules.requestNotOpen');
      return { audit: { requestId, reason: answers.reason ?? null }, notice: () => ({}) };
    }
    case 'inspection.record':
      await issued(answers);
      return {
        audit: { result: answers.result },
        notice: (l) => ({ result: translate(l, `staff.result.${answers.result as string}`) }),
      };
    case 'certificate.issue': {
      // The date of the inspection whose result was recorded (never one to come: letter-data.ts).
      const inspectedOn = await recordedInspectionDate(c.tx, c.application.id);
      const kind = answers.kind as 'CERTIFICATE' | 'NOTICE';
      const letterKind = kind === 'CERTIFICATE' ? 'certificate' : 'notice';
      const pdf = await renderCertificate(
        { inspectedOn, remarks: answers.remarks as string | undefined },
        await letter(letterKind),
      );
      const id = await storePdf(c, letterKind, fileName(letterKind), pdf);
      await issued(answers, id);
      return {
        audit: { kind, documentId: id },
        notice: (l) => ({ kind: translate(l, `staff.certificate.${kind}`) }),
      };
    }
    case 'information.request': {
      const documentTypes = answers.documentTypes as string[];
      // Only the documents of the case's form's list, or "Other" described (docs/console.md).
      const listed = new Set(documentTypesFor(c.application.formCode).map((o) => o.value));
      const unlisted = documentTypes.findIndex((code) => !listed.has(code));
      if (unlisted >= 0) throw fieldError(['answers', 'documentTypes', unlisted], 'staff.unknownDocument');
      const id = await repo.insertRequest(c.tx, {
        applicationId: c.application.id,
        staffId: c.staff.id,
        documentTypes,
        otherDocument: (answers.otherDocument as string | undefined) ?? null,
        note: (answers.note as string | undefined) ?? null,
        replyBy: answers.replyBy as string,
        createdAt: c.now,
      });
      return {
        audit: { requestId: id, replyBy: answers.replyBy },
        notice: (l) => ({ replyBy: formatHkDate(answers.replyBy as string, l) }),
      };
    }
    case 'message.send':
      await insertMessage(c.tx, {
        applicationId: c.application.id,
        sender: 'BD',
        staffId: c.staff.id,
        body: answers.body as string,
        createdAt: c.now,
      });
      return { audit: {}, notice: () => ({}) };
    case 'compliance.record':
      await issued(answers);
      return { audit: {}, notice: () => ({}) };
    default:
      return { audit: {} };
  }
}

/** 400 on the field that names an officer who is not an active case or senior officer. */
const unknownOfficer = (field: string) => fieldError(['answers', field], 'staff.unknownOfficer');
