import { describe, expect, it } from 'vitest';
import { exactTime, shortTime } from './msgtime';

describe('message times', () => {
  const now = new Date(2025, 5, 10, 15, 0, 0);
  it.each([
    ['today: the time only', new Date(2025, 5, 10, 9, 5), 'en', '09:05 AM'],
    ['this year: day and time', new Date(2025, 0, 3, 18, 30), 'en', 'Jan 3, 06:30 PM'],
    ['an earlier year: with the year', new Date(2024, 11, 31, 7, 0), 'en', 'Dec 31, 2024, 07:00 AM'],
    ['Chinese, today', new Date(2025, 5, 10, 9, 5), 'zh', '09:05'],
    ['Chinese, this year', new Date(2025, 0, 3, 18, 30), 'zh', '1月3日 18:30'],
  ] as const)('%s', (_, d, lang, want) => {
    expect(shortTime(d.toISOString(), lang, now)).toBe(want);
  });

  it('gives the exact date and time with seconds in the UI language', () => {
    const iso = new Date(2025, 0, 1, 8, 0, 7).toISOString();
    expect(exactTime(iso, 'en')).toBe('Wednesday, January 1, 2025 at 8:00:07 AM');
    expect(exactTime(iso, 'zh')).toBe('2025年1月1日星期三 08:00:07');
  });

  it('is empty for a missing or bad date', () => {
    expect(shortTime('', 'en')).toBe('');
    expect(shortTime('not a date', 'zh')).toBe('');
    expect(exactTime('', 'en')).toBe('');
  });
});
