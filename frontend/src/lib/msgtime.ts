// A message's time in the UI's language: short under the message, exact on hover.
import type { Lang } from './i18n.svelte';

function localeOf(lang: Lang): string {
  return lang === 'zh' ? 'zh-CN' : 'en';
}

/**
 * One formatter per locale and shape: making an Intl.DateTimeFormat costs about a millisecond, and
 * a long conversation draws two times per message (toLocaleString makes a new one on every call).
 */
const formats = new Map<string, Intl.DateTimeFormat>();
function format(loc: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${loc} ${JSON.stringify(opts)}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.DateTimeFormat(loc, opts)));
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
  const time: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
  if (d.toDateString() === now.toDateString()) return format(loc, time).format(d);
  const date: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', ...time };
  if (d.getFullYear() !== now.getFullYear()) date.year = 'numeric';
  return format(loc, date).format(d);
}

/** The full date and time, with seconds: "Wednesday, January 1, 2025 at 8:00:00 AM". */
export function exactTime(iso: string, lang: Lang): string {
  const d = parse(iso);
  if (!d) return '';
  return format(localeOf(lang), { dateStyle: 'full', timeStyle: 'medium' }).format(d);
}
