import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { departmentSeal } from '../../api/modules/shared/pdf/seal';
import type { ConsoleHarness, StaffUser } from './console-harness';

/**
 * Issuing letters through the console's API and reading them back as the applicant downloads them, and
 * poppler's pdfsig on them (docs/decisions/038-sealed-letters.md). Used by seal.test.ts and verify.test.ts.
 */

export const LOR = {
  bdReference: 'BD 2/9123/26',
  date: '2026-01-05',
  category1: ['Provide a means of escape from the first floor.'],
  category2: ['Fire resisting door to the kitchen.'],
  minorWorks: [{ item: '3.5', description: 'Erection of a canopy', submissionNo: 'MW01234567' }],
};

/** The newest document of a history row of that type, as the applicant downloads it. */
export async function downloadLatest(
  h: ConsoleHarness,
  token: string,
  documentType: string,
): Promise<Uint8Array> {
  const current = await h.current(token);
  const row = current.body.data.history.find((r) => r.documentType === documentType);
  const doc = row?.documents[0];
  if (!doc) throw new Error(`no ${documentType} document on the case page`);
  const file = await h.download(`/api/cases/current/documents/${doc.id}`, token);
  expect(file.status).toBe(200);
  return file.bytes;
}

/** A case with a Letter of Requirements issued through the API: its number, token, reference and PDF. */
export async function caseWithLetter(h: ConsoleHarness, officer: StaffUser, senior: StaffUser) {
  const app = await h.loggedInCase('UNDER_EXAMINATION');
  const no = app.applicationNo;
  const assigned = await h.staffAct(senior.token, no, 'case.assign', 'UNDER_EXAMINATION', {
    staffId: officer.id,
  });
  expect(assigned.status).toBe(200);
  const issued = await h.staffAct(officer.token, no, 'lor.issue', 'UNDER_EXAMINATION', LOR);
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  const reference = issued.body.data.reference;
  expect(reference).toMatch(/^LOR-/);
  return { ...app, reference, pdf: await downloadLatest(h, app.token, 'LETTER_OF_REQUIREMENTS') };
}

let nssDir: string | undefined;

/**
 * An NSS database trusting the throw-away root of this process's seal, for pdfsig's -nssdir (made with
 * certutil, Debian's libnss3-tools).
 */
function trustingNssDir(): string {
  if (nssDir) return nssDir;
  const dir = mkdtempSync(path.join(tmpdir(), 'seal-nss-'));
  const root = path.join(dir, 'root.pem');
  writeFileSync(root, departmentSeal().rootPem ?? '');
  execFileSync('certutil', ['-N', '-d', `sql:${dir}`, '--empty-password']);
  execFileSync('certutil', [
    '-A',
    '-n',
    'throw-away seal root',
    '-t',
    'CT,C,C',
    '-i',
    root,
    '-d',
    `sql:${dir}`,
  ]);
  return (nssDir = dir);
}

/** pdfsig's report on the file, trusting the throw-away root: its output and exit status. */
export function pdfsig(bytes: Uint8Array): { output: string; status: number | null } {
  const dir = mkdtempSync(path.join(tmpdir(), 'seal-pdf-'));
  const file = path.join(dir, 'letter.pdf');
  writeFileSync(file, bytes);
  const run = spawnSync('pdfsig', ['-nssdir', `sql:${trustingNssDir()}`, file], { encoding: 'utf8' });
  return { output: `${run.stdout}${run.stderr}`, status: run.status };
}

/** The /ByteRange of the (one) signature: [start1, length1, start2, length2]. */
export function byteRange(bytes: Uint8Array): number[] {
  const text = Buffer.from(bytes).toString('latin1');
  const match = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text);
  if (!match) throw new Error('no /ByteRange in the PDF');
  return match.slice(1).map(Number);
}

/** The text of a PDF as poppler's pdftotext reads it. */
export function pdfText(bytes: Uint8Array): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'seal-text-'));
  const file = path.join(dir, 'letter.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}
