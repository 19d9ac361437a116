import { describe, expect, it } from 'vitest';
import { GROUPED_KEYS, SETTING_GROUPS, fieldKind, labelKey, needsCode } from './settingforms';
import { settingDescriptionsZh } from './settingtext';
import { en } from './i18n/en';
import { zh } from './i18n/zh';

describe('settings as grouped forms', () => {
  // settingtext.ts has every backend key (its own test checks that against the Go specs).
  const keys = Object.keys(settingDescriptionsZh);

  it('puts every setting in one group, with a label in both languages', () => {
    for (const k of keys) {
      expect(GROUPED_KEYS.has(k), k).toBe(true);
      expect(labelKey(k) in en, `en label of ${k}`).toBe(true);
      expect(labelKey(k) in zh, `zh label of ${k}`).toBe(true);
    }
    const all = SETTING_GROUPS.flatMap((g) => g.keys);
    expect(new Set(all).size).toBe(all.length);
  });

  it('gives yes/no settings a checkbox and manage_ollama its two choices', () => {
    expect(fieldKind('offline_only')).toBe('bool');
    expect(fieldKind('ollama_allow_internet')).toBe('bool');
    expect(fieldKind('manage_ollama')).toBe('manage');
    expect(fieldKind('chat_model')).toBe('text');
  });

  it('knows which changes web mode guards with a code', () => {
    expect(needsCode('ollama_path', '/usr/bin/ollama')).toBe(true);
    expect(needsCode('ollama_allow_internet', 'true')).toBe(true);
    expect(needsCode('ollama_allow_internet', 'false')).toBe(false);
    expect(needsCode('chat_model', 'x')).toBe(false);
  });
});
