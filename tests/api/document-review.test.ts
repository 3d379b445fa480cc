import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../drizzle/schema';
import type { CaseData } from '../../machines/rules/case';
import type { ConsoleCaseData } from '../../machines/rules/staff';
import { type ConsoleHarness, type StaffUser, startConsoleHarness } from './console-harness';
import { review, submittedDocument } from './document-review-harness';

/**
 * An officer's review of a case's document (docs/decisions/043-document-review.md): accepted, or needs
 * replacement with a reason the applicant and the AP read next to the document and the applicant is
 * emailed about in the case's language; compare-and-set (409 naming who reviewed it); audited; the
 * replacement shown with its own review and the old one marked replaced. PGlite, and Postgres with
 * DATABASE_URL.
 */
let h: ConsoleHarness;
let officer: StaffUser;
let senior: StaffUser;

beforeAll(async () => {
  h = await startConsoleHarness();
  officer = await h.staff('caseOfficer', 'review.officer');
  senior = await h.staff('seniorOfficer', 'review.senior');
});

afterAll(async () => {
  await h?.close();
});

/** A case in `language` assigned to `officer`, with a location plan the applicant submitted. */
async function caseWithDocument(language: 'en' | 'sc' | 'tc') {
  const c = await h.loggedInCase('LOR_ISSUED', language);
  const assigned = await h.staffAct(senior.token, c.applicationNo, 'case.assign', 'LOR_ISSUED', {
    staffId: officer.id,
  });
  expect(assigned.status).toBe(200);
  const reference = await submittedDocument(h, c.token, 'locationPlan', 'location-plan.pdf');
  const view = (await h.view(officer.token, c.applicationNo)).body.data;
  const row = view.history.find((r) => r.reference === reference);
  const doc = view.documents.find((d) => d.historyId === row?.id);
  if (!doc) throw new Error('the document is not on the case view');
  return { ...c, documentId: doc.id };
}

const docOf = (data: ConsoleCaseData, id: number) => data.documents.find((d) => d.id === id);
const applicantDoc = (data: CaseData, id: number) =>
  data.history.flatMap((r) => r.documents).find((d) => d.id === id);

