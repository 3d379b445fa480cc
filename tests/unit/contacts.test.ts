import { describe, expect, it } from 'vitest';
import { partiesToConfirm, unconfirmedParties, verifiedContactsOf } from '../../machines/rules/contacts';

const at = '2026-11-24T00:00:00.000Z';

describe('contacts to confirm (machines/rules/contacts.ts)', () => {
  it('asks the applicant alone when the contact person gave no email or mobile', () => {
    expect(partiesToConfirm({ applicantEmail: 'chan@example.hk', contactName: 'LEE' })).toEqual([
      'applicant',
    ]);
  });

  it('asks the contact person too when they gave an email or a mobile', () => {
    const answers = { applicantEmail: 'chan@example.hk', contactMobile: '+852 6123 4567' };
    const verified = verifiedContactsOf(answers, { email: { value: 'chan@example.hk', at } });

    expect(partiesToConfirm(answers)).toEqual(['applicant', 'contactPerson']);
    expect(unconfirmedParties(answers, verified)).toEqual(['contactPerson']);
  });

  it('counts the contact person as confirmed when they give the applicant’s confirmed email', () => {
    const answers = { applicantEmail: 'chan@example.hk', contactEmail: 'Chan@Example.HK' };
    const verified = verifiedContactsOf(answers, { email: { value: 'chan@example.hk', at } });

    expect(verified).toEqual({ email: 'chan@example.hk', contactPersonEmail: 'chan@example.hk' });
    expect(unconfirmedParties(answers, verified)).toEqual([]);
  });

  it('never counts an email confirmation for a mobile of the same digits', () => {
    const answers = { applicantMobile: '91234567', contactMobile: '61234567' };
    const verified = verifiedContactsOf(answers, {
      mobile: { value: '91234567', at },
      contactPersonEmail: { value: '61234567', at },
    });

    expect(verified).toEqual({ mobile: '91234567' });
  });
});
