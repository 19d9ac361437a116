import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { settingDescription, settingDescriptionsZh } from './settingtext';

/** The keys of the backend's settings, read from their one definition. */
function backendKeys(): string[] {
  const src = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../backend/config/settings.go'), 'utf8');
  const keys = [...src.matchAll(/key: "([a-z_]+)"|(?:intSpec|durationSpec)\("([a-z_]+)"/g)].map((m) => m[1] ?? m[2]);
  return [...new Set(keys)];
}

describe('setting descriptions', () => {
  it('has a Chinese text for every backend setting, and none for a setting that is gone', () => {
    const keys = backendKeys();
    expect(keys.length).toBeGreaterThan(10);
    expect(keys).toContain('memory_verifiers');
    expect(Object.keys(settingDescriptionsZh).sort()).toEqual([...keys].sort());
  });

  it('shows the Chinese text in Chinese and the backend’s in English or when there is none', () => {
    expect(settingDescription('chat_model', 'Ollama model used for chat', 'zh')).toContain('聊天用的 Ollama 模型');
    expect(settingDescription('chat_model', 'Ollama model used for chat', 'en')).toBe('Ollama model used for chat');
    expect(settingDescription('new_setting', 'Something new', 'zh')).toBe('Something new');
  });

  it('keeps the examples and placeholders the backend’s text gives', () => {
    expect(settingDescriptionsZh.memory_verifiers).toContain('{"confirmed": true|false, "reason": "..."}');
    expect(settingDescriptionsZh.ollama_host).toContain('http://127.0.0.1:11434');
  });
});