describe("an officer's review of a document", () => {
  it('lists each document by type with size, when and who; not reviewed until the officer accepts it', async () => {
    const c = await caseWithDocument('en');
    const view = (await h.view(officer.token, c.applicationNo)).body.data;
    const doc = docOf(view, c.documentId);
    expect(doc).toMatchObject({ kind: 'locationPlan', typeKey: 'documents.locationPlan', review: null });
    expect(doc?.bytes).toBeGreaterThan(0);
    expect(view.history.find((r) => r.id === doc?.historyId)?.submittedBy).toBe('APPLICANT');
    expect(view.mayReview).toBe(true);

    const accepted = await review(h, officer.token, c.applicationNo, c.documentId, {
      status: 'accepted',
      expectedVersion: 0,
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.review).toMatchObject({
      status: 'accepted',
      reason: null,
      version: 1,
      reviewedBy: { id: officer.id },
      replacedBy: null,
    });
    const after = (await h.view(officer.token, c.applicationNo)).body.data;
    expect(docOf(after, c.documentId)?.review).toMatchObject({ status: 'accepted', version: 1 });
    // Accepted is the department's own: the applicant's page shows nothing for it.
    expect(applicantDoc((await h.current(c.token)).body.data, c.documentId)?.review).toBeUndefined();

    // Audited: who, the document, the status before → after.
    const [audit] = await h.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'document.review'), eq(auditEvents.applicationId, c.id)));
    expect(audit).toMatchObject({
      actor: 'caseOfficer',
      actorRef: `staff:${officer.id}`,
      before: { documentId: c.documentId, status: 'notReviewed', version: 0 },
      after: { documentId: c.documentId, status: 'accepted', version: 1 },
    });
  });

  it('refuses "needs replacement" without a reason, in en, sc and tc, and an unprintable reason', async () => {
    const c = await caseWithDocument('en');
    const words = { en: 'Enter this answer.', sc: '请填写此项。', tc: '請填寫此項。' };
    for (const [lang, message] of Object.entries(words)) {
      for (const reason of ['', '   ']) {
        const res = await review(
          h,
          officer.token,
          c.applicationNo,
          c.documentId,
          { status: 'needsReplacement', reason, expectedVersion: 0 },
          lang,
        );
        expect(res.status, lang).toBe(400);
        const errors = (res.body.data as unknown as { errors: { path: string; message: string }[] }).errors;
        expect(errors).toEqual([expect.objectContaining({ path: 'reason', message })]);
      }
    }
    const bad = await review(h, officer.token, c.applicationNo, c.documentId, {
      status: 'needsReplacement',
      reason: 'Blurred 🔥 page',
      expectedVersion: 0,
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.data)).toContain('U+1F525');
    for (const body of [
      { status: 'rejected', expectedVersion: 0 },
      { status: 'accepted', expectedVersion: -1 },
      { status: 'accepted' },
    ]) {
      const res = await review(h, officer.token, c.applicationNo, c.documentId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    // Nothing was written.
    expect(docOf((await h.view(officer.token, c.applicationNo)).body.data, c.documentId)?.review).toBeNull();
  });

  it('shows the reason to the applicant and the AP, emails the applicant in the case language, and marks the replacement', async () => {
    const c = await caseWithDocument('tc');
    const ap = await h.sessionOn(c.id, 'ap');
    const reason = 'The plan does not show the exits. 圖則未有顯示出口。';
    await h.messages.settled();
    const mails = h.smtp.mails.length;
    const res = await review(h, officer.token, c.applicationNo, c.documentId, {
      status: 'needsReplacement',
      reason: `  ${reason}  `,
      expectedVersion: 0,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.review).toMatchObject({ status: 'needsReplacement', reason, version: 1 });

    // The applicant and the AP read it next to the document, as written.
    for (const token of [c.token, ap]) {
      const doc = applicantDoc((await h.current(token)).body.data, c.documentId);
      expect(doc?.review).toMatchObject({ status: 'needsReplacement', reason, replacedBy: null });
    }
    // The applicant's email, in the case's language (tc), names the document type and the reason.
    await h.messages.settled();
    const sent = h.smtp.mails.slice(mails).filter((m) => m.to.includes(c.email));
    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail?.text).toContain('你的個案主任要求你更換申請');
    expect(mail?.text).toContain('處所位置圖');
    expect(mail?.text).toContain(reason);

    // The replacement: a new document with its own review; the old one marked replaced by it.
    const reference = await submittedDocument(h, c.token, 'locationPlan', 'location-plan-v2.pdf');
    const view = (await h.view(officer.token, c.applicationNo)).body.data;
    const row = view.history.find((r) => r.reference === reference);
    const fresh = view.documents.find((d) => d.historyId === row?.id);
    expect(fresh?.review).toBeNull();
    expect(docOf(view, c.documentId)?.review?.replacedBy).toBe(fresh?.id);
    expect(applicantDoc((await h.current(c.token)).body.data, c.documentId)?.review?.replacedBy).toBe(
      fresh?.id,
    );
  });

  it("keeps the reason from another applicant: their case, and this case's number, are not theirs", async () => {
    const c = await caseWithDocument('en');
    expect(
      (
        await review(h, officer.token, c.applicationNo, c.documentId, {
          status: 'needsReplacement',
          reason: 'Private to this case.',
          expectedVersion: 0,
        })
      ).status,
    ).toBe(200);
    const other = await h.loggedInCase('LOR_ISSUED', 'en');
    const theirs = await h.current(other.token);
    expect(JSON.stringify(theirs.body.data)).not.toContain('Private to this case.');
    const asked = await h.current(other.token, `?applicationNo=${c.applicationNo}`);
    expect(asked.status).toBe(403);
    const download = await h.call('GET', `/api/cases/current/documents/${c.documentId}`, {
      token: other.token,
    });
    expect(download.status).toBe(404);
  });

  it('answers 409 naming who reviewed it when the officer saw an older review; one of two at once wins', async () => {
    const c = await caseWithDocument('en');
    const first = await review(h, officer.token, c.applicationNo, c.documentId, {
      status: 'accepted',
      expectedVersion: 0,
    });
    expect(first.status).toBe(200);
    for (const lang of ['en', 'tc'] as const) {
      const stale = await review(
        h,
        senior.token,
        c.applicationNo,
        c.documentId,
        { status: 'needsReplacement', reason: 'Page 2 missing.', expectedVersion: 0 },
        lang,
      );
      expect(stale.status).toBe(409);
      expect(stale.body.meta.code).toBe('DOCUMENT_REVIEW_CHANGED');
      expect(stale.body.meta.message).toContain(lang === 'en' ? 'Officer review.officer' : '主任');
      expect(stale.body.meta.message).toContain(lang === 'en' ? '“accepted”' : '「已接納」');
      expect(stale.body.data).toMatchObject({ review: { status: 'accepted', version: 1 } });
    }
    // Two officers on the same version at once: one review is written, the other is told.
    const both = await Promise.all(
      [officer, senior].map((who) =>
        review(h, who.token, c.applicationNo, c.documentId, {
          status: 'needsReplacement',
          reason: `Asked by ${who.username}.`,
          expectedVersion: 1,
        }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const view = (await h.view(officer.token, c.applicationNo)).body.data;
    expect(docOf(view, c.documentId)?.review?.version).toBe(2);
  });

  it('is refused to an officer the case is not assigned to, an admin, and for an unknown document', async () => {
    const c = await caseWithDocument('en');
    const other = await h.staff('caseOfficer', 'review.other');
    const admin = await h.staff('admin', 'review.admin');
    const body = { status: 'accepted', expectedVersion: 0 };
    expect((await review(h, other.token, c.applicationNo, c.documentId, body)).status).toBe(403);
    expect((await review(h, admin.token, c.applicationNo, c.documentId, body)).status).toBe(403);
    expect((await review(h, undefined, c.applicationNo, c.documentId, body)).status).toBe(401);
    expect((await review(h, c.token, c.applicationNo, c.documentId, body)).status).toBe(401);
    const view = (await h.view(other.token, c.applicationNo)).body.data;
    expect(view.mayReview).toBe(false);
    // A document of another case is not found on this one.
    const d = await caseWithDocument('en');
    expect((await review(h, officer.token, c.applicationNo, d.documentId, body)).status).toBe(404);
    expect((await review(h, officer.token, c.applicationNo, 999999, body)).status).toBe(404);
  });
});
