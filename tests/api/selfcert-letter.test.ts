import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enApi from '../../i18n/en/api.json';
import scApi from '../../i18n/sc/api.json';
import tcApi from '../../i18n/tc/api.json';
import { selfCertifications } from '../../drizzle/schema';
import { issuedDocuments, staffAccounts } from '../../drizzle/schema-staff';
import { LOR_EXAMPLE } from '../../machines/forms/letter-of-requirements';
import type { IssuedLetter } from '../../machines/rules/selfcert';
import { type ApplicationHarness, draftPath, newKey, startApplicationHarness } from './application-harness';
import { casesWithCertifier } from './accepted-appointment';

/**
 * A self-certification certifies against the Letter of Requirements the department issued
 * (docs/flows/case-rules.md, `lorRevised`; docs/decisions/021-self-certification.md): when the case's
 * latest `lor.issue` is on record, the letter step's reference, date and items must be that letter's —
 * at the case check of the letter step, at signing and at submission (under the case's row lock) — else
 * 409 CASE_RULE with the message at the first field that differs, in the caller's language, and the
 * letter as issued now for the wizard to refresh its items. Compliance and remarks stay the certifier's.
 */

const LANGS = { en: enApi, sc: scApi, tc: tcApi } as const;
type Lang = keyof typeof LANGS;
const HEADERS: Record<Lang, string> = { en: 'en', sc: 'zh-CN', tc: 'zh-HK' };
const revisedIn = (lang: Lang) => LANGS[lang].case.rules.lorRevised;

/** The letter as the console issues it (`lor.issue`'s answers): the items of the forms' example. */
const ISSUED: IssuedLetter = {
  bdReference: LOR_EXAMPLE.lorReference,
  date: LOR_EXAMPLE.lorDate,
  category1: LOR_EXAMPLE.lorCategory1.map((r) => r.item),
  category2: LOR_EXAMPLE.lorCategory2.map((r) => r.item),
  minorWorks: [],
};

let h: ApplicationHarness;
let staffId: number;
let serial = 0;

beforeAll(async () => {
  h = await startApplicationHarness({ formKey: 'scs1' });
  const [staff] = await h.database.db
    .insert(staffAccounts)
    .values({
      username: 'letter.officer',
      role: 'caseOfficer',
      nameEn: 'Officer',
      nameZh: '主任',
      postEn: 'Building Surveyor',
      postZh: '屋宇測量師',
      telephone: '2626 1616',
      email: 'letter.officer@bd.gov.hk',
      passwordHash: 'x',
      totpSecret: 'x',
      createdAt: h.clock.now(),
    })
    .returning({ id: staffAccounts.id });
  staffId = staff!.id;
});

afterAll(async () => {
  await h?.close();
});

/** A case with its AP (the forms' certifier) appointed and a letter issued by the console. */
async function caseWithLetter(letter: IssuedLetter = ISSUED) {
  serial += 1;
  const no = `A2-2026-93${String(serial).padStart(4, '0')}`;
  const [id] = await casesWithCertifier(h.database.db, h.clock.now(), [
    { no, formCode: 'A2', status: 'LOR_ISSUED' },
  ]);
  await issue(id!, no, letter);
  return { id: id!, no };
}

/** The console's `lor.issue` on record (a later one is the letter's revision). */
async function issue(applicationId: number, no: string, letter: IssuedLetter) {
  const n = await h.database.db
    .select({ id: issuedDocuments.id })
    .from(issuedDocuments)
    .where(eq(issuedDocuments.applicationId, applicationId));
  await h.database.db.insert(issuedDocuments).values({
    applicationId,
    event: 'lor.issue',
    reference: `LOR-${no}-${n.length + 1}`,
    data: letter,
    staffId,
    createdAt: h.clock.now(),
  });
}

const call = (method: string, path: string, token: string, lang: Lang, body?: unknown) =>
  h.call<{ rule?: string; errors?: { path: string; message: string }[]; letter?: Record<string, unknown> }>(
    method as 'POST',
    path,
    { token, ...(body === undefined ? {} : { body }), headers: { 'accept-language': HEADERS[lang] } },
  );

const submitIn = (draft: { applicationNo: string; token: string }, lang: Lang) =>
  h.call<{ rule?: string; errors?: { path: string; message: string }[] }>(
    'POST',
    `${draftPath(draft.applicationNo)}/submission`,
    { token: draft.token, headers: { 'idempotency-key': newKey(), 'accept-language': HEADERS[lang] } },
  );

/** The letter step's answers with one change. */
const changed = {
  item: {
    lorCategory1: [
      { ...LOR_EXAMPLE.lorCategory1[0], item: 'Provide a second exit route from the classrooms on 6/F.' },
      LOR_EXAMPLE.lorCategory1[1],
    ],
  },
  removed: { lorCategory1: [LOR_EXAMPLE.lorCategory1[0]] },
  added: {
    lorCategory2: [
      ...LOR_EXAMPLE.lorCategory2,
      { item: 'Emergency lighting in the corridor.', status: 'complied', remark: '' },
    ],
  },
  reference: { lorReference: 'BD 2/9041/25' },
} as const;

