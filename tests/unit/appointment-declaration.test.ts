import { describe, expect, it } from 'vitest';
import { declarationStatement, declarationText } from '../../machines/rules/appointment';

/** The declaration as the acceptance page shows it (docs/flows/appointment-acceptance.md). */
describe('the declaration of appointment as a person reads it', () => {
  const signed = declarationText({
    applicationNo: 'A2-2026-000123',
    identity: 'ap',
    nameEn: 'CHAN TAI MAN',
    registrationNumber: 'AP(A) 1234',
    expiryDate: '2027-12-31',
    appointmentId: 2,
  });

  it('is the statement as one paragraph, without the title line and its appointment id', () => {
    const shown = declarationStatement(signed);

    expect(shown).toBe(
      'I, CHAN TAI MAN, Authorized Person registered under the Buildings Ordinance (Cap 123) as AP(A) 1234 ' +
        '(registration valid until 31 Dec 2027), accept my appointment by the applicant of application ' +
        'A2-2026-000123 and declare that I will act for the applicant on the works of this application.',
    );
    expect(shown).not.toMatch(/Declaration of appointment|\n/);
  });

  it('leaves the signed text as it is (its digest is what was signed)', () => {
    expect(signed.split('\n')[0]).toBe('Declaration of appointment 2');
  });

  it('is signed in the language it is read in, its date as a person reads it, never an ISO date', () => {
    const facts = {
      applicationNo: 'A2-2026-000123',
      identity: 'rse' as const,
      nameEn: 'CHAN TAI MAN',
      registrationNumber: 'RSE 0456',
      expiryDate: '2027-12-31',
      appointmentId: 7,
    };
    const tc = declarationText(facts, 'tc');
    const sc = declarationText(facts, 'sc');

    expect(tc.split('\n')[0]).toBe('委任聲明 7');
    expect(declarationStatement(tc)).toBe(
      '本人CHAN TAI MAN為根據《建築物條例》（第123章）註冊的註冊結構工程師，註冊編號RSE 0456' +
        '（註冊有效期至2027年12月31日），接受申請編號A2-2026-000123的申請人的委任，' +
        '並聲明本人將就此申請的工程代表申請人行事。',
    );
    expect(declarationStatement(sc)).toContain(
      '注册的注册结构工程师，注册编号RSE 0456（注册有效期至2027年12月31日）',
    );
    for (const text of [tc, sc, declarationText(facts, 'en')]) expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(new Set([tc, sc, declarationText(facts, 'en')]).size).toBe(3);
  });

  it('keeps a text without the title line whole', () => {
    expect(declarationStatement('I accept.\nI declare.')).toBe('I accept. I declare.');
  });
});
