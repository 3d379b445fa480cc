import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { drafts } from '../../drizzle/schema';
import { resealHkic } from '../../api/modules/shared/hkic-reseal';
import { newKey } from './application-harness';
import { type CaseHarness, startCaseHarness } from './cases-harness';

/**
 * HKIC numbers at rest (docs/decisions/035-hkic-at-rest.md): a draft saved, signed, submitted and updated
 * leaves the applicant's HKIC in no row of drafts, case versions, case actions, signing or the audit
 * trail as the database holds them, while the API still answers it to its owner. Real PGlite or Postgres.
 */
let h: CaseHarness;

beforeAll(async () => {
  h = await startCaseHarness();
});

afterAll(async () => {
  await h?.close();
});

const HKIC = 'A1234563';

/** Every row of `table` as Postgres prints it (the whole row, every column). */
async function rawRows(table: string): Promise<string[]> {
  const result = await h.database.db.execute(sql.raw(`select t::text as row from ${table} t`));
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { row: string }[];
  return rows.map((r) => r.row);
}

/** Does `text` hold the number in any formatting (`A1234563`, `a123456(3)`, `A 123 456 (3)`)? */
const holdsHkic = (text: string) => /a\W*1\W*2\W*3\W*4\W*5\W*6\W*3/i.test(text);

const plain = (v: unknown) =>
  String(v)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');

async function expectNowhere(tables: string[]) {
  for (const table of tables) {
    const rows = await rawRows(table);
    for (const row of rows) expect(holdsHkic(row), `${table}: ${row.slice(0, 200)}`).toBe(false);
  }
}

const draftAnswersOf = async (applicationNo: string) => {
  const [row] = await h.database.db
    .select({ answers: drafts.answers })
    .from(drafts)
    .where(eq(drafts.applicationNo, applicationNo));
  return row!.answers as Record<string, unknown>;
};

describe('an HKIC at rest', () => {
  it('is sealed in every row a draft, its signing, its submission and an update write, and read back by its owner', async () => {
    const draft = await h.readyDraft({ applicantHkic: 'a123456(3)' });
    expect((await draftAnswersOf(draft.applicationNo)).applicantHkic).toMatch(/^hkic:dev:/);
    const own = await h.call<{ answers: Record<string, unknown> }>(
      'GET',
      `/api/drafts/${draft.applicationNo}`,
      { token: draft.token },
    );
    expect(own.body.data.answers.applicantHkic).toBe('a123456(3)');

    // Signing with iAM Smart needs the number (its hash goes to the service): it still works.
    await h.sign(draft);
    expect((await h.submit(draft)).status).toBe(200);
    await h.messages.settled();
    const login = await h.login(draft.applicationNo, draft.email);
    const before = await h.current(login.token);
    const information = before.body.data.facts.information;
    expect(plain(information.answers.applicantHkic)).toBe(HKIC);

    const answers = { ...information.answers, applicantNameEn: 'CHAN Siu Wai', confirmUpdate: true };
    const updated = await h.act(login.token, 'updateInformation', answers, {
      key: newKey(),
      rawBody: { answers, baseVersion: 1 },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const after = await h.current(login.token);
    expect(after.body.data.facts.information.version).toBe(2);
    expect(plain(after.body.data.facts.information.answers.applicantHkic)).toBe(HKIC);

    const [versions, actions] = [await rawRows('case_versions'), await rawRows('case_actions')];
    expect(versions.length).toBeGreaterThanOrEqual(2);
    expect(actions.length).toBeGreaterThanOrEqual(1);
    expect(versions.every((row) => row.includes('hkic:dev:'))).toBe(true);
    await expectNowhere([
      'drafts',
      'case_versions',
      'case_actions',
      'audit_events',
      'signing_requests',
      'submissions',
      'applications',
    ]);

    const pdf = await h.download('/api/cases/current/information.pdf', login.token);
    expect(pdf.status).toBe(200);
  });

  it('reads a plain number of a row written before sealing as it is, and seals it at the next save', async () => {
    const draft = await h.newDraft(h.completeAnswers());
    const [row] = await h.database.db
      .select({ id: drafts.id, answers: drafts.answers })
      .from(drafts)
      .where(eq(drafts.applicationNo, draft.applicationNo));
    await h.database.db
      .update(drafts)
      .set({ answers: { ...(row!.answers as Record<string, unknown>), applicantHkic: HKIC } })
      .where(eq(drafts.id, row!.id));

    const read = await h.call<{ answers: Record<string, unknown>; version: number }>(
      'GET',
      `/api/drafts/${draft.applicationNo}`,
      { token: draft.token },
    );
    expect(read.status).toBe(200);
    expect(read.body.data.answers.applicantHkic).toBe(HKIC);

    const saved = await h.save(draft, { ...read.body.data.answers, applicantNameEn: 'CHAN Tai Man' });
    expect(saved.status).toBe(200);
    const stored = await draftAnswersOf(draft.applicationNo);
    expect(stored.applicantHkic).toMatch(/^hkic:dev:/);
    expect(holdsHkic(JSON.stringify(stored))).toBe(false);
  });

  it('refuses to answer with a sealed number that was changed in the database (never the ciphertext)', async () => {
    const draft = await h.newDraft(h.completeAnswers());
    const stored = await draftAnswersOf(draft.applicationNo);
    const sealed = String(stored.applicantHkic);
    const forged = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`;
    await h.database.db
      .update(drafts)
      .set({ answers: { ...stored, applicantHkic: forged } })
      .where(eq(drafts.applicationNo, draft.applicationNo));

    const read = await h.call('GET', `/api/drafts/${draft.applicationNo}`, { token: draft.token });

    expect(read.status).toBe(500);
    expect(JSON.stringify(read.body)).not.toContain('hkic:');
  });

  it('is sealed in rows from before sealing by the re-seal script, once, and still read by its owner', async () => {
    const draft = await h.newDraft(h.completeAnswers());
    const stored = await draftAnswersOf(draft.applicationNo);
    await h.database.db
      .update(drafts)
      .set({ answers: { ...stored, applicantHkic: HKIC } })
      .where(eq(drafts.applicationNo, draft.applicationNo));

    const first = await resealHkic(h.database.db);
    const again = await resealHkic(h.database.db);

    expect(first.drafts).toBeGreaterThanOrEqual(1);
    expect(again).toEqual({ drafts: 0, case_versions: 0, case_actions: 0 });
    expect((await draftAnswersOf(draft.applicationNo)).applicantHkic).toMatch(/^hkic:dev:/);
    await expectNowhere(['drafts', 'case_versions', 'case_actions']);
    const read = await h.call<{ answers: Record<string, unknown> }>(
      'GET',
      `/api/drafts/${draft.applicationNo}`,
      { token: draft.token },
    );
    expect(read.body.data.answers.applicantHkic).toBe(HKIC);
  });
});
