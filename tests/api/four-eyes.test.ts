import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuedDocuments } from '../../drizzle/schema-staff';
import type { CaseStatus } from '../../machines/rules/case-lifecycle';
import type { ProposalData } from '../../machines/rules/proposals';
import { hongKongDate } from '../../machines/rules/working-days';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';

/**
 * Decisions by two people and internal notes (docs/decisions/040-four-eyes-decisions.md), through the API
 * as the officers use it: the case officer proposes, a senior officer sends it back with a note or
 * approves it, which makes the decision with its letter; the proposer never approves their own; a second
 * approval is 409 naming who decided. Internal notes stay in the console.
 */
let h: ConsoleHarness;
let officer: StaffUser;
let senior: StaffUser;
let senior2: StaffUser;
let admin: StaffUser;

beforeAll(async () => {
  h = await startConsoleHarness();
  officer = await h.staff('caseOfficer', 'fe.officer');
  senior = await h.staff('seniorOfficer', 'fe.senior');
  senior2 = await h.staff('seniorOfficer', 'fe.senior2');
  admin = await h.staff('admin', 'fe.admin');
});

afterAll(async () => {
  await h?.close();
});

/** A case of the officer's in `status`, the applicant logged in. */
async function caseIn(status: CaseStatus) {
  const app = await h.loggedInCase(status);
  const assigned = await h.staffAct(senior.token, app.applicationNo, 'case.assign', status, {
    staffId: officer.id,
  });
  expect(assigned.status).toBe(200);
  return app;
}

/** A case of the officer's inspected today with a pass: a certificate may be proposed. */
async function passedCase() {
  const app = await caseIn('INSPECTION_SCHEDULED');
  await h.database.db.insert(issuedDocuments).values({
    applicationId: app.id,
    event: 'inspection.schedule',
    reference: `ISN-${app.applicationNo}-1`,
    data: { date: hongKongDate(h.clock.now()), window: 'AM', officerId: officer.id },
    staffId: officer.id,
    createdAt: h.clock.now(),
  });
  const passed = await h.staffAct(
    officer.token,
    app.applicationNo,
    'inspection.record',
    'INSPECTION_SCHEDULED',
    {
      result: 'PASS',
    },
  );
  expect(passed.body.data.status).toBe('INSPECTED');
  return app;
}

const proposalsOf = async (token: string, no: string) => (await h.view(token, no)).body.data;
const last = (list: ProposalData[]) => list.at(-1)!;

