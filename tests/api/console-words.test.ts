import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../drizzle/schema';
import type { ConsoleCaseData } from '../../machines/rules/staff';
import { textLanguage } from '../../api/modules/console/applicant-words';
import { actSigned } from './case-signing-harness';
import { type ConsoleHarness, startConsoleHarness } from './console-harness';
import { uploadedFile } from './document-review-harness';

/**
 * What the applicant or AP wrote, on the officer's case page (docs/decisions/037-applicant-words-in-console.md):
 * the console's case view returns, with each history row, the party's own words as written (a document's
 * description and note, the inspection request's dates, site contact and access notes, the withdrawal's
 * reason), who wrote them and when; the messages as written; each document by its type with the row it
 * came with; and only to a live staff session (docs/console.md). PGlite, and Postgres with DATABASE_URL.
 */
let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsoleHarness();
});

afterAll(async () => {
  await h?.close();
});

const uploaded = (token: string, forType: string, name: string) => uploadedFile(h, token, forType, name);

const rowOf = (data: ConsoleCaseData, reference: string) => {
  const row = data.history.find((r) => r.reference === reference);
  if (!row) throw new Error(`no history row ${reference}`);
  return row;
};

describe("the applicant's words on the console's case view", () => {
  it('returns each text as written, with who wrote it and when, next to its history row and documents', async () => {
    const c = await h.loggedInCase('LOR_ISSUED', 'tc');
    const officer = await h.staff('caseOfficer');

    const fileId = await uploaded(c.token, 'other', 'fs251.pdf');
    const description = '消防裝置及設備證書 (FS 251)';
    const note = 'Certificate renewed after the annual inspection in October.';
    const doc = await actSigned(h, c.token, 'submitDocument', {
      answers: { documentType: 'other', description, note },
      uploads: [fileId],
    });
    expect(doc.status).toBe(200);
    const docAt = h.clock.now().toISOString();

    const inspection = h.inspectionAnswers({ accessNotes: '請由側門進入，保安會開門。' });
    const ins = await h.act(c.token, 'requestForInspection', inspection);
    expect(ins.status).toBe(200);

    const message = await h.call('POST', '/api/cases/current/messages', {
      token: c.token,
      body: { body: '請問何時會安排巡查？' },
    });
    expect(message.status).toBe(200);

    const reason = 'The school will move to new premises next year.';
    const wd = await h.act(c.token, 'withdrawApplication', { reason, confirm: true });
    expect(wd.status).toBe(200);

    const view = await h.view(officer.token, c.applicationNo);
    expect(view.status).toBe(200);
    const data = view.body.data;

    // The supporting document: the description and the note as written, by the applicant, when it was sent.
    const docRow = rowOf(data, doc.body.data.reference);
    expect(docRow.words).toEqual({
      by: 'APPLICANT',
      at: docAt,
      formKey: 'submitDocument',
      texts: [
        { field: 'description', text: description, lang: 'zh-Hant' },
        { field: 'note', text: note, lang: 'en' },
      ],
    });
    // The document by its type ("Other": its name is the description) under the row it came with.
    const file = data.documents.find((d) => d.fileName === 'fs251.pdf');
    expect(file).toMatchObject({
      kind: 'other',
      typeKey: 'followUp.submitDocument.other',
      historyId: docRow.id,
    });
    // The signed application form has no catalogue entry: the console names it.
    expect(data.documents.filter((d) => d.kind === 'application').every((d) => d.typeKey === null)).toBe(
      true,
    );

    // The inspection request: the preferred dates, the site contact and the access notes, as written.
    const insRow = rowOf(data, ins.body.data.reference);
    expect(insRow.words?.by).toBe('APPLICANT');
    expect(insRow.words?.texts).toEqual([
      { field: 'preferredDate1', text: inspection.preferredDate1, lang: null },
      { field: 'preferredDate2', text: inspection.preferredDate2, lang: null },
      { field: 'preferredDate3', text: inspection.preferredDate3, lang: null },
      { field: 'inspectionContactName', text: 'LEE Siu Ming', lang: 'en' },
      { field: 'inspectionContactTelephone', text: '21234567', lang: null },
      { field: 'accessNotes', text: '請由側門進入，保安會開門。', lang: 'zh-Hant' },
    ]);

    // The withdrawal's reason.
    const wdRow = rowOf(data, wd.body.data.reference);
    expect(wdRow.words).toMatchObject({
      by: 'APPLICANT',
      formKey: 'withdrawApplication',
      texts: [{ field: 'reason', text: reason, lang: 'en' }],
    });
    expect(wdRow.words?.at).toBe(wdRow.date);

    // The message as written, with who and when; the case's language and the applicant's mobile.
    expect(data.messages).toEqual([
      expect.objectContaining({ sender: 'APPLICANT', body: '請問何時會安排巡查？', lang: 'zh-Hant' }),
    ]);
    expect(data.language).toBe('tc');
    expect(data.mobile).toBeTruthy();

    // The officer's view of personal data is recorded, as every case view is.
    const recorded = await h.database.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.event, 'case.viewPersonalData'), eq(auditEvents.actorRef, `staff:${officer.id}`)),
      );
    expect(recorded.length).toBeGreaterThanOrEqual(1);
  });

  it("returns an AP's words as the AP's", async () => {
    const c = await h.loggedInCase('LOR_ISSUED', 'sc');
    const ap = await h.sessionOn(c.id, 'ap');
    const senior = await h.staff('seniorOfficer');
    const ins = await h.act(
      ap,
      'requestForInspection',
      h.inspectionAnswers({ accessNotes: '请从后门进入。' }),
    );
    expect(ins.status).toBe(200);
    const msg = await h.call('POST', '/api/cases/current/messages', {
      token: ap,
      body: { body: 'Fire service installations are ready for inspection.' },
    });
    expect(msg.status).toBe(200);

    const data = (await h.view(senior.token, c.applicationNo)).body.data;
    const row = rowOf(data, ins.body.data.reference);
    expect(row.submittedBy).toBe('AP');
    expect(row.words?.by).toBe('AP');
    expect(row.words?.texts.find((t) => t.field === 'accessNotes')).toEqual({
      field: 'accessNotes',
      text: '请从后门进入。',
      lang: 'zh-Hans',
    });
    expect(data.messages).toEqual([
      expect.objectContaining({
        sender: 'AP',
        body: 'Fire service installations are ready for inspection.',
        lang: 'en',
      }),
    ]);
  });

  it("an officer's own action carries no party words", async () => {
    const c = await h.submittedCase();
    const senior = await h.staff('seniorOfficer');
    const made = await h.staffAct(senior.token, c.applicationNo, 'case.assign', 'SUBMITTED', {
      staffId: senior.id,
    });
    expect(made.status).toBe(200);
    const data = (await h.view(senior.token, c.applicationNo)).body.data;
    expect(data.history.every((r) => r.words === null)).toBe(true);
  });

  it('gives nothing to a session that may not see the case: none, the applicant, the AP, a signed-out officer', async () => {
    const c = await h.loggedInCase('LOR_ISSUED', 'en');
    const ap = await h.sessionOn(c.id, 'ap');
    expect(
      (await h.act(c.token, 'withdrawApplication', { reason: 'Private reason', confirm: true })).status,
    ).toBe(200);
    const path = `/api/staff/cases/${c.applicationNo}`;
    const officer = await h.staff('caseOfficer');
    await h.staffCall('DELETE', '/api/staff/session', officer.token);
    for (const res of [
      await h.staffCall('GET', path, undefined),
      // An applicant's or AP's Bearer token opens nothing under /api/staff (docs/console.md).
      await h.call('GET', path, { token: c.token }),
      await h.call('GET', path, { token: ap }),
      await h.staffCall('GET', path, officer.token),
    ]) {
      expect(res.status).toBe(401);
      expect(JSON.stringify(res.body)).not.toContain('Private reason');
    }
  });
});

describe('the language of a text, as its characters show it', () => {
  it('tells Traditional from Simplified, English from neither, and keeps the hint for common characters', () => {
    expect(textLanguage('消防裝置及設備證書', 'en')).toBe('zh-Hant');
    expect(textLanguage('消防装置及设备证书', 'en')).toBe('zh-Hans');
    expect(textLanguage('人口', 'sc')).toBe('zh-Hans');
    expect(textLanguage('人口', 'tc')).toBe('zh-Hant');
    expect(textLanguage('Use the side door', 'tc')).toBe('en');
    expect(textLanguage('2026-12-01', 'tc')).toBeNull();
    expect(textLanguage('2123 4567', 'en')).toBeNull();
  });
});
