// UI text in English and Chinese. Every key must exist in both dictionaries.

import { en, type MessageKey } from './i18n/en';
import { zh } from './i18n/zh';

export { en, zh };
export type { MessageKey };

export type Lang = 'en' | 'zh';
export const dictionaries: Record<Lang, Record<MessageKey, string>> = { en, zh };

const STORAGE_KEY = 'hermes.lang';

/** Picks the initial language: a saved choice, else the browser's language. */
export function initialLang(saved: string | null, navigatorLang: string | undefined): Lang {
  if (saved === 'en' || saved === 'zh') return saved;
  return (navigatorLang ?? '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

function readSaved(): string | null {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

export const locale = $state<{ lang: Lang }>({
  lang: initialLang(readSaved(), globalThis.navigator?.language),
});

export function setLang(lang: Lang): void {
  locale.lang = lang;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lang);
  } catch {
    // storage may be unavailable; the choice then lasts for this run only
  }
  if (typeof document !== 'undefined') document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}

/** Formats a message; {name} placeholders are replaced from params. */
// A plural block: {n, plural, one {# memory} other {# memories}} (# is the count).
const PLURAL = /\{(\w+), plural, one \{([^{}]*)\} other \{([^{}]*)\}\}/g;
const pluralRules: Partial<Record<Lang, Intl.PluralRules>> = {};

/** The CLDR plural category of n in lang ("one", "other" …). */
function pluralOf(n: number, lang: Lang): string {
  const r = (pluralRules[lang] ??= new Intl.PluralRules(lang === 'zh' ? 'zh-CN' : 'en'));
  return r.select(n);
}

/** Fills a template's {name} placeholders and plural blocks (by lang's plural rules). */
export function format(template: string, params?: Record<string, string | number>, lang: Lang = 'en'): string {
  if (!params) return template;
  const counted = template.replace(PLURAL, (m, k: string, one: string, other: string) => {
    if (!(k in params)) return m;
    const n = Number(String(params[k]).replace(/[,\s]/g, ''));
    return (pluralOf(n, lang) === 'one' ? one : other).replace(/#/g, String(params[k]));
  });
  return counted.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/** Whether key names a text (a key built from a backend's word: "tool.kind.timeout"). */
export function isKey(key: string): key is MessageKey {
  return key in en;
}

/** Translates a key in the current language. Reactive when called from a component. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const dict = dictionaries[locale.lang] ?? en;
  return format(dict[key] ?? en[key] ?? key, params, locale.lang);
}
