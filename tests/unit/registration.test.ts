import { describe, expect, it } from 'vitest';
import {
  normaliseMinorWorksItem,
  parseMinorWorksItem,
  parseMinorWorksSubmissionNo,
} from '../../machines/rules/minor-works';
import {
  normaliseRegistrationNumber,
  parseRegistrationNumber,
  registrationProblem,
} from '../../machines/rules/registration';

describe('registration numbers of APs and RSEs', () => {
  it.each([
    ['AP(A) 1234', 'AP(A) 1234', 'ap'],
    ['ap(e)0042', 'AP(E) 0042', 'ap'],
    ['AP (S) / 77', 'AP(S) 77', 'ap'],
    ['APA 9', 'AP(A) 9', 'ap'],
    ['ＡＰ（Ａ）１２３', 'AP(A) 123', 'ap'],
    ['RSE 567', 'RSE 567', 'rse'],
    ['rse-00567', 'RSE 00567', 'rse'],
  ])('%s is %s', (input, value, identity) => {
    expect(parseRegistrationNumber(input)).toMatchObject({ value, identity });
    expect(normaliseRegistrationNumber(input)).toBe(value);
  });

  it.each(['', 'AP 1234', 'AP(B) 1', 'RSE', 'RSE 123456', 'RGBC 12', '1234', 'AP(A) 12a'])(
    'refuses %j',
    (input) => {
      expect(parseRegistrationNumber(input)).toBeUndefined();
      expect(registrationProblem(input, 'ap', '2030-01-01', '2026-11-24')).toBe('format');
    },
  );

  it('checks the register against the identity and the expiry date against today', () => {
    expect(registrationProblem('RSE 5', 'ap', '2030-01-01', '2026-11-24')).toBe('identityMismatch');
    expect(registrationProblem('AP(A) 5', 'rse', '2030-01-01', '2026-11-24')).toBe('identityMismatch');
    expect(registrationProblem('AP(A) 5', 'ap', '2026-11-23', '2026-11-24')).toBe('expired');
    expect(registrationProblem('AP(A) 5', 'ap', '2026-11-24', '2026-11-24')).toBeUndefined();
    expect(registrationProblem('RSE 5', 'rse', '2031-11-24', '2026-11-24')).toBeUndefined();
  });
});

describe('minor works items and submission numbers', () => {
  it.each([
    ['3.5', '3.5'],
    ['III 3.5', '3.5'],
    ['Class III item 3.5', '3.5'],
    ['III-5', '3.5'],
    ['1.50', '1.50'],
    ['２．１', '2.1'],
  ])('%s is item %s', (input, code) => {
    expect(parseMinorWorksItem(input)?.code).toBe(code);
    expect(normaliseMinorWorksItem(input)).toBe(code);
  });

  it.each(['', '4.1', '3.0', '3.46', '1.51', 'II 3.5', 'IV-1', 'three'])('refuses %j', (input) => {
    expect(parseMinorWorksItem(input)).toBeUndefined();
  });

  it('accepts a submission number as BD prints it', () => {
    expect(parseMinorWorksSubmissionNo('mw 0123 4567')).toBe('MW01234567');
    expect(parseMinorWorksSubmissionNo('MW123')).toBeUndefined();
    expect(parseMinorWorksSubmissionNo('01234567')).toBeUndefined();
  });
});
