import { describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, waitFor } from '@testing-library/svelte';
import WorkflowRunCard from './WorkflowRunCard.svelte';
import { WorkflowsStore } from '../lib/workflows.svelte';
import { doneRun, failedRun, fakeApi, interruptedRun, makeRun } from '../lib/workflows.fixture';

async function storeWith(...runs: Parameters<typeof structuredClone>[0][]) {
  const api = fakeApi();
  const store = new WorkflowsStore({ api, refetchMs: 0 });
  await store.loadRuns();
  for (const r of runs) store.runs[(r as { id: string }).id] = structuredClone(r) as never;
  return { api, store };
}

describe('WorkflowRunCard', () => {
  it('shows phases and steps with their status, the progress and the time taken', async () => {
    const { store } = await storeWith();
    const { getByTestId, getAllByTestId, queryByTestId } = render(WorkflowRunCard, { run: store.runs[doneRun.id], store });
    const card = getByTestId('wf-run-card');
    expect(card.dataset.status).toBe('done');
    expect(getByTestId('wf-run-status').textContent).toBe('Done');
    expect(getByTestId('wf-run-elapsed').textContent).toBe('4.0 s');
    expect(getByTestId('wf-progress').dataset.percent).toBe('100.0');
    expect(getByTestId('wf-progress-text').textContent).toBe('3 of 3 steps done');
    expect(getAllByTestId('wf-phase').map((p) => p.dataset.phase)).toEqual(['pre_check', 'action', 'post_update']);
    expect(getAllByTestId('wf-step').map((s) => [s.dataset.step, s.dataset.status])).toEqual([
      ['check', 'done'],
      ['sms', 'done'],
      ['captcha', 'cancelled'],
      ['verify', 'done'],
    ]);
    expect(getAllByTestId('wf-step')[3].textContent).toContain('attempt 2');
    expect(card.textContent).toContain('first to succeed wins');
    // Neither Cancel nor Resume on a done run.
    expect(queryByTestId('wf-cancel')).toBeNull();
    expect(queryByTestId('wf-resume')).toBeNull();
  });

  it('opens a step to show its arguments and result as text, a long result cut', async () => {
    const { store } = await storeWith(
      makeRun('wr_html00000001', 'done', { check: { status: 'done', args: '{"phone":"<b>1</b>"}', result: { html: '<img src=x onerror=alert(1)>' } } }),
    );
    const { getAllByTestId, getByTestId, container } = render(WorkflowRunCard, { run: store.runs['wr_html00000001'], store });
    await fireEvent.click(getAllByTestId('wf-step-toggle')[0]);
    expect(JSON.parse(getByTestId('wf-step-args').textContent!)).toEqual({ phone: '<b>1</b>' });
    expect(JSON.parse(getByTestId('wf-step-result').textContent!)).toEqual({ html: '<img src=x onerror=alert(1)>' });
    expect(container.querySelector('b, img')).toBeNull();

    cleanup();
    const long = render(WorkflowRunCard, { run: store.runs[doneRun.id], store });
    await fireEvent.click(long.getAllByTestId('wf-step-toggle')[3]);
    const pre = long.getByTestId('wf-step-result');
    expect(pre.textContent!.length).toBeLessThan(4100);
    expect(long.getByTestId('wf-step-details').textContent).toContain('more characters not shown');
  });

  it('shows a failed step’s error and the run’s, and resumes a failed run at once', async () => {
    const { api, store } = await storeWith();
    api.ResumeWorkflow.mockResolvedValueOnce({ ...structuredClone(failedRun), status: 'done' });
    const { getByTestId, getAllByTestId } = render(WorkflowRunCard, { run: store.runs[failedRun.id], store });
    expect(getByTestId('wf-run-error').textContent).toContain('number unknown');
    expect(getAllByTestId('wf-step').map((s) => s.dataset.status)).toEqual(['failed', 'skipped', 'skipped', 'skipped']);
    await fireEvent.click(getAllByTestId('wf-step-toggle')[0]);
    expect(getByTestId('wf-step-error').textContent).toBe('exit status 1: number unknown');
    await fireEvent.click(getByTestId('wf-resume'));
    expect(api.ResumeWorkflow).toHaveBeenCalledWith(failedRun.id, false);
  });

  it('asks before running again a step stopped mid-way, naming it, then resumes with the confirmation', async () => {
    const { api, store } = await storeWith();
    const { getByTestId, queryByTestId, getAllByTestId } = render(WorkflowRunCard, { run: store.runs[interruptedRun.id], store });
    expect(getAllByTestId('wf-step')[1].dataset.status).toBe('interrupted');
    await fireEvent.click(getByTestId('wf-resume'));
    const dialog = getByTestId('wf-confirm');
    expect(getByTestId('wf-confirm-text').textContent).toContain('Step sms was stopped while it ran');
    // "Not now" has the focus and closes it without resuming.
    expect(document.activeElement).toBe(getByTestId('wf-confirm-no'));
    await fireEvent.click(getByTestId('wf-confirm-no'));
    expect(queryByTestId('wf-confirm')).toBeNull();
    expect(api.ResumeWorkflow).not.toHaveBeenCalled();
    expect(dialog.isConnected).toBe(false);

    await fireEvent.click(getByTestId('wf-resume'));
    await fireEvent.click(getByTestId('wf-confirm-yes'));
    await waitFor(() => expect(api.ResumeWorkflow).toHaveBeenCalledWith(interruptedRun.id, true));
    await waitFor(() => expect(getByTestId('wf-run-card').dataset.status).toBe('done'));
    expect(queryByTestId('wf-confirm')).toBeNull();
  });

  it('cancels a running run, and shows why an action failed', async () => {
    const running = makeRun('wr_run000000001', 'running', { check: { status: 'running', attempts: 1, started_at: new Date().toISOString() } });
    const { api, store } = await storeWith(running);
    api.CancelWorkflow.mockRejectedValueOnce(new Error('workflow run wr_run000000001 is already cancelled'));
    const { getByTestId, getAllByTestId } = render(WorkflowRunCard, { run: store.runs[running.id], store });
    expect(getByTestId('wf-run-status').textContent).toBe('Running');
    expect(getAllByTestId('wf-step')[0].dataset.status).toBe('running');
    expect(getByTestId('wf-progress-text').textContent).toBe('0 of 4 steps done');
    await fireEvent.click(getByTestId('wf-cancel'));
    expect(api.CancelWorkflow).toHaveBeenCalledWith(running.id);
    await waitFor(() => expect(getByTestId('wf-action-error').textContent).toContain('is already cancelled'));
  });

  it('follows progress events live', async () => {
    const running = makeRun('wr_run000000002', 'running');
    const { store } = await storeWith(running);
    const { getByTestId, getAllByTestId } = render(WorkflowRunCard, { run: store.runs[running.id], store });
    store.apply({ run_id: running.id, workflow: 'reset_password', step: 'check', phase: 0, status: 'done', elapsed: 1e8, done: 1, total: 4 });
    await waitFor(() => expect(getAllByTestId('wf-step')[0].dataset.status).toBe('done'));
    expect(getByTestId('wf-progress-text').textContent).toBe('1 of 4 steps done');
    expect(getByTestId('wf-progress').dataset.percent).toBe('25.0');
    store.apply({ run_id: running.id, workflow: 'reset_password', status: 'interrupted', error: 'Hermes is closing', elapsed: 1e9, done: 1, total: 4 });
    await waitFor(() => expect(getByTestId('wf-run-card').dataset.status).toBe('interrupted'));
    expect(getByTestId('wf-resume')).toBeTruthy();
  });
});
