import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import ChatImportDialog from './ChatImportDialog.svelte';
import ExportDialog from './ExportDialog.svelte';
import { ChatImportStore } from '../lib/chatimport.svelte';
import { BackendError, type ChatImportPreview, type EventHandler, type SessionImportResult } from '../lib/backend';
import { setLang } from '../lib/i18n.svelte';

const preview: ChatImportPreview = {
  source: 'chatgpt',
  conversations: 2000,
  messages: 42000,
  branches: 500,
  skipped: 4000,
  images: 12,
  shortened: 0,
  first: '2023-01-02T10:00:00Z',
  last: '2024-12-01T08:00:00Z',
};

function setup(over: Partial<{ preview: () => Promise<ChatImportPreview>; run: () => Promise<SessionImportResult> }> = {}) {
  const handlers = new Map<string, EventHandler>();
  let finish: (r: SessionImportResult) => void = () => {};
  const api = {
    PreviewChatImport: vi.fn(over.preview ?? (async (_id: string) => preview)),
    ImportChats: vi.fn(over.run ?? (() => new Promise<SessionImportResult>((res) => (finish = res)))),
    PickChatExport: vi.fn(async () => '/picked/conversations.json'),
    CancelMessage: vi.fn(async () => {}),
  };
  const onimported = vi.fn();
  const store = new ChatImportStore({
    api,
    on: (name, cb) => {
      handlers.set(name, cb);
      return () => handlers.delete(name);
    },
    uuid: () => 'req-1',
    onimported,
  });
  return { api, store, handlers, onimported, finish: (r: SessionImportResult) => finish(r) };
}

