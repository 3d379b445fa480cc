import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentStreamBomb } from '../support/pdf-corpus';
import * as hostile from '../support/pdf-hostile';
import { type ApplicationHarness, startApplicationHarness } from './application-harness';

/**
 * The refusals of docs/decisions/031-pdf-active-content.md through the upload route: 422 DOCUMENT_INVALID
 * with the reason, the file name and a message in English, Traditional and Simplified Chinese, and nothing
 * kept. The check's own cases are in tests/unit/pdf-check.test.ts and tests/unit/pdf-active-content.test.ts.
 */

let h: ApplicationHarness;

beforeAll(async () => {
  h = await startApplicationHarness();
});

afterAll(async () => {
  await h?.close();
});

describe('an uploaded PDF refused by the check', () => {
  it.each<[string, () => Promise<Uint8Array>, string, [string, string, string]]>([
    [
      'JavaScript in a duplicate of the catalog',
      hostile.duplicateCatalogJsFirst,
      'active-content',
      [
        'contains JavaScript, rich media or actions',
        '包含 JavaScript、多媒體內容',
        '包含 JavaScript、多媒体内容',
      ],
    ],
    [
      'an attached file',
      hostile.embeddedFilesTree,
      'embedded-file',
      ['contains attached files', '包含附加檔案', '包含附加档案'],
    ],
    [
      'an XFA form',
      hostile.xfaForm,
      'xfa',
      ['is an XFA (dynamic) form', '是 XFA（動態）表格', '是 XFA（动态）表格'],
    ],
    [
      'a ZIP after %%EOF',
      hostile.trailingZip,
      'extra-data',
      [
        'has other data before or after the PDF',
        '在 PDF 內容之前或之後含有其他資料',
        '在 PDF 内容之前或之后含有其他资料',
      ],
    ],
    [
      '501 pages',
      () => hostile.manyPages(501),
      'too-many-pages',
      ['has more than 500 pages', '超過 500 頁', '超过 500 页'],
    ],
    [
      'a content stream of 200 MiB',
      () => contentStreamBomb(200),
      'too-complex',
      ['is too complex to check', '過於複雜', '过于复杂'],
    ],
  ])('is refused for %s, in three languages', async (_name, make, reason, [en, tc, sc]) => {
    const draft = await h.newDraft();
    const bytes = await make();

    const answers = await Promise.all(
      ['en', 'tc', 'sc'].map((lang) => h.upload(draft, 'layoutPlans', bytes, 'plan.pdf', `?lang=${lang}`)),
    );

    for (const answer of answers) {
      expect(answer.status).toBe(422);
      expect(answer.body.meta.code).toBe('DOCUMENT_INVALID');
      expect(answer.body.data).toMatchObject({ reason, fileName: 'plan.pdf' });
    }
    expect(answers[0]!.body.meta.message).toContain(en);
    expect(answers[1]!.body.meta.message).toContain(tc);
    expect(answers[2]!.body.meta.message).toContain(sc);
    const listed = await h.call<{ documents: unknown[] }>(
      'GET',
      `/api/drafts/${draft.applicationNo}/documents`,
      {
        token: draft.token,
      },
    );
    expect(listed.body.data.documents).toEqual([]);
  });
});
