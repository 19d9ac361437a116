// A message's time in the UI's language: short under the message, exact on hover.
import type { Lang } from './i18n.svelte';

function localeOf(lang: Lang): string {
  return lang === 'zh' ? 'zh-CN' : 'en';
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
  if (d.toDateString() === now.toDateString()) return d.toLocaleTimeString(loc, time);
  const date: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', ...time };
  if (d.getFullYear() !== now.getFullYear()) date.year = 'numeric';
  return d.toLocaleString(loc, date);
}

/** The full date and time, with seconds: "Wednesday, January 1, 2025 at 8:00:00 AM". */
export function exactTime(iso: string, lang: Lang): string {
  const d = parse(iso);
  if (!d) return '';
  return d.toLocaleString(localeOf(lang), { dateStyle: 'full', timeStyle: 'medium' });
}