function pdfText(bytes: Uint8Array): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'four-eyes-'));
  const file = path.join(dir, 'doc.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('a certificate by two people', () => {
  it('is proposed, sent back with a note, proposed again and approved: the certificate letter exists', async () => {
    const app = await passedCase();
    const no = app.applicationNo;
    // Never directly: the action answers that a proposal approved by a senior officer is needed.
    const direct = await h.staffAct(senior.token, no, 'certificate.issue', 'INSPECTED', {
      kind: 'CERTIFICATE',
    });
    expect([direct.status, direct.body.meta.code, direct.body.data]).toEqual([
      409,
      'CASE_RULE',
      expect.objectContaining({ rule: 'proposalMissing' }),
    ]);
    expect((await proposalsOf(officer.token, no)).proposable).toContain('certificate.issue');

    const first = await h.propose(officer.token, no, 'certificate.issue', 'INSPECTED', {
      kind: 'CERTIFICATE',
      remarks: 'First try',
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.reference).toMatch(/^PRC-/);
    // Every officer sees it pending; it waits for the senior officer, not for the case officer.
    const seenBySenior = await proposalsOf(senior.token, no);
    expect(last(seenBySenior.proposals)).toMatchObject({
      state: 'pending',
      decision: 'certificate.issue',
      proposedBy: { id: officer.id, nameEn: 'Officer fe.officer' },
    });
    expect(seenBySenior.awaitingMe).toBe(true);
    const seenByOfficer = await proposalsOf(officer.token, no);
    expect(seenByOfficer.awaitingMe).toBe(false);
    expect(seenByOfficer.proposable).toEqual([]);
    // A second proposal while one is pending: refused.
    const second = await h.propose(officer.token, no, 'case.reject', 'INSPECTED', { reason: 'x' });
    expect([second.status, second.body.data]).toEqual([
      409,
      expect.objectContaining({ rule: 'proposalPending' }),
    ]);

    // Sent back with a note: the proposer sees it.
    const note = 'Please add the remarks on the fire exits.';
    const emptyNote = await h.onProposal(senior.token, no, first.body.data.proposalId, 'send-back', {
      note: ' ',
    });
    expect(emptyNote.status).toBe(400);
    const back = await h.onProposal(senior.token, no, first.body.data.proposalId, 'send-back', { note });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const afterBack = await proposalsOf(officer.token, no);
    expect(last(afterBack.proposals)).toMatchObject({
      state: 'sentBack',
      note,
      decidedBy: { id: senior.id, nameEn: 'Officer fe.senior' },
    });
    expect(afterBack.proposable).toContain('certificate.issue');
    // A sent-back proposal is approved by nobody.
    const late = await h.onProposal(senior2.token, no, first.body.data.proposalId, 'approve', {}, 'tc');
    expect([late.status, late.body.meta.code]).toEqual([409, 'PROPOSAL_DECIDED']);
    expect(late.body.meta.message).toBe('fe.senior主任已將這項建議退回提出建議的主任。');

    const again = await h.propose(officer.token, no, 'certificate.issue', 'INSPECTED', {
      kind: 'CERTIFICATE',
      remarks: 'Fire exits checked on site.',
    });
    expect(again.status).toBe(200);
    // The case officer cannot approve; the senior officer does.
    const byOfficer = await h.onProposal(officer.token, no, again.body.data.proposalId, 'approve');
    expect(byOfficer.status).toBe(403);
    const approved = await h.onProposal(senior.token, no, again.body.data.proposalId, 'approve');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data).toMatchObject({ event: 'certificate.issue', status: 'CERTIFICATE_ISSUED' });
    expect(approved.body.data.reference).toMatch(/^CRT-/);
    // The second approval: 409 naming who decided, in each language.
    const twice = await h.onProposal(senior2.token, no, again.body.data.proposalId, 'approve');
    expect([twice.status, twice.body.meta.code]).toEqual([409, 'PROPOSAL_DECIDED']);
    expect(twice.body.meta.message).toBe(
      'Officer fe.senior has already approved this proposal: the decision is made.',
    );
    const twiceSc = await h.onProposal(senior2.token, no, again.body.data.proposalId, 'approve', {}, 'sc');
    expect(twiceSc.body.meta.message).toBe('fe.senior主任已批准这项建议，决定已经作出。');

    // The certificate letter is on the applicant's case page, with the remarks proposed.
    const current = await h.current(app.token);
    const row = current.body.data.history.find((r) => r.documentType === 'CERTIFICATE');
    expect(row?.reference).toBe(approved.body.data.reference);
    expect(row?.documents).toHaveLength(1);
    const file = await h.download(`/api/cases/current/documents/${row!.documents[0]!.id}`, app.token);
    expect(file.status).toBe(200);
    expect(pdfText(file.bytes)).toContain('Certificate of Building Safety');

    // Each side is in the audit trail: proposed, sent back, proposed, approved with the decision.
    const view = await proposalsOf(senior.token, no);
    const events = view.audit.map((a) => a.event);
    expect(events).toEqual(
      expect.arrayContaining([
        'certificate.propose',
        'proposal.sendBack',
        'certificate.issue',
        'proposal.approve',
      ]),
    );
    const decided = view.audit.find((a) => a.event === 'certificate.issue');
    expect(decided?.actorRef).toBe(`staff:${senior.id}`);
    expect(decided?.after).toMatchObject({
      approval: { proposalId: again.body.data.proposalId, proposedBy: officer.id },
    });
    const refused = view.audit.filter((a) => a.event === 'proposal.approve');
    expect(refused.map((a) => (a.after as { outcome: string }).outcome)).toEqual(
      expect.arrayContaining(['ok', 'refused']),
    );
    expect(last(view.proposals)).toMatchObject({
      state: 'approved',
      reference: approved.body.data.reference,
    });
  });

  it('refuses a senior officer approving their own proposal with a clear 403; another senior approves', async () => {
    const app = await passedCase();
    const no = app.applicationNo;
    const mine = await h.propose(senior.token, no, 'certificate.issue', 'INSPECTED', { kind: 'NOTICE' });
    expect(mine.status).toBe(200);
    expect((await proposalsOf(senior.token, no)).awaitingMe).toBe(false);
    expect((await proposalsOf(senior2.token, no)).awaitingMe).toBe(true);
    // "Awaiting your approval": the queue's filter finds it for the other senior officer only.
    const awaiting = async (token: string) =>
      (await h.queue(token, '?awaiting=me')).body.data.cases.map((c) => c.applicationNo);
    expect(await awaiting(senior2.token)).toContain(no);
    expect(await awaiting(senior.token)).not.toContain(no);
    expect(await awaiting(officer.token)).toEqual([]);
    expect((await h.queue(senior.token, '?awaiting=you')).status).toBe(400);
    for (const [lang, message] of [
      ['en', 'You proposed this decision, so you cannot approve it. Another senior officer must approve it.'],
      ['sc', '此决定由你提出，你不能批准。须由另一位高级主任批准。'],
      ['tc', '此決定由你提出，你不能批准。須由另一位高級主任批准。'],
    ] as const) {
      const self = await h.onProposal(senior.token, no, mine.body.data.proposalId, 'approve', {}, lang);
      expect([self.status, self.body.meta.code, self.body.meta.message]).toEqual([403, 'FORBIDDEN', message]);
    }
    expect((await h.view(senior.token, no)).body.data.status).toBe('INSPECTED');
    const other = await h.onProposal(senior2.token, no, mine.body.data.proposalId, 'approve');
    expect(other.body.data.status).toBe('CERTIFICATE_ISSUED');
  });

  it('lets only the proposer withdraw it; a withdrawn proposal cannot be approved', async () => {
    const app = await passedCase();
    const no = app.applicationNo;
    const proposed = await h.propose(officer.token, no, 'certificate.issue', 'INSPECTED', {
      kind: 'CERTIFICATE',
    });
    const id = proposed.body.data.proposalId;
    const notMine = await h.onProposal(senior.token, no, id, 'withdraw');
    expect([notMine.status, notMine.body.meta.message]).toEqual([
      403,
      'Only the officer who proposed this decision can withdraw it.',
    ]);
    expect((await h.onProposal(officer.token, no, id, 'withdraw')).status).toBe(200);
    const approve = await h.onProposal(senior.token, no, id, 'approve');
    expect([approve.status, approve.body.meta.message]).toEqual([
      409,
      'The officer who proposed it has withdrawn this proposal.',
    ]);
    expect(last((await proposalsOf(officer.token, no)).proposals).state).toBe('withdrawn');
    // Unknown ids and another case's proposal: 404; malformed ids: 400.
    expect((await h.onProposal(senior.token, no, 999999, 'approve')).status).toBe(404);
    const otherCase = await passedCase();
    expect((await h.onProposal(senior.token, otherCase.applicationNo, id, 'approve')).status).toBe(404);
    expect(
      (await h.staffCall('POST', `/api/staff/cases/${no}/proposals/abc/approve`, senior.token, {})).status,
    ).toBe(400);
    expect((await h.propose(officer.token, no, 'case.close', 'INSPECTED')).status).toBe(404);
  });
});