describe('ChatImportDialog', () => {
  it('imports into the project chosen', async () => {
    setLang('en');
    const { api, store } = setup();
    const { getByTestId } = render(ChatImportDialog, { store, projects: [{ id: 'p1', name: 'Field trip' }], onclose: () => {} });
    await fireEvent.input(getByTestId('chat-import-path'), { target: { value: '/home/me/conversations.json' } });
    await fireEvent.change(getByTestId('chat-import-project'), { target: { value: 'p1' } });
    await fireEvent.click(getByTestId('chat-import-check'));
    await waitFor(() => expect(getByTestId('chat-import-preview')).toBeTruthy());
    await fireEvent.click(getByTestId('chat-import-submit'));
    expect(api.ImportChats).toHaveBeenCalledWith('req-1', 'chatgpt', '/home/me/conversations.json', 'p1');
  });

  it('previews the file before anything is written, then imports it with progress and the result', async () => {
    setLang('en');
    const { api, store, handlers, onimported, finish } = setup();
    const { getByTestId, queryByTestId } = render(ChatImportDialog, { store, onclose: () => {} });
    expect((getByTestId('chat-import-check') as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(getByTestId('chat-import-source-claude'));
    expect(getByTestId('chat-import-where').textContent).toContain('Claude: Settings');
    await fireEvent.input(getByTestId('chat-import-path'), { target: { value: ' /home/me/conversations.json ' } });
    await fireEvent.click(getByTestId('chat-import-check'));
    await waitFor(() => expect(getByTestId('chat-import-preview')).toBeTruthy());
    expect(api.PreviewChatImport).toHaveBeenCalledWith('req-1', 'claude', '/home/me/conversations.json');
    expect(api.ImportChats).not.toHaveBeenCalled();
    const text = getByTestId('chat-import-preview').textContent!.replace(/\s+/g, ' ');
    expect(text).toContain('2000 conversations · 42000 messages');
    expect(text).toContain('500 other versions');
    expect(text).toContain('From 2023-01-02 to 2024-12-01');
    expect(text).toContain('12 images are not carried');

    await fireEvent.click(getByTestId('chat-import-submit'));
    expect(api.ImportChats).toHaveBeenCalledWith('req-1', 'claude', '/home/me/conversations.json', '');
    handlers.get('session:import:req-1')!({ phase: 'importing', done: 21000, total: 42000 });
    await waitFor(() => expect(getByTestId('chat-import-progress').dataset.percent).toBe('60.0'));
    expect(getByTestId('chat-import-form').textContent).toContain('Writing 21000 of 42000 messages');
    finish({ sessions: 2000, messages: 42000, skipped: 0 });
    await waitFor(() => expect(getByTestId('chat-import-result').textContent).toContain('Imported 42000 messages in 2000 conversations'));
    expect(onimported).toHaveBeenCalledOnce();
    expect(queryByTestId('chat-import-submit')).toBeNull();
  });

  it("shows the backend's reason for a bad file, and a new file forgets the old preview", async () => {
    setLang('en');
    const { store } = setup({
      preview: async () => {
        throw new BackendError('Conversation 3: mapping is a JSON array where a ChatGPT export has an object.', 'invalid_input', {
          detail: 'Conversation 3: mapping is a JSON array where a ChatGPT export has an object.',
        });
      },
    });
    const { getByTestId, queryByTestId } = render(ChatImportDialog, { store, onclose: () => {} });
    await fireEvent.input(getByTestId('chat-import-path'), { target: { value: '/tmp/bad.json' } });
    await fireEvent.click(getByTestId('chat-import-check'));
    await waitFor(() => expect(getByTestId('chat-import-problem').textContent).toContain('Conversation 3: mapping'));
    expect(queryByTestId('chat-import-submit')).toBeNull();
    store.preview = preview;
    store.step = 'preview';
    await fireEvent.input(getByTestId('chat-import-path'), { target: { value: '/tmp/other.json' } });
    expect(queryByTestId('chat-import-preview')).toBeNull();
  });

  it('shows how much of a large file the preview has read', async () => {
    setLang('en');
    let answer: (p: ChatImportPreview) => void = () => {};
    const { store, handlers } = setup({ preview: () => new Promise<ChatImportPreview>((res) => (answer = res)) });
    const { getByTestId } = render(ChatImportDialog, { store, onclose: () => {} });
    await fireEvent.input(getByTestId('chat-import-path'), { target: { value: '/big.json' } });
    await fireEvent.click(getByTestId('chat-import-check'));
    expect(getByTestId('chat-import-reading').dataset.percent).toBe('');
    handlers.get('session:import:req-1')!({ phase: 'checking', done: 50, total: 200 });
    await waitFor(() => expect(getByTestId('chat-import-reading').dataset.percent).toBe('25.0'));
    answer(preview);
    await waitFor(() => getByTestId('chat-import-preview'));
  });

  it('closing while importing cancels the import', async () => {
    const { api, store } = setup();
    const onclose = vi.fn();
    const { getByTestId } = render(ChatImportDialog, { store, onclose });
    await fireEvent.input(getByTestId('chat-import-path'), { target: { value: '/x.json' } });
    await fireEvent.click(getByTestId('chat-import-check'));
    await waitFor(() => getByTestId('chat-import-submit'));
    await fireEvent.click(getByTestId('chat-import-submit'));
    await fireEvent.click(getByTestId('chat-import-cancel'));
    expect(api.CancelMessage).toHaveBeenCalledWith('req-1');
    expect(onclose).toHaveBeenCalled();
  });

  it('speaks Chinese', async () => {
    setLang('zh');
    const { store } = setup();
    const { getByTestId } = render(ChatImportDialog, { store, onclose: () => {} });
    await fireEvent.input(getByTestId('chat-import-path'), { target: { value: '/x.json' } });
    await fireEvent.click(getByTestId('chat-import-check'));
    await waitFor(() => expect(getByTestId('chat-import-preview').textContent).toContain('2000 个对话'));
    expect(getByTestId('chat-import-range').textContent).toBe('从 2023-01-02 到 2024-12-01');
    setLang('en');
  });
});

describe('ExportDialog', () => {
  it('offers Markdown, HTML, PDF and JSON and exports the one chosen', async () => {
    setLang('en');
    const onchoose = vi.fn(async () => {});
    const { getByTestId, getAllByRole } = render(ExportDialog, { onclose: () => {}, onchoose });
    expect(getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['md', 'html', 'pdf', 'json']);
    expect(getByTestId('export-format-html').textContent).toContain('self-contained page');
    await fireEvent.click(getByTestId('export-format-html').querySelector('input')!);
    await fireEvent.click(getByTestId('export-save'));
    expect(onchoose).toHaveBeenCalledWith('html');
  });
});
