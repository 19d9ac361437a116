// A reply's figures as one short line ("llama3.2 · 1,204 → 312 tokens · 41 tok/s · first token
// 0.35 s") and a longer tooltip, in the UI's language. Unknown figures (0) are left out.
import type { AgentFigures } from './backend';
import { format, dictionaries, type Lang } from './i18n.svelte';

function localeOf(lang: Lang): string {
  return lang === 'zh' ? 'zh-CN' : 'en';
}

/** A whole count with grouping: 1,204. */
export function count(n: number, lang: Lang): string {
  return new Intl.NumberFormat(localeOf(lang), { maximumFractionDigits: 0 }).format(Math.round(n));
}

/** Tokens per second: whole from 10 up, else one decimal (8.5). */
export function speed(n: number, lang: Lang): string {
  const digits = n >= 10 ? 0 : 1;
  return new Intl.NumberFormat(localeOf(lang), { maximumFractionDigits: digits }).format(n);
}

/** Milliseconds as seconds: 0.35, 2.4, 12 (two, one or no decimals as the value grows). */
export function seconds(ms: number, lang: Lang): string {
  const s = ms / 1000;
  const digits = s < 1 ? 2 : s < 10 ? 1 : 0;
  return new Intl.NumberFormat(localeOf(lang), { minimumFractionDigits: 0, maximumFractionDigits: digits }).format(s);
}

export interface FiguresText {
  /** The short parts, joined by " · " in the line. */
  parts: string[];
  /** Every known figure, one per line, for the tooltip. */
  title: string;
}

/** The line and tooltip of a reply's figures; model falls back to the reply's model. */
export function figuresText(f: AgentFigures | undefined, lang: Lang, fallbackModel = ''): FiguresText {
  const dict = dictionaries[lang];
  const tr = (k: keyof typeof dict, p: Record<string, string | number>) => format(dict[k], p, lang);
  const parts: string[] = [];
  const title: string[] = [];
  if (!f) return { parts, title: '' };
  const model = f.model || fallbackModel;
  if (model) {
    parts.push(model);
    title.push(tr('figures.titleModel', { model }));
  }
  const pin = f.promptTokens > 0 ? count(f.promptTokens, lang) : '';
  const out = f.completionTokens > 0 ? count(f.completionTokens, lang) : '';
  if (pin && out) parts.push(tr('figures.tokens', { in: pin, out }));
  else if (out) parts.push(tr('figures.tokensOut', { out }));
  else if (pin) parts.push(tr('figures.tokensIn', { in: pin }));
  if (pin) title.push(tr('figures.titlePrompt', { n: pin }));
  if (out) title.push(tr('figures.titleReply', { n: out }));
  if (f.tokensPerSecond > 0) {
    parts.push(tr('figures.speed', { n: speed(f.tokensPerSecond, lang) }));
    title.push(tr('figures.titleSpeed', { n: speed(f.tokensPerSecond, lang) }));
  }
  if (f.firstTokenMs > 0) {
    parts.push(tr('figures.firstToken', { s: seconds(f.firstTokenMs, lang) }));
    title.push(tr('figures.titleFirst', { s: seconds(f.firstTokenMs, lang) }));
  }
  if ((f.thinkingMs ?? 0) > 0) {
    const s = seconds(f.thinkingMs ?? 0, lang);
    parts.push(tr('figures.thinking', { s }));
    title.push(tr('figures.titleThinking', { s, n: count(f.thinkingTokens ?? 0, lang) }));
  }
  if (f.totalMs > 0) title.push(tr('figures.titleTotal', { s: seconds(f.totalMs, lang) }));
  if (f.contextFull) {
    title.push(tr('figures.titleContextFull', { n: count(f.contextSize ?? f.promptTokens, lang) }));
  }
  return { parts, title: title.join('\n') };
}
