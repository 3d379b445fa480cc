import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import i18next from 'i18next';
import { informationRequests } from '../../drizzle/schema-staff';
import { documentTypesFor, requestedDocumentNames } from '../../machines/forms/follow-up/submit-document';
import type { CaseData } from '../../machines/rules/case';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';

/**
 * A request for further information names documents of the case's form's list, or "Other" described by
 * the officer (docs/console.md): the API refuses a code not on the list at the field, in the caller's
 * language, and both sides get what they need to show the documents' names, never their codes.
 */

let h: ConsoleHarness;
let officer: StaffUser;

const messages = (lang: string, ns: string) =>
  import(`../../i18n/${lang}/${ns}.json`, { with: { type: 'json' } }).then(
    (m: { default: Record<string, unknown> }) => m.default,
  );

beforeAll(async () => {
  h = await startConsoleHarness();
  officer = await h.staff('caseOfficer', 'request.officer');
});

afterAll(async () => {
  await h?.close();
});

async function assignedCase() {
  const app = await h.loggedInCase('ACKNOWLEDGED');
  await h.staffAct(officer.token, app.applicationNo, 'case.assign', 'ACKNOWLEDGED', { staffId: officer.id });
  return app;
}

const ask = (applicationNo: string, answers: Record<string, unknown>, lang?: string) =>
  h.staffAct(
    officer.token,
    applicationNo,
    'information.request',
    'ACKNOWLEDGED',
    { replyBy: '2026-01-20', ...answers },
    lang,
  );

interface ErrorBody {
  meta: { message: string };
  data: { errors: { path: string; message: string }[] };
}

describe("an information request's documents", () => {
  it("gives the console the case's form's documents and Other to choose from", async () => {
    const app = await assignedCase();
    const view = (await h.view(officer.token, app.applicationNo)).body.data;
    expect(view.requestableDocuments).toEqual(documentTypesFor(view.formCode));
    expect(view.requestableDocuments.map((d) => d.value)).toContain('layoutPlans');
    expect(view.requestableDocuments.at(-1)?.value).toBe('other');
  });

  it.each([
    ['en', "Documents asked for: choose documents of this application form's list, or Other."],
    ['sc', '所需文件：请从此申请表格的文件清单中选择，或选择“其他”。'],
    ['tc', '所需文件：請從此申請表格的文件清單中選擇，或選擇「其他」。'],
  ])(
    'refuses a code not on the form\u2019s list at the field (%s), and writes nothing',
    async (lang, text) => {
      const app = await assignedCase();
      const refused = await ask(app.applicationNo, { documentTypes: ['layoutPlans', 'FS251'] }, lang);
      expect(refused.status).toBe(400);
      const body = refused.body as unknown as ErrorBody;
      expect(body.meta.message).toBe(text);
      expect(body.data.errors).toEqual([{ path: 'answers.documentTypes.1', message: text }]);
      const stored = await h.database.db
        .select()
        .from(informationRequests)
        .where(eq(informationRequests.applicationId, app.id));
      expect(stored).toEqual([]);
    },
  );

  it('refuses Other without a description, a description without Other, and markup', async () => {
    const app = await assignedCase();
    const paths = async (answers: Record<string, unknown>) => {
      const reply = await ask(app.applicationNo, answers);
      expect(reply.status).toBe(400);
      return (reply.body as unknown as ErrorBody).data.errors.map((e) => e.path);
    };
    expect(await paths({ documentTypes: ['other'] })).toEqual(['answers.otherDocument']);
    expect(await paths({ documentTypes: ['layoutPlans'], otherDocument: 'Fire certificate' })).toEqual([
      'answers.otherDocument',
    ]);
    expect(await paths({ documentTypes: ['other'], otherDocument: '<b>Fire</b>' })).toEqual([
      'answers.otherDocument',
    ]);
    expect(await paths({ documentTypes: ['other'], otherDocument: 'x'.repeat(201) })).toEqual([
      'answers.otherDocument',
    ]);
  });

  it('stores Other with its description; the applicant reads names, not codes, in their language', async () => {
    const app = await assignedCase();
    const description = 'Fire Service Installation certificate';
    const asked = await ask(app.applicationNo, {
      documentTypes: ['layoutPlans', 'other'],
      otherDocument: ` ${description} `,
    });
    expect(asked.status).toBe(200);
    const [stored] = await h.database.db
      .select()
      .from(informationRequests)
      .where(eq(informationRequests.applicationId, app.id));
    expect(stored).toMatchObject({ documentTypes: ['layoutPlans', 'other'], otherDocument: description });

    const seen: CaseData = (await h.current(app.token)).body.data;
    const request = seen.requests[0]!;
    expect(request).toMatchObject({ documentTypes: ['layoutPlans', 'other'], otherDocument: description });
    // The officer sees the same.
    const view = (await h.view(officer.token, app.applicationNo)).body.data;
    expect(view.requests[0]).toMatchObject({ otherDocument: description });

    // What the case page shows (ui/flows/case/CaseFromDepartment.tsx) in each language.
    for (const lang of ['en', 'sc', 'tc'] as const) {
      const t = i18next.createInstance();
      await t.init({ lng: lang, resources: { [lang]: { forms: await messages(lang, 'forms') } } });
      const names = requestedDocumentNames(seen.formCode, request, (k, d) => t.t(k, { defaultValue: d }));
      const forms = (await messages(lang, 'forms')) as { documents: Record<string, string> };
      expect(names).toEqual([forms.documents.layoutPlans, description]);
      expect(names.join()).not.toMatch(/layoutPlans|documents\./);
    }
  });
});
