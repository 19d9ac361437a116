import { describe, expect, it } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import OllamaBanner from './OllamaBanner.svelte';
import { ModelsStore } from '../lib/models.svelte';
import { fakeApi, fakeBus, setupState } from '../lib/models.fixture';
import type { SetupState } from '../lib/backend';

function banner(state: Partial<SetupState>) {
  const api = fakeApi();
  const store = new ModelsStore({ api, on: fakeBus().on });
  store.setup = setupState({ chat_ready: false, ...state });
  return { ...render(OllamaBanner, { store }), api, store };
}

const lost: Partial<SetupState> = {
  ollama: 'lost',
  connection: 'not_responding',
  step: 'reconnect',
  host: 'http://127.0.0.1:11434',
  can_start: true,
  exited: true,
  exit: 'signal: killed',
  log_tail: ['time=… level=INFO msg="Listening on 127.0.0.1:11434"', '--- serve ended: signal: killed ---'],
};

describe('OllamaBanner', () => {
  it('says Ollama stopped responding at the host, with how it ended and its log', () => {
    const r = banner(lost);
    expect(r.getByRole('alert').textContent).toBe('Ollama stopped responding at http://127.0.0.1:11434');
    expect(r.getByTestId('ollama-lost').textContent).toContain('Your conversation is kept');
    expect(r.getByTestId('ollama-lost-exit').textContent).toContain('signal: killed');
    expect(r.getByTestId('ollama-lost-log').textContent).toContain('Listening on 127.0.0.1:11434');
    expect(r.queryByText(/Install/)).toBeNull();
  });

  it('Start again starts Ollama and the banner goes when it answers', async () => {
    const r = banner(lost);
    r.api.StartOllama.mockResolvedValue(setupState());
    await fireEvent.click(r.getByTestId('ollama-start-again'));
    expect(r.api.StartOllama).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(r.queryByTestId('ollama-lost')).toBeNull());
  });

  it('an Ollama Hermes cannot start: no Start again, Check again first, the address can change', async () => {
    const r = banner({ ...lost, can_start: false, exited: false, exit: '', log_tail: null });
    expect(r.queryByTestId('ollama-start-again')).toBeNull();
    expect(r.getByTestId('ollama-lost-check').classList.contains('primary')).toBe(true);
    expect(r.getByTestId('ollama-lost').textContent).toContain('its container');
    await fireEvent.click(r.getByTestId('ollama-lost-change'));
    expect(r.getByLabelText('Ollama address')).toBeTruthy();
  });

  it('shows nothing for the other states', () => {
    for (const st of [{ step: 'install', connection: 'not_installed' }, { step: 'connect', connection: 'remote_unreachable' }, { step: '' }]) {
      const r = banner(st);
      expect(r.queryByTestId('ollama-lost')).toBeNull();
      r.unmount();
    }
  });
});
