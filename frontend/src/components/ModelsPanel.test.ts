import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor, within } from '@testing-library/svelte';
import ModelsPanel from './ModelsPanel.svelte';
import ModelPicker from './ModelPicker.svelte';
import { ModelsStore } from '../lib/models.svelte';
import { detail, embedder, fakeApi, fakeBus, progress, setupState } from '../lib/models.fixture';

const vision = detail({
  name: 'llava:7b',
  family: 'llama',
  parameter_size: '7B',
  quantization: 'Q4_0',
  context_length: 4096,
  capabilities: ['chat', 'vision'],
  size: 4_700_000_000,
  loaded: true,
});

function panel(api = fakeApi(), onclose = vi.fn(), list = [detail({ is_chat: true }), embedder({ is_embed: true }), vision]) {
  api.ListModelDetails.mockResolvedValue(list);
  api.Setup.mockResolvedValue(setupState({ models: list }));
  const bus = fakeBus();
  let n = 0;
  const store = new ModelsStore({ api, on: bus.on, uuid: () => `req-${++n}`, fileDialog: false });
  const r = render(ModelsPanel, { store, onclose });
  return { ...r, store, api, bus, onclose };
}

const card = (getAllByTestId: (id: string) => HTMLElement[], name: string) =>
  getAllByTestId('model-card').find((c) => c.dataset.name === name)!;

