import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import type { Setting } from '../lib/backend';
import { SETTING_GROUPS } from '../lib/settingforms';
import { locale } from '../lib/i18n.svelte';

const list: Setting[] = [
  { key: 'ollama_host', value: 'http://127.0.0.1:11434', description: 'Address of the Ollama server' },
  { key: 'chat_model', value: 'llama3.2', description: 'Ollama model used for chat' },
  { key: 'manage_ollama', value: 'auto', description: 'auto: start it; never: do not' },
  { key: 'offline_only', value: 'false', description: 'true: only this computer' },
  { key: 'ollama_path', value: '', description: 'The ollama program' },
];

const fake = vi.hoisted(() => ({
  GetSettings: vi.fn(),
  SetSetting: vi.fn(),
  CheckOllamaHost: vi.fn(),
  UseOllamaHost: vi.fn(),
}));

vi.mock('../lib/backend', async (orig) => ({ ...(await orig<typeof import('../lib/backend')>()), api: fake }));

const { default: Settings } = await import('./Settings.svelte');

beforeEach(() => {
  locale.lang = 'en';
  fake.GetSettings.mockResolvedValue(list);
  fake.SetSetting.mockImplementation(async (key: string, value: string) => list.map((s) => (s.key === key ? { ...s, value } : s)));
});

function open() {
  return render(Settings, { onclose: vi.fn(), onsaved: vi.fn() });
}

describe('Settings as grouped forms', () => {
  it('shows each group with labelled fields, and the raw keys only under Advanced', async () => {
    const r = open();
    await waitFor(() => expect(r.getByTestId('settings-group-connection')).toBeTruthy());
    for (const g of SETTING_GROUPS) expect(r.getByTestId(`settings-group-${g.id}`)).toBeTruthy();
    const chat = r.getByLabelText('Chat model') as HTMLInputElement;
    expect(chat.value).toBe('llama3.2');
    expect(document.getElementById(chat.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Ollama model used for chat');
    expect((r.getByLabelText('Ollama address') as HTMLInputElement).value).toBe('http://127.0.0.1:11434');
    const advanced = r.getByTestId('settings-advanced') as HTMLDetailsElement;
    expect(advanced.open).toBe(false);
    expect(advanced.querySelector('input')).toBeNull(); // nothing for Tab to reach while closed
    advanced.open = true;
    advanced.dispatchEvent(new Event('toggle'));
    await waitFor(() => expect(advanced.querySelector('[data-key="ollama_host"] code')?.textContent).toBe('ollama_host'));
  });

  it('saves a text field with its Save button, a checkbox and a choice as they change', async () => {
    const r = open();
    const chat = (await r.findByLabelText('Chat model')) as HTMLInputElement;
    await fireEvent.input(chat, { target: { value: 'qwen2.5:7b' } });
    await fireEvent.submit(chat.closest('form')!);
    expect(fake.SetSetting).toHaveBeenCalledWith('chat_model', 'qwen2.5:7b', '');
    await fireEvent.click(r.getByLabelText('Offline only'));
    expect(fake.SetSetting).toHaveBeenCalledWith('offline_only', 'true', '');
    await fireEvent.change(r.getByLabelText('Starting Ollama'), { target: { value: 'never' } });
    expect(fake.SetSetting).toHaveBeenCalledWith('manage_ollama', 'never', '');
  });

  it('asks for the terminal code when web mode wants it, and sends it', async () => {
    const { ConfirmError } = await import('../lib/backend');
    fake.SetSetting.mockRejectedValueOnce(new ConfirmError('a code is needed', 'required'));
    const r = open();
    const path = (await r.findByLabelText('Ollama program')) as HTMLInputElement;
    await fireEvent.input(path, { target: { value: '/usr/bin/ollama' } });
    await fireEvent.submit(path.closest('form')!);
    const code = (await r.findByLabelText('Code printed by hermes serve')) as HTMLInputElement;
    await fireEvent.input(code, { target: { value: '123 456' } });
    await fireEvent.submit(code.closest('form')!);
    await waitFor(() => expect(fake.SetSetting).toHaveBeenLastCalledWith('ollama_path', '/usr/bin/ollama', '123456'));
  });

  it('labels the groups in Chinese too', async () => {
    locale.lang = 'zh';
    const r = open();
    await waitFor(() => expect(r.getByTestId('settings-group-connection').querySelector('h3')?.textContent).toBe('连接'));
    expect(r.getByLabelText('聊天模型')).toBeTruthy();
  });
});
