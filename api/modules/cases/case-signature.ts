import { eq } from 'drizzle-orm';
import type { Db } from '../../../drizzle/db';
import { drafts, signingRequests, submissions } from '../../../drizzle/schema';
import { openAnswers, type SignedRecord } from '../shared';

/**
 * The signature a submitted application rests on, from its records (docs/flows/signing.md): the signing
 * request the submission names, its method, when it was completed, and the SHA-256 of the manifest signed
 * (the application PDF frozen at signing and the documents). The signer's name: an e-Cert's holder (the
 * certificate's CN); for iAM Smart, the applicant named on the application, whom iAM Smart checked by
 * their HKIC. Null for a case with no submission (made in the console or before signing was recorded).
 */
export async function applicationSignature(
  db: Db,
  applicationId: number,
): Promise<Omit<SignedRecord, 'laterVersion'> | null> {
  const [row] = await db
    .select({ request: signingRequests, answers: drafts.answers, submittedAt: submissions.submittedAt })
    .from(submissions)
    .innerJoin(signingRequests, eq(signingRequests.id, submissions.signingRequestId))
    .innerJoin(drafts, eq(drafts.id, submissions.draftId))
    .where(eq(submissions.applicationId, applicationId));
  if (!row || row.request.status !== 'signed') return null;
  const method = row.request.method === 'ecert' ? 'ecert' : 'iamsmart';
  const signer = (row.request.signer ?? {}) as { subject?: unknown };
  const answers = openAnswers(row.answers as Record<string, unknown>);
  const named = ['applicantNameEn', 'applicantNameZh']
    .map((k) => (typeof answers[k] === 'string' ? answers[k].trim() : ''))
    .filter(Boolean)
    .join(' ');
  const commonName =
    typeof signer.subject === 'string' ? /(?:^|,\s*)CN=([^,]+)/.exec(signer.subject)?.[1]?.trim() : undefined;
  return {
    method,
    signer: (method === 'ecert' ? commonName : undefined) ?? named,
    at: row.request.completedAt ?? row.submittedAt,
    digest: row.request.digest,
  };
}

/** The application PDF's `signed` input for the case's information at `version`: none without a signature. */
export async function signedSection(
  db: Db,
  applicationId: number,
  version: number,
): Promise<{ signed?: SignedRecord }> {
  const signature = await applicationSignature(db, applicationId);
  if (!signature) return {};
  return { signed: version > 1 ? { ...signature, laterVersion: version } : signature };
}
