// The chat list grouped by date, as chat apps do: pinned chats first, then Today, Yesterday,
// Previous 7 days, then one group a month (newest first). Days are the local calendar's.
import type { SessionInfo } from './backend';

export type GroupKind = 'pinned' | 'today' | 'yesterday' | 'week' | 'month' | 'older';

export interface SessionGroup {
  /** Unique within a list: the kind, or `month:YYYY-MM`. */
  key: string;
  kind: GroupKind;
  /** For a month group: its first day (local time). */
  month?: Date;
  sessions: SessionInfo[];
}

function startOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
}

/** The calendar day `days` before the day of d (DST-safe: counts days, not hours). */
function daysBefore(d: Date, days: number): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() - days);
}

function time(s: string): number {
  const n = Date.parse(s);
  return Number.isNaN(n) ? NaN : n;
}

/** Which date group a last-update time falls in, seen from now. */
export function groupOf(updatedAt: string, now: Date): { kind: GroupKind; month?: Date } {
  const t = time(updatedAt);
  if (Number.isNaN(t)) return { kind: 'older' };
  const today = startOfDay(now).getTime();
  // A time after now (another clock) is still today.
  if (t >= today) return { kind: 'today' };
  if (t >= daysBefore(now, 1).getTime()) return { kind: 'yesterday' };
  if (t >= daysBefore(now, 7).getTime()) return { kind: 'week' };
  const d = new Date(t);
  return { kind: 'month', month: new Date(d.getFullYear(), d.getMonth(), 1) };
}

function monthKey(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

const ORDER: Record<GroupKind, number> = { pinned: 0, today: 1, yesterday: 2, week: 3, month: 4, older: 5 };

/**
 * Groups sessions for the sidebar: pinned ones first (whatever their date), then by date, newest
 * group first. Within a group the sessions keep their order (the store sorts them newest first).
 */
export function groupSessions(list: SessionInfo[], now: Date = new Date()): SessionGroup[] {
  const groups = new Map<string, SessionGroup>();
  for (const s of list) {
    const g: { kind: GroupKind; month?: Date } = s.pinned ? { kind: 'pinned' } : groupOf(s.updatedAt, now);
    const key = g.kind === 'month' && g.month ? `month:${monthKey(g.month)}` : g.kind;
    let group = groups.get(key);
    if (!group) {
      group = { key, kind: g.kind, month: g.month, sessions: [] };
      groups.set(key, group);
    }
    group.sessions.push(s);
  }
  return [...groups.values()].sort(
    (a, b) => ORDER[a.kind] - ORDER[b.kind] || (b.month?.getTime() ?? 0) - (a.month?.getTime() ?? 0),
  );
}

/** A month group's heading: "March" in the current year, "March 2024" before (localized). */
export function monthLabel(month: Date, now: Date, lang: 'en' | 'zh'): string {
  const locale = lang === 'zh' ? 'zh-CN' : 'en';
  const sameYear = month.getFullYear() === now.getFullYear();
  return new Intl.DateTimeFormat(locale, sameYear ? { month: 'long' } : { year: 'numeric', month: 'long' }).format(month);
}
