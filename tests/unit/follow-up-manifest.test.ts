import { describe, expect, it } from 'vitest';
import {
  answersHash,
  FOLLOW_UP_MANIFEST_VERSION,
  followUpManifestText,
  sha256Hex,
} from '../../api/modules/signing/signing-manifest';

/** What a follow-up's signature covers (api/modules/signing/signing-manifest.ts `followUpManifestText`). */
describe('the manifest of a follow-up', () => {
  const input = {
    applicationNo: 'A2-2026-001024',
    followUp: 'submitDocument',
    answersSha256: answersHash({ documentType: 'other', description: 'Fire certificate' }),
    documents: [
      { documentType: 'supportingDocument', sha256: 'a'.repeat(64) },
      { documentType: 'supportingDocument', sha256: 'b'.repeat(64) },
    ],
  };

  it('names the case, the follow-up, the answers and each file in order', () => {
    expect(followUpManifestText(input).split('\n')).toEqual([
      FOLLOW_UP_MANIFEST_VERSION,
      'application A2-2026-001024',
      'follow-up submitDocument',
      `answers ${input.answersSha256}`,
      `document supportingDocument ${'a'.repeat(64)}`,
      `document supportingDocument ${'b'.repeat(64)}`,
      '',
    ]);
    expect(FOLLOW_UP_MANIFEST_VERSION).toBe('BD-FOLLOW-UP-MANIFEST/1');
  });

  it('changes with an answer or the order of the files, not with the order of the answers keys', () => {
    const digest = sha256Hex(followUpManifestText(input));
    const reordered = answersHash({ description: 'Fire certificate', documentType: 'other' });
    expect(sha256Hex(followUpManifestText({ ...input, answersSha256: reordered }))).toBe(digest);
    const changed = answersHash({ documentType: 'other', description: 'Fire certificate.' });
    expect(sha256Hex(followUpManifestText({ ...input, answersSha256: changed }))).not.toBe(digest);
    const swapped = { ...input, documents: [...input.documents].reverse() };
    expect(sha256Hex(followUpManifestText(swapped))).not.toBe(digest);
  });
});
