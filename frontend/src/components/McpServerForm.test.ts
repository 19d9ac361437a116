import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import McpServerForm from './McpServerForm.svelte';
import { McpStore } from '../lib/mcp.svelte';
import { fakeApi, status } from '../lib/mcp.fixture';

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
      MCPAddServer: vi.fn(async (name: string, cfg: string) =>
        status({ name, state: 'awaiting approval', approved: false, config: JSON.parse(cfg), command: EXACT, tools: [] }),
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
    const [name, json] = api.MCPAddServer.mock.calls[0] as [string, string];
    expect(name).toBe('everything');
    expect(JSON.parse(json)).toEqual({
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
    const api = fakeApi({ MCPAddServer: vi.fn(async (name: string, cfg: string) => status({ name, config: JSON.parse(cfg) })) });
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
    expect(JSON.parse(api.MCPAddServer.mock.calls[0][1] as string)).toEqual({
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
});
