import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import McpPanel from './McpPanel.svelte';
import McpServerCard from './McpServerCard.svelte';
import { mcpStateValues } from '../lib/backend';
import { McpStore } from '../lib/mcp.svelte';
import { content, fakeApi, remote, status, tool } from '../lib/mcp.fixture';
import { annotations } from '../lib/tools.fixture';
import { ChatStore, type ChatApi } from '../lib/chat.svelte';

const noop = () => {};

describe('McpServerCard', () => {
  it('shows a badge for every state', () => {
    const store = new McpStore(fakeApi());
    const labels: Record<string, string> = {};
    for (const state of mcpStateValues) {
      const { getByTestId, unmount } = render(McpServerCard, {
        server: status({ state }),
        store,
        onedit: noop,
        onremove: noop,
        onapprove: noop,
      });
      const badge = getByTestId('mcp-state');
      expect(badge.dataset.state).toBe(state);
      labels[state] = badge.textContent!.replace(/\s+/g, ' ').trim();
      unmount();
    }
    expect(labels).toEqual({
      starting: '◌ starting',
      ready: '● ready',
      crashed: '✕ crashed',
      'backing off': '◷ backing off',
      disabled: '○ disabled',
      'awaiting approval': '? awaiting approval',
      invalid: '✕ invalid entry',
      stopped: '○ stopped',
    });
  });

  it('switches a tool off with the server’s name for it and shows its annotations', async () => {
    const api = fakeApi();
    const store = new McpStore(api);
    await store.load();
    store.apply(
      status({
        tools: [
          tool(),
          tool({ name: 'everything__zap', remote: 'zap', annotations: annotations({ destructive: true }) }),
          tool({ name: 'everything__web', remote: 'web', annotations: annotations({ open_world: true }), auto_approve: true }),
        ],
      }),
    );
    const { getAllByTestId } = render(McpServerCard, { server: store.servers[0], store, onedit: noop, onremove: noop, onapprove: noop });
    const [echo, zap, web] = getAllByTestId('mcp-tool');
    expect(echo.textContent).toContain('read-only');
    expect(echo.querySelector('[data-testid="mcp-tool-asks"]')).toBeNull();
    expect(zap.querySelector('[data-testid="mcp-tool-asks"]')!.textContent).toBe('asks first');
    expect(zap.textContent).toContain('destructive');
    expect(web.textContent).toContain('open world');
    expect(web.querySelector('[data-testid="mcp-tool-asks"]')).toBeNull();
    expect(web.querySelector('[data-testid="mcp-tool-auto"]')).not.toBeNull();

    const sw = echo.querySelector('[data-testid="mcp-tool-toggle"]') as HTMLInputElement;
    expect(sw.checked).toBe(true);
    await fireEvent.click(sw);
    expect(api.MCPSetToolEnabled).toHaveBeenCalledWith('everything', 'echo', false);
  });

  it('shows the stderr tail as text and loads the full log', async () => {
    const api = fakeApi({ MCPStderr: vi.fn(async () => 'line 1\n<img src=x onerror=alert(1)>\nline 3') });
    const store = new McpStore(api);
    const { getByTestId } = render(McpServerCard, {
      server: status({ stderr_tail: '<b>not bold</b>\nstarted' }),
      store,
      onedit: noop,
      onremove: noop,
      onapprove: noop,
    });
    const text = getByTestId('mcp-stderr-text');
    expect(text.tagName).toBe('PRE');
    expect(text.textContent).toBe('<b>not bold</b>\nstarted');
    expect(text.querySelector('b')).toBeNull();
    await fireEvent.click(getByTestId('mcp-stderr-load'));
    await waitFor(() => expect(getByTestId('mcp-stderr-text').textContent).toContain('<img src=x onerror=alert(1)>'));
    expect(getByTestId('mcp-stderr-text').querySelector('img')).toBeNull();
    expect(api.MCPStderr).toHaveBeenCalledWith('everything');
  });

  it('warns about changed tool definitions and accepts them', async () => {
    const api = fakeApi();
    const store = new McpStore(api);
    const { getByTestId, queryByTestId } = render(McpServerCard, {
      server: status({ tools_changed: true, tools: [tool({ changed: true, enabled: false })] }),
      store,
      onedit: noop,
      onremove: noop,
      onapprove: noop,
    });
    expect(getByTestId('mcp-rugpull').textContent).toContain('echo');
    expect(getByTestId('mcp-tool-changed')).not.toBeNull();
    expect((getByTestId('mcp-tool-toggle') as HTMLInputElement).disabled).toBe(true);
    await fireEvent.click(getByTestId('mcp-accept-changes'));
    expect(api.MCPAcceptToolChanges).toHaveBeenCalledWith('everything');
    expect(queryByTestId('mcp-awaiting')).toBeNull();
    const other = render(McpServerCard, { server: status({ name: 'plain' }), store, onedit: noop, onremove: noop, onapprove: noop });
    expect(other.container.querySelector('[data-testid="mcp-rugpull"]')).toBeNull();
  });

  it('restarts, disables and enables', async () => {
    const api = fakeApi();
    const store = new McpStore(api);
    await store.load();
    const r = render(McpServerCard, { server: store.servers[0], store, onedit: noop, onremove: noop, onapprove: noop });
    await fireEvent.click(r.getByTestId('mcp-restart'));
    expect(api.MCPRestart).toHaveBeenCalledWith('everything');
    await fireEvent.click(r.getByTestId('mcp-disable'));
    expect(api.MCPSetDisabled).toHaveBeenCalledWith('everything', true);
    r.unmount();
    const d = render(McpServerCard, { server: status({ state: 'disabled', disabled: true }), store, onedit: noop, onremove: noop, onapprove: noop });
    expect((d.getByTestId('mcp-restart') as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(d.getByTestId('mcp-enable'));
    expect(api.MCPSetDisabled).toHaveBeenCalledWith('everything', false);
  });
});

describe('McpServerCard transports', () => {
  it('shows stdio and the command line for a local program', () => {
    const { getByTestId, queryByTestId } = render(McpServerCard, {
      server: status({ pid: 4242 }),
      store: new McpStore(fakeApi()),
      onedit: noop,
      onremove: noop,
      onapprove: noop,
    });
    expect(getByTestId('mcp-transport').textContent).toBe('stdio');
    expect(getByTestId('mcp-transport').dataset.transport).toBe('stdio');
    expect(getByTestId('mcp-command').textContent).toBe('node /srv/everything.js stdio');
    expect(getByTestId('mcp-meta').textContent).toContain('process 4242');
    expect(queryByTestId('mcp-url')).toBeNull();
    expect(queryByTestId('mcp-internet')).toBeNull();
    expect(queryByTestId('mcp-stderr')).not.toBeNull();
  });

  it('shows HTTP or SSE and the URL for a remote server, its header names, and an internet badge', () => {
    const store = new McpStore(fakeApi());
    const r = render(McpServerCard, { server: remote({ state: 'ready', approved: true }), store, onedit: noop, onremove: noop, onapprove: noop });
    expect(r.getByTestId('mcp-transport').textContent).toBe('HTTP');
    expect(r.getByTestId('mcp-url').textContent).toBe('https://mcp.example.com/mcp');
    expect(r.queryByTestId('mcp-command')).toBeNull();
    expect(r.getByTestId('mcp-header-names').textContent).toBe('headers: Authorization');
    expect(r.getByTestId('mcp-internet').textContent).toBe('internet');
    // No process, so no pid and no stderr.
    expect(r.queryByTestId('mcp-stderr')).toBeNull();
    expect(r.container.textContent).not.toContain('[REDACTED]');
    r.unmount();
    const sse = render(McpServerCard, {
      server: remote({ transport: 'sse', internet: false, url: 'http://192.168.1.9:8000/sse', header_names: [] }),
      store,
      onedit: noop,
      onremove: noop,
      onapprove: noop,
    });
    expect(sse.getByTestId('mcp-transport').textContent).toBe('SSE');
    expect(sse.getByTestId('mcp-url').textContent).toBe('http://192.168.1.9:8000/sse');
    expect(sse.queryByTestId('mcp-internet')).toBeNull();
    expect(sse.queryByTestId('mcp-header-names')).toBeNull();
  });
});

/** The chat's store as the attach target (its attachments are reactive), with spies. */
function target() {
  const chat = new ChatStore({ api: {} as ChatApi, on: () => () => {} });
  vi.spyOn(chat, 'attach');
  vi.spyOn(chat, 'detach');
  return chat;
}

describe('the resources browser', () => {
  const ready = () => status({ has_resources: true, resources: 2 });

  it('lists a ready server’s resources, previews one and attaches it to the next message', async () => {
    const api = fakeApi();
    const store = new McpStore(api);
    const attach = target();
    const { getByTestId, getAllByTestId, queryByTestId } = render(McpServerCard, {
      server: ready(),
      store,
      attach,
      onedit: noop,
      onremove: noop,
      onapprove: noop,
    });
    const toggle = getByTestId('mcp-resources-toggle');
    expect(toggle.textContent).toContain('Resources: 2');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(api.MCPResources).not.toHaveBeenCalled();
    await fireEvent.click(toggle);
    expect(api.MCPResources).toHaveBeenCalledWith('everything');
    await waitFor(() => expect(getAllByTestId('mcp-resource')).toHaveLength(2));
    const [first] = getAllByTestId('mcp-resource');
    expect(first.textContent).toContain('architecture.md');
    expect(first.textContent).toContain('demo://resource/static/document/architecture.md');
    expect(first.querySelector('[data-testid="mcp-resource-mime"]')!.textContent).toBe('text/markdown');

    await fireEvent.click(first);
    expect(api.MCPReadResource).toHaveBeenCalledWith('everything', 'demo://resource/static/document/architecture.md');
    await waitFor(() => expect(getByTestId('mcp-resource-text').textContent).toContain('# Architecture'));
    expect(first.getAttribute('aria-current')).toBe('true');
    expect(getByTestId('mcp-resource-preview').dataset.uri).toBe('demo://resource/static/document/architecture.md');

    await fireEvent.click(getByTestId('mcp-resource-attach'));
    expect(attach.attach).toHaveBeenCalledWith({
      server: 'everything',
      uri: 'demo://resource/static/document/architecture.md',
      name: 'architecture.md',
      mimeType: 'text/markdown',
      text: content().text,
    });
    await waitFor(() => expect(queryByTestId('mcp-resource-attached')).not.toBeNull());
    await fireEvent.click(getByTestId('mcp-resource-detach'));
    expect(attach.detach).toHaveBeenCalledWith({ server: 'everything', uri: 'demo://resource/static/document/architecture.md' });

    await fireEvent.click(getByTestId('mcp-resource-close'));
    expect(queryByTestId('mcp-resource-preview')).toBeNull();
  });

  it('caps a long text, describes binary content and cannot attach it', async () => {
    const long = 'x'.repeat(9000);
    const api = fakeApi({
      MCPReadResource: vi.fn(async (server: string, uri: string) =>
        uri.endsWith('features.md')
          ? content({ server, uri, mime_type: 'image/png', text: '[binary image/png, 1024 bytes]', binary: true })
          : content({ server, uri, text: long }),
      ),
    });
    const store = new McpStore(api);
    const { getByTestId, getAllByTestId, queryByTestId } = render(McpServerCard, {
      server: ready(),
      store,
      attach: target(),
      onedit: noop,
      onremove: noop,
      onapprove: noop,
    });
    await fireEvent.click(getByTestId('mcp-resources-toggle'));
    await waitFor(() => expect(getAllByTestId('mcp-resource')).toHaveLength(2));
    await fireEvent.click(getAllByTestId('mcp-resource')[0]);
    await waitFor(() => expect(getByTestId('mcp-resource-cut').textContent).toContain('8,000 of 9,000'));
    expect(getByTestId('mcp-resource-text').textContent).toHaveLength(8000);
    expect(queryByTestId('mcp-resource-attach')).not.toBeNull();
    await fireEvent.click(getAllByTestId('mcp-resource')[1]);
    await waitFor(() => expect(getByTestId('mcp-resource-binary').textContent).toContain('Binary content'));
    expect(queryByTestId('mcp-resource-attach')).toBeNull();
  });

  it('shows the server’s error, the empty state, and nothing for a server that is not ready', async () => {
    const api = fakeApi({ MCPResources: vi.fn(async () => Promise.reject(new Error('list resources of everything: method not found'))) });
    const store = new McpStore(api);
    const r = render(McpServerCard, { server: ready(), store, onedit: noop, onremove: noop, onapprove: noop });
    await fireEvent.click(r.getByTestId('mcp-resources-toggle'));
    await waitFor(() => expect(r.getByTestId('mcp-resources-error').textContent).toBe('Could not list the resources: list resources of everything: method not found'));
    api.MCPResources.mockResolvedValueOnce([]);
    await fireEvent.click(r.getByTestId('mcp-resources-refresh'));
    await waitFor(() => expect(r.getByTestId('mcp-resources-empty')).not.toBeNull());
    expect(r.queryByTestId('mcp-resources-error')).toBeNull();
    r.unmount();
    for (const s of [status({ state: 'starting', has_resources: true }), status({ has_resources: false })]) {
      const c = render(McpServerCard, { server: s, store, onedit: noop, onremove: noop, onapprove: noop });
      expect(c.queryByTestId('mcp-resources')).toBeNull();
      c.unmount();
    }
  });

  it('shows a read error with the server’s message', async () => {
    const api = fakeApi({ MCPReadResource: vi.fn(async () => Promise.reject(new Error('read resource demo://x of everything: not found'))) });
    const store = new McpStore(api);
    const { getByTestId, getAllByTestId } = render(McpServerCard, { server: ready(), store, onedit: noop, onremove: noop, onapprove: noop });
    await fireEvent.click(getByTestId('mcp-resources-toggle'));
    await waitFor(() => expect(getAllByTestId('mcp-resource')).toHaveLength(2));
    await fireEvent.click(getAllByTestId('mcp-resource')[0]);
    await waitFor(() => expect(getByTestId('mcp-resource-error').textContent).toContain('not found'));
  });
});

describe('McpPanel', () => {
  it('lists the problems of mcp.json with line, column and field', async () => {
    const api = fakeApi({
      MCPProblems: vi.fn(async () => [
        { file: 'mcp.json', line: 4, column: 18, server: 'fs', field: 'timeout', message: '"soon" is not a duration' },
        { file: 'mcp.json', line: 9, column: 7, server: 'fs', field: 'colour', message: 'unknown field; it is ignored', warning: true },
      ]),
    });
    const store = new McpStore(api);
    await store.load();
    const { getAllByTestId } = render(McpPanel, { store, onrefresh: noop, onclose: noop });
    const rows = getAllByTestId('mcp-problem');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('mcp.json:4:18');
    expect(rows[0].textContent).toContain('field timeout');
    expect(rows[0].textContent).toContain('"soon" is not a duration');
    expect(rows[1].textContent).toContain('warning');
  });

  it('asks before removing a server', async () => {
    const api = fakeApi();
    const store = new McpStore(api);
    await store.load();
    const { getByTestId, queryByTestId, queryAllByTestId } = render(McpPanel, { store, onrefresh: noop, onclose: noop });
    await fireEvent.click(getByTestId('mcp-remove'));
    expect(getByTestId('mcp-confirm-remove')).not.toBeNull();
    expect(document.activeElement?.getAttribute('data-testid')).toBe('mcp-remove-cancel');
    await fireEvent.click(getByTestId('mcp-remove-cancel'));
    expect(api.MCPRemove).not.toHaveBeenCalled();
    await fireEvent.click(getByTestId('mcp-remove'));
    await fireEvent.click(getByTestId('mcp-remove-ok'));
    await waitFor(() => expect(queryByTestId('mcp-confirm-remove')).toBeNull());
    expect(api.MCPRemove).toHaveBeenCalledWith('everything');
    expect(queryAllByTestId('mcp-server')).toHaveLength(0);
    expect(getByTestId('mcp-empty')).not.toBeNull();
  });

  it('opens the add form and closes on Esc', async () => {
    const store = new McpStore(fakeApi());
    await store.load();
    const onclose = vi.fn();
    const { getByTestId, queryByTestId } = render(McpPanel, { store, onrefresh: noop, onclose });
    expect(document.activeElement).toBe(getByTestId('mcp-add'));
    await fireEvent.click(getByTestId('mcp-add'));
    expect(getByTestId('mcp-form')).not.toBeNull();
    // Esc in the form closes the form, not the panel.
    await fireEvent.keyDown(getByTestId('mcp-field-name'), { key: 'Escape' });
    await waitFor(() => expect(queryByTestId('mcp-form')).toBeNull());
    expect(onclose).not.toHaveBeenCalled();
    await fireEvent.keyDown(getByTestId('mcp-panel'), { key: 'Escape' });
    expect(onclose).toHaveBeenCalled();
  });
});
