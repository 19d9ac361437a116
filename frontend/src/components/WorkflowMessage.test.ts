// The run card inside a reply (Message.svelte with a workflows store).
import { describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/svelte';
import Message from './Message.svelte';
import type { UIMessage } from '../lib/chat.svelte';
import { WorkflowsStore } from '../lib/workflows.svelte';
import { doneRun, failedRun, fakeApi, makeRun } from '../lib/workflows.fixture';

function reply(p: Partial<UIMessage>): UIMessage {
  return { id: 'm1', role: 'assistant', content: 'ok', status: 'ok', createdAt: '2026-01-02T10:00:00Z', ...p };
}

describe('Message with workflow runs', () => {
  it('shows the run card of a workflow__ call (read by the id its result or error names), a tool card otherwise', async () => {
    const api = fakeApi();
    const workflows = new WorkflowsStore({ api });
    const message = reply({
      tools: [
        { tool: 'workflow__reset_password', args: '{}', status: 'ok', result: `{"results":{},"run_id":"${doneRun.id}","status":"done"}`, latencyMs: 4000 },
        {
          tool: 'workflow__reset_password',
          args: '{}',
          status: 'error',
          error: `workflow run ${failedRun.id} failed: x (the user can resume it: hermes workflow resume ${failedRun.id})`,
          latencyMs: 10,
        },
        { tool: 'workflow__reset_password', args: '{"phone":1}', status: 'error', error: 'invalid_arguments', latencyMs: 0 },
        { tool: 'shout', args: '{}', status: 'ok', result: 'wr_aaaaaa000001', latencyMs: 1 },
      ],
    });
    const { getAllByTestId } = render(Message, { message, workflows });
    await waitFor(() => expect(getAllByTestId('wf-run-card')).toHaveLength(2));
    expect(getAllByTestId('wf-run-card').map((c) => [c.dataset.runId, c.dataset.status])).toEqual([
      [doneRun.id, 'done'],
      [failedRun.id, 'failed'],
    ]);
    expect(getAllByTestId('tool-card').map((c) => c.dataset.tool)).toEqual(['workflow__reset_password', 'shout']);
    expect(api.GetWorkflowRun).toHaveBeenCalledTimes(2);
  });

  it('shows the runs the model starts while the reply streams', () => {
    const workflows = new WorkflowsStore({ api: fakeApi() });
    const live = makeRun('wr_live00000009', 'running', {}, { session_id: 's1', created_at: '2026-01-02T10:00:01Z' });
    const older = makeRun('wr_old000000009', 'done', {}, { session_id: 's1', created_at: '2026-01-01T10:00:01Z' });
    const outside = makeRun('wr_tab000000009', 'running', {}, { created_at: '2026-01-02T10:00:01Z' });
    for (const r of [live, older, outside]) workflows.runs[r.id] = r;
    const { getAllByTestId, getByTestId } = render(Message, { message: reply({ status: 'streaming', content: '' }), workflows });
    expect(getByTestId('wf-live-runs')).toBeTruthy();
    expect(getAllByTestId('wf-run-card').map((c) => c.dataset.runId)).toEqual([live.id]);
  });

  it('shows only tool cards without a workflows store', () => {
    const message = reply({
      tools: [{ tool: 'workflow__x', args: '{}', status: 'ok', result: `{"run_id":"${doneRun.id}"}`, latencyMs: 1 }],
    });
    const { getAllByTestId, queryByTestId } = render(Message, { message });
    expect(getAllByTestId('tool-card')).toHaveLength(1);
    expect(queryByTestId('wf-run-card')).toBeNull();
    vi.restoreAllMocks();
  });
});
