import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import ActivityPanel from './ActivityPanel.svelte';
import WorkflowsPanel from './WorkflowsPanel.svelte';
import { ActivityStore } from '../lib/tools.svelte';
import { WorkflowsStore } from '../lib/workflows.svelte';
import { doneRun, failedRun, fakeApi, interruptedRun } from '../lib/workflows.fixture';

describe('WorkflowsPanel', () => {
  it('lists the workflows, the mistakes by line and the recent runs newest first', async () => {
    const store = new WorkflowsStore({ api: fakeApi() });
    await store.load();
    const { getAllByTestId, getByTestId } = render(WorkflowsPanel, { store });
    expect(getAllByTestId('wf-item').map((w) => w.dataset.name)).toEqual(['reset_password', 'tidy']);
    expect(getAllByTestId('wf-item')[0].textContent).toContain('3 phases · 4 steps');
    expect(getAllByTestId('wf-item')[0].textContent).toContain('Reset a password after checking the phone number.');
    const problem = getByTestId('wf-problem');
    expect(problem.dataset.line).toBe('14');
    expect(problem.textContent).toContain('workflows.yaml, line 14');
    expect(problem.textContent).toContain('broken');
    expect(problem.textContent).toContain('tool: unknown tool "nope"');
    expect(getAllByTestId('wf-run-row').map((r) => [r.dataset.runId, r.dataset.status])).toEqual([
      [interruptedRun.id, 'interrupted'],
      [doneRun.id, 'done'],
      [failedRun.id, 'failed'],
    ]);
  });

  it('opens a Run form, and a run as its card with a way back', async () => {
    const store = new WorkflowsStore({ api: fakeApi() });
    await store.load();
    const { getAllByTestId, getByTestId, queryByTestId } = render(WorkflowsPanel, { store });
    await fireEvent.click(getAllByTestId('wf-open-form')[0]);
    expect(getByTestId('wf-form').dataset.workflow).toBe('reset_password');
    const phone = () => getByTestId('wf-form').querySelector('[data-field="phone"]') as HTMLInputElement;
    await fireEvent.input(phone(), { target: { value: '555' } });
    await fireEvent.click(getByTestId('wf-form-close'));
    expect(queryByTestId('wf-form')).toBeNull();
    // What was typed comes back with the form.
    await fireEvent.click(getAllByTestId('wf-open-form')[0]);
    expect(phone().value).toBe('555');

    await fireEvent.click(getAllByTestId('wf-run-row')[2]);
    expect(getByTestId('wf-run-card').dataset.runId).toBe(failedRun.id);
    expect(getByTestId('wf-resume')).toBeTruthy();
    await fireEvent.click(getByTestId('wf-back'));
    expect(queryByTestId('wf-run-card')).toBeNull();
  });

  it('says where to declare workflows when there are none', async () => {
    const store = new WorkflowsStore({
      api: fakeApi({ ListWorkflows: vi.fn(async () => []), WorkflowProblems: vi.fn(async () => []), WorkflowRuns: vi.fn(async () => []) }),
    });
    await store.load();
    const { getByTestId, queryByTestId } = render(WorkflowsPanel, { store });
    expect(getByTestId('wf-none').textContent).toContain('workflows.yaml');
    expect(getByTestId('wf-runs-none')).toBeTruthy();
    expect(queryByTestId('wf-problems')).toBeNull();
  });
});

describe('ActivityPanel with workflows', () => {
  it('has a Workflows tab next to the tool calls that loads on first open and refreshes itself', async () => {
    const api = fakeApi();
    const workflows = new WorkflowsStore({ api });
    const onrefresh = vi.fn();
    const { getByTestId, queryByTestId } = render(ActivityPanel, {
      store: new ActivityStore({ ToolActivity: vi.fn(async () => []) }),
      tools: [],
      sessionId: '',
      workflows,
      onrefresh,
      onclose: vi.fn(),
    });
    expect(getByTestId('activity-tab-calls').getAttribute('aria-selected')).toBe('true');
    expect(getByTestId('activity-filter-tool')).toBeTruthy();
    await fireEvent.click(getByTestId('activity-tab-workflows'));
    expect(getByTestId('activity-tab-workflows').getAttribute('aria-selected')).toBe('true');
    expect(queryByTestId('activity-filter-tool')).toBeNull();
    await waitFor(() => expect(getByTestId('wf-panel').textContent).toContain('reset_password'));
    expect(api.ListWorkflows).toHaveBeenCalledTimes(1);
    await fireEvent.click(getByTestId('activity-refresh'));
    expect(onrefresh).not.toHaveBeenCalled();
    await waitFor(() => expect(api.ListWorkflows).toHaveBeenCalledTimes(2));
    // Arrow keys move between the tabs.
    await fireEvent.keyDown(getByTestId('activity-tab-workflows'), { key: 'ArrowLeft' });
    expect(getByTestId('activity-tab-calls').getAttribute('aria-selected')).toBe('true');
    await fireEvent.click(getByTestId('activity-refresh'));
    expect(onrefresh).toHaveBeenCalled();
  });

  it('has no tabs without a workflows store', () => {
    const { queryByTestId } = render(ActivityPanel, {
      store: new ActivityStore({ ToolActivity: vi.fn(async () => []) }),
      tools: [],
      sessionId: '',
      onrefresh: vi.fn(),
      onclose: vi.fn(),
    });
    expect(queryByTestId('activity-tab-workflows')).toBeNull();
  });
});
