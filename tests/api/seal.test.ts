import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departmentSeal, THROWAWAY_SEAL_NAME } from '../../api/modules/shared/pdf/seal';
import { inkReport, renderPdf } from '../support/pdf-pixels';
import { type ConsoleHarness, startConsoleHarness, type StaffUser } from './console-harness';
import { byteRange, caseWithLetter, downloadLatest, pdfsig, pdfText } from './seal-harness';

/**
 * The department's seal on the letters it issues (docs/decisions/038-sealed-letters.md), checked by a
 * reader that is not ours: poppler's pdfsig, trusting the throw-away root of development and tests.
 */

let h: ConsoleHarness;
let officer: StaffUser;
let senior: StaffUser;

beforeAll(async () => {
  h = await startConsoleHarness();
  officer = await h.staff('caseOfficer', 'seal.officer');
  senior = await h.staff('seniorOfficer', 'seal.senior');
});

afterAll(async () => {
  await h?.close();
});

/** What pdfsig 22.12 prints for a whole, untouched document sealed by a certificate it trusts. */
function expectSealValid(bytes: Uint8Array) {
  const { output, status } = pdfsig(bytes);
  expect(status, output).toBe(0);
  expect(output).toContain('Signature #1:');
  expect(output).not.toContain('Signature #2:');
  expect(output).toContain(`Signer Certificate Common Name: ${THROWAWAY_SEAL_NAME}`);
  expect(output).toContain('Signature Type: ETSI.CAdES.detached');
  expect(output).toContain('Signing Hash Algorithm: SHA-256');
  expect(output).toContain('Total document signed');
  expect(output).toContain('Signature Validation: Signature is Valid.');
  expect(output).toContain('Certificate Validation: Certificate is Trusted.');
}

/** Drawn by pdf.js and by poppler (pdftoppm) without a warning, every run of text leaving ink. */
async function expectDrawn(bytes: Uint8Array) {
  const pdf = await renderPdf(bytes, 100);
  expect(pdf.pdfjs.length).toBeGreaterThan(0);
  expect(pdf.poppler.length).toBe(pdf.pdfjs.length);
  expect(pdf.pdfjsWarnings).toEqual([]);
  expect(pdf.popplerMessages).toEqual([]);
  expect(inkReport(pdf)).toEqual([]);
}

describe('the seal on issued letters', () => {
  it('is a throw-away certificate outside production, named as not the department’s', () => {
    const seal = departmentSeal();
    expect(seal.throwAway).toBe(true);
    expect(seal.certificatePem).toContain('BEGIN CERTIFICATE');
    expect(seal.rootPem).toContain('BEGIN CERTIFICATE');
  });

  it('seals a Letter of Requirements issued through the API: pdfsig finds it valid, whole and trusted', async () => {
    const { pdf, reference } = await caseWithLetter(h, officer, senior);
    expectSealValid(pdf);
    // The reference /verify checks is printed on the letter.
    expect(pdfText(pdf)).toContain(`Our reference: ${reference}`);
    // The signature covers every byte but its own /Contents: from 0 to the end of the file.
    const [start, length1, start2, length2] = byteRange(pdf);
    expect(start).toBe(0);
    expect(start2! + length2!).toBe(pdf.byteLength);
    expect(start2! - length1!).toBeGreaterThan(0);
    await expectDrawn(pdf);
  });

  it('finds one byte changed in the signed range invalid', async () => {
    const { pdf } = await caseWithLetter(h, officer, senior);
    const text = Buffer.from(pdf).toString('latin1');
    // A letter of the signature's own /Reason, inside a signed range, so the file still parses.
    const at = text.indexOf('(Issued by the Buildings Department)') + 1;
    expect(at).toBeGreaterThan(0);
    const [, length1, start2] = byteRange(pdf);
    expect(at < length1! || at >= start2!).toBe(true);
    const changed = Uint8Array.from(pdf);
    changed[at] = 'J'.charCodeAt(0);
    const { output } = pdfsig(changed);
    expect(output).toContain('Signature #1:');
    expect(output).not.toContain('Signature Validation: Signature is Valid.');
    expect(output).toContain('Signature Validation: Digest Mismatch.');
  });

  it('seals the decision letters too (the withdrawal of a Letter of Requirements)', async () => {
    const app = await caseWithLetter(h, officer, senior);
    const withdrawn = await h.staffAct(senior.token, app.applicationNo, 'lor.withdraw', 'LOR_ISSUED', {
      reason: 'The letter named the wrong premises.',
    });
    expect(withdrawn.status).toBe(200);
    const letter = await downloadLatest(h, app.token, 'LOR_WITHDRAWAL');
    expectSealValid(letter);
    await expectDrawn(letter);
  });
});
