import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import McpServerForm from './McpServerForm.svelte';
import { McpStore } from '../lib/mcp.svelte';
import { fakeApi, remote, status } from '../lib/mcp.fixture';
import { ConfirmError, type McpServerConfig } from '../lib/backend';

/** What the transport sends of an entry: its JSON (a field left undefined is not sent). */
const wire = (cfg: McpServerConfig): McpServerConfig => JSON.parse(JSON.stringify(cfg));

async function fill(getByTestId: (id: string) => HTMLElement, values: Record<string, string>) {
  for (const [k, v] of Object.entries(values)) {
    await fireEvent.input(getByTestId(`mcp-field-${k}`), { target: { value: v } });
  }
}

const EXACT = "cd /srv && env API_KEY='${MY KEY}' node /srv/everything.js stdio";

describe('McpServerForm', () => {
  it('sends the config entry, then shows the exact command and the variables before anything runs', async () => {
    const api = fakeApi({
      MCPServers: vi.fn(async () => []),
      MCPAddServer: vi.fn(async (name: string, cfg: McpServerConfig) =>
        status({ name, state: 'awaiting approval', approved: false, config: wire(cfg), command: EXACT, tools: [] }),
      ),
    });
    const store = new McpStore(api);
    const onclose = vi.fn();
    const { getByTestId, queryByTestId, getAllByTestId } = render(McpServerForm, { store, onclose });
    await fill(getByTestId, {
      name: 'everything',
      command: 'node',
      args: '/srv/everything.js\nstdio',
      env: 'API_KEY=${MY KEY}\nDEBUG=1',
      cwd: '/srv',
      timeout: '20s',
      include: 'get-*\necho',
      exclude: 'toggle-*',
      autoApprove: 'echo',
    });
    await fireEvent.click(getByTestId('mcp-form-submit'));
    await waitFor(() => expect(api.MCPAddServer).toHaveBeenCalledTimes(1));
    const [name, json] = api.MCPAddServer.mock.calls[0] as [string, McpServerConfig];
    expect(name).toBe('everything');
    expect(wire(json)).toEqual({
      command: 'node',
      args: ['/srv/everything.js', 'stdio'],
      env: { API_KEY: '${MY KEY}', DEBUG: '1' },
      cwd: '/srv',
      timeout: '20s',
      tools: { include: ['get-*', 'echo'], exclude: ['toggle-*'] },
      autoApprove: ['echo'],
    });
    // Not approved yet: nothing started.
    expect(api.MCPApprove).not.toHaveBeenCalled();

    await waitFor(() => expect(queryByTestId('mcp-approve')).not.toBeNull());
    expect(queryByTestId('mcp-form')).toBeNull();
    expect(getByTestId('mcp-approve-command').textContent).toBe(EXACT);
    expect(getAllByTestId('mcp-approve-env-name').map((e) => e.textContent)).toEqual(['API_KEY', 'DEBUG']);
    expect(getByTestId('mcp-approve-cwd').textContent).toBe('/srv');
    // Cancel has the focus, not approve.
    expect(document.activeElement?.getAttribute('data-testid')).toBe('mcp-approve-cancel');

    await fireEvent.click(getByTestId('mcp-approve-ok'));
    await waitFor(() => expect(api.MCPApprove).toHaveBeenCalledWith('everything'));
    await waitFor(() => expect(onclose).toHaveBeenCalled());
    expect(store.server('everything')?.state).toBe('starting');
  });

  it('shows mistakes next to their fields without calling the backend', async () => {
    const api = fakeApi();
    const store = new McpStore(api);
    const { getByTestId, queryByTestId } = render(McpServerForm, { store, onclose: vi.fn() });
    await fill(getByTestId, { name: 'x', env: 'NOPE', timeout: 'soon', include: '[a' });
    await fireEvent.click(getByTestId('mcp-form-submit'));
    expect(api.MCPAddServer).not.toHaveBeenCalled();
    expect(getByTestId('mcp-error-command').textContent).toContain('Name the program');
    expect(getByTestId('mcp-error-env').textContent).toBe('Line 1: write KEY=VALUE.');
    expect(getByTestId('mcp-error-timeout').textContent).toContain('soon');
    expect(getByTestId('mcp-error-include').textContent).toContain('[a');
    expect(queryByTestId('mcp-error-name')).toBeNull();
    expect(getByTestId('mcp-field-command').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(getByTestId('mcp-field-command')));
  });

  it('puts the backend’s errors next to the fields they name', async () => {
    const api = fakeApi({
      MCPAddServer: vi.fn(async () => {
        throw new Error('add server "x": entry:1:42: server "x": field "cwd": "~x" is not an absolute path\nsomething else');
      }),
    });
    const store = new McpStore(api);
    const { getByTestId } = render(McpServerForm, { store, onclose: vi.fn() });
    await fill(getByTestId, { name: 'x', command: 'node' });
    await fireEvent.click(getByTestId('mcp-form-submit'));
    await waitFor(() => expect(getByTestId('mcp-error-cwd').textContent).toBe('"~x" is not an absolute path'));
    expect(getByTestId('mcp-error-general').textContent).toBe('something else');
  });

  it('takes a new entry back when the approval is cancelled', async () => {
    const api = fakeApi({ MCPServers: vi.fn(async () => []) });
    const store = new McpStore(api);
    const onclose = vi.fn();
    const { getByTestId, queryByTestId } = render(McpServerForm, { store, onclose });
    await fill(getByTestId, { name: 'tmp', command: 'node' });
    await fireEvent.click(getByTestId('mcp-form-submit'));
    await waitFor(() => expect(queryByTestId('mcp-approve')).not.toBeNull());
    await fireEvent.click(getByTestId('mcp-approve-cancel'));
    await waitFor(() => expect(onclose).toHaveBeenCalled());
    expect(api.MCPRemove).toHaveBeenCalledWith('tmp');
    expect(api.MCPApprove).not.toHaveBeenCalled();
  });

  it('edits an entry in the same form; an unchanged command needs no new approval', async () => {
    const server = status({ config: { command: 'node', args: ['a.js'], env: { K: 'v' }, disabled: true } });
    const api = fakeApi({ MCPAddServer: vi.fn(async (name: string, cfg: McpServerConfig) => status({ name, config: wire(cfg) })) });
    const store = new McpStore(api);
    const onclose = vi.fn();
    const { getByTestId, queryByTestId } = render(McpServerForm, { store, edit: server, onclose });
    const nameInput = getByTestId('mcp-field-name') as HTMLInputElement;
    expect(nameInput.value).toBe('everything');
    expect(nameInput.readOnly).toBe(true);
    expect((getByTestId('mcp-field-args') as HTMLTextAreaElement).value).toBe('a.js');
    expect((getByTestId('mcp-field-env') as HTMLTextAreaElement).value).toBe('K=v');
    await fill(getByTestId, { timeout: '1m' });
    await fireEvent.click(getByTestId('mcp-form-submit'));
    await waitFor(() => expect(onclose).toHaveBeenCalled());
    expect(wire(api.MCPAddServer.mock.calls[0][1] as McpServerConfig)).toEqual({
      command: 'node',
      args: ['a.js'],
      env: { K: 'v' },
      disabled: true,
      timeout: '1m',
    });
    expect(queryByTestId('mcp-approve')).toBeNull();
  });

  it('opens on the approval step for a server that waits for approval', async () => {
    const api = fakeApi();
    const store = new McpStore(api);
    const onclose = vi.fn();
    const server = status({ state: 'awaiting approval', approved: false, command: 'node /x.js', config: { command: 'node', args: ['/x.js'] } });
    const { getByTestId, queryByTestId } = render(McpServerForm, { store, approve: server, onclose });
    expect(getByTestId('mcp-approve-command').textContent).toBe('node /x.js');
    expect(getByTestId('mcp-approve-env').textContent).toContain('only PATH, HOME, LANG and TMPDIR');
    expect(queryByTestId('mcp-approve-back')).toBeNull();
    await fireEvent.click(getByTestId('mcp-approve-cancel'));
    expect(onclose).toHaveBeenCalled();
    expect(api.MCPRemove).not.toHaveBeenCalled();
  });

  it('adds a URL server: the kind switch, the headers editor, and an approval that shows the address, header names and the internet warning', async () => {
    const api = fakeApi({
      MCPServers: vi.fn(async () => []),
      MCPAddServer: vi.fn(async (name: string, cfg: McpServerConfig) => {
        const c = wire(cfg);
        return remote({ name, url: c.url, config: { ...c, headers: { Authorization: '[REDACTED]', 'X-Team': '[REDACTED]' } }, header_names: ['Authorization', 'X-Team'] });
      }),
    });
    const store = new McpStore(api);
    const onclose = vi.fn();
    const { getByTestId, queryByTestId, getAllByTestId } = render(McpServerForm, { store, onclose });
    // A command entry by default.
    expect((getByTestId('mcp-kind-command') as HTMLInputElement).checked).toBe(true);
    expect(queryByTestId('mcp-field-url')).toBeNull();
    await fireEvent.click(getByTestId('mcp-kind-url'));
    expect((getByTestId('mcp-kind-url') as HTMLInputElement).checked).toBe(true);
    expect(queryByTestId('mcp-field-command')).toBeNull();
    expect(queryByTestId('mcp-field-args')).toBeNull();
    expect((getByTestId('mcp-field-transport') as HTMLSelectElement).value).toBe('http');

    await fill(getByTestId, { name: 'remote', url: 'http://mcp.example.com/mcp' });
    // An internet address needs the box ticked; nothing is sent before.
    await fireEvent.click(getByTestId('mcp-form-submit'));
    expect(getByTestId('mcp-error-url').textContent).toContain('mcp.example.com is on the internet');
    expect(api.MCPAddServer).not.toHaveBeenCalled();
    await fireEvent.click(getByTestId('mcp-field-allowInternet'));
    expect(getByTestId('mcp-internet-warning').textContent).toContain('leave your computer');
    // Plain http to it is pointed out; https is not.
    expect(getByTestId('mcp-url-plain-http')).not.toBeNull();
    await fill(getByTestId, { url: 'https://mcp.example.com/mcp' });
    expect(queryByTestId('mcp-url-plain-http')).toBeNull();

    await fireEvent.click(getByTestId('mcp-header-add'));
    await fireEvent.click(getByTestId('mcp-header-add'));
    await fireEvent.click(getByTestId('mcp-header-add'));
    expect(document.activeElement).toBe(getAllByTestId('mcp-header-name')[2]);
    const names = getAllByTestId('mcp-header-name');
    const values = getAllByTestId('mcp-header-value');
    await fireEvent.input(names[0], { target: { value: 'Authorization' } });
    await fireEvent.input(values[0], { target: { value: 'Bearer ${TOKEN}' } });
    await fireEvent.input(names[1], { target: { value: 'X-Team' } });
    await fireEvent.input(values[1], { target: { value: 'hermes' } });
    await fireEvent.click(getAllByTestId('mcp-header-remove')[2]);
    expect(getAllByTestId('mcp-header')).toHaveLength(2);
    await fireEvent.change(getByTestId('mcp-field-transport'), { target: { value: 'sse' } });

    await fireEvent.click(getByTestId('mcp-form-submit'));
    await waitFor(() => expect(api.MCPAddServer).toHaveBeenCalledTimes(1));
    const [name, json] = api.MCPAddServer.mock.calls[0] as [string, McpServerConfig];
    expect(name).toBe('remote');
    expect(wire(json)).toEqual({
      url: 'https://mcp.example.com/mcp',
      type: 'sse',
      headers: { Authorization: 'Bearer ${TOKEN}', 'X-Team': 'hermes' },
      allow_internet: true,
    });
    for (const k of ['command', 'args', 'env', 'cwd']) expect(json).not.toContain(`"${k}"`);

    await waitFor(() => expect(queryByTestId('mcp-approve')).not.toBeNull());
    expect(getByTestId('mcp-approve').querySelector('h2')!.textContent).toBe('Connect to “remote”?');
    expect(getByTestId('mcp-approve-url').textContent).toBe('https://mcp.example.com/mcp');
    expect(getAllByTestId('mcp-approve-header-name').map((e) => e.textContent)).toEqual(['Authorization', 'X-Team']);
    // Names only: no value reaches the dialog.
    expect(getByTestId('mcp-approve').textContent).not.toContain('Bearer');
    expect(getByTestId('mcp-approve').textContent).not.toContain('hermes');
    expect(getByTestId('mcp-approve-internet').textContent).toContain('will leave this computer');
    expect(queryByTestId('mcp-approve-command')).toBeNull();
    expect(getByTestId('mcp-approve-ok').textContent).toContain('Approve and connect');
    expect(document.activeElement?.getAttribute('data-testid')).toBe('mcp-approve-cancel');
    await fireEvent.click(getByTestId('mcp-approve-ok'));
    await waitFor(() => expect(api.MCPApprove).toHaveBeenCalledWith('remote'));
  });

  it('checks a URL entry before sending it', async () => {
    const api = fakeApi();
    const store = new McpStore(api);
    const { getByTestId, getAllByTestId, queryByTestId } = render(McpServerForm, { store, onclose: vi.fn() });
    await fireEvent.click(getByTestId('mcp-kind-url'));
    await fill(getByTestId, { name: 'x', url: 'localhost:3001/mcp' });
    await fireEvent.click(getByTestId('mcp-header-add'));
    await fireEvent.input(getAllByTestId('mcp-header-name')[0], { target: { value: 'Authorization' } });
    await fireEvent.click(getByTestId('mcp-form-submit'));
    expect(api.MCPAddServer).not.toHaveBeenCalled();
    expect(getByTestId('mcp-error-url').textContent).toContain('http:// or https://');
    expect(getByTestId('mcp-error-headers').textContent).toBe('Give the header Authorization a value.');
    expect(queryByTestId('mcp-error-command')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(getByTestId('mcp-field-url')));
  });

  it('edits a remote entry: stored header values stay hidden and go back as [REDACTED]', async () => {
    const server = remote({ state: 'ready', approved: true });
    const api = fakeApi({
      // The same address and header names: nothing new to approve.
      MCPCommandLine: vi.fn(async () => server.command),
      MCPAddServer: vi.fn(async (name: string, cfg: McpServerConfig) => remote({ name, state: 'ready', approved: true, config: wire(cfg) })),
    });
    const store = new McpStore(api);
    const onclose = vi.fn();
    const { getByTestId, getAllByTestId, queryByTestId } = render(McpServerForm, { store, edit: server, onclose });
    expect((getByTestId('mcp-kind-url') as HTMLInputElement).checked).toBe(true);
    expect((getByTestId('mcp-field-url') as HTMLInputElement).value).toBe('https://mcp.example.com/mcp');
    expect((getByTestId('mcp-field-allowInternet') as HTMLInputElement).checked).toBe(true);
    const value = getAllByTestId('mcp-header-value')[0] as HTMLInputElement;
    expect(value.value).toBe('');
    expect(value.placeholder).toBe('[REDACTED]');
    expect(getAllByTestId('mcp-header')[0].dataset.kept).toBe('true');
    await fill(getByTestId, { timeout: '45s' });
    await fireEvent.click(getByTestId('mcp-form-submit'));
    await waitFor(() => expect(onclose).toHaveBeenCalled());
    expect(wire(api.MCPAddServer.mock.calls[0][1] as McpServerConfig)).toEqual({
      url: 'https://mcp.example.com/mcp',
      type: 'http',
      headers: { Authorization: '[REDACTED]' },
      allow_internet: true,
      timeout: '45s',
    });
    expect(queryByTestId('mcp-approve')).toBeNull();
  });

  it('approves an edit of an entry with hidden header values before writing it, so that cancel leaves the entry untouched', async () => {
    const server = remote({ state: 'ready', approved: true });
    const api = fakeApi({
      MCPCommandLine: vi.fn(async () => 'http https://mcp.example.com/v2 (headers: Authorization, X-Key; on the internet)'),
      MCPAddServer: vi.fn(async (name: string, cfg: McpServerConfig) => remote({ name, config: wire(cfg) })),
    });
    const store = new McpStore(api);
    const onclose = vi.fn();
    const { getByTestId, getAllByTestId, unmount } = render(McpServerForm, { store, edit: server, onclose });
    await fill(getByTestId, { url: 'https://mcp.example.com/v2' });
    await fireEvent.click(getByTestId('mcp-header-add'));
    await fireEvent.input(getAllByTestId('mcp-header-name')[1], { target: { value: 'X-Key' } });
    await fireEvent.input(getAllByTestId('mcp-header-value')[1], { target: { value: '${KEY}' } });
    await fireEvent.click(getByTestId('mcp-form-submit'));
    await waitFor(() => expect(getByTestId('mcp-approve-url').textContent).toBe('https://mcp.example.com/v2'));
    expect(getAllByTestId('mcp-approve-header-name').map((e) => e.textContent)).toEqual(['Authorization', 'X-Key']);
    expect(getByTestId('mcp-approve-internet')).not.toBeNull();
    // Nothing is written before the approval; cancel writes nothing either.
    expect(api.MCPAddServer).not.toHaveBeenCalled();
    await fireEvent.click(getByTestId('mcp-approve-back'));
    await fireEvent.click(getByTestId('mcp-form-submit'));
    await waitFor(() => expect(getByTestId('mcp-approve')).not.toBeNull());
    await fireEvent.click(getByTestId('mcp-approve-ok'));
    await waitFor(() => expect(api.MCPApprove).toHaveBeenCalledWith('remote'));
    expect(wire(api.MCPAddServer.mock.calls[0][1] as McpServerConfig).headers).toEqual({ Authorization: '[REDACTED]', 'X-Key': '${KEY}' });
    await waitFor(() => expect(onclose).toHaveBeenCalled());
    unmount();

    const again = render(McpServerForm, { store, edit: server, onclose: vi.fn() });
    api.MCPAddServer.mockClear();
    await fill(again.getByTestId, { url: 'https://mcp.example.com/v2' });
    await fireEvent.click(again.getByTestId('mcp-form-submit'));
    await waitFor(() => expect(again.getByTestId('mcp-approve')).not.toBeNull());
    await fireEvent.click(again.getByTestId('mcp-approve-cancel'));
    expect(api.MCPAddServer).not.toHaveBeenCalled();
    expect(api.MCPRemove).not.toHaveBeenCalled();
  });

  it('in web mode asks for the one-time code the terminal shows, and sends it with the approval', async () => {
    let answer: 'code' | 'wrong' | 'ok' = 'code';
    const api = fakeApi({
      needsCode: vi.fn(() => true),
      MCPApprove: vi.fn(async (name: string, _code?: string) => {
        if (answer === 'code') throw new ConfirmError('Type the code', 'required');
        if (answer === 'wrong') throw new ConfirmError('not right', 'wrong', 2);
        return status({ name, state: 'starting' });
      }),
    });
    const store = new McpStore(api);
    const onclose = vi.fn();
    const server = status({ state: 'awaiting approval', approved: false, command: 'node /x.js', config: { command: 'node', args: ['/x.js'] } });
    const { getByTestId, queryByTestId } = render(McpServerForm, { store, approve: server, onclose });
    expect(getByTestId('mcp-approve-code-hint').textContent).toContain('hermes serve');
    await fireEvent.click(getByTestId('mcp-approve-ok'));
    await waitFor(() => expect(queryByTestId('mcp-approve-code')).not.toBeNull());
    expect(api.MCPApprove).toHaveBeenCalledWith('everything');
    expect(queryByTestId('mcp-approve-error')).toBeNull();
    expect(getByTestId('mcp-approve-ok').textContent).toBe('Approve with code');

    answer = 'wrong';
    await fireEvent.input(getByTestId('mcp-approve-code'), { target: { value: '111-111' } });
    await fireEvent.click(getByTestId('mcp-approve-ok'));
    await waitFor(() => expect(getByTestId('mcp-approve-code-message').textContent).toContain('2 tries left'));
    expect(api.MCPApprove).toHaveBeenLastCalledWith('everything', '111111');
    expect(onclose).not.toHaveBeenCalled();

    answer = 'ok';
    await fireEvent.input(getByTestId('mcp-approve-code'), { target: { value: '482913' } });
    await fireEvent.keyDown(getByTestId('mcp-approve-code'), { key: 'Enter' });
    await waitFor(() => expect(onclose).toHaveBeenCalled());
    expect(api.MCPApprove).toHaveBeenLastCalledWith('everything', '482913');
    expect(store.codes.everything).toBeUndefined();
  });
});
