import { describe, expect, it } from 'vitest';
import { answerText, documentsFor, fieldById, FORM_CATALOGUE } from '../../../machines/forms';
import type { Field } from '../../../machines/forms';
import { formatCalendarDate } from '../../../machines/rules/dates';
import { answerLines, answerTranslator } from '../../../api/modules/shared/pdf/application-pdf';

const A2 = FORM_CATALOGUE.a2;
const field = (id: string): Field => {
  const placed = fieldById(A2, id);
  if (!placed) throw new Error(id);
  return placed.field;
};

describe('answerText (the preview and the PDF)', () => {
  it('prints a date in the person’s language, never as typed', () => {
    const date = field('applicationDate');
    expect(answerLines(date, '2026-11-24', 'en')).toEqual(['24 Nov 2026']);
    expect(answerLines(date, '2026-11-24', 'tc')).toEqual(['2026年11月24日']);
    expect(answerLines(date, '2026-11-24', 'sc')).toEqual(['2026年11月24日']);
  });

  it('formats a calendar date without moving it across a time zone', () => {
    expect(formatCalendarDate('2026-01-01', 'en')).toBe('1 Jan 2026');
    expect(formatCalendarDate('2026-02-30', 'en')).toBe('2026-02-30');
    expect(formatCalendarDate('not a date', 'tc')).toBe('not a date');
  });

  it('prints an address as its two lines and its parts under the labels of the form', () => {
    const address = field('premisesAddress');
    const lines = answerText(
      address,
      { en: 'Central Plaza', zh: '中環廣場', floor: '12/F', unit: 'Room 1201' },
      answerTranslator('en'),
      'en',
    );
    expect(lines).toEqual([
      { text: 'Central Plaza' },
      { text: '中環廣場', chinese: true },
      { text: 'Floor(s): 12/F; Unit / Room / Shop: Room 1201' },
    ]);
  });

  it('answers null for an empty answer, which the PDF prints as Not answered in the person’s language', () => {
    const name = field('applicantNameEn');
    expect(answerText(name, '  ', answerTranslator('en'), 'en')).toBeNull();
    expect(answerLines(name, undefined, 'tc')).toEqual(['未填寫']);
  });
});

describe('documentsFor', () => {
  it('offers a letter of authorisation only to an applicant who applies for an organisation', () => {
    const ids = (applyingAs: string) => documentsFor(A2, { ...A2.example, applyingAs }).map((d) => d.id);

    expect(ids('individual')).not.toContain('authorisationLetter');
    expect(ids('organisation')).toContain('authorisationLetter');
  });
});
