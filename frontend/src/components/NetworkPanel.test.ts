import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import ActivityPanel from './ActivityPanel.svelte';
import { ActivityStore } from '../lib/tools.svelte';
import { NetworkStore } from '../lib/network.svelte';
import { locale } from '../lib/i18n.svelte';
import type { NetworkActivity, NetworkEntry } from '../lib/backend';

afterEach(() => {
  locale.lang = 'en';
});

const today = new Date().toISOString();
const entries: NetworkEntry[] = [
  { part: 'mcp:nas', host: 'nas.lan', port: '8080', address: '10.0.0.5', outcome: 'refused', reason: 'offline_only', count: 2, first: today, last: today },
  { part: 'tool:lookup', host: 'localhost', port: '9000', address: '127.0.0.1', outcome: 'failed', reason: 'connection_refused', count: 1, first: today, last: today },
  { part: 'ollama', host: '127.0.0.1', port: '11434', address: '127.0.0.1', outcome: 'made', count: 3, first: '2025-01-01T09:00:00Z', last: today },
];

function panel(activity: () => Promise<NetworkActivity>) {
  const api = { NetworkActivity: vi.fn(activity) };
  const network = new NetworkStore(api);
  const r = render(ActivityPanel, {
    store: new ActivityStore({ ToolActivity: vi.fn(async () => []) }),
    tools: [],
    sessionId: '',
    network,
    onrefresh: vi.fn(),
    onclose: vi.fn(),
  });
  return { ...r, api, network };
}

describe('ActivityPanel Network tab', () => {
  it('lists each connection with its host, part, result and count, and says whether Offline only is on', async () => {
    const { getByTestId, getAllByTestId, api } = panel(async () => ({ offlineOnly: true, entries }));
    expect(api.NetworkActivity).not.toHaveBeenCalled(); // loaded when the tab opens
    await fireEvent.click(getByTestId('activity-tab-network'));
    await waitFor(() => expect(getAllByTestId('network-row')).toHaveLength(3));
    const rows = getAllByTestId('network-row');
    expect(rows.map((r) => [r.dataset.part, r.dataset.host, r.dataset.outcome])).toEqual([
      ['mcp:nas', 'nas.lan', 'refused'],
      ['tool:lookup', 'localhost', 'failed'],
      ['ollama', '127.0.0.1', 'made'],
    ]);
    expect(rows[0].textContent).toContain('nas.lan:8080');
    expect(rows[0].textContent).toContain('10.0.0.5'); // the address a name resolved to
    expect(rows[0].textContent).toContain('MCP nas');
    expect(getAllByTestId('network-result')[0].textContent).toContain('refused');
    expect(getAllByTestId('network-result')[0].textContent).toContain('offline only');
    expect(getAllByTestId('network-result')[1].textContent).toContain('nothing listening');
    expect(rows[2].textContent).not.toContain('127.0.0.1127.0.0.1'); // an address equal to the host is not repeated
    expect(rows[2].querySelector('.num')?.textContent).toBe('3');
    expect(getByTestId('network-panel').textContent).toContain('6 connections · 2 refused');
    expect(getByTestId('network-offline').dataset.on).toBe('true');
    expect(getByTestId('network-offline').textContent).toContain('Offline only is on');
    expect(getByTestId('network-list').getAttribute('tabindex')).toBe('0'); // the list scrolls by keyboard
    expect(getByTestId('network-table').querySelectorAll('th')).toHaveLength(5);
  });

  it('is reached by the keyboard, refreshes itself and speaks Chinese', async () => {
    const one: NetworkEntry = { ...entries[2], count: 1 };
    const { getByTestId, api } = panel(async () => ({ offlineOnly: false, entries: [one] }));
    await fireEvent.keyDown(getByTestId('activity-tab-calls'), { key: 'ArrowLeft' }); // wraps to the last tab
    expect(getByTestId('activity-tab-network').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(getByTestId('activity-tab-network'));
    await waitFor(() => expect(getByTestId('network-panel').textContent).toContain('1 connection'));
    expect(getByTestId('network-panel').textContent).not.toContain('1 connections');
    expect(getByTestId('network-offline').textContent).toContain('Offline only is off');
    await fireEvent.click(getByTestId('activity-refresh'));
    await waitFor(() => expect(api.NetworkActivity).toHaveBeenCalledTimes(2));
    locale.lang = 'zh';
    await waitFor(() => expect(getByTestId('network-table').querySelector('th')?.textContent).toBe('主机'));
    expect(getByTestId('network-panel').textContent).toContain('1 次连接');
    expect(getByTestId('network-panel').textContent).toContain('已连接');
    expect(getByTestId('activity-tab-network').textContent).toBe('网络');
  });

  it('says when nothing was recorded yet', async () => {
    const { getByTestId } = panel(async () => ({ offlineOnly: false, entries: [] }));
    await fireEvent.click(getByTestId('activity-tab-network'));
    await waitFor(() => expect(getByTestId('network-empty').textContent).toBe('No connection recorded yet.'));
  });

  it('says when the list cannot be read', async () => {
    const { getByTestId, getByRole } = panel(async () => {
      throw new Error('database is locked');
    });
    await fireEvent.click(getByTestId('activity-tab-network'));
    await waitFor(() => expect(getByRole('alert').textContent).toContain('Could not load the connections: database is locked'));
  });
});
