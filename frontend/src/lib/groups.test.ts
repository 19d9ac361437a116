import { describe, expect, it } from 'vitest';
import { groupOf, groupSessions, monthLabel } from './groups';
import type { SessionInfo } from './backend';

function s(id: string, updatedAt: Date | string, pinned = false): SessionInfo {
  const at = typeof updatedAt === 'string' ? updatedAt : updatedAt.toISOString();
  return { id, title: id, createdAt: at, updatedAt: at, messageCount: 1, state: 'active', pinned };
}

// Local times: the groups follow the user's calendar, not UTC.
const now = new Date(2025, 5, 15, 10, 30); // 15 June 2025, 10:30
const at = (month: number, day: number, h = 12, m = 0) => new Date(2025, month, day, h, m);

describe('groupOf', () => {
  it.each([
    ['earlier today', at(5, 15, 0, 0), 'today'],
    ['later today (another clock)', at(5, 15, 23, 0), 'today'],
    ['tomorrow (clock skew)', at(5, 16, 9), 'today'],
    ['yesterday at midnight', at(5, 14, 0, 0), 'yesterday'],
    ['yesterday late', at(5, 14, 23, 59), 'yesterday'],
    ['two days ago', at(5, 13, 23, 59), 'week'],
    ['seven days ago, first minute', at(5, 8, 0, 0), 'week'],
    ['eight days ago, last minute', at(5, 7, 23, 59), 'month'],
    ['last month', at(4, 31), 'month'],
    ['garbage', 'not a date', 'older'],
  ])('%s', (_name, when, kind) => {
    expect(groupOf(typeof when === 'string' ? when : when.toISOString(), now).kind).toBe(kind);
  });

  it('gives a month group its first day', () => {
    const g = groupOf(at(1, 20).toISOString(), now);
    expect(g.month).toEqual(new Date(2025, 1, 1));
  });

  it('counts calendar days across a year boundary', () => {
    const jan1 = new Date(2026, 0, 1, 8);
    expect(groupOf(new Date(2025, 11, 31, 22).toISOString(), jan1).kind).toBe('yesterday');
    expect(groupOf(new Date(2025, 11, 26, 22).toISOString(), jan1).kind).toBe('week');
    expect(groupOf(new Date(2025, 11, 24, 22).toISOString(), jan1).month).toEqual(new Date(2025, 11, 1));
  });
});

describe('groupSessions', () => {
  it('puts pinned chats first whatever their date, then newest group first', () => {
    const list = [
      s('pinned-old', at(0, 3), true),
      s('pinned-today', at(5, 15, 9), true),
      s('today', at(5, 15, 8)),
      s('yesterday', at(5, 14)),
      s('week', at(5, 10)),
      s('may-b', at(4, 20)),
      s('may-a', at(4, 2)),
      s('last-year', new Date(2024, 11, 5)),
      s('march', at(2, 9)),
    ];
    const groups = groupSessions(list, now);
    expect(groups.map((g) => [g.key, g.sessions.map((x) => x.id)])).toEqual([
      ['pinned', ['pinned-old', 'pinned-today']],
      ['today', ['today']],
      ['yesterday', ['yesterday']],
      ['week', ['week']],
      ['month:2025-05', ['may-b', 'may-a']],
      ['month:2025-03', ['march']],
      ['month:2024-12', ['last-year']],
    ]);
  });

  it('leaves out empty groups', () => {
    expect(groupSessions([], now)).toEqual([]);
    expect(groupSessions([s('a', at(4, 1))], now).map((g) => g.kind)).toEqual(['month']);
  });
});

describe('monthLabel', () => {
  it('names the month, with the year when it is not this one', () => {
    expect(monthLabel(new Date(2025, 2, 1), now, 'en')).toBe('March');
    expect(monthLabel(new Date(2024, 11, 1), now, 'en')).toBe('December 2024');
    expect(monthLabel(new Date(2025, 2, 1), now, 'zh')).toBe('三月');
    expect(monthLabel(new Date(2024, 11, 1), now, 'zh')).toBe('2024年12月');
  });
});
