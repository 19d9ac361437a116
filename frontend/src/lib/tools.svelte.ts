// Tools in the UI: approval prompts, the activity log and the tool list of the settings, plus the
// small pure helpers their components share (formatting arguments, status names, filters).
import {
  Events,
  errorMessage,
  isConfirmError,
  type Activity,
  type ConfirmReason,
  type GuardStop,
  type Api,
  type ApprovalPrompt,
  type ToolsAnnotations,
  type ToolCall,
  type ToolInfo,
  type Unsubscribe,
  type ToolsStatus,
  toolsStatusValues,
} from './backend';
import { isKey, type MessageKey } from './i18n.svelte';

export const TOOL_STATUSES = ['ok', 'error', 'denied', 'blocked', 'timeout', 'cancelled'] as const;
export type KnownToolStatus = (typeof TOOL_STATUSES)[number];

export function isKnownStatus(s: string | null | undefined): s is KnownToolStatus {
  return (TOOL_STATUSES as readonly string[]).includes(s ?? '');
}

/** The i18n key naming a call's status; unknown statuses are shown as errors. */
export function statusKey(s: string | null | undefined): MessageKey {
  return `toolStatus.${isKnownStatus(s) ? s : 'error'}` as MessageKey;
}

/** A glyph per status (always shown next to its name, never alone). */
export function statusIcon(s: string | null | undefined): string {
  switch (s) {
    case 'ok':
      return '✓';
    case 'denied':
      return '⊘';
    case 'blocked':
      return '⊗';
    case 'timeout':
      return '◷';
    case 'cancelled':
      return '■';
    default:
      return '✕';
  }
}

export const STOP_KINDS = ['max_iterations', 'consecutive_failures'] as const;

/** The i18n key explaining why the loop guard stopped a turn. */
export function stopKey(kind: string | null | undefined): MessageKey {
  return (STOP_KINDS as readonly string[]).includes(kind ?? '')
    ? (`loop.kind.${kind}` as MessageKey)
    : 'loop.kind.other';
}

/**
 * A backend word (a tool error's kind, a breaker's state) in the user's language under prefix
 * ("tool.kind.timeout"), or the word itself for one the page does not know.
 */
export function wordOf(prefix: 'tool.kind.' | 'tool.breakerState.', value: string, t: (key: MessageKey) => string): string {
  const key = `${prefix}${value}`;
  return isKey(key) ? t(key) : value;
}

/** The stop's figures in the user's language ("Stopped after 5 rounds …"), or its English when it has none. */
export function stopDetail(stop: GuardStop, t: (key: MessageKey, params?: Record<string, string | number>) => string): string {
  if (stop.kind === 'max_iterations' && (stop.iterations ?? 0) > 0) return t('loop.detail.max_iterations', { n: stop.iterations! });
  if (stop.kind === 'consecutive_failures' && (stop.failures ?? 0) > 0) {
    return t('loop.detail.consecutive_failures', { n: stop.failures!, tool: stop.lastTool || '?' });
  }
  return stop.message;
}

/** A reply whose whole text is the stop's own message (a turn stopped before any answer): the card says it. */
export function isStopEcho(content: string, stop: GuardStop | null | undefined): boolean {
  return !!stop?.message && content.trim() === `_${stop.message}_`;
}

/**
 * Arguments or a result for display: JSON is pretty-printed, anything else is returned as it is.
 * The text is shown as text (never HTML) and never shortened.
 */
export function prettyJSON(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') {
    const s = v.trim();
    if (s === '') return '';
    if (s.startsWith('{') || s.startsWith('[')) {
      try {
        return JSON.stringify(JSON.parse(s), null, 2);
      } catch {
        return v;
      }
    }
    return v;
  }
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Why a call asks the user first, as i18n keys (in a fixed order). */
export function approvalReasons(a: ToolsAnnotations | null | undefined): MessageKey[] {
  const out: MessageKey[] = [];
  if (a?.destructive) out.push('approval.why.destructive');
  if (a?.open_world) out.push('approval.why.open_world');
  if (a?.command) out.push('approval.why.command');
  if (a?.shell) out.push('approval.why.shell');
  return out;
}

export function needsApproval(a: ToolsAnnotations | null | undefined): boolean {
  return approvalReasons(a).length > 0;
}

