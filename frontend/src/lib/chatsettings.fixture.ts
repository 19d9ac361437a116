// Fixtures of the chat settings tests.
import { vi } from 'vitest';
import type { ChatSettingsApi } from './chatsettings.svelte';
import type { ChatSettings, ModelDetail, SystemPreset } from './backend';

export const PRESETS: SystemPreset[] = [
  { name: 'Concise', text: 'Be brief.', builtin: true },
  { name: 'Translator EN↔ZH', text: 'Translate.', builtin: true },
];

export function settings(over: Partial<ChatSettings> = {}): ChatSettings {
  return {
    sessionId: 's1',
    system: '',
    model: '',
    temperature: null,
    numCtx: 0,
    think: '',
    knowledge: null,
    defaults: { system: 'You are Hermes.', model: 'llama3.2', numCtx: 8192 },
    ...over,
  };
}

export function model(name: string, caps: string[]): ModelDetail {
  return { name, family: '', parameter_size: '', quantization: '', context_length: 8192, capabilities: caps, size: 1, loaded: false, modified_at: '', is_chat: false, is_embed: false, digest: '' };
}

export function fakeApi(over: Partial<ChatSettingsApi> = {}): ChatSettingsApi {
  let stored = settings();
  let presets = [...PRESETS];
  return {
    SessionSettings: vi.fn(async (id: string) => ({ ...stored, sessionId: id })),
    SetSessionSettings: vi.fn(async (id, s) => {
      stored = { ...stored, sessionId: id, system: s.system, model: s.model, temperature: s.temperature, numCtx: s.numCtx };
      return stored;
    }),
    SystemPresets: vi.fn(async () => presets),
    SaveSystemPreset: vi.fn(async (name: string, text: string) => {
      presets = [...presets.filter((p) => p.name !== name), { name, text, builtin: false }];
      return presets;
    }),
    DeleteSystemPreset: vi.fn(async (name: string) => {
      presets = presets.filter((p) => p.name !== name);
      return presets;
    }),
    ListModelDetails: vi.fn(async () => [model('llama3.2', ['completion', 'tools']), model('nomic-embed-text', ['embedding']), model('qwen2.5', ['completion'])]),
    ...over,
  };
}

