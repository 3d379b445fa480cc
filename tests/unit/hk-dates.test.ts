import { afterEach, describe, expect, it } from 'vitest';
import { DATE_FORMATTERS, formatHkDate, formatHkDateBilingual } from '../../machines/rules/dates';
import { formatDate } from '../../ui/components/format';

/**
 * The portal's one date formatter per language (machines/rules/dates.ts, docs/dates.md): Hong Kong time,
 * whatever the zone of the server or the browser. 2026-11-25T20:52Z is 04:52 on 26 November in Hong Kong,
 * and 2026-11-25T16:00:30Z is thirty seconds after midnight there, still 25 November in UTC.
 */
const JUST_AFTER_HK_MIDNIGHT = '2026-11-25T16:00:30.000Z';
const EARLY_MORNING_HK = new Date('2026-11-25T20:52:00.000Z');

describe('formatHkDate', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('writes an instant just after midnight in Hong Kong (before midnight UTC) as the Hong Kong day', () => {
    expect(formatHkDate(JUST_AFTER_HK_MIDNIGHT, 'en')).toBe('26 Nov 2026');
    expect(formatHkDate(JUST_AFTER_HK_MIDNIGHT, 'tc')).toBe('2026年11月26日');
    expect(formatHkDate(JUST_AFTER_HK_MIDNIGHT, 'sc')).toBe('2026年11月26日');
    expect(formatHkDate(EARLY_MORNING_HK, 'en')).toBe('26 Nov 2026');
    expect(formatHkDate(EARLY_MORNING_HK, 'en')).not.toContain('25');
  });

  it('adds the Hong Kong time when asked', () => {
    expect(formatHkDate(EARLY_MORNING_HK, 'en', true)).toMatch(/^26 Nov 2026, 4:52\s?am$/i);
    expect(formatHkDate(EARLY_MORNING_HK, 'tc', true)).toMatch(/^2026年11月26日 上午4:52$/);
    expect(formatHkDate(EARLY_MORNING_HK, 'sc', true)).toMatch(/^2026年11月26日 04:52$/);
  });

  it('is the same in any time zone of the server or browser', () => {
    const seen = new Set<string>();
    for (const tz of ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Asia/Hong_Kong']) {
      process.env.TZ = tz;
      seen.add(`${formatHkDate(JUST_AFTER_HK_MIDNIGHT, 'en', true)}|${formatHkDate('2026-12-01', 'tc')}`);
    }
    expect([...seen]).toHaveLength(1);
  });

  it('writes a calendar date as that day, in each language ("on or after 1 Dec 2026", not 2026-12-01)', () => {
    expect(formatHkDate('2026-12-01', 'en')).toBe('1 Dec 2026');
    expect(formatHkDate('2026-12-01', 'tc')).toBe('2026年12月1日');
    expect(formatHkDate('2026-12-01', 'sc')).toBe('2026年12月1日');
  });

  it('takes a Date, milliseconds or an ISO string alike, and gives back what is not a date', () => {
    const ms = EARLY_MORNING_HK.getTime();
    expect(formatHkDate(ms, 'en')).toBe(formatHkDate(EARLY_MORNING_HK.toISOString(), 'en'));
    expect(formatHkDate('not a date', 'en')).toBe('not a date');
    expect(formatHkDate('2026-02-30', 'en')).toBe('2026-02-30');
  });

  it('has one formatter per language, the same function the pages use', () => {
    for (const lang of ['en', 'tc', 'sc'] as const) {
      expect(DATE_FORMATTERS[lang](JUST_AFTER_HK_MIDNIGHT, true)).toBe(
        formatHkDate(JUST_AFTER_HK_MIDNIGHT, lang, true),
      );
      expect(formatDate(JUST_AFTER_HK_MIDNIGHT, lang)).toBe(formatHkDate(JUST_AFTER_HK_MIDNIGHT, lang));
    }
    // An unknown page language falls back to English.
    expect(formatDate('2026-12-01', 'fr')).toBe('1 Dec 2026');
  });

  it('writes a bilingual document date in English and Chinese', () => {
    expect(formatHkDateBilingual(JUST_AFTER_HK_MIDNIGHT)).toBe('26 Nov 2026 / 2026年11月26日');
  });
});
