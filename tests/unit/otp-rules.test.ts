import { describe, expect, it } from 'vitest';
import { normaliseDigits, otpCodeSchema, otpSendSchema, parseContact } from '../../machines/rules/otp';
import { normaliseHkMobile } from '../../machines/rules/phone';

describe('normaliseDigits', () => {
  it('turns full-width digits into ASCII and keeps everything else', () => {
    expect(normaliseDigits('０１２３４５６７８９')).toBe('0123456789');
    expect(normaliseDigits('A２-x')).toBe('A2-x');
  });
});

describe('normaliseHkMobile', () => {
  it.each([
    ['91234567', '91234567'],
    ['9123 4567', '91234567'],
    ['9123-4567', '91234567'],
    ['+852 9123 4567', '91234567'],
    ['852-9123-4567', '91234567'],
    ['(852) 9123 4567', '91234567'],
    ['４１２３４５６７', '41234567'],
  ])('reads %j as %s', (input, expected) => {
    expect(normaliseHkMobile(input)).toBe(expected);
  });

  it.each(['21234567', '31234567', '1234567', '912345678', '+86 91234567', '9123456a', ''])(
    'refuses %j',
    (input) => {
      expect(normaliseHkMobile(input)).toBeUndefined();
    },
  );
});

describe('parseContact', () => {
  it('reads an email in lower case', () => {
    expect(parseContact('  Applicant.A2@Example.HK ')).toEqual({
      kind: 'email',
      value: 'applicant.a2@example.hk',
    });
  });

  it('reads a full-width @ as an email', () => {
    expect(parseContact('a＠example.hk')).toEqual({ kind: 'email', value: 'a@example.hk' });
  });

  it('reads a mobile', () => {
    expect(parseContact('+85261234567')).toEqual({ kind: 'mobile', value: '61234567' });
  });
});

describe('the request schemas', () => {
  it('normalise the application number: full width, spaces and case', () => {
    const parsed = otpSendSchema.parse({
      applicationNo: ' ａ２－２０２６－０００１２３ ',
      contact: '91234567',
    });

    expect(parsed.applicationNo).toBe('A2-2026-000123');
  });

  it('accept a code in full-width digits as ASCII', () => {
    expect(otpCodeSchema.parse('１２３４５６')).toBe('123456');
  });

  it('refuse a code of 7 digits', () => {
    expect(otpCodeSchema.safeParse('1234567').success).toBe(false);
  });
});
