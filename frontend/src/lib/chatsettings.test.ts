import { describe, expect, it, vi } from 'vitest';
import { ChatSettingsStore, chatModels, checkDraft, fromDraft, toDraft } from './chatsettings.svelte';
import { fakeApi, model, settings } from './chatsettings.fixture';

describe('chat settings drafts', () => {
  it('round-trips stored settings', () => {
    const d = toDraft(settings({ system: 'Hi', model: 'qwen2.5', temperature: 0.3, numCtx: 16384, think: 'high' }));
    expect(d).toEqual({ system: 'Hi', model: 'qwen2.5', temperature: '0.3', numCtx: '16384', think: 'high', knowledge: null });
    expect(fromDraft(d)).toEqual({ system: 'Hi', model: 'qwen2.5', temperature: 0.3, numCtx: 16384, think: 'high', knowledge: null });
    expect(fromDraft(toDraft(settings()))).toEqual({ system: '', model: '', temperature: null, numCtx: 0, think: '', knowledge: null });
  });

  it.each([
    ['2.5', '', 'temperature'],
    ['-1', '', 'temperature'],
    ['warm', '', 'temperature'],
    ['', '100', 'numCtx'],
    ['', '4096.5', 'numCtx'],
    ['', '2000000', 'numCtx'],
  ])('refuses temperature %s / context %s', (temperature, numCtx, field) => {
    expect(checkDraft({ system: '', model: '', temperature, numCtx, think: '', knowledge: null })?.field).toBe(field);
  });

  it('accepts the bounds and empty fields', () => {
    expect(checkDraft({ system: '', model: '', temperature: '0', numCtx: '512', think: '', knowledge: null })).toBeNull();
    expect(checkDraft({ system: '', model: '', temperature: '2', numCtx: '', think: '', knowledge: null })).toBeNull();
  });

  it('offers only models that can chat', () => {
    expect(chatModels([model('a', ['completion']), model('e', ['embedding']), model('old', [])])).toEqual(['a', 'old']);
  });
});

describe('ChatSettingsStore', () => {
  it('loads, saves and keeps presets', async () => {
    const api = fakeApi();
    const store = new ChatSettingsStore(api);
    await store.load('s1');
    expect(store.settings?.defaults.model).toBe('llama3.2');
    expect(store.presets.map((p) => p.name)).toEqual(['Concise', 'Translator EN↔ZH']);
    expect(store.models).toEqual(['llama3.2', 'qwen2.5']);
    expect(await store.save({ system: ' Be a pirate. ', model: 'qwen2.5', temperature: '0.5', numCtx: '', think: '', knowledge: null })).toBe(true);
    expect(api.SetSessionSettings).toHaveBeenCalledWith('s1', { system: 'Be a pirate.', model: 'qwen2.5', temperature: 0.5, numCtx: 0, think: '', knowledge: null });
    expect(await store.savePreset(' Pirate ', 'Be a pirate.')).toBe(true);
    expect(api.SaveSystemPreset).toHaveBeenCalledWith('Pirate', 'Be a pirate.');
    expect(store.presets.map((p) => p.name)).toContain('Pirate');
    expect(await store.deletePreset('Pirate')).toBe(true);
    expect(store.presets.map((p) => p.name)).not.toContain('Pirate');
  });

  it('shows why a save was refused and keeps the models optional', async () => {
    const api = fakeApi({
      SetSessionSettings: vi.fn(async () => {
        throw new Error('Mistral is not installed');
      }),
      ListModelDetails: vi.fn(async () => {
        throw new Error('Ollama is away');
      }),
    });
    const store = new ChatSettingsStore(api);
    await store.load('s1');
    expect(store.models).toEqual([]);
    expect(await store.save({ system: '', model: 'mistral', temperature: '', numCtx: '', think: '', knowledge: null })).toBe(false);
    expect(store.error).toContain('not installed');
  });
});

describe('knowledge in chat settings', () => {
  it('keeps every collection (null), none ([]) or some through the draft', () => {
    const base = { sessionId: 's', system: '', model: '', temperature: null, numCtx: 0, think: '' as const, knowledge: null, defaults: { system: '', model: '', numCtx: 0 } };
    expect(toDraft({ ...base }).knowledge).toBeNull();
    expect(fromDraft(toDraft({ ...base, knowledge: [] })).knowledge).toEqual([]);
    expect(fromDraft(toDraft({ ...base, knowledge: ['manuals'] })).knowledge).toEqual(['manuals']);
  });
});