describe('the letter step against the letter issued', () => {
  it('takes the items as issued (compliance the certifier’s, the text as the letter folds it), signs and submits', async () => {
    const c = await caseWithLetter();
    const draft = await h.readyDraft({
      caseApplicationNo: c.no,
      // Typed with other spacing and full-width characters: the same letter to a reader.
      lorReference: 'BD 2 / 9041 / 26',
    });
    const checked = await call('POST', `${draftPath(draft.applicationNo)}/check-case`, draft.token, 'en', {
      answers: {
        caseApplicationNo: c.no,
        lorReference: LOR_EXAMPLE.lorReference,
        lorDate: LOR_EXAMPLE.lorDate,
        lorCategory1: LOR_EXAMPLE.lorCategory1.map((r) => ({ ...r, item: `  ${r.item}  ` })),
        lorCategory2: LOR_EXAMPLE.lorCategory2,
      },
    });
    expect(checked.status).toBe(200);
    await h.sign(draft);
    const res = await h.submit(draft);
    expect(res.status).toBe(200);
    const links = await h.database.db
      .select()
      .from(selfCertifications)
      .where(eq(selfCertifications.caseApplicationId, c.id));
    expect(links).toHaveLength(1);
  });

  it.each(Object.keys(changed) as (keyof typeof changed)[])(
    'refuses an item %s at the case check of the letter step, at its field, in en, sc and tc',
    async (kind) => {
      const c = await caseWithLetter();
      const draft = await h.newDraft(h.completeAnswers({ caseApplicationNo: c.no }));
      const answers = {
        caseApplicationNo: c.no,
        lorReference: LOR_EXAMPLE.lorReference,
        lorDate: LOR_EXAMPLE.lorDate,
        lorCategory1: LOR_EXAMPLE.lorCategory1,
        lorCategory2: LOR_EXAMPLE.lorCategory2,
        ...changed[kind],
      };
      const field = Object.keys(changed[kind])[0]!;
      for (const lang of ['en', 'sc', 'tc'] as const) {
        const res = await call('POST', `${draftPath(draft.applicationNo)}/check-case`, draft.token, lang, {
          answers,
        });
        expect(res.status).toBe(409);
        expect(res.body.meta.code).toBe('CASE_RULE');
        expect(res.body.meta.message).toBe(revisedIn(lang));
        expect(res.body.data?.rule).toBe('lorRevised');
        expect(res.body.data?.errors).toEqual([{ path: `answers.${field}`, message: revisedIn(lang) }]);
        // The letter as issued now, each item's compliance left for the certifier.
        expect(res.body.data?.letter).toMatchObject({
          lorReference: ISSUED.bdReference,
          lorCategory1: ISSUED.category1.map((item) => ({ item, status: '', remark: '' })),
        });
      }
    },
  );

  it('refuses signing and submission of a changed item, in the caller’s language, and records nothing', async () => {
    const c = await caseWithLetter();
    const draft = await h.readyDraft({ caseApplicationNo: c.no, ...changed.removed });
    for (const lang of ['en', 'sc', 'tc'] as const) {
      const signing = await call('POST', `${draftPath(draft.applicationNo)}/signing/iamsmart`, draft.token, lang);
      expect(signing.status).toBe(409);
      expect(signing.body.data?.errors).toEqual([{ path: 'answers.lorCategory1', message: revisedIn(lang) }]);
      const submitted = await submitIn(draft, lang);
      expect([submitted.status, submitted.body.meta.message]).toEqual([409, revisedIn(lang)]);
    }
    const links = await h.database.db
      .select()
      .from(selfCertifications)
      .where(eq(selfCertifications.caseApplicationId, c.id));
    expect(links).toHaveLength(0);
  });

  it('refuses the submission when the letter was revised after the form was signed, in en, sc and tc', async () => {
    const c = await caseWithLetter();
    const draft = await h.readyDraft({ caseApplicationNo: c.no });
    await h.sign(draft);
    // The officer corrects the letter: the same reference, one item reworded.
    await issue(c.id, c.no, {
      ...ISSUED,
      category2: ['Handrails on both sides of the ramp, 900 mm high.'],
    });
    for (const lang of ['en', 'sc', 'tc'] as const) {
      const res = await submitIn(draft, lang);
      expect(res.status).toBe(409);
      expect(res.body.meta.code).toBe('CASE_RULE');
      expect(res.body.meta.message).toBe(revisedIn(lang));
      expect(res.body.data?.errors).toEqual([{ path: 'answers.lorCategory2', message: revisedIn(lang) }]);
    }
    const links = await h.database.db
      .select()
      .from(selfCertifications)
      .where(eq(selfCertifications.caseApplicationId, c.id));
    expect(links).toHaveLength(0);
  });

  it('leaves the items to the certifier when no letter is on record (issued before the console)', async () => {
    const [id] = await casesWithCertifier(h.database.db, h.clock.now(), [
      { no: 'A2-2026-939999', formCode: 'A2', status: 'LOR_ISSUED' },
    ]);
    expect(id).toBeDefined();
    const draft = await h.readyDraft({ caseApplicationNo: 'A2-2026-939999', ...changed.added });
    await h.sign(draft);
    expect((await h.submit(draft)).status).toBe(200);
  });
});
