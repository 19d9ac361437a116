import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import ActivityPanel from './ActivityPanel.svelte';
import { ActivityStore } from '../lib/tools.svelte';
import type { Activity } from '../lib/backend';
import { annotations } from '../lib/tools.fixture';

const rows: Activity[] = [
  {
    id: 2,
    requestId: 'r2',
    sessionId: 's1',
    tool: 'shout',
    arguments: '{"text":"<b>hi</b>"}',
    status: 'denied',
    errorKind: 'denied',
    error: 'the user said no',
    latencyMs: 3,
    createdAt: '2025-01-01T10:00:00Z',
  },
  { id: 1, requestId: 'r1', tool: 'calculator', arguments: '{"expression":"1+1"}', status: 'ok', latencyMs: 0, createdAt: '2025-01-01T09:00:00Z' },
];

describe('ActivityPanel', () => {
  it('lists rows, opens one to show its arguments as text, and offers the filters', async () => {
    const store = new ActivityStore({ ToolActivity: vi.fn(async () => rows) });
    await store.load('s1');
    const onclose = vi.fn();
    const { getByTestId, getAllByTestId, queryByTestId } = render(ActivityPanel, {
      store,
      tools: [{ name: 'convert_units', description: '', annotations: annotations(), groups: [], enabled: true, breaker: 'closed' }],
      sessionId: 's1',
      onrefresh: vi.fn(),
      onclose,
    });
    expect(getAllByTestId('activity-row').map((r) => [r.dataset.tool, r.dataset.status])).toEqual([
      ['shout', 'denied'],
      ['calculator', 'ok'],
    ]);
    expect(getAllByTestId('activity-status')[0].textContent).toContain('denied (denied)');
    expect(document.activeElement).toBe(getByTestId('activity-filter-tool'));
    const options = [...(getByTestId('activity-filter-tool') as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual(['', 'calculator', 'convert_units', 'shout']);
    expect(queryByTestId('activity-detail')).toBeNull();
    await fireEvent.click(getAllByTestId('activity-expand')[0]);
    expect(getByTestId('activity-args').textContent).toBe('{\n  "text": "<b>hi</b>"\n}');
    expect(getByTestId('activity-detail').querySelector('b')).toBeNull();
    expect(getByTestId('activity-error').textContent).toBe('the user said no');
    await fireEvent.keyDown(getByTestId('activity-panel'), { key: 'Escape' });
    expect(onclose).toHaveBeenCalled();
  });

  it('asks for an open conversation when filtering by it', () => {
    const store = new ActivityStore({ ToolActivity: vi.fn(async () => []) });
    store.filter.currentOnly = true;
    const { getByTestId, queryByTestId } = render(ActivityPanel, {
      store,
      tools: [],
      sessionId: '',
      onrefresh: vi.fn(),
      onclose: vi.fn(),
    });
    expect(getByTestId('activity-panel').textContent).toContain('Open a conversation');
    expect(queryByTestId('activity-table')).toBeNull();
  });
});