describe('ModelsPanel', () => {
  it('lists the models with their details, capability chips, roles and the loaded badge', async () => {
    const { getAllByTestId, getByTestId } = panel();
    await waitFor(() => expect(getAllByTestId('model-card').length).toBe(3));
    expect(getByTestId('models-ollama').textContent).toContain('Ollama 0.12.3 at http://127.0.0.1:11434');
    const llama = card(getAllByTestId, 'llama3.2:latest');
    expect(within(llama).getByTestId('model-facts').textContent).toBe('llama3.2BQ4_K_M128K context2.0 GB');
    expect(within(llama).getAllByTestId('model-cap').map((c) => c.textContent)).toEqual(['chat', 'tools']);
    expect(within(llama).getByTestId('model-role-chat').textContent).toBe('chat model');
    expect(within(llama).queryByTestId('model-loaded')).toBeNull();
    const emb = card(getAllByTestId, 'nomic-embed-text:latest');
    expect(within(emb).getByTestId('model-role-embed').textContent).toBe('embedding model');
    const llava = card(getAllByTestId, 'llava:7b');
    expect(within(llava).getByTestId('model-loaded').textContent).toBe('loaded');
    expect(within(llava).getAllByTestId('model-cap').map((c) => c.dataset.cap)).toEqual(['chat', 'vision']);
  });

  it('offers Use for chat only to chat models and Use for embeddings only to embedders', async () => {
    const { getAllByTestId, api } = panel();
    await waitFor(() => expect(getAllByTestId('model-card').length).toBe(3));
    const llama = card(getAllByTestId, 'llama3.2:latest');
    const emb = card(getAllByTestId, 'nomic-embed-text:latest');
    const llava = card(getAllByTestId, 'llava:7b');
    // The chat model is already the chat model, and it cannot embed.
    expect(within(llama).queryByTestId('model-use-chat')).toBeNull();
    expect(within(llama).queryByTestId('model-use-embed')).toBeNull();
    // An embedding-only model is never offered as the chat model.
    expect(within(emb).queryByTestId('model-use-chat')).toBeNull();
    expect(within(emb).queryByTestId('model-use-embed')).toBeNull();
    expect(within(llava).queryByTestId('model-use-embed')).toBeNull();
    await fireEvent.click(within(llava).getByTestId('model-use-chat'));
    expect(api.UseModel).toHaveBeenCalledWith('llava:7b', false);
  });

  it('uses a second embedder for embeddings', async () => {
    const api = fakeApi();
    const { getAllByTestId } = panel(api, vi.fn(), [embedder({ is_embed: true }), embedder({ name: 'mxbai-embed-large:latest' })]);
    await waitFor(() => expect(getAllByTestId('model-card').length).toBe(2));
    const mx = card(getAllByTestId, 'mxbai-embed-large:latest');
    await fireEvent.click(within(mx).getByTestId('model-use-embed'));
    expect(api.UseModel).toHaveBeenCalledWith('mxbai-embed-large:latest', true);
  });

  it('deletes after a confirmation that names the model and warns about the chat model', async () => {
    const { getAllByTestId, getByTestId, queryByTestId, api } = panel();
    await waitFor(() => expect(getAllByTestId('model-card').length).toBe(3));
    await fireEvent.click(within(card(getAllByTestId, 'llama3.2:latest')).getByTestId('model-delete'));
    const dlg = getByTestId('models-delete-dialog');
    expect(dlg.textContent).toContain('Delete llama3.2:latest?');
    expect(dlg.textContent).toContain('(2.0 GB)');
    expect(getByTestId('models-delete-chat')).toBeTruthy();
    expect(document.activeElement).toBe(getByTestId('models-delete-cancel'));
    await fireEvent.click(getByTestId('models-delete-cancel'));
    expect(queryByTestId('models-delete-dialog')).toBeNull();
    expect(api.DeleteModel).not.toHaveBeenCalled();
    await fireEvent.click(within(card(getAllByTestId, 'llava:7b')).getByTestId('model-delete'));
    expect(queryByTestId('models-delete-chat')).toBeNull();
    await fireEvent.click(getByTestId('models-delete-ok'));
    expect(api.DeleteModel).toHaveBeenCalledWith('llava:7b');
  });

  it('copies and renames in a small dialog; a taken name is refused', async () => {
    const { getAllByTestId, getByTestId, queryByTestId, api } = panel();
    await waitFor(() => expect(getAllByTestId('model-card').length).toBe(3));
    await fireEvent.click(within(card(getAllByTestId, 'llava:7b')).getByTestId('model-copy'));
    const name = getByTestId('models-copy-name') as HTMLInputElement;
    expect(name.value).toBe('llava:7b-copy');
    expect(document.activeElement).toBe(name);
    await fireEvent.input(name, { target: { value: 'llama3.2:latest' } });
    await fireEvent.click(getByTestId('models-copy-ok'));
    expect(getByTestId('models-copy-problem').textContent).toBe('A model with this name is already installed.');
    await fireEvent.input(name, { target: { value: 'eyes' } });
    await fireEvent.click(getByTestId('models-copy-rename'));
    expect(getByTestId('models-copy-ok').textContent).toBe('Rename');
    await fireEvent.keyDown(name, { key: 'Enter' });
    expect(queryByTestId('models-copy-dialog')).toBeNull();
    await waitFor(() => expect(api.DeleteModel).toHaveBeenCalledWith('llava:7b'));
    expect(api.CopyModel).toHaveBeenCalledWith('llava:7b', 'eyes');
  });

  it('shows the backend’s refusal of an action', async () => {
    const api = fakeApi({ DeleteModel: vi.fn(async () => Promise.reject(new Error('model "x" is in use'))) });
    const { getAllByTestId, getByTestId } = panel(api);
    await waitFor(() => expect(getAllByTestId('model-card').length).toBe(3));
    await fireEvent.click(within(card(getAllByTestId, 'llava:7b')).getByTestId('model-delete'));
    await fireEvent.click(getByTestId('models-delete-ok'));
    await waitFor(() => expect(getByTestId('models-error').textContent).toBe('That did not work: model "x" is in use'));
  });

  it('pulls two models at once, each with its progress, and cancels one', async () => {
    const { getByTestId, getAllByTestId, api, bus, store } = panel();
    store.setup = setupState();
    await fireEvent.click(getByTestId('models-pull'));
    await fireEvent.click(getByTestId('models-pull-submit'));
    expect(api.PullModel).toHaveBeenCalledWith('req-1', 'llama3.2:3b');
    await fireEvent.click(getByTestId('models-pull'));
    await fireEvent.input(getByTestId('models-pull-name'), { target: { value: 'qwen3:8b' } });
    await fireEvent.click(getByTestId('models-pull-submit'));
    expect(api.PullModel).toHaveBeenCalledWith('req-2', 'qwen3:8b');
    bus.emit('model:progress:req-1', progress());
    bus.emit('model:progress:req-2', progress({ completed: 100_000_000, total: 5_000_000_000, rate_bps: 0, eta_seconds: 0 }));
    await waitFor(() => expect(getAllByTestId('model-job-numbers').map((e) => e.textContent)).toEqual([
      '500 MB of 2.0 GB · 25% · 12.5 MB/s · 2 min 0 s left',
      '100 MB of 5.0 GB · 2.0%',
    ]));
    await fireEvent.click(getAllByTestId('model-job-cancel')[1]);
    expect(api.CancelModelJob).toHaveBeenCalledWith('req-2');
    await waitFor(() => expect(getAllByTestId('model-job').map((j) => j.dataset.state)).toEqual(['running', 'cancelled']));
    await fireEvent.click(getByTestId('model-job-dismiss'));
    expect(getAllByTestId('model-job').length).toBe(1);
  });

  it('imports a GGUF file by path in web mode', async () => {
    const { getByTestId, queryByTestId, api } = panel();
    await fireEvent.click(getByTestId('models-import'));
    expect(queryByTestId('models-import-pick')).toBeNull();
    expect(getByTestId('models-import-nopicker')).toBeTruthy();
    await fireEvent.input(getByTestId('models-import-path'), { target: { value: '/srv/tiny.gguf' } });
    expect((getByTestId('models-import-name') as HTMLInputElement).value).toBe('tiny');
    await fireEvent.input(getByTestId('models-import-name'), { target: { value: 'tiny-test' } });
    await fireEvent.input(getByTestId('models-import-path'), { target: { value: '/srv/other.gguf' } });
    expect((getByTestId('models-import-name') as HTMLInputElement).value).toBe('tiny-test');
    await fireEvent.click(getByTestId('models-import-submit'));
    expect(api.ImportModel).toHaveBeenCalledWith('req-1', '/srv/other.gguf', 'tiny-test', '');
    expect(queryByTestId('models-form')).toBeNull();
    expect(getByTestId('model-job').dataset.kind).toBe('import');
  });

  it('starts a stopped Ollama from the panel', async () => {
    const api = fakeApi();
    const { getByTestId } = panel(api, vi.fn(), []);
    api.Setup.mockResolvedValue(setupState({ ollama: 'stopped', connection: 'stopped', step: 'start', can_start: true, chat_ready: false, models: [] }));
    await fireEvent.click(getByTestId('models-refresh'));
    await waitFor(() => expect(getByTestId('models-ollama').dataset.ollama).toBe('stopped'));
    await fireEvent.click(getByTestId('models-start'));
    expect(api.StartOllama).toHaveBeenCalled();
  });

  it('closes on Esc, but closes an open form first', async () => {
    const { getByTestId, queryByTestId, onclose } = panel();
    await fireEvent.click(getByTestId('models-pull'));
    expect(getByTestId('models-form')).toBeTruthy();
    await fireEvent.keyDown(getByTestId('models-pull-name'), { key: 'Escape' });
    expect(queryByTestId('models-form')).toBeNull();
    expect(onclose).not.toHaveBeenCalled();
    await fireEvent.keyDown(getByTestId('models-panel'), { key: 'Escape' });
    expect(onclose).toHaveBeenCalledTimes(1);
  });
});

describe('ModelPicker', () => {
  it('shows each chat model with its parameter count and size', () => {
    const { getByTestId } = render(ModelPicker, {
      models: [
        { name: 'llama3.2:latest', size: 2_019_393_189, modifiedAt: '', parameter_size: '3.2B' },
        { name: 'old', size: 500_000_000, modifiedAt: '', parameter_size: '' },
        { name: 'tiny', size: 81_300, modifiedAt: '', parameter_size: '' },
      ],
      current: 'llama3.2:latest',
      onpick: async () => true,
    });
    const opts = [...getByTestId('model-picker').querySelectorAll('option')].map((o) => o.textContent);
    // The same sizes as the Models panel: a tiny model is not "0 MB".
    expect(opts).toEqual(['llama3.2:latest · 3.2B · 2.0 GB', 'old · 500 MB', 'tiny · 81.3 KB']);
  });
});
