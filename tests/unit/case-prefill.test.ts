import { describe, expect, it } from 'vitest';
import { FORM_CATALOGUE } from '../../machines/forms';
import { casePrefill, letterPrefill } from '../../ui/flows/apply/case-prefill';
import { letterAnswers } from '../../machines/rules/selfcert';
import { selfCertLink } from '../../ui/flows/case/self-cert-link';

/** "Self-certify this case": the case page's link and the wizard's prefill from it (decision 021). */
describe('self-certify this case', () => {
  const link = selfCertLink('A2-2026-000123', {
    formKey: 'scs1',
    certifierIdentity: 'ap',
    certifierRegNo: 'AP(A) 1234',
    letter: null,
  });

  it('links to the form’s first step with the case and the certifier', () => {
    expect(link).toBe('/form-scs-1-step1?case=A2-2026-000123&certifier=ap&reg=AP%28A%29+1234');
  });

  it('prefills the empty fields from the link', () => {
    const search = link.slice(link.indexOf('?'));
    expect(casePrefill(FORM_CATALOGUE.scs1, search, {})).toEqual([
      { type: 'field.change', id: 'caseApplicationNo', value: 'A2-2026-000123' },
      { type: 'field.change', id: 'certifierIdentity', value: 'ap' },
      { type: 'field.change', id: 'certifierRegNo', value: 'AP(A) 1234' },
    ]);
  });

  it('fills only empty fields, checks each value, and nothing on a form that names no case', () => {
    const search = link.slice(link.indexOf('?'));
    expect(casePrefill(FORM_CATALOGUE.scs1, search, { caseApplicationNo: 'A2-2026-000999' })).toHaveLength(2);
    expect(casePrefill(FORM_CATALOGUE.scs1, '?case=%3Cscript%3E&certifier=x&reg=nonsense', {})).toEqual([]);
    // A registration of the other register than the identity is left out.
    expect(casePrefill(FORM_CATALOGUE.scs1, '?certifier=rse&reg=AP(A)%201234', {})).toEqual([
      { type: 'field.change', id: 'certifierIdentity', value: 'rse' },
    ]);
    expect(casePrefill(FORM_CATALOGUE.a2, search, {})).toEqual([]);
  });

  it('puts the letter as issued in the letter step (reference, date, items replaced), minor works only where empty', () => {
    const letter = letterAnswers({
      bdReference: 'BD 2/9123/26',
      date: '2026-11-02',
      category1: ['Provide a second means of escape.'],
      category2: [],
      minorWorks: [{ item: '3.5', description: 'Erection of a canopy', submissionNo: 'MW01234567' }],
    });
    const search = link.slice(link.indexOf('?'));
    const offered = { applicationNo: 'A2-2026-000123', letter };
    const events = letterPrefill(FORM_CATALOGUE.scs1, search, { lorDate: '2026-11-03' }, offered);
    expect(
      Object.fromEntries(
        events.map((e) => [
          e.type === 'field.change' ? e.id : '',
          e.type === 'field.change' ? e.value : null,
        ]),
      ),
    ).toEqual({
      lorReference: 'BD 2/9123/26',
      // The date typed in a draft is the letter's again: the department's, not the certifier's.
      lorDate: '2026-11-02',
      lorCategory1: [{ item: 'Provide a second means of escape.', status: '', remark: '' }],
      lorCategory2: [],
      minorWorksCarriedOut: 'yes',
      minorWorks: [{ no: '1', item: '3.5', description: 'Erection of a canopy', submissionNo: 'MW01234567' }],
    });
    // Another case than the link's, or no letter: nothing.
    expect(
      letterPrefill(FORM_CATALOGUE.scs1, search, {}, { ...offered, applicationNo: 'A2-2026-000999' }),
    ).toEqual([]);
    expect(letterPrefill(FORM_CATALOGUE.scs1, search, {}, { ...offered, letter: null })).toEqual([]);
    // A draft's items: an item as issued keeps the compliance given, an item typed that the letter has
    // not is dropped; minor works typed are the certifier's.
    const draft = {
      lorReference: 'BD 2/9123/26',
      lorDate: '2026-11-02',
      lorCategory1: [
        { item: 'Provide a second  means of escape.', status: 'complied', remark: '' },
        { item: 'An item the letter has not.', status: 'complied', remark: '' },
      ],
      lorCategory2: [],
      minorWorksCarriedOut: 'yes',
      minorWorks: [{ no: '1', item: '2.14', description: 'A door', submissionNo: '' }],
    };
    expect(letterPrefill(FORM_CATALOGUE.scs1, search, draft, offered)).toEqual([
      {
        type: 'field.change',
        id: 'lorCategory1',
        value: [{ item: 'Provide a second means of escape.', status: 'complied', remark: '' }],
      },
    ]);
  });
});
