import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import ToolSettings from './ToolSettings.svelte';
import { ToolsStore } from '../lib/tools.svelte';
import type { ToolInfo } from '../lib/backend';
import { annotations } from '../lib/tools.fixture';

describe('ToolSettings', () => {
  it('shows each tool with its groups, approval, switch and breaker, and resets an open breaker', async () => {
    let list: ToolInfo[] = [
      { name: 'calculator', description: 'Evaluate arithmetic.', annotations: annotations({ read_only: true }), groups: ['read-only'], enabled: true, breaker: 'closed' },
      {
        name: 'shout',
        description: 'Print a message.',
        annotations: annotations({ command: true }),
        groups: ['task'],
        enabled: false,
        breaker: 'open',
        openUntil: '2030-01-01T10:00:00Z',
      },
    ];
    const api = {
      ListTools: vi.fn(async () => list),
      SetToolEnabled: vi.fn(async () => {}),
      ResetBreaker: vi.fn(async () => {
        list = list.map((t) => ({ ...t, breaker: 'closed', openUntil: undefined }));
      }),
    };
    const store = new ToolsStore(api);
    const { getAllByTestId, queryAllByTestId } = render(ToolSettings, { store });
    await waitFor(() => expect(getAllByTestId('tool-setting')).toHaveLength(2));
    const [calc, shout] = getAllByTestId('tool-setting');
    expect(calc.textContent).toContain('read-only tools');
    expect(calc.querySelector('[data-testid="tool-approval"]')!.textContent).toBe('Runs without asking');
    expect(shout.querySelector('[data-testid="tool-approval"]')!.textContent).toContain('it runs a program');
    expect(shout.querySelector('[data-testid="tool-breaker"]')!.textContent).toBe('breaker open');
    expect(shout.querySelector('[data-testid="tool-open-until"]')).not.toBeNull();
    const sw = shout.querySelector('[data-testid="tool-enabled"]') as HTMLInputElement;
    expect(sw.checked).toBe(false);
    await fireEvent.click(sw);
    expect(api.SetToolEnabled).toHaveBeenCalledWith('shout', true);
    expect(queryAllByTestId('tool-reset')).toHaveLength(1);
    await fireEvent.click(queryAllByTestId('tool-reset')[0]);
    expect(api.ResetBreaker).toHaveBeenCalledWith('shout');
    await waitFor(() => expect(queryAllByTestId('tool-reset')).toHaveLength(0));
  });
});
