// Models and the first run: what the setup still needs (and the next step), the installed models
// with their details, and the pulls and imports in progress (several may run at once, each with
// its own request id, progress events and cancel). Pure helpers are exported for tests.
import {
  Events,
  errorCode,
  errorMessage,
  toError,
  type Api,
  type ModelDetail,
  type LlmProgress,
  type Recommendation,
  type SetupState,
  type Unsubscribe,
} from './backend';
import { isKey, type MessageKey } from './i18n.svelte';
import { noticeWords } from './notices';

type T = (key: MessageKey, params?: Record<string, string | number>) => string;
type On = (name: string, cb: (data: unknown) => void) => Unsubscribe;

export type ModelsApi = Pick<
  Api,
  | 'Setup'
  | 'StartOllama'
  | 'ListModelDetails'
  | 'PullModel'
  | 'ImportModel'
  | 'CancelModelJob'
  | 'PickModelFile'
  | 'DeleteModel'
  | 'CopyModel'
  | 'UseModel'
>;

export const SETUP_STEPS = ['install', 'start', 'pull', 'choose'] as const;
export const CAPABILITIES = ['chat', 'tools', 'embedding', 'vision', 'thinking'] as const;

// ---------------------------------------------------------------------------------------------
// Formatting

/** Bytes in decimal units as Ollama shows them: "512 B", "12.3 MB", "2.0 GB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  if (n < 1000) return `${Math.round(n)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let i = 0;
  while (v >= 999.95 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/** A transfer rate: "12.3 MB/s"; "" when unknown. */