describe('a rejection and a revocation by two people', () => {
  it('rejects on approval, with the rejection letter and the reason proposed', async () => {
    const app = await caseIn('UNDER_EXAMINATION');
    const reason = 'The premises are not the ones named in the application.';
    const bad = await h.propose(officer.token, app.applicationNo, 'case.reject', 'UNDER_EXAMINATION', {});
    expect(bad.status).toBe(400);
    const rejected = await h.decide(
      officer.token,
      senior.token,
      app.applicationNo,
      'case.reject',
      'UNDER_EXAMINATION',
      {
        reason,
      },
    );
    expect(rejected.body.data).toMatchObject({ event: 'case.reject', status: 'REJECTED' });
    const row = (await h.current(app.token)).body.data.history.find(
      (r) => r.documentType === 'REJECTION_NOTICE',
    );
    expect(row?.documents).toHaveLength(1);
    const file = await h.download(`/api/cases/current/documents/${row!.documents[0]!.id}`, app.token);
    expect(pdfText(file.bytes)).toContain('premises are not the ones named');
  });

  it('revokes on approval; the proposer cannot approve the revocation', async () => {
    const app = await passedCase();
    const no = app.applicationNo;
    await h.decide(officer.token, senior.token, no, 'certificate.issue', 'INSPECTED', {
      kind: 'CERTIFICATE',
    });
    const proposed = await h.propose(senior2.token, no, 'certificate.revoke', 'CERTIFICATE_ISSUED', {
      reason: 'Unauthorised works were found at the premises.',
    });
    expect(proposed.status).toBe(200);
    const self = await h.onProposal(senior2.token, no, proposed.body.data.proposalId, 'approve');
    expect(self.status).toBe(403);
    const revoked = await h.onProposal(senior.token, no, proposed.body.data.proposalId, 'approve');
    expect(revoked.body.data).toMatchObject({ event: 'certificate.revoke', status: 'INSPECTED' });
    const history = (await h.current(app.token)).body.data.history;
    expect(history.find((r) => r.documentType === 'CERTIFICATE_REVOCATION')?.documents).toHaveLength(1);
  });
});

