// Workflows in the UI: the declared workflows and the mistakes in workflows.yaml, the runs the
// page knows (kept live by the workflow:progress event), and the run, resume and cancel actions.
// Also the pure helpers the run card and the Workflows tab share (status, progress, times).
import {
  Events,
  errorMessage,
  type Api,
  type Unsubscribe,
  type WorkflowEvent,
  type WorkflowInfo,
  type WorkflowRun,
  type WorkflowStepState,
  type WorkflowStatus,
  type WorkflowStepStatus,
} from './backend';
import { locale, type MessageKey } from './i18n.svelte';

/** The locale dates are written in: the UI's language (the browser's own for English). */
export function dateLocale(): string | undefined {
  return locale.lang === 'zh' ? 'zh-CN' : undefined;
}

export const RUN_STATUSES = ['running', 'done', 'failed', 'cancelled', 'interrupted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** How a step is shown: its status, or "interrupted" when it was stopped while it ran. */
export const STEP_VIEWS = ['pending', 'running', 'done', 'failed', 'cancelled', 'skipped', 'interrupted'] as const;
export type StepView = (typeof STEP_VIEWS)[number];

export function runStatus(s: string | null | undefined): RunStatus {
  return (RUN_STATUSES as readonly string[]).includes(s ?? '') ? (s as RunStatus) : 'failed';
}

/** The i18n key naming a run's status. */
export function runStatusKey(s: string | null | undefined): MessageKey {
  return `wf.run.${runStatus(s)}` as MessageKey;
}

/** The i18n key naming a step's view. */
export function stepKey(v: StepView): MessageKey {
  return `wf.step.${v}` as MessageKey;
}

/**
 * How a step is shown in its run: a step left running by a run that is no longer running, or one
 * stopped while it ran (its effects unknown), is "interrupted" — unless the user cancelled the run.
 */
export function stepView(step: Pick<WorkflowStepState, 'status' | 'interrupted'>, run?: Pick<WorkflowRun, 'status'> | null): StepView {
  const s = step.status;
  if (s === 'running' && run && run.status !== 'running') return 'interrupted';
  if (s === 'cancelled' && step.interrupted && run?.status !== 'cancelled') return 'interrupted';
  return (STEP_VIEWS as readonly string[]).includes(s) ? (s as StepView) : 'failed';
}

/** A failed or interrupted run can go on where it stopped. */
export function canResume(run: Pick<WorkflowRun, 'status'>): boolean {
  return run.status === 'failed' || run.status === 'interrupted';
}

export function canCancel(run: Pick<WorkflowRun, 'status'>): boolean {
  return run.status === 'running';
}

function modeOf(run: WorkflowRun, phase: number): string {
  return run.definition?.phases?.[phase]?.mode ?? '';
}

/** The first phases a step already won: their other steps are never run again. */
function wonPhases(run: WorkflowRun): Set<number> {
  const won = new Set<number>();
  for (const st of run.steps ?? []) if (st.status === 'done' && modeOf(run, st.phase) === 'first') won.add(st.phase);
  return won;
}

function idempotent(run: WorkflowRun, id: string): boolean {
  for (const ph of run.definition?.phases ?? []) for (const s of ph.steps ?? []) if (s.id === id) return s.idempotent === true;
  return false;
}

/**
 * The steps a resume would run again although they were stopped while they ran and are not
 * idempotent: the user has to confirm (as backend/workflow Unsure).
 */
export function unsureSteps(run: WorkflowRun): string[] {
  const won = wonPhases(run);
  const out: string[] = [];
  for (const st of run.steps ?? []) {
    const stopped = st.status === 'running' || (st.status === 'cancelled' && st.interrupted === true);
    if (!stopped || won.has(st.phase) || idempotent(run, st.id)) continue;
    out.push(st.id);
  }
  return out;
}

export interface Progress {
  done: number;
  /** Steps the run needs: all but those of a first phase another step won. */
  needed: number;
  total: number;
  percent: number;
}

/** Steps done of those needed; a done run is full. */
export function progress(run: WorkflowRun): Progress {
  const steps = run.steps ?? [];
  const won = wonPhases(run);
  const done = steps.filter((s) => s.status === 'done').length;
  const lost = steps.filter((s) => s.status === 'cancelled' && !s.interrupted && won.has(s.phase)).length;
  const needed = steps.length - lost;
  const percent = run.status === 'done' ? 100 : needed > 0 ? (done / needed) * 100 : 0;
  return { done, needed, total: steps.length, percent };
}

export interface PhaseView {
  index: number;
  name: string;
  mode: string;
  steps: WorkflowStepState[];
}

/** A run's steps grouped by phase, in order. */
export function phasesOf(run: WorkflowRun): PhaseView[] {
  const out: PhaseView[] = [];
  for (const st of run.steps ?? []) {
    let p = out.find((x) => x.index === st.phase);
    if (!p) {
      p = { index: st.phase, name: st.phase_name || run.definition?.phases?.[st.phase]?.name || '', mode: modeOf(run, st.phase), steps: [] };
      out.push(p);
    }
    p.steps.push(st);
  }
  return out.sort((a, b) => a.index - b.index);
}

function ms(s: string | undefined | null): number | null {
  if (!s) return null;
  const v = Date.parse(s);
  return Number.isNaN(v) ? null : v;
}

/** A step's time: of its last attempt, to now while it runs. null when it never started. */
export function stepElapsedMs(step: WorkflowStepState, now: number, run?: Pick<WorkflowRun, 'status'>): number | null {
  const start = ms(step.started_at);
  if (start === null) return null;
  const end = ms(step.finished_at);
  if (end !== null && end >= start) return end - start;
  if (step.status === 'running' && (!run || run.status === 'running')) return Math.max(0, now - start);
  return null;
}

/** Timing the page learnt from a run's events: when its current execution started (page clock). */
export interface RunTiming {
  since?: number;
  /** How long its last execution took, from its final event. */
  took?: number;
}

/** How long a run has taken: to now while it runs. */
export function runElapsedMs(run: WorkflowRun, now: number, timing?: RunTiming): number {
  if (run.status === 'running') {
    const start = timing?.since ?? ms(run.created_at) ?? now;
    return Math.max(0, now - start);
  }
  if (timing?.took !== undefined) return timing.took;
  const start = ms(run.created_at);
  const end = ms(run.finished_at) ?? ms(run.updated_at);
  return start !== null && end !== null ? Math.max(0, end - start) : 0;
}

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** "0.4 s", "12 s", "3 min 05 s", "1 h 02 min". */
export function durationText(msec: number, t: Translate): string {
  if (!Number.isFinite(msec) || msec < 0) return '';
  if (msec < 10_000) return t('progress.seconds', { s: (msec / 1000).toFixed(1) });
  const total = Math.floor(msec / 1000);
  if (total < 60) return t('progress.seconds', { s: total });
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return t('progress.hours', { h, m: String(m).padStart(2, '0') });
  return t('progress.minutes', { m, s: String(s).padStart(2, '0') });
}

/** A mistake in workflows.yaml, taken apart for display. */
export interface ProblemView {
  file: string;
  line: number | null;
  workflow: string;
  text: string;
}

const PROBLEM_LINE = /^(.*?\.ya?ml)(?::(\d+))?: (.*)$/s;

export function problemView(p: string): ProblemView {
  const m = PROBLEM_LINE.exec(p);
  if (!m) return { file: '', line: null, workflow: '', text: p };
  let text = m[3];
  let workflow = '';
  const w = /^workflow (\S+): (.*)$/s.exec(text);
  if (w) {
    workflow = w[1];
    text = w[2];
  }
  return { file: m[1].split(/[\\/]/).pop() ?? m[1], line: m[2] ? Number(m[2]) : null, workflow, text };
}

/** The run id a workflow tool call's result or error names ("wr_…"), or ''. */
export function runIdIn(text: string | null | undefined): string {
  const m = /"run_id"\s*:\s*"(wr_[0-9a-f]+)"/.exec(text ?? '') ?? /\b(wr_[0-9a-f]{6,})\b/.exec(text ?? '');
  return m ? m[1] : '';
}

/** The prefix of the tools a workflow is offered to the model as. */
export const WORKFLOW_TOOL_PREFIX = 'workflow__';
/** The tool that runs a plan the model made; its run shows as a run card like a workflow's. */
export const PLAN_TOOL = 'run_plan';

export function isWorkflowTool(name: string | null | undefined): boolean {
  const n = name ?? '';
  return n === PLAN_TOOL || (n.startsWith(WORKFLOW_TOOL_PREFIX) && n.length > WORKFLOW_TOOL_PREFIX.length);
}

/**
 * The steps a refused resume names when it needs a confirmation ("step a, b was stopped while it
 * ran and may have acted already"), or null when the error is something else.
 */
export function confirmStepsIn(message: string): string[] | null {
  const m = /step (.+?) was stopped while it ran/.exec(message);
  if (!m) return null;
  return m[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A long text cut for a card: the text and how many characters were left out. */
export function capText(s: string, max = 4000): { text: string; more: number } {
  const chars = [...s];
  if (chars.length <= max) return { text: s, more: 0 };
  return { text: chars.slice(0, max).join(''), more: chars.length - max };
}

// ---------------------------------------------------------------------------------------------
// The store

export type WorkflowsApi = Pick<
  Api,
  'ListWorkflows' | 'WorkflowProblems' | 'WorkflowRuns' | 'GetWorkflowRun' | 'RunWorkflow' | 'ResumeWorkflow' | 'CancelWorkflow'
>;

export interface WorkflowsDeps {
  api: WorkflowsApi;
  /** The page clock (ms). */
  now?: () => number;
  /** How long after an event the run's snapshot is read again (results, times). */
  refetchMs?: number;
  /** How often the elapsed times move while a run is running. */
  tickMs?: number;
}

function sortRuns(runs: WorkflowRun[]): WorkflowRun[] {
  return [...runs].sort((a, b) => (ms(b.created_at) ?? 0) - (ms(a.created_at) ?? 0));
}

export class WorkflowsStore {
  workflows = $state<WorkflowInfo[]>([]);
  problems = $state<string[]>([]);
  /** Every run the page knows, by id. */
  runs = $state<Record<string, WorkflowRun>>({});
  loaded = $state(false);
  loading = $state(false);
  error = $state('');
  /** Per run: the last action's error. */
  errors = $state<Record<string, string>>({});
  /** Per run: the action on its way. */
  busy = $state<Record<string, 'cancel' | 'resume'>>({});
  /** Per workflow: a start on its way (until its run appears). */
  starting = $state<Record<string, boolean>>({});
  /** Per workflow: why the last start was refused. */
  startErrors = $state<Record<string, string>>({});
  /** A resume waiting for the user to confirm running again steps that may have acted. */
  confirm = $state<{ runId: string; steps: string[] } | null>(null);
  /** The run shown in the Workflows tab ('' for the list). */
  openRun = $state('');
  /** The workflow whose Run form is open in the Workflows tab. */
  openForm = $state('');
  /** What was typed in each workflow's Run form (kept while its run is shown). */
  drafts = $state<Record<string, Record<string, string | boolean>>>({});
  timing = $state<Record<string, RunTiming>>({});
  /** Per "run/step": when (page clock) a failed attempt is tried again. */
  retries = $state<Record<string, number>>({});
  /** The page clock, moved every second while a run is running. */
  now = $state(Date.now());

  #api: WorkflowsApi;
  #clock: () => number;
  #refetchMs: number;
  #tickMs: number;
  #events: Record<string, number> = {};
  #timers: Record<string, ReturnType<typeof setTimeout>> = {};
  #fetching = new Set<string>();
  /** Runs read once by ensure. */
  #read = new Set<string>();
  #awaitingStart = new Set<string>();
  #ticker: ReturnType<typeof setInterval> | null = null;
  #seq = 0;

  constructor(deps: WorkflowsDeps) {
    this.#api = deps.api;
    this.#clock = deps.now ?? (() => Date.now());
    this.#refetchMs = deps.refetchMs ?? 250;
    this.#tickMs = deps.tickMs ?? 1000;
    this.now = this.#clock();
  }

  /** The runs the page knows, newest first. */
  get recent(): WorkflowRun[] {
    return sortRuns(Object.values(this.runs));
  }

  /** The runs of a conversation, newest first. */
  runsOf(sessionId: string): WorkflowRun[] {
    if (!sessionId) return [];
    return this.recent.filter((r) => r.session_id === sessionId);
  }

  get anyRunning(): boolean {
    return Object.values(this.runs).some((r) => r.status === 'running');
  }

  workflow(name: string): WorkflowInfo | undefined {
    return this.workflows.find((w) => w.name === name);
  }

  /** Subscribes to workflow:progress and workflow:changed; returns the unsubscribe function. */
  listen(on: (name: string, cb: (d: unknown) => void) => Unsubscribe): Unsubscribe {
    const a = on(Events.workflowProgress, (d) => this.apply(d));
    const b = on(Events.workflowChanged, () => {
      if (this.loaded) void this.loadWorkflows();
    });
    return () => {
      a();
      b();
      this.#stopTicker();
      for (const t of Object.values(this.#timers)) clearTimeout(t);
      this.#timers = {};
    };
  }

  /** Loads the workflows, the mistakes in workflows.yaml and the recent runs. */
  async load(): Promise<void> {
    this.loading = true;
    try {
      await Promise.all([this.loadWorkflows(), this.loadRuns()]);
      this.loaded = true;
    } finally {
      this.loading = false;
    }
  }

  async loadWorkflows(): Promise<void> {
    const seq = ++this.#seq;
    try {
      const [list, problems] = await Promise.all([this.#api.ListWorkflows(), this.#api.WorkflowProblems()]);
      if (seq !== this.#seq) return;
      this.workflows = [...list].sort((a, b) => a.name.localeCompare(b.name));
      this.problems = problems;
      this.error = '';
    } catch (e) {
      if (seq === this.#seq) this.error = errorMessage(e);
    }
  }

  async loadRuns(): Promise<void> {
    try {
      const runs = await this.#api.WorkflowRuns('');
      const next: Record<string, WorkflowRun> = {};
      for (const r of runs) {
        const known = this.runs[r.id];
        // A list leaves the definitions out: keep the one a read brought.
        next[r.id] = known?.status === 'running' && this.#events[r.id] ? known : { ...r, definition: r.definition ?? known?.definition };
      }
      // Runs known from events or cards stay (the list is capped).
      for (const [id, r] of Object.entries(this.runs)) if (!next[id]) next[id] = r;
      this.runs = next;
      this.#tick();
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /**
   * Reads a run the page does not know yet (a card in a reopened conversation), or one known only
   * from the list (which leaves out the definition: the phases' modes, the idempotent steps).
   */
  ensure(id: string): void {
    if (!id || this.#fetching.has(id) || this.#read.has(id)) return;
    const r = this.runs[id];
    if (r && r.definition) return;
    this.#read.add(id);
    void this.fetch(id);
  }

  /** Reads a run's snapshot again. */
  async fetch(id: string): Promise<void> {
    if (this.#fetching.has(id)) {
      this.#schedule(id);
      return;
    }
    this.#fetching.add(id);
    const seen = this.#events[id] ?? 0;
    try {
      const r = await this.#api.GetWorkflowRun(id);
      // Events that came while it was read are newer than it: read again after them.
      if ((this.#events[id] ?? 0) !== seen) {
        if (!this.runs[id]) this.#put(r);
        this.#schedule(id);
        return;
      }
      this.#put(r);
    } catch (e) {
      if (!this.runs[id]) this.errors[id] = errorMessage(e);
    } finally {
      this.#fetching.delete(id);
    }
  }

  /** A workflow:progress event: the run's card changes at once; its snapshot is read after. */
  apply(payload: unknown): void {
    const e = toEvent(payload);
    if (!e) return;
    const id = e.run_id;
    this.#events[id] = (this.#events[id] ?? 0) + 1;
    const now = this.#clock();
    if (!e.step) {
      if (e.status === 'running') this.timing[id] = { since: now - e.elapsed / 1e6 };
      else this.timing[id] = { ...this.timing[id], took: e.elapsed / 1e6 };
    }
    const r = this.runs[id];
    if (!r) {
      if (this.#awaitingStart.has(e.workflow)) this.starting[e.workflow] = false;
      void this.fetch(id);
      return;
    }
    if (e.step) {
      const st = r.steps?.find((s) => s.id === e.step);
      if (st) {
        const iso = new Date(now).toISOString();
        if (e.status === 'running' && (st.status !== 'running' || (e.attempt ?? 0) > st.attempts)) {
          st.started_at = iso;
          st.finished_at = undefined;
          st.error = undefined;
        } else if (e.status !== 'running' && e.status !== 'pending' && st.status === 'running') {
          st.finished_at = iso;
        }
        st.status = e.status as WorkflowStepStatus;
        if (e.attempt) st.attempts = e.attempt;
        if (e.error) st.error = e.error;
        if (e.status === 'running') st.interrupted = false;
        const key = `${id}/${e.step}`;
        if (e.status === 'failed' && e.retry_in) this.retries[key] = now + e.retry_in / 1e6;
        else delete this.retries[key];
      }
    } else {
      r.status = e.status as WorkflowStatus;
      r.error = e.error || undefined;
      if (e.status === 'running') r.finished_at = undefined;
    }
    this.#tick();
    this.#schedule(id);
  }

  /**
   * Starts a run (in a conversation, or '' for none) with inputs. The run opens in the Workflows
   * tab as soon as it exists; the call itself returns when it ends.
   */
  async run(name: string, inputs: Record<string, unknown>, sessionId = ''): Promise<WorkflowRun | null> {
    this.starting[name] = true;
    this.startErrors[name] = '';
    this.#awaitingStart.add(name);
    try {
      const r = await this.#api.RunWorkflow(sessionId, name, inputs);
      this.#put(r);
      if (!this.openRun || this.runs[this.openRun]?.workflow === name) this.openRun = r.id;
      return r;
    } catch (e) {
      this.startErrors[name] = errorMessage(e);
      return null;
    } finally {
      this.#awaitingStart.delete(name);
      this.starting[name] = false;
    }
  }

  /**
   * Resumes a failed or interrupted run. A step that was stopped while it ran and is not
   * idempotent may already have acted: the user is asked first (confirm), then confirmed is true.
   */
  async resume(id: string, confirmed = false): Promise<void> {
    let r = this.runs[id];
    if (!confirmed && r && !r.definition) {
      await this.fetch(id);
      r = this.runs[id];
    }
    if (!confirmed && r) {
      const unsure = unsureSteps(r);
      if (unsure.length > 0) {
        this.confirm = { runId: id, steps: unsure };
        return;
      }
    }
    this.confirm = null;
    this.busy[id] = 'resume';
    this.errors[id] = '';
    try {
      this.#put(await this.#api.ResumeWorkflow(id, confirmed));
    } catch (e) {
      const msg = errorMessage(e);
      const steps = confirmed ? null : confirmStepsIn(msg);
      if (steps && steps.length > 0) this.confirm = { runId: id, steps };
      else this.errors[id] = msg;
      void this.fetch(id);
    } finally {
      delete this.busy[id];
    }
  }

  /** The user confirmed the resume the dialog asked about. */
  async confirmResume(): Promise<void> {
    const c = this.confirm;
    if (!c) return;
    await this.resume(c.runId, true);
  }

  cancelConfirm(): void {
    this.confirm = null;
  }

  /** Cancels a running run for good. */
  async cancel(id: string): Promise<void> {
    this.busy[id] = 'cancel';
    this.errors[id] = '';
    try {
      this.#put(await this.#api.CancelWorkflow(id));
    } catch (e) {
      this.errors[id] = errorMessage(e);
      void this.fetch(id);
    } finally {
      delete this.busy[id];
    }
  }

  #put(r: WorkflowRun | null | undefined): void {
    if (!r || typeof r.id !== 'string' || r.id === '') return;
    const fresh = !this.runs[r.id];
    this.runs[r.id] = r;
    if (fresh && this.#awaitingStart.has(r.workflow) && !r.session_id) {
      this.starting[r.workflow] = false;
      if (this.openForm === r.workflow || !this.openRun) this.openRun = r.id;
    }
    this.#tick();
  }

  #schedule(id: string): void {
    if (this.#timers[id]) return;
    this.#timers[id] = setTimeout(() => {
      delete this.#timers[id];
      void this.fetch(id);
    }, this.#refetchMs);
  }

  /** Keeps the clock moving while a run is running. */
  #tick(): void {
    this.now = this.#clock();
    if (this.anyRunning) {
      if (!this.#ticker) this.#ticker = setInterval(() => this.#tick(), this.#tickMs);
    } else this.#stopTicker();
  }

  #stopTicker(): void {
    if (this.#ticker) clearInterval(this.#ticker);
    this.#ticker = null;
  }
}

function toEvent(p: unknown): WorkflowEvent | null {
  if (!p || typeof p !== 'object') return null;
  const o = p as Record<string, unknown>;
  if (typeof o.run_id !== 'string' || o.run_id === '' || typeof o.status !== 'string') return null;
  const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
  return {
    run_id: o.run_id,
    workflow: typeof o.workflow === 'string' ? o.workflow : '',
    step: typeof o.step === 'string' && o.step !== '' ? o.step : undefined,
    phase: n(o.phase),
    phase_name: typeof o.phase_name === 'string' ? o.phase_name : undefined,
    tool: typeof o.tool === 'string' ? o.tool : undefined,
    status: o.status,
    attempt: n(o.attempt) || undefined,
    error: typeof o.error === 'string' && o.error !== '' ? o.error : undefined,
    retry_in: n(o.retry_in) || undefined,
    elapsed: n(o.elapsed),
    done: n(o.done),
    total: n(o.total),
  };
}
