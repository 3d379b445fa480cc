import { describe, expect, it } from 'vitest';
import { OPEN_FACTS } from '../../machines/flows/case-lifecycle.machine';
import { refusalOf } from '../../machines/rules/case-rules';
import {
  letterAnswers,
  letterDifference,
  letterOfAnswers,
  withIssuedLetter,
  type IssuedLetter,
} from '../../machines/rules/selfcert';

/**
 * The letter a self-certification states against the letter issued (docs/decisions/
 * 021-self-certification.md, "Certified against the letter issued"): `letterDifference` names the first
 * field that differs, `refusalOf` refuses `lorRevised` with it, `withIssuedLetter` refreshes the items.
 */

const ISSUED: IssuedLetter = {
  bdReference: 'BD 2/9041/26',
  date: '2026-09-15',
  category1: ['Provide a second exit route.', 'Fire resisting staircase enclosure.'],
  category2: [],
  minorWorks: [],
};

const stated = (over: Record<string, unknown> = {}) =>
  letterOfAnswers({
    lorReference: 'BD 2/9041/26',
    lorDate: '2026-09-15',
    lorCategory1: ISSUED.category1.map((item) => ({ item, status: 'complied', remark: '' })),
    lorCategory2: [],
    ...over,
  })!;

describe('the letter stated against the letter issued', () => {
  it('is the same letter whatever the compliance, the spacing or the reference as typed', () => {
    expect(letterDifference(ISSUED, stated())).toBeNull();
    expect(
      letterDifference(
        ISSUED,
        stated({
          lorReference: 'bd 2 / 9041 / 26',
          lorCategory1: [
            { item: ' Provide a second  exit route. ' },
            { item: 'Fire resisting staircase enclosure.' },
          ],
          lorCategory2: undefined,
        }),
      ),
    ).toBeNull();
  });

  it('names the first field that differs: reference, date, an item changed, removed or added', () => {
    expect(letterDifference(ISSUED, stated({ lorReference: 'BD 2/9041/25' }))).toBe('lorReference');
    expect(letterDifference(ISSUED, stated({ lorDate: '2026-09-16' }))).toBe('lorDate');
    expect(
      letterDifference(ISSUED, stated({ lorCategory1: [{ item: 'Provide a second exit route.' }] })),
    ).toBe('lorCategory1');
    expect(
      letterDifference(
        ISSUED,
        stated({ lorCategory1: [...[...ISSUED.category1].reverse().map((item) => ({ item }))] }),
      ),
    ).toBe('lorCategory1');
    expect(letterDifference(ISSUED, stated({ lorCategory2: [{ item: 'Handrails.' }] }))).toBe('lorCategory2');
  });

  it('refuses the submission with lorRevised only when a letter is on record and the answers state it', () => {
    const facts = { ...OPEN_FACTS, issuedLetter: ISSUED, appointees: ['ap:AP(A) 1234'], formCode: 'A2' };
    const who = { actorRef: 'AP(A) 1234' };
    const own = (letter?: ReturnType<typeof stated>) => ({ formKey: 'scs1', ...(letter ? { letter } : {}) });
    expect(refusalOf('selfCertification.submit', 'ap', facts, who, own(stated()))).toBeNull();
    expect(
      refusalOf('selfCertification.submit', 'ap', facts, who, own(stated({ lorDate: '2026-01-01' }))),
    ).toBe('lorRevised');
    // No letter on record (issued before the console), or no letter in the answers (Part A's check).
    expect(
      refusalOf(
        'selfCertification.submit',
        'ap',
        { ...facts, issuedLetter: null },
        who,
        own(stated({ lorDate: '2026-01-01' })),
      ),
    ).toBeNull();
    expect(refusalOf('selfCertification.submit', 'ap', facts, who, own())).toBeNull();
    // A letter that no longer stands is refused for that first.
    expect(
      refusalOf('selfCertification.submit', 'ap', { ...facts, lorIssued: false }, who, own(stated())),
    ).toBe('lorMissing');
  });

  it('refreshes the items as issued, an unchanged item keeping its compliance', () => {
    const revised = letterAnswers({ ...ISSUED, category1: ['Provide a second exit route.', 'A new item.'] });
    const answers = {
      lorReference: 'BD 2/9041/26',
      lorCategory1: [
        { item: 'Provide a second exit route.', status: 'complied', remark: '' },
        { item: 'Fire resisting staircase enclosure.', status: 'notApplicable', remark: 'None' },
      ],
    };
    expect(withIssuedLetter(answers, revised)).toEqual({
      lorReference: 'BD 2/9041/26',
      lorDate: '2026-09-15',
      lorCategory1: [
        { item: 'Provide a second exit route.', status: 'complied', remark: '' },
        { item: 'A new item.', status: '', remark: '' },
      ],
      lorCategory2: [],
    });
  });
});
