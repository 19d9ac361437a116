import { describe, expect, it } from 'vitest';
import { dictionaries, en, format, initialLang, zh } from './i18n.svelte';
import { INTENTS, TOOL_GROUPS } from './intent';
import { REASONS } from './context.svelte';
import { STOP_KINDS, TOOL_STATUSES } from './tools.svelte';

function placeholders(s: string): string[] {
  const plural = [...s.matchAll(/\{(\w+), plural, /g)].map((m) => m[1]);
  return [...new Set([...plural, ...[...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1])])].sort();
}

describe('i18n', () => {
  it('has the same keys in English and Chinese', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it('has no empty text and the same placeholders in both languages', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(en[key].trim(), key).not.toBe('');
      expect(zh[key].trim(), key).not.toBe('');
      expect(placeholders(zh[key]), key).toEqual(placeholders(en[key]));
    }
  });

  it('keeps commands unchanged in the guidance', () => {
    for (const d of Object.values(dictionaries)) {
      expect(d['status.unreachable']).toContain('`ollama serve`');
      expect(d['status.modelMissing']).toContain('`hermes model pull {model}`');
    }
  });

  it('words counts by the plural rules of the language', () => {
    const tpl = 'Forget {n, plural, one {# memory} other {# memories}} for good?';
    expect(format(tpl, { n: 1 }, 'en')).toBe('Forget 1 memory for good?');
    expect(format(tpl, { n: 3 }, 'en')).toBe('Forget 3 memories for good?');
    expect(format(tpl, { n: '1,204' }, 'en')).toBe('Forget 1,204 memories for good?');
    expect(format(tpl, { n: 0 }, 'en')).toBe('Forget 0 memories for good?');
    expect(format(en['search.count'], { n: 1 }, 'en')).toBe('1 result');
    expect(format(en['search.count'], { n: 2 }, 'en')).toBe('2 results');
    expect(format(en['memory.confirmForgetTitle'], { n: 1 }, 'en')).toBe('Forget 1 memory for good?');
    expect(format(zh['memory.confirmForgetTitle'], { n: 1 }, 'zh')).toBe(format(zh['memory.confirmForgetTitle'], { n: 1 }));
  });

  it('formats placeholders', () => {
    expect(format('Model {model} is {model}; {other}', { model: 'm' })).toBe('Model m is m; {other}');
  });

  it('picks the language from the saved choice, then the browser', () => {
    expect(initialLang(null, 'zh-CN')).toBe('zh');
    expect(initialLang(null, 'en-US')).toBe('en');
    expect(initialLang(null, undefined)).toBe('en');
    expect(initialLang('en', 'zh-TW')).toBe('en');
    expect(initialLang('bogus', 'zh')).toBe('zh');
  });

  it('names every intent label, tool group and context reason in both languages', () => {
    const keys = [
      ...INTENTS.map((i) => `intent.${i}`),
      ...TOOL_GROUPS.map((g) => `tools.${g}`),
      ...REASONS.flatMap((r) => [`reason.${r}`, `reasonHint.${r}`]),
      ...['user', 'assistant', 'system', 'tool'].map((r) => `role.${r}`),
    ];
    for (const d of Object.values(dictionaries)) {
      for (const k of keys) expect((d as Record<string, string>)[k], k).toBeTruthy();
    }
  });

  it('names every tool status, loop stop, approval reason and breaker state in both languages', () => {
    const keys = [
      ...TOOL_STATUSES.map((s) => `toolStatus.${s}`),
      ...STOP_KINDS.map((k) => `loop.kind.${k}`),
      'loop.kind.other',
      ...['destructive', 'open_world', 'command'].map((w) => `approval.why.${w}`),
      ...['closed', 'open', 'half-open'].map((b) => `breaker.${b}`),
    ];
    for (const d of Object.values(dictionaries)) {
      for (const k of keys) expect((d as Record<string, string>)[k], k).toBeTruthy();
    }
    expect(en['unverified.warning']).toBe('This reply says it did something, but no tool ran.');
  });
});
