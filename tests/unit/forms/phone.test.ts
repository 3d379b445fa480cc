import { describe, expect, it } from 'vitest';
import { normaliseHkFixedLine, normaliseHkMobile, normaliseHkPhone } from '../../../machines/rules/phone';
import { normaliseHkMobile as otpMobile } from '../../../machines/rules/phone';

describe('Hong Kong phone numbers', () => {
  it('share one mobile rule between the login and the forms', () => {
    expect(otpMobile).toBe(normaliseHkMobile);
  });

  it.each([
    ['9123 4567', '91234567'],
    ['+852 5123-4567', '51234567'],
    ['４１２３４５６７', '41234567'],
  ])('reads the mobile %j as %s', (input, expected) => {
    expect(normaliseHkMobile(input)).toBe(expected);
  });

  it.each(['2123 4567', '3123 4567', '1123 4567', '9123 456', '+86 9123 4567'])(
    'refuses %j as a mobile',
    (input) => {
      expect(normaliseHkMobile(input)).toBeUndefined();
    },
  );

  it.each([
    ['2123 4567', '21234567'],
    ['+852 3123-4567', '31234567'],
  ])('reads the fixed line %j as %s', (input, expected) => {
    expect(normaliseHkFixedLine(input)).toBe(expected);
  });

  it.each(['9123 4567', '4123 4567', '1123 4567'])('refuses %j as a fixed line', (input) => {
    expect(normaliseHkFixedLine(input)).toBeUndefined();
  });

  it('accepts any 8 digits starting 2 to 9 as a telephone number', () => {
    for (const first of ['2', '3', '4', '5', '6', '7', '8', '9']) {
      expect(normaliseHkPhone(`${first}1234567`)).toBe(`${first}1234567`);
    }
    expect(normaliseHkPhone('11234567')).toBeUndefined();
    expect(normaliseHkPhone('01234567')).toBeUndefined();
  });

  it('refuses letters and an input longer than any number', () => {
    expect(normaliseHkPhone('2123 45a7')).toBeUndefined();
    expect(normaliseHkPhone(`2123 4567${' '.repeat(40)}1`)).toBeUndefined();
  });
});
