import { afterEach, describe, expect, it, vi } from 'vitest';
import { en, format, type MessageKey } from './i18n.svelte';
import {
  WorkflowsStore,
  capText,
  confirmStepsIn,
  durationText,
  isWorkflowTool,
  phasesOf,
  problemView,
  progress,
  runElapsedMs,
  runIdIn,
  stepView,
  unsureSteps,
} from './workflows.svelte';
import { doneRun, failedRun, fakeApi, interruptedRun, makeRun } from './workflows.fixture';
import type { WorkflowStepStatus } from './backend';

const t = (k: MessageKey, p?: Record<string, string | number>) => format(en[k], p);
const flush = () => new Promise((r) => setTimeout(r, 0));

/** A bus the store listens on; emit() delivers an event. */
function bus() {
  const handlers = new Map<string, Set<(d: unknown) => void>>();
  return {
    on(name: string, cb: (d: unknown) => void) {
      if (!handlers.has(name)) handlers.set(name, new Set());
      handlers.get(name)!.add(cb);
      return () => handlers.get(name)!.delete(cb);
    },
    emit(name: string, d: unknown) {
      for (const cb of handlers.get(name) ?? []) cb(d);
    },
  };
}

describe('workflow helpers', () => {
  it('shows a step stopped while it ran as interrupted', () => {
    expect(stepView({ status: 'running' }, { status: 'running' })).toBe('running');
    expect(stepView({ status: 'running' }, { status: 'failed' })).toBe('interrupted');
    expect(stepView({ status: 'cancelled', interrupted: true })).toBe('interrupted');
    expect(stepView({ status: 'cancelled', interrupted: true }, { status: 'cancelled' })).toBe('cancelled');
    expect(stepView({ status: 'cancelled' })).toBe('cancelled');
    // A status this UI does not know (a newer Go side's): deliberately outside the type.
    const unknown: string = 'weird';
    expect(stepView({ status: unknown as WorkflowStepStatus })).toBe('failed');
  });

  it('asks about a stopped step unless it is idempotent or its first phase was won', () => {
    expect(unsureSteps(interruptedRun)).toEqual(['sms']);
    const won = makeRun('wr_x', 'interrupted', { sms: { status: 'done' }, captcha: { status: 'running' }, verify: { status: 'running' } });
    expect(unsureSteps(won)).toEqual(['verify']);
    expect(unsureSteps(failedRun)).toEqual([]);
  });

  it('counts progress over the steps a run needs', () => {
    expect(progress(doneRun)).toEqual({ done: 3, needed: 3, total: 4, percent: 100 });
    expect(progress(interruptedRun)).toMatchObject({ done: 1, needed: 4, total: 4, percent: 25 });
    expect(progress(makeRun('wr_y', 'running', {}, { steps: [] })).percent).toBe(0);
  });

  it('groups steps by phase with the phase mode', () => {
    expect(phasesOf(doneRun).map((p) => [p.index, p.name, p.mode, p.steps.map((s) => s.id)])).toEqual([
      [0, 'pre_check', 'sequence', ['check']],
      [1, 'action', 'first', ['sms', 'captcha']],
      [2, 'post_update', 'sequence', ['verify']],
    ]);
  });

  it('times runs and writes durations', () => {
    expect(runElapsedMs(doneRun, 0)).toBe(4000);
    expect(runElapsedMs(doneRun, 0, { took: 1234 })).toBe(1234);
    const running = makeRun('wr_r', 'running');
    expect(runElapsedMs(running, Date.parse(running.created_at) + 5000)).toBe(5000);
    expect(runElapsedMs(running, 10_000, { since: 7000 })).toBe(3000);
    expect(durationText(400, t)).toBe('0.4 s');
    expect(durationText(42_000, t)).toBe('42 s');
    expect(durationText(185_000, t)).toBe('3 min 05 s');
    expect(durationText(3_725_000, t)).toBe('1 h 02 min');
  });

  it('takes a workflows.yaml mistake apart (line, workflow, text)', () => {
    expect(problemView('/d/workflows.yaml:14: workflow broken: step s: tool: unknown tool')).toEqual({
      file: 'workflows.yaml',
      line: 14,
      workflow: 'broken',
      text: 'step s: tool: unknown tool',
    });
    expect(problemView('/d/workflows.yaml: version: must be 1')).toEqual({ file: 'workflows.yaml', line: null, workflow: '', text: 'version: must be 1' });
    expect(problemView('something else')).toEqual({ file: '', line: null, workflow: '', text: 'something else' });
  });

  it('finds the run a workflow call names, and the steps a refused resume names', () => {
    expect(runIdIn('{"results":{},"run_id":"wr_0123456789ab","status":"done"}')).toBe('wr_0123456789ab');
    expect(runIdIn('workflow run wr_0123456789ab failed: x (the user can resume it: hermes workflow resume wr_0123456789ab)')).toBe(
      'wr_0123456789ab',
    );
    expect(runIdIn('')).toBe('');
    expect(isWorkflowTool('workflow__reset')).toBe(true);
    expect(isWorkflowTool('workflow__')).toBe(false);
    expect(isWorkflowTool('run_plan')).toBe(true); // a model-made plan's run has a card too
    expect(isWorkflowTool('run_plans')).toBe(false);
    expect(isWorkflowTool('shout')).toBe(false);
    expect(
      confirmStepsIn('workflow run wr_1: step sms, verify was stopped while it ran and may have acted already; running it again …'),
    ).toEqual(['sms', 'verify']);
    expect(confirmStepsIn('workflow run wr_1 is already done')).toBeNull();
    expect(capText('abcdef', 4)).toEqual({ text: 'abcd', more: 2 });
    expect(capText('ab', 4)).toEqual({ text: 'ab', more: 0 });
  });
});

