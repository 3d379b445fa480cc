import type { Db } from '../../../drizzle/db';
import type { DraftDocumentRow } from '../../../drizzle/schema';
import { formByKey } from '../../../machines/forms';
import { missingDocuments, schemaFor } from '../../../machines/forms/schema';
import type { FormDefinition } from '../../../machines/forms/types';
import { ApiError, UnauthorizedError } from '../../http/errors';
import { DraftSubmittedError } from '../../http/errors';
import type { DocumentService } from './documents.service';
import type { DraftAccess } from './drafts.service';
import { unconfirmedParties, verifiedContactsOf } from '../../../machines/rules/contacts';
import { type DraftRecord, readDraft } from './drafts.repo';
import { certifiedCase, type CertifiedCase } from '../selfcert';

/**
 * The checks an application passes before it is signed and again when it is submitted (spec §5): every
 * answer by the form's full schema (the same zod schema the browser runs on each step), a confirmed
 * email or mobile (spec §4), and every required document. Drafts are saved leniently while they are
 * being filled; this is where the full rules are enforced by the API.
 */

/** 422 APPLICATION_INCOMPLETE: `data.fields` lists the field ids whose answers are missing or invalid. */
export class ApplicationIncompleteError extends ApiError {
  constructor(fields: string[]) {
    super(422, 'APPLICATION_INCOMPLETE', 'submission.incomplete', { fields });
  }
}

/** 422 CONTACT_UNVERIFIED: neither the applicant's email nor mobile has been confirmed by a one-time code. */
export class ContactUnverifiedError extends ApiError {
  constructor() {
    super(422, 'CONTACT_UNVERIFIED', 'submission.contactUnverified');
  }
}

/** 422 CONTACT_PERSON_UNVERIFIED: the contact person gave an email or mobile, and neither is confirmed. */
export class ContactPersonUnverifiedError extends ApiError {
  constructor() {
    super(422, 'CONTACT_PERSON_UNVERIFIED', 'submission.contactPersonUnverified');
  }
}

/** 422 DOCUMENTS_MISSING: 'Please submit all required documents'; `data.missing` the document types. */
export class DocumentsMissingError extends ApiError {
  constructor(missing: string[]) {
    super(422, 'DOCUMENTS_MISSING', 'documents.missing', { missing });
  }
}

export interface ReadyApplication {
  draft: DraftRecord;
  definition: FormDefinition;
  /** The answers as the full schema normalises them. */
  answers: Record<string, unknown>;
  documents: DraftDocumentRow[];
  verified: { email?: string; mobile?: string };
  /** A self-certification's case, found and of a matching form (api/modules/selfcert/selfcert.service.ts). */
  certifiedCase?: CertifiedCase;
}

export async function readyApplication(
  db: Db,
  documents: DocumentService,
  access: DraftAccess,
  now: Date,
): Promise<ReadyApplication> {
  const draft = await readDraft(db, access.id);
  if (!draft) throw new UnauthorizedError('drafts.unauthorized');
  if (draft.submittedAt) throw new DraftSubmittedError();
  const definition = formByKey(draft.formKey);
  if (!definition) throw new Error(`draft ${draft.applicationNo} has no form ${draft.formKey}`);
  const parsed = schemaFor(definition).safeParse(draft.answers);
  if (!parsed.success)
    throw new ApplicationIncompleteError([...new Set(parsed.error.issues.map((i) => String(i.path[0])))]);
  const certified = await certifiedCase(db, definition, parsed.data, now);
  const verified = verifiedContactsOf(draft.answers, draft.verifiedContacts);
  const unconfirmed = unconfirmedParties(draft.answers, verified);
  if (unconfirmed.includes('applicant')) throw new ContactUnverifiedError();
  if (unconfirmed.includes('contactPerson')) throw new ContactPersonUnverifiedError();
  const rows = await documents.rows(draft.id);
  const order = definition.documents.map((d) => d.id);
  rows.sort((a, b) => order.indexOf(a.documentType) - order.indexOf(b.documentType));
  const missing = missingDocuments(
    definition,
    rows.map((r) => r.documentType),
  );
  if (missing.length > 0) throw new DocumentsMissingError(missing);
  return {
    draft,
    definition,
    answers: parsed.data,
    documents: rows,
    verified,
    ...(certified ? { certifiedCase: certified } : {}),
  };
}