describe('internal notes', () => {
  it('are listed with their author for every officer, and never reach the applicant or a PDF', async () => {
    const app = await passedCase();
    const no = app.applicationNo;
    const body = 'Neighbour says the shop front was altered last month — check before certifying.';
    const added = await h.staffCall('POST', `/api/staff/cases/${no}/notes`, officer.token, { body });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(
      (await h.staffCall('POST', `/api/staff/cases/${no}/notes`, officer.token, { body: '' })).status,
    ).toBe(400);
    expect((await h.staffCall('POST', `/api/staff/cases/${no}/notes`, admin.token, { body })).status).toBe(
      403,
    );
    expect(
      (await h.staffCall('POST', `/api/staff/cases/A2-2099-999999/notes`, senior.token, { body })).status,
    ).toBe(404);
    for (const who of [officer, senior, admin]) {
      const notes = (await h.view(who.token, no)).body.data.notes;
      expect(notes).toEqual([
        expect.objectContaining({
          body,
          author: { id: officer.id, nameEn: 'Officer fe.officer', nameZh: 'fe.officer主任' },
        }),
      ]);
    }
    await h.decide(officer.token, senior.token, no, 'certificate.issue', 'INSPECTED', {
      kind: 'CERTIFICATE',
    });
    // The applicant's case, its history and its letters: no note.
    const current = await h.current(app.token);
    expect(JSON.stringify(current.body)).not.toContain('Neighbour says');
    for (const row of current.body.data.history)
      for (const doc of row.documents.filter((d) => d.downloadable)) {
        const file = await h.download(`/api/cases/current/documents/${doc.id}`, app.token);
        if (file.status === 200 && String.fromCharCode(...file.bytes.slice(0, 4)) === '%PDF')
          expect(pdfText(file.bytes)).not.toContain('Neighbour');
      }
    const audit = (await h.view(senior.token, no)).body.data.audit.find((a) => a.event === 'case.note.add');
    expect(audit?.actorRef).toBe(`staff:${officer.id}`);
  });
});
