import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import ChatSettingsDialog from './ChatSettingsDialog.svelte';
import { ChatSettingsStore } from '../lib/chatsettings.svelte';
import { fakeApi, settings } from '../lib/chatsettings.fixture';
import { setLang } from '../lib/i18n.svelte';

afterEach(() => setLang('en'));

async function open(api = fakeApi()) {
  const store = new ChatSettingsStore(api);
  await store.load('s1');
  const onclose = vi.fn();
  const onsaved = vi.fn();
  const r = render(ChatSettingsDialog, { store, onclose, onsaved });
  await waitFor(() => expect(r.getByTestId('chat-settings-model').querySelectorAll('option').length).toBe(3));
  return { r, store, api, onclose, onsaved };
}

describe('ChatSettingsDialog', () => {
  it('saves a system prompt from a preset, a model and the advanced settings', async () => {
    const { r, api, onclose, onsaved } = await open();
    const dialog = r.getByTestId('chat-settings');
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(document.activeElement).toBe(r.getByTestId('chat-settings-system'));
    expect((r.getByTestId('chat-settings-system') as HTMLTextAreaElement).placeholder).toContain('You are Hermes.');
    await fireEvent.change(r.getByTestId('chat-settings-preset'), { target: { value: 'Concise' } });
    expect((r.getByTestId('chat-settings-system') as HTMLTextAreaElement).value).toBe('Be brief.');
    await fireEvent.change(r.getByTestId('chat-settings-model'), { target: { value: 'qwen2.5' } });
    const adv = r.getByTestId('chat-settings-advanced') as HTMLDetailsElement;
    expect(adv.open).toBe(false);
    adv.open = true;
    await fireEvent.input(r.getByTestId('chat-settings-temperature'), { target: { value: '0.2' } });
    await fireEvent.input(r.getByTestId('chat-settings-context'), { target: { value: '16384' } });
    await fireEvent.click(r.getByTestId('chat-settings-apply'));
    await waitFor(() => expect(onclose).toHaveBeenCalled());
    expect(api.SetSessionSettings).toHaveBeenCalledWith('s1', { system: 'Be brief.', model: 'qwen2.5', temperature: 0.2, numCtx: 16384, think: '', knowledge: null });
    expect(onsaved).toHaveBeenCalled();
  });

  it('refuses a bad temperature before asking the backend, and opens Advanced to show it', async () => {
    const { r, api, onclose } = await open(
      fakeApi({ SessionSettings: vi.fn(async () => settings({ temperature: 0.7 })) }),
    );
    expect((r.getByTestId('chat-settings-advanced') as HTMLDetailsElement).open).toBe(true);
    await fireEvent.input(r.getByTestId('chat-settings-temperature'), { target: { value: '3' } });
    await fireEvent.click(r.getByTestId('chat-settings-apply'));
    expect(r.getByTestId('chat-settings-invalid').textContent).toContain('from 0 to 2');
    expect(r.getByTestId('chat-settings-temperature').getAttribute('aria-invalid')).toBe('true');
    expect(api.SetSessionSettings).not.toHaveBeenCalled();
    expect(onclose).not.toHaveBeenCalled();
  });

  it('saves the typed prompt as a preset', async () => {
    const { r, api } = await open();
    await fireEvent.input(r.getByTestId('chat-settings-system'), { target: { value: 'Talk like a pirate.' } });
    await fireEvent.click(r.getByTestId('chat-settings-save-preset'));
    const name = r.getByTestId('chat-settings-preset-name');
    await fireEvent.input(name, { target: { value: 'Pirate' } });
    await fireEvent.keyDown(name, { key: 'Enter' });
    await waitFor(() => expect(api.SaveSystemPreset).toHaveBeenCalledWith('Pirate', 'Talk like a pirate.'));
    await waitFor(() => expect((r.getByTestId('chat-settings-preset') as HTMLSelectElement).value).toBe('Pirate'));
    await fireEvent.click(r.getByTestId('chat-settings-preset-delete'));
    await waitFor(() => expect(api.DeleteSystemPreset).toHaveBeenCalledWith('Pirate'));
  });

  it('shows the backend refusal and closes with Esc', async () => {
    const { r, onclose } = await open(
      fakeApi({
        SetSessionSettings: vi.fn(async () => {
          throw new Error('mistral is not installed');
        }),
      }),
    );
    await fireEvent.click(r.getByTestId('chat-settings-apply'));
    await waitFor(() => expect(r.getByTestId('chat-settings-error').textContent).toContain('not installed'));
    await fireEvent.keyDown(r.getByTestId('chat-settings'), { key: 'Escape' });
    expect(onclose).toHaveBeenCalledTimes(1);
  });

  it('speaks Chinese', async () => {
    setLang('zh');
    const { r } = await open();
    const text = r.getByTestId('chat-settings').textContent ?? '';
    expect(text).toContain('对话设置');
    expect(text).toContain('系统提示词');
    expect(text).toContain('高级');
  });

  it('limits the chat to some knowledge-base collections, or none', async () => {
    const api = fakeApi({ KBList: vi.fn(async () => [{ name: 'manuals' }, { name: 'forms' }] as never) });
    const { r } = await open(api);
    const pick = r.getByTestId('chat-settings-knowledge') as HTMLSelectElement;
    expect(pick.value).toBe('all');
    await fireEvent.change(pick, { target: { value: 'some' } });
    const boxes = r.getByTestId('chat-settings-collections').querySelectorAll('input[type=checkbox]');
    expect(boxes.length).toBe(2);
    await fireEvent.click(boxes[1]); // forms off
    await fireEvent.click(r.getByTestId('chat-settings-apply'));
    await waitFor(() => expect(api.SetSessionSettings).toHaveBeenCalled());
    expect(vi.mocked(api.SetSessionSettings).mock.calls[0][1].knowledge).toEqual(['manuals']);
  });

  it('hides the knowledge choice when there is no collection', async () => {
    const { r } = await open();
    expect(r.queryByTestId('chat-settings-knowledge')).toBeNull();
  });
});
