// A message's time in the UI's language: short under the message, exact on hover.
import type { Lang } from './i18n.svelte';

function localeOf(lang: Lang): string {
  return lang === 'zh' ? 'zh-CN' : 'en';
}

/**
 * One formatter per locale and shape: making an Intl.DateTimeFormat costs about a millisecond, and
 * a long conversation draws two times per message (toLocaleString makes a new one on every call).
 */
const SHAPES = {
  time: { hour: '2-digit', minute: '2-digit' },
  day: { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' },
  year: { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' },
  exact: { dateStyle: 'full', timeStyle: 'medium' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

const formats = new Map<string, Intl.DateTimeFormat>();
function format(loc: string, shape: keyof typeof SHAPES): Intl.DateTimeFormat {
  const key = `${loc} ${shape}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.DateTimeFormat(loc, SHAPES[shape])));
  return f;
}

function parse(iso: string): Date | null {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** "02:05 PM" today, "Jan 5, 02:05 PM" this year, else with the year ("1月5日 14:05" in Chinese), as the chat list. */
export function shortTime(iso: string, lang: Lang, now: Date = new Date()): string {
  const d = parse(iso);
  if (!d) return '';
  const loc = localeOf(lang);
  // Compared field by field: toDateString() on both costs more than the formatting (a long
  // conversation scrolled through draws a time for every message that comes into view).
  const year = d.getFullYear() === now.getFullYear();
  if (year && d.getMonth() === now.getMonth() && d.getDate() === now.getDate()) return format(loc, 'time').format(d);
  return format(loc, year ? 'day' : 'year').format(d);
}

/** The full date and time, with seconds: "Wednesday, January 1, 2025 at 8:00:00 AM". */
export function exactTime(iso: string, lang: Lang): string {
  const d = parse(iso);
  if (!d) return '';
  return format(localeOf(lang), 'exact').format(d);
}