export function formatRate(bytesPerSecond: number): string {
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return '';
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** How far a job is, 0..100, or null when unknown (no total yet). */
export function progressPercent(p: LlmProgress | null | undefined): number | null {
  if (!p) return null;
  if (p.total > 0 && Number.isFinite(p.completed)) return Math.max(0, Math.min(100, (p.completed / p.total) * 100));
  if (Number.isFinite(p.percent) && p.percent > 0) return Math.max(0, Math.min(100, p.percent));
  return null;
}

/** "42%"; below 10 % one decimal ("2.5%"), so a slow start still moves; never 100% before done. */
export function formatPercent(pct: number | null): string {
  if (pct === null || !Number.isFinite(pct)) return '';
  if (pct >= 100) return '100%';
  if (pct < 10) return `${(Math.floor(pct * 10) / 10).toFixed(1)}%`;
  return `${Math.min(99, Math.floor(pct))}%`;
}

/** Time left: "45 s", "3 min 20 s", "1 h 5 min"; "" when unknown. */
export function formatEta(seconds: number, t: T): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '';
  const s = Math.ceil(seconds);
  if (s < 60) return t('progress.seconds', { s });
  if (s < 3600) return t('progress.minutes', { m: Math.floor(s / 60), s: s % 60 });
  return t('progress.hours', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
}

const STATUS_KEYS: Array<[RegExp, MessageKey]> = [
  [/^pulling manifest/i, 'models.status.manifest'],
  [/^(pulling|downloading)\b/i, 'models.status.downloading'],
  [/^verifying/i, 'models.status.verifying'],
  [/^writing manifest/i, 'models.status.writing'],
  [/^removing/i, 'models.status.cleanup'],
  [/^success/i, 'models.status.success'],
  [/^checking/i, 'models.status.checking'],
  [/^hashing/i, 'models.status.hashing'],
  [/^(uploading|copying)\b/i, 'models.status.uploading'], // copying: into the models folder of the Ollama Hermes started
  [/^(creating|parsing|using|writing)\b/i, 'models.status.creating'],
];

/** The job's current stage in the user's language (the raw status when it is not a known one). */
export function statusText(status: string, t: T): string {
  const s = (status ?? '').trim();
  if (!s) return t('models.status.starting');
  for (const [re, key] of STATUS_KEYS) if (re.test(s)) return t(key);
  return s;
}

/** The numbers of a job: "1.2 GB of 2.0 GB · 60% · 12.0 MB/s · 1 min 5 s left". */
export function progressLine(p: LlmProgress | null | undefined, t: T): string {
  if (!p) return '';
  const parts: string[] = [];
  if (p.total > 0) parts.push(t('progress.of', { done: formatBytes(Math.min(p.completed, p.total)), total: formatBytes(p.total) }));
  else if (p.completed > 0) parts.push(formatBytes(p.completed));
  const pct = formatPercent(progressPercent(p));
  if (pct) parts.push(pct);
  const rate = formatRate(p.rate_bps);
  if (rate) parts.push(rate);
  const eta = formatEta(p.eta_seconds, t);
  if (eta) parts.push(t('progress.left', { eta }));
  return parts.join(' · ');
}

/** A model's context window: "8K", "128K", or the number when small. */
export function formatContext(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return '';
  if (n < 1024) return String(n);
  const k = n / 1024;
  return `${Number.isInteger(k) ? k : k.toFixed(1)}K`;
}

// ---------------------------------------------------------------------------------------------
// What a model may be used for

function caps(d: Pick<ModelDetail, 'capabilities'>): string[] {
  return (d.capabilities ?? []).map((c) => String(c).toLowerCase());
}

/** It can chat (Ollama calls this "completion" in some versions). */
export function canChat(d: Pick<ModelDetail, 'capabilities'>): boolean {
  const c = caps(d);
  return c.includes('chat') || c.includes('completion');
}

export function canEmbed(d: Pick<ModelDetail, 'capabilities'>): boolean {
  return caps(d).includes('embedding');
}

/** The capability chips shown, known ones first in a fixed order. */
export function capabilityChips(d: Pick<ModelDetail, 'capabilities'>): string[] {
  const c = caps(d).map((x) => (x === 'completion' ? 'chat' : x));
  const known = CAPABILITIES.filter((k) => c.includes(k));
  const other = [...new Set(c.filter((x) => !(CAPABILITIES as readonly string[]).includes(x)))];
  return [...known, ...other];
}

/** The key naming a capability, or null for one the UI does not know (shown as is). */
export function capabilityKey(cap: string): MessageKey | null {
  return (CAPABILITIES as readonly string[]).includes(cap) ? (`models.cap.${cap}` as MessageKey) : null;
}

/** The installed models that can chat. */
export function chatModels(models: ModelDetail[] | null | undefined): ModelDetail[] {
  return (models ?? []).filter(canChat);
}

// ---------------------------------------------------------------------------------------------
// Setup

/** The step still to do, or "" when chat is ready (an unknown step counts as a problem to show). */
export function setupStep(s: SetupState | null): string {
  if (!s) return '';
  if (s.step) return s.step;
  return s.chat_ready ? '' : 'problem';
}

/**
 * The install hint as a command to copy and a note: "cmd   (or … )" gives the command alone
 * (what a terminal can run) and the words in brackets as the note.
 */
export function splitInstallHint(hint: string): { command: string; note: string } {
  const h = (hint ?? '').trim();
  const m = /^(.*?\S)\s{2,}\((.*)\)\s*$/s.exec(h);
  if (!m) return { command: h, note: '' };
  return { command: m[1].trim(), note: m[2].trim() };
}

/** Why Send is disabled, or "" when a chat model is ready (or the backend cannot tell). */
export function blockReason(s: SetupState | null, t: T): string {
  if (!s || s.chat_ready) return '';
  switch (s.step) {
    case 'install':
      return t('composer.blocked.install');
    case 'start':
      return t('composer.blocked.start');
    case 'reconnect':
      return t('conn.blocked.reconnect');
    case 'connect':
      return t('conn.blocked.connect');
    case 'pull':
      return t('composer.blocked.pull');
    case 'choose':
      return t('composer.blocked.choose');
    default:
      return t('composer.blocked.other', { problem: noticeWords(s, t).problem || t('composer.blocked.unknown') });
  }
}

// ---------------------------------------------------------------------------------------------
// Names

/** What is wrong with a model name typed by the user, or null. */
export function nameProblem(name: string): MessageKey | null {
  const n = name.trim();
  if (n === '') return 'models.nameRequired';
  if (/\s/.test(n)) return 'models.nameSpaces';
  return null;
}

/** A model name suggested from a GGUF file's path: "Qwen2.5-3B-Q4_K_M.gguf" → "qwen2.5-3b-q4_k_m". */
export function suggestName(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? '';
  return base
    .replace(/\.gguf$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9._:-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
}

/** A call cancelled by the user fails with a message that says so. */
export function isCancelled(message: string): boolean {
  return /cancel/i.test(message);
}

/**
 * Why a recommended model suits this computer, in the user's language ("models.rec.<name>",
 * the backend's recommend() in app/models.go), or the backend's English for a model not known here.
 */
export function recommendationWhy(r: Recommendation, t: T): string {
  const key = `models.rec.${r.name}`;
  return isKey(key) ? t(key) : r.why;
}

/**
 * Why a model operation failed, for a line that already says it failed ("pull failed: …"):
 * the coded message in the user's language, but an operation's own words (code "failed") as
 * they are, since the dictionary's text for that code starts with "failed" again.
 */
export function failureReason(e: unknown): string {
  return errorCode(e) === 'failed' ? toError(e).message : errorMessage(e);
}

// ---------------------------------------------------------------------------------------------
// The store

export type JobKind = 'pull' | 'import';
export type JobState = 'running' | 'done' | 'failed' | 'cancelled';

export interface ModelJob {
  id: string;
  kind: JobKind;
  /** The model's name (pulled, or created by the import). */
  name: string;
  state: JobState;
  progress: LlmProgress | null;
  error: string;
  /** The failure as thrown (kept so that its words follow the UI's language); undefined: none. */
  failure?: unknown;
  /** Cancel was asked for; the call has not ended yet. */
  cancelling: boolean;
  result: ModelDetail | null;
}

function isProgress(d: unknown): d is LlmProgress {
  return !!d && typeof d === 'object' && typeof (d as LlmProgress).status === 'string';
}

function isSetup(d: unknown): d is SetupState {
  return !!d && typeof d === 'object' && typeof (d as SetupState).step === 'string' && typeof (d as SetupState).ollama === 'string';
}

function defaultId(): string {
  if (globalThis.crypto?.randomUUID) return globalThis.crypto.randomUUID();
  return `job-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export interface ModelsDeps {
  api: ModelsApi;
  on: On;
  /** Called after anything that may change the chat model or the installed models. */
  onchange?: () => void;
  uuid?: () => string;
  /** Whether PickModelFile has a file dialog to open (false in web mode: a path field instead). */
  fileDialog?: boolean;
}

export class ModelsStore {
  setup = $state<SetupState | null>(null);
  /** Setup() failed (an older backend has no such method: nothing is blocked then). */
  setupError = $state('');
  checking = $state(false);
  starting = $state(false);
  startError = $state('');
  details = $state<ModelDetail[]>([]);
  loaded = $state(false);
  loading = $state(false);
  error = $state('');
  jobs = $state<ModelJob[]>([]);
  /** The last failed action (use, copy, delete). */
  actionError = $state('');
  /** The model an action runs on now. */
  busy = $state('');
  /** The file dialog is not available (web mode): the import form asks for a path. */
  noPicker = $state(false);
  /** The models panel is open. */
  open = $state(false);

  #deps: ModelsDeps;
  #uuid: () => string;

  constructor(deps: ModelsDeps) {
    this.#deps = deps;
    this.#uuid = deps.uuid ?? defaultId;
    this.noPicker = deps.fileDialog === false;
  }

  /** The models to show: the last detailed list, else the setup's. */
  get models(): ModelDetail[] {
    return this.loaded ? this.details : (this.setup?.models ?? []);
  }

  get running(): ModelJob[] {
    return this.jobs.filter((j) => j.state === 'running');
  }

  /** Follows setup:changed. */
  listen(on: On = this.#deps.on): Unsubscribe {
    return on(Events.setupChanged, (d) => {
      if (!isSetup(d)) return;
      this.#applySetup(d);
      this.#deps.onchange?.();
    });
  }

  #applySetup(s: SetupState): void {
    this.setup = s;
    this.setupError = '';
    if (Array.isArray(s.models)) {
      this.details = s.models;
      this.loaded = true;
    }
  }

  /** Asks what the setup still needs ("Check again"). */
  async check(): Promise<void> {
    this.checking = true;
    try {
      this.#applySetup(await this.#deps.api.Setup());
    } catch (e) {
      this.setupError = errorMessage(e);
    } finally {
      this.checking = false;
    }
  }

  /** Reloads the detailed list (and the setup state with it). */
  async refresh(): Promise<void> {
    this.loading = true;
    try {
      const [list] = await Promise.all([this.#deps.api.ListModelDetails(), this.check()]);
      this.details = list;
      this.loaded = true;
      this.error = '';
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.loading = false;
    }
  }

  async startOllama(): Promise<void> {
    this.starting = true;
    this.startError = '';
    try {
      this.#applySetup(await this.#deps.api.StartOllama());
      this.#deps.onchange?.();
    } catch (e) {
      this.startError = failureReason(e);
    } finally {
      this.starting = false;
    }
  }

  job(id: string): ModelJob | undefined {
    return this.jobs.find((j) => j.id === id);
  }

  /** Pulls a model; resolves with the finished job (done, failed or cancelled). */
  pull(name: string): Promise<ModelJob> {
    const n = name.trim();
    const same = this.jobs.find((j) => j.state === 'running' && j.kind === 'pull' && j.name === n);
    if (same) return this.#wait(same.id);
    return this.#run('pull', n, (id) => this.#deps.api.PullModel(id, n));
  }

  /** Imports a GGUF file as a model; resolves with the finished job. */
  importFile(path: string, name: string, modelfile = ''): Promise<ModelJob> {
    const n = name.trim();
    return this.#run('import', n, (id) => this.#deps.api.ImportModel(id, path.trim(), n, modelfile));
  }

  #waiters = new Map<string, Array<(j: ModelJob) => void>>();

  #wait(id: string): Promise<ModelJob> {
    return new Promise((resolve) => {
      const list = this.#waiters.get(id) ?? [];
      list.push(resolve);
      this.#waiters.set(id, list);
    });
  }

  async #run(kind: JobKind, name: string, call: (id: string) => Promise<ModelDetail>): Promise<ModelJob> {
    const id = this.#uuid();
    this.jobs = [
      ...this.jobs.filter((j) => !(j.name === name && j.state !== 'running')),
      { id, kind, name, state: 'running', progress: null, error: '', cancelling: false, result: null },
    ];
    const off = this.#deps.on(Events.modelProgress + id, (d) => {
      const j = this.job(id);
      if (j && j.state === 'running' && isProgress(d)) j.progress = d;
    });
    try {
      const result = await call(id);
      const j = this.job(id);
      if (j) {
        j.state = 'done';
        j.result = result ?? null;
        if (j.progress && j.progress.total > 0) j.progress = { ...j.progress, completed: j.progress.total, eta_seconds: 0 };
      }
    } catch (e) {
      const j = this.job(id);
      if (j) {
        j.state = j.cancelling || errorCode(e) === 'cancelled' || isCancelled(toError(e).message) ? 'cancelled' : 'failed';
        j.error = j.state === 'failed' ? failureReason(e) : '';
        if (j.state === 'failed') j.failure = e;
      }
    } finally {
      off();
    }
    const j = this.job(id);
    if (j) j.cancelling = false;
    const final = $state.snapshot(j) as ModelJob;
    await this.refresh();
    this.#deps.onchange?.();
    for (const w of this.#waiters.get(id) ?? []) w(final);
    this.#waiters.delete(id);
    return final;
  }

  /** Asks a running job to stop; its call then ends as cancelled. */
  async cancel(id: string): Promise<void> {
    const j = this.job(id);
    if (!j || j.state !== 'running') return;
    j.cancelling = true;
    try {
      await this.#deps.api.CancelModelJob(id);
    } catch (e) {
      const k = this.job(id);
      if (k) {
        k.cancelling = false;
        k.error = errorMessage(e);
      }
    }
  }

  /** Removes a finished job from the list. */
  dismiss(id: string): void {
    this.jobs = this.jobs.filter((j) => j.id !== id || j.state === 'running');
  }

  /** Opens the file dialog; "" when cancelled or when there is none (noPicker is then set). */
  async pickFile(): Promise<string> {
    try {
      return (await this.#deps.api.PickModelFile()) ?? '';
    } catch {
      this.noPicker = true;
      return '';
    }
  }

  async #action(name: string, f: () => Promise<void>): Promise<boolean> {
    this.busy = name;
    this.actionError = '';
    try {
      await f();
      return true;
    } catch (e) {
      this.actionError = failureReason(e);
      return false;
    } finally {
      this.busy = '';
      await this.refresh();
      this.#deps.onchange?.();
    }
  }

  /** Makes name the chat model, or the embedding model. */
  use(name: string, embed: boolean): Promise<boolean> {
    return this.#action(name, async () => {
      const s = await this.#deps.api.UseModel(name, embed);
      if (isSetup(s)) this.#applySetup(s);
    });
  }

  remove(name: string): Promise<boolean> {
    return this.#action(name, () => this.#deps.api.DeleteModel(name));
  }

  /** Copies src to dst; with rename the original is deleted afterwards. */
  copy(src: string, dst: string, rename = false): Promise<boolean> {
    return this.#action(src, async () => {
      await this.#deps.api.CopyModel(src, dst.trim());
      if (rename) {
        const wasChat = this.models.find((m) => m.name === src)?.is_chat;
        const wasEmbed = this.models.find((m) => m.name === src)?.is_embed;
        if (wasChat) await this.#deps.api.UseModel(dst.trim(), false);
        if (wasEmbed) await this.#deps.api.UseModel(dst.trim(), true);
        await this.#deps.api.DeleteModel(src);
      }
    });
  }
}