describe('WorkflowsStore', () => {
  afterEach(() => vi.useRealTimers());

  it('loads the workflows sorted, the problems and the runs newest first', async () => {
    const api = fakeApi();
    const s = new WorkflowsStore({ api });
    await s.load();
    expect(s.loaded).toBe(true);
    expect(s.workflows.map((w) => w.name)).toEqual(['reset_password', 'tidy']);
    expect(s.problems).toHaveLength(1);
    expect(s.recent.map((r) => r.id)).toEqual([interruptedRun.id, doneRun.id, failedRun.id]);
    expect(api.WorkflowRuns).toHaveBeenCalledWith('');
  });

  it('shows a load error', async () => {
    const s = new WorkflowsStore({ api: fakeApi({ ListWorkflows: vi.fn(async () => Promise.reject(new Error('boom'))) }) });
    await s.load();
    expect(s.error).toBe('boom');
  });

  it('follows progress events: an unknown run is read, a known one changes at once and is read again', async () => {
    let snapshot = makeRun('wr_live00000001', 'running');
    const api = fakeApi({ GetWorkflowRun: vi.fn(async () => structuredClone(snapshot)) });
    const b = bus();
    const s = new WorkflowsStore({ api, refetchMs: 0, now: () => 1_000_000 });
    const off = s.listen(b.on);
    b.emit('workflow:progress', { run_id: 'wr_live00000001', workflow: 'reset_password', status: 'running', elapsed: 2e9, done: 0, total: 4 });
    await flush();
    expect(api.GetWorkflowRun).toHaveBeenCalledWith('wr_live00000001');
    expect(s.runs['wr_live00000001'].status).toBe('running');
    expect(s.timing['wr_live00000001'].since).toBe(1_000_000 - 2000);
    expect(s.anyRunning).toBe(true);

    b.emit('workflow:progress', { run_id: 'wr_live00000001', workflow: 'reset_password', step: 'check', phase: 0, status: 'running', attempt: 1, elapsed: 0, done: 0, total: 4 });
    const st = s.runs['wr_live00000001'].steps!.find((x) => x.id === 'check')!;
    expect(st.status).toBe('running');
    expect(st.attempts).toBe(1);
    expect(st.started_at).toBe(new Date(1_000_000).toISOString());

    snapshot = makeRun('wr_live00000001', 'running', { check: { status: 'done', attempts: 1, result: { ok: 1 } } });
    b.emit('workflow:progress', { run_id: 'wr_live00000001', workflow: 'reset_password', step: 'check', phase: 0, status: 'done', elapsed: 3e8, done: 1, total: 4 });
    expect(s.runs['wr_live00000001'].steps![0].status).toBe('done');
    await flush();
    await flush();
    expect(s.runs['wr_live00000001'].steps![0].result).toEqual({ ok: 1 });

    // A failed attempt that will be tried again.
    b.emit('workflow:progress', { run_id: 'wr_live00000001', workflow: 'reset_password', step: 'sms', phase: 1, status: 'failed', error: 'busy', retry_in: 1e9, elapsed: 0, done: 1, total: 4 });
    expect(s.retries['wr_live00000001/sms']).toBe(1_001_000);

    snapshot = makeRun('wr_live00000001', 'failed', {}, { error: 'phase action: all steps failed' });
    b.emit('workflow:progress', { run_id: 'wr_live00000001', workflow: 'reset_password', status: 'failed', error: 'phase action: all steps failed', elapsed: 5e9, done: 1, total: 4 });
    expect(s.runs['wr_live00000001'].status).toBe('failed');
    expect(s.runs['wr_live00000001'].error).toBe('phase action: all steps failed');
    expect(s.timing['wr_live00000001'].took).toBe(5000);
    expect(s.anyRunning).toBe(false);
    off();
  });

  it('ignores events that are not a run', () => {
    const s = new WorkflowsStore({ api: fakeApi() });
    s.apply(null);
    s.apply({ status: 'running' });
    expect(s.runs).toEqual({});
  });

  it('reloads the workflows when workflows.yaml changes', async () => {
    const api = fakeApi();
    const b = bus();
    const s = new WorkflowsStore({ api });
    s.listen(b.on);
    b.emit('workflow:changed', null);
    expect(api.ListWorkflows).not.toHaveBeenCalled(); // not loaded yet: nothing to refresh
    await s.load();
    b.emit('workflow:changed', null);
    await flush();
    expect(api.ListWorkflows).toHaveBeenCalledTimes(2);
  });

  it('runs a workflow outside a conversation and opens its run; a refusal is shown', async () => {
    const api = fakeApi();
    const s = new WorkflowsStore({ api });
    const r = await s.run('reset_password', { phone: '1' });
    expect(api.RunWorkflow).toHaveBeenCalledWith('', 'reset_password', { phone: '1' });
    expect(r?.id).toBe(doneRun.id);
    expect(s.openRun).toBe(doneRun.id);
    expect(s.starting.reset_password).toBe(false);

    api.RunWorkflow.mockRejectedValueOnce(new Error('invalid workflow input: phone: missing'));
    expect(await s.run('reset_password', {})).toBeNull();
    expect(s.startErrors.reset_password).toBe('invalid workflow input: phone: missing');
  });

  it('opens a run as soon as it appears, before its call returns', async () => {
    let finish: (r: unknown) => void = () => {};
    const api = fakeApi({ RunWorkflow: vi.fn(() => new Promise((r) => (finish = r))) as never, GetWorkflowRun: vi.fn(async () => makeRun('wr_new000000001', 'running')) });
    const b = bus();
    const s = new WorkflowsStore({ api, refetchMs: 0 });
    s.listen(b.on);
    s.openForm = 'reset_password';
    const p = s.run('reset_password', {});
    expect(s.starting.reset_password).toBe(true);
    b.emit('workflow:progress', { run_id: 'wr_new000000001', workflow: 'reset_password', status: 'running', elapsed: 0, done: 0, total: 4 });
    await flush();
    expect(s.openRun).toBe('wr_new000000001');
    expect(s.starting.reset_password).toBe(false);
    finish(makeRun('wr_new000000001', 'done'));
    await p;
    expect(s.runs['wr_new000000001'].status).toBe('done');
  });

  it('asks before resuming a run whose step may have acted, then resumes with the confirmation', async () => {
    const api = fakeApi();
    const s = new WorkflowsStore({ api });
    await s.load();
    await s.resume(interruptedRun.id);
    expect(api.ResumeWorkflow).not.toHaveBeenCalled();
    expect(s.confirm).toEqual({ runId: interruptedRun.id, steps: ['sms'] });
    s.cancelConfirm();
    expect(s.confirm).toBeNull();
    await s.resume(interruptedRun.id);
    await s.confirmResume();
    expect(api.ResumeWorkflow).toHaveBeenCalledWith(interruptedRun.id, true);
    expect(s.confirm).toBeNull();
    expect(s.runs[interruptedRun.id].status).toBe('done');
  });

  it('resumes a failed run at once; a server that wants a confirmation opens the question', async () => {
    const api = fakeApi();
    const s = new WorkflowsStore({ api });
    await s.load();
    api.ResumeWorkflow.mockResolvedValueOnce(structuredClone(failedRun));
    await s.resume(failedRun.id);
    expect(api.ResumeWorkflow).toHaveBeenCalledWith(failedRun.id, false);

    api.ResumeWorkflow.mockRejectedValueOnce(
      new Error(`workflow run ${failedRun.id}: step check was stopped while it ran and may have acted already; running it again may repeat that`),
    );
    await s.resume(failedRun.id);
    expect(s.confirm).toEqual({ runId: failedRun.id, steps: ['check'] });
    expect(s.errors[failedRun.id]).toBe('');

    api.ResumeWorkflow.mockRejectedValueOnce(new Error(`workflow run ${failedRun.id} is already done`));
    await s.confirmResume();
    expect(s.errors[failedRun.id]).toBe(`workflow run ${failedRun.id} is already done`);
    expect(s.busy[failedRun.id]).toBeUndefined();
  });

  it('cancels a run and shows a cancel that failed', async () => {
    const api = fakeApi();
    const s = new WorkflowsStore({ api });
    await s.cancel('wr_zzzzzz000009');
    expect(api.CancelWorkflow).toHaveBeenCalledWith('wr_zzzzzz000009');
    expect(s.runs['wr_zzzzzz000009'].status).toBe('cancelled');
    api.CancelWorkflow.mockRejectedValueOnce(new Error('workflow run wr_zzzzzz000009 is already cancelled'));
    await s.cancel('wr_zzzzzz000009');
    expect(s.errors['wr_zzzzzz000009']).toBe('workflow run wr_zzzzzz000009 is already cancelled');
  });

  it('reads a run a card names once, and lists a conversation’s runs', async () => {
    const api = fakeApi({ GetWorkflowRun: vi.fn(async () => ({ ...structuredClone(doneRun), session_id: 's1' })) });
    const s = new WorkflowsStore({ api });
    s.ensure(doneRun.id);
    s.ensure(doneRun.id);
    await flush();
    expect(api.GetWorkflowRun).toHaveBeenCalledTimes(1);
    s.ensure(doneRun.id);
    expect(api.GetWorkflowRun).toHaveBeenCalledTimes(1);
    expect(s.runsOf('s1').map((r) => r.id)).toEqual([doneRun.id]);
    expect(s.runsOf('')).toEqual([]);
  });

  it('reads once a listed run (the list leaves out its definition) before a card or a resume needs it', async () => {
    const bare = { ...structuredClone(interruptedRun), definition: undefined };
    const api = fakeApi({ WorkflowRuns: vi.fn(async () => [bare]) });
    const s = new WorkflowsStore({ api });
    await s.loadRuns();
    expect(s.runs[bare.id].definition).toBeUndefined();
    // Without the definition, a resume reads it first: captcha is idempotent, sms is not.
    await s.resume(bare.id);
    expect(api.GetWorkflowRun).toHaveBeenCalledWith(bare.id);
    expect(s.confirm?.steps).toEqual(['sms']);
    s.ensure(bare.id);
    expect(api.GetWorkflowRun).toHaveBeenCalledTimes(1);
    // A new list keeps the definition a read brought.
    await s.loadRuns();
    expect(s.runs[bare.id].definition?.phases?.length).toBe(3);
  });

  it('keeps the clock moving while a run is running', async () => {
    vi.useFakeTimers();
    let now = 0;
    const s = new WorkflowsStore({ api: fakeApi(), now: () => now, tickMs: 1000 });
    s.runs['wr_t'] = makeRun('wr_t', 'running');
    s.apply({ run_id: 'wr_t', workflow: 'reset_password', status: 'running', elapsed: 0, done: 0, total: 4 });
    now = 1000;
    vi.advanceTimersByTime(1000);
    expect(s.now).toBe(1000);
    s.apply({ run_id: 'wr_t', workflow: 'reset_password', status: 'done', elapsed: 1e9, done: 4, total: 4 });
    now = 5000;
    vi.advanceTimersByTime(3000);
    expect(s.now).toBe(1000);
  });
});
