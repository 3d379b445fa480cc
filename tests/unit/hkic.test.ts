import { describe, expect, it } from 'vitest';
import { hkicCheckCharacter, isValidHkic, normaliseHkic } from '../../machines/rules/hkic';

describe('hkic', () => {
  // Worked by hand (machines/rules/hkic.ts): A1234563 → 36×9 + 10×8 + 1×7 + 2×6 + 3×5 + 4×4 + 5×3
  // + 6×2 = 481, 481 mod 11 = 8, check 3. K0000000 → 36×9 + 20×8 = 484 = 44×11, check 11 → 0.
  // Z683365A → 36×9 + 35×8 + 6×7 + 8×6 + 3×5 + 3×4 + 6×3 + 5×2 = 749, 749 mod 11 = 1, check 10 → A.
  it.each([
    'A1234563',
    'K0000000',
    'Z683365A',
    'G123456A',
    'AB9876543',
    'XA0000008',
    'C6686689',
    'WX370001A',
  ])('accepts the valid number %s', (hkic) => {
    expect(isValidHkic(hkic)).toBe(true);
  });

  it('computes the check character with a leading space for one letter and none for two', () => {
    expect(hkicCheckCharacter('A', '123456')).toBe('3');
    expect(hkicCheckCharacter('AB', '987654')).toBe('3');
    expect(hkicCheckCharacter('K', '000000')).toBe('0');
    expect(hkicCheckCharacter('G', '123456')).toBe('A');
  });

  it.each(['A1234564', 'A1234560', 'AB9876542', 'K0000001'])(
    'rejects the wrong check digit in %s',
    (hkic) => {
      expect(isValidHkic(hkic)).toBe(false);
    },
  );

  it('rejects a check of 10 written as a digit instead of A', () => {
    expect(isValidHkic('G12345610')).toBe(false);
    expect(isValidHkic('G1234561')).toBe(false);
    expect(isValidHkic('G123456A')).toBe(true);
  });

  it('rejects a check letter other than A', () => {
    expect(isValidHkic('G123456B')).toBe(false);
  });

  it.each(['A123456', 'A12345', 'A1234', ''])('rejects %j as too short', (hkic) => {
    expect(isValidHkic(hkic)).toBe(false);
  });

  it('rejects three letters, a missing letter and too many digits', () => {
    expect(isValidHkic('ABC1234563')).toBe(false);
    expect(isValidHkic('12345678')).toBe(false);
    expect(isValidHkic('A12345673')).toBe(false);
  });

  it('rejects lower case and brackets as stored, and accepts them after normalising', () => {
    expect(isValidHkic('a1234563')).toBe(false);
    expect(isValidHkic('A123456(3)')).toBe(false);
    expect(isValidHkic(normaliseHkic('a1234563'))).toBe(true);
    expect(isValidHkic(normaliseHkic(' ab 987654 (3) '))).toBe(true);
  });

  it('normalises brackets, spaces, case and full-width characters', () => {
    expect(normaliseHkic('A123456(3)')).toBe('A1234563');
    expect(normaliseHkic(' g 123456 (a) ')).toBe('G123456A');
    expect(normaliseHkic('Ａ１２３４５６（３）')).toBe('A1234563');
  });

  it('unwraps only a bracketed check character at the end', () => {
    expect(normaliseHkic('A(1)234563')).toBe('A(1)234563');
    expect(isValidHkic(normaliseHkic('A123456(34)'))).toBe(false);
  });
});