/** Latency for a card or a row: "850 ms", "1.2 s". Empty when unknown. */
export function latencyText(ms: number | null | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** Turns a chat:tool:<id> payload (or a TurnResult entry) into a ToolCall, or null if it is not one. */
export function toToolCall(p: unknown): ToolCall | null {
  if (!p || typeof p !== 'object') return null;
  const o = p as Record<string, unknown>;
  if (typeof o.tool !== 'string') return null;
  const str = (x: unknown) => (typeof x === 'string' && x !== '' ? x : undefined);
  return {
    tool: o.tool,
    args: typeof o.args === 'string' ? o.args : o.args === undefined ? '' : prettyJSON(o.args),
    status: toolsStatusValues.includes(o.status as ToolsStatus) ? (o.status as ToolsStatus) : 'error',
    errorKind: str(o.errorKind),
    error: str(o.error),
    result: str(o.result),
    latencyMs: typeof o.latencyMs === 'number' ? o.latencyMs : -1,
    breaker: str(o.breaker),
    ...(str(o.callId) ? { callId: str(o.callId) } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Approvals

export type ApprovalApi = Pick<Api, 'ResolveApproval'> & Partial<Pick<Api, 'needsCode'>>;

/** Where a one-time code stands: why the server asked for one (see ConfirmReason). */
export interface CodeState {
  reason: ConfirmReason;
  triesLeft: number | null;
}

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** What the code field says for the server's last answer. */
export function codeText(s: CodeState, t: Translate): string {
  switch (s.reason) {
    case 'expired':
      return t('code.expired');
    case 'wrong':
      if (s.triesLeft === 1) return t('code.wrongOne');
      return s.triesLeft && s.triesLeft > 0 ? t('code.wrong', { n: s.triesLeft }) : t('code.wrongNew');
    case 'locked':
      return t('code.locked');
    case 'busy':
      return t('code.busy');
    default:
      return t('code.printed');
  }
}

/** Whether the last answer is a problem (shown as an error rather than a hint). */
export function codeIsProblem(s: CodeState): boolean {
  return s.reason !== 'required';
}

/** The digits of what the user typed ("123 456" and "123-456" are both 123456). */
export function codeDigits(typed: string): string {
  return typed.replace(/\D+/g, '');
}

function toPrompt(p: unknown): ApprovalPrompt | null {
  if (!p || typeof p !== 'object') return null;
  const o = p as Record<string, unknown>;
  if (typeof o.id !== 'string' || o.id === '' || typeof o.tool !== 'string') return null;
  return {
    id: o.id,
    request_id: typeof o.request_id === 'string' ? o.request_id : '',
    session_id: typeof o.session_id === 'string' ? o.session_id : '',
    call_id: typeof o.call_id === 'string' ? o.call_id : '',
    tool: o.tool,
    description: typeof o.description === 'string' ? o.description : '',
    args: o.args,
    annotations: (o.annotations && typeof o.annotations === 'object' ? o.annotations : {}) as ToolsAnnotations,
    definition_hash: typeof o.definition_hash === 'string' ? o.definition_hash : '',
  };
}

/** The approval prompts waiting for the user, oldest first (the dialog shows the first). */
export class ApprovalStore {
  queue = $state<ApprovalPrompt[]>([]);
  /** Set when an answer could not be delivered (the prompt had timed out, say). */
  error = $state('');
  /** The prompt whose allowing waits for the one-time code (web mode), with the scope chosen. */
  code = $state<(CodeState & { id: string; scope: 'once' | 'session' }) | null>(null);
  /** An answer that needs the code is on its way. */
  busy = $state(false);

  #api: ApprovalApi;

  constructor(api: ApprovalApi) {
    this.#api = api;
  }

  get current(): ApprovalPrompt | null {
    return this.queue[0] ?? null;
  }

  /** Subscribes to approval:needed and approval:done; returns the unsubscribe function. */
  listen(on: (name: string, cb: (d: unknown) => void) => Unsubscribe): Unsubscribe {
    const a = on(Events.approvalNeeded, (d) => this.add(d));
    const b = on(Events.approvalDone, (d) => {
      const id = d && typeof d === 'object' ? (d as { id?: unknown }).id : undefined;
      if (typeof id === 'string') this.drop(id);
    });
    return () => {
      a();
      b();
    };
  }

  add(payload: unknown): void {
    const p = toPrompt(payload);
    if (!p || this.queue.some((x) => x.id === p.id)) return;
    this.queue.push(p);
  }

  /** Closes a prompt that was answered elsewhere or timed out. */
  drop(id: string): void {
    this.queue = this.queue.filter((x) => x.id !== id);
    if (this.code?.id === id) this.code = null;
  }

  /**
   * Whether allowing the prompt needs the one-time code printed by `hermes serve`: web mode,
   * and a tool that runs a program.
   */
  needsCode(p: ApprovalPrompt | null): boolean {
    return !!p && !!p.annotations?.command && this.#api.needsCode?.() === true;
  }

  /**
   * Answers a prompt. Allowing one that needs the code keeps it open until the server accepts
   * the code: the first try makes the server print a code, `code` then says why it wants one.
   */
  async answer(id: string, allow: boolean, scope: 'once' | 'session' = 'once', code = ''): Promise<void> {
    const p = this.queue.find((x) => x.id === id) ?? null;
    if (!allow || !this.needsCode(p)) {
      this.drop(id);
      this.error = '';
      try {
        await this.#api.ResolveApproval(id, allow, scope);
      } catch (e) {
        this.error = errorMessage(e);
      }
      return;
    }
    if (this.busy) return;
    this.busy = true;
    this.error = '';
    try {
      await this.#api.ResolveApproval(id, true, scope, code);
      this.drop(id);
    } catch (e) {
      if (isConfirmError(e)) {
        this.code = { id, scope, reason: e.reason, triesLeft: e.triesLeft };
      } else {
        this.drop(id);
        this.error = errorMessage(e);
      }
    } finally {
      this.busy = false;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Activity

export interface ActivityFilter {
  tool: string;
  status: string;
  /** Only calls of the open conversation. */
  currentOnly: boolean;
}

export const ACTIVITY_LIMIT = 200;

/** The ToolActivity arguments for a filter: [tool, status, sessionId, limit], "" = no filter. */
export function activityArgs(f: ActivityFilter, sessionId: string, limit = ACTIVITY_LIMIT): [string, string, string, number] {
  const tool = f.tool.trim();
  const status = isKnownStatus(f.status) ? f.status : '';
  const session = f.currentOnly ? sessionId.trim() : '';
  return [tool, status, session, Math.max(1, Math.floor(limit))];
}

/** Whether the filter cannot match anything (only this conversation, but none is open). */
export function activityEmptyScope(f: ActivityFilter, sessionId: string): boolean {
  return f.currentOnly && sessionId.trim() === '';
}

/** Tool names for the filter dropdown: the registered tools and any seen in the log, sorted. */
export function toolNames(tools: Pick<ToolInfo, 'name'>[], rows: Pick<Activity, 'tool'>[], selected = ''): string[] {
  const set = new Set<string>();
  for (const t of tools) if (t.name) set.add(t.name);
  for (const r of rows) if (r.tool) set.add(r.tool);
  if (selected) set.add(selected);
  return [...set].sort((a, b) => a.localeCompare(b));
}

export type ActivityApi = Pick<Api, 'ToolActivity'>;

export class ActivityStore {
  rows = $state<Activity[]>([]);
  filter = $state<ActivityFilter>({ tool: '', status: '', currentOnly: false });
  loading = $state(false);
  error = $state('');
  /** Row ids whose details are shown. */
  expanded = $state<Record<number, boolean>>({});

  #api: ActivityApi;
  #seq = 0;

  constructor(api: ActivityApi) {
    this.#api = api;
  }

  async load(sessionId: string): Promise<void> {
    const seq = ++this.#seq;
    if (activityEmptyScope(this.filter, sessionId)) {
      this.rows = [];
      this.error = '';
      this.loading = false;
      return;
    }
    this.loading = true;
    try {
      const rows = await this.#api.ToolActivity(...activityArgs(this.filter, sessionId));
      if (seq !== this.#seq) return;
      this.rows = rows;
      this.error = '';
    } catch (e) {
      if (seq === this.#seq) this.error = errorMessage(e);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  toggle(id: number): void {
    this.expanded[id] = !this.expanded[id];
  }
}

// ---------------------------------------------------------------------------------------------
// The tool list (settings)

export type ToolsApi = Pick<Api, 'ListTools' | 'SetToolEnabled' | 'ResetBreaker'>;

export class ToolsStore {
  tools = $state<ToolInfo[]>([]);
  loaded = $state(false);
  loading = $state(false);
  error = $state('');
  /** Per tool: an error of the last toggle or reset. */
  errors = $state<Record<string, string>>({});
  busy = $state<Record<string, boolean>>({});

  #api: ToolsApi;
  #seq = 0;

  constructor(api: ToolsApi) {
    this.#api = api;
  }

  /** Reloads the list when a breaker changes state or tools.yaml changed on disk. */
  listen(on: (name: string, cb: (d: unknown) => void) => Unsubscribe): Unsubscribe {
    const reload = () => {
      if (this.loaded) void this.load();
    };
    const a = on(Events.breaker, reload);
    const b = on(Events.toolsChanged, reload);
    return () => {
      a();
      b();
    };
  }

  async load(): Promise<void> {
    const seq = ++this.#seq;
    this.loading = true;
    try {
      const list = await this.#api.ListTools();
      if (seq !== this.#seq) return;
      this.tools = [...list].sort((a, b) => a.name.localeCompare(b.name));
      this.error = '';
      this.loaded = true;
    } catch (e) {
      if (seq === this.#seq) this.error = errorMessage(e);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    await this.#act(name, () => this.#api.SetToolEnabled(name, enabled), (t) => (t.enabled = enabled));
  }

  async reset(name: string): Promise<void> {
    await this.#act(name, () => this.#api.ResetBreaker(name), (t) => {
      t.breaker = 'closed';
      t.openUntil = undefined;
    });
  }

  async #act(name: string, call: () => Promise<void>, apply: (t: ToolInfo) => void): Promise<void> {
    this.busy[name] = true;
    this.errors[name] = '';
    try {
      await call();
      const t = this.tools.find((x) => x.name === name);
      if (t) apply(t);
      void this.load();
    } catch (e) {
      this.errors[name] = errorMessage(e);
    } finally {
      this.busy[name] = false;
    }
  }
}
