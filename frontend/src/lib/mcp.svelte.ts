// MCP servers in the UI: the server list with live status, the add/edit form's conversion to a
// config entry (and back), client-side checks, server errors mapped to form fields, and prompt
// templates. Pure helpers first, then the stores.
import {
  MCP_STATES,
  errorMessage,
  type Api,
  type McpPrompt,
  type McpProblem,
  type McpPromptResult,
  type McpServerConfig,
  type McpState,
  type McpStatus,
  type McpTool,
  type Unsubscribe,
} from './backend';
import type { MessageKey } from './i18n.svelte';
import { needsApproval } from './tools.svelte';

// ---------------------------------------------------------------------------------------------
// States

const STATE_KEYS: Record<McpState, MessageKey> = {
  starting: 'mcp.state.starting',
  ready: 'mcp.state.ready',
  crashed: 'mcp.state.crashed',
  'backing off': 'mcp.state.backingOff',
  disabled: 'mcp.state.disabled',
  'awaiting approval': 'mcp.state.awaitingApproval',
  invalid: 'mcp.state.invalid',
  stopped: 'mcp.state.stopped',
};

export function isMcpState(s: string | null | undefined): s is McpState {
  return (MCP_STATES as readonly string[]).includes(s ?? '');
}

/** The i18n key naming a server state, or null for a state this UI does not know. */
export function stateKey(s: string | null | undefined): MessageKey | null {
  return isMcpState(s) ? STATE_KEYS[s] : null;
}

/** The badge's colour: ok, busy, warn, bad or off. */
export function stateTone(s: string | null | undefined): 'ok' | 'busy' | 'warn' | 'bad' | 'off' {
  switch (s) {
    case 'ready':
      return 'ok';
    case 'starting':
      return 'busy';
    case 'backing off':
    case 'awaiting approval':
      return 'warn';
    case 'crashed':
    case 'invalid':
      return 'bad';
    default:
      return 'off';
  }
}

/** A glyph per state (always shown next to its name, never alone). */
export function stateIcon(s: string | null | undefined): string {
  switch (s) {
    case 'ready':
      return '●';
    case 'starting':
      return '◌';
    case 'backing off':
      return '◷';
    case 'awaiting approval':
      return '?';
    case 'crashed':
    case 'invalid':
      return '✕';
    default:
      return '○';
  }
}

// ---------------------------------------------------------------------------------------------
// Tools

/** The annotation chips of a tool, as i18n keys, in a fixed order. */
export function toolChips(t: Pick<McpTool, 'annotations'>): MessageKey[] {
  const a = t.annotations ?? {};
  const out: MessageKey[] = [];
  if (a.read_only) out.push('mcp.chip.readOnly');
  if (a.destructive) out.push('mcp.chip.destructive');
  if (a.open_world) out.push('mcp.chip.openWorld');
  if (a.command) out.push('mcp.chip.command');
  return out;
}

/** Whether a call of the tool asks the user first (it needs approval and is not auto-approved). */
export function asksFirst(t: Pick<McpTool, 'annotations' | 'auto_approve'>): boolean {
  return needsApproval(t.annotations) && !t.auto_approve;
}

/** The name MCPSetToolEnabled takes: the server's own name; Hermes's added tools by their registered name. */
export function toggleName(t: Pick<McpTool, 'name' | 'remote' | 'builtin'>): string {
  return t.builtin && t.name ? t.name : t.remote;
}

/** Whether the switch can be used (a changed tool must be accepted first; a skipped one is never offered). */
export function canToggle(t: Pick<McpTool, 'changed' | 'skipped'>): boolean {
  return !t.changed && !t.skipped;
}

// ---------------------------------------------------------------------------------------------
// The add/edit form

/** The form's fields, all plain text (lists one item per line). */
export interface ServerForm {
  name: string;
  command: string;
  /** One argument per line. */
  args: string;
  /** KEY=VALUE lines. */
  env: string;
  cwd: string;
  timeout: string;
  /** Globs, one per line (or separated by commas). */
  include: string;
  exclude: string;
  /** Tool names, one per line (or separated by commas). */
  autoApprove: string;
}

export type FormField = keyof ServerForm;
export type FormErrors = Partial<Record<FormField | 'general', string>>;

export function emptyForm(): ServerForm {
  return { name: '', command: '', args: '', env: '', cwd: '', timeout: '', include: '', exclude: '', autoApprove: '' };
}

function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** Arguments: one per line, trimmed; blank lines are left out. */
export function parseArgs(text: string): string[] {
  return lines(text);
}

/** Globs or tool names: one per line or separated by commas. */
export function parseList(text: string): string[] {
  return lines(text.replace(/,/g, '\n'));
}

export interface EnvParse {
  env: Record<string, string>;
  /** The first problem, with its line (1-based), or null. */
  error: { line: number; key: MessageKey; name?: string } | null;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** KEY=VALUE lines (split at the first "="; blank lines and lines starting with # are left out). */
export function parseEnv(text: string): EnvParse {
  const env: Record<string, string> = {};
  const all = text.split(/\r?\n/);
  for (let i = 0; i < all.length; i++) {
    const line = all[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq < 0) return { env, error: { line: i + 1, key: 'mcp.form.err.envLine' } };
    const name = line.slice(0, eq).trim();
    if (!ENV_NAME.test(name)) return { env, error: { line: i + 1, key: 'mcp.form.err.envName', name } };
    if (Object.prototype.hasOwnProperty.call(env, name)) {
      return { env, error: { line: i + 1, key: 'mcp.form.err.envTwice', name } };
    }
    env[name] = line.slice(eq + 1).trim();
  }
  return { env, error: null };
}

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** A Go duration ("30s", "1m30s", "1.5h") in nanoseconds, or null when it is not one. */
export function parseDuration(text: string): number | null {
  let s = text.trim();
  if (s === '') return null;
  let sign = 1;
  if (s[0] === '-' || s[0] === '+') {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  const re = /^(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;
  let total = 0;
  if (s === '') return null;
  while (s !== '') {
    const m = re.exec(s);
    if (!m) return null;
    total += parseFloat(m[1]) * UNIT_NS[m[2]];
    s = s.slice(m[0].length);
  }
  return sign * total;
}

const MAX_TIMEOUT_NS = 3600e9;

/** Whether a glob is well-formed for Go's path.Match (classes closed and not empty, no trailing "\\"). */
export function validGlob(p: string): boolean {
  // One character of a class, possibly escaped; -1 when there is none (as Go's getEsc).
  const esc = (i: number): number => {
    if (i >= p.length || p[i] === '-' || p[i] === ']') return -1;
    if (p[i] === '\\') {
      i++;
      if (i >= p.length) return -1;
    }
    return i + 1;
  };
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      if (i + 1 >= p.length) return false;
      i++;
    } else if (c === '[') {
      let j = i + 1;
      if (p[j] === '^') j++;
      for (let n = 0; ; n++) {
        if (j < p.length && p[j] === ']' && n > 0) break;
        const lo = esc(j);
        if (lo < 0) return false;
        j = lo;
        if (p[j] === '-') {
          const hi = esc(j + 1);
          if (hi < 0) return false;
          j = hi;
        }
      }
      i = j;
    }
  }
  return true;
}

/** The config entry a form describes (empty fields are left out). */
export function formToConfig(f: ServerForm, base: Pick<McpServerConfig, 'disabled'> = {}): McpServerConfig {
  const cfg: McpServerConfig = { command: f.command.trim() };
  const args = parseArgs(f.args);
  if (args.length) cfg.args = args;
  const env = parseEnv(f.env).env;
  if (Object.keys(env).length) cfg.env = env;
  const cwd = f.cwd.trim();
  if (cwd) cfg.cwd = cwd;
  if (base.disabled) cfg.disabled = true;
  const timeout = f.timeout.trim();
  if (timeout) cfg.timeout = timeout;
  const include = parseList(f.include);
  const exclude = parseList(f.exclude);
  if (include.length || exclude.length) {
    cfg.tools = {};
    if (include.length) cfg.tools.include = include;
    if (exclude.length) cfg.tools.exclude = exclude;
  }
  const auto = parseList(f.autoApprove);
  if (auto.length) cfg.autoApprove = auto;
  return cfg;
}

/** The JSON text MCPAddServer and MCPCommandLine take. */
export function configJSON(cfg: McpServerConfig): string {
  return JSON.stringify(cfg);
}

/** A form filled in from an entry (for editing). */
export function configToForm(name: string, c: McpServerConfig | null | undefined): ServerForm {
  const cfg = c ?? { command: '' };
  return {
    name,
    command: cfg.command ?? '',
    args: (cfg.args ?? []).join('\n'),
    env: Object.entries(cfg.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    cwd: cfg.cwd ?? '',
    timeout: cfg.timeout ?? '',
    include: (cfg.tools?.include ?? []).join('\n'),
    exclude: (cfg.tools?.exclude ?? []).join('\n'),
    autoApprove: (cfg.autoApprove ?? []).join('\n'),
  };
}

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** Checks a form before it is sent; the errors are in the current language, by field. */
export function validateForm(f: ServerForm, t: Translate): FormErrors {
  const errs: FormErrors = {};
  if (f.name.trim() === '') errs.name = t('mcp.form.err.name');
  else if (/[\u0000-\u001f]/.test(f.name)) errs.name = t('mcp.form.err.nameChars');
  if (f.command.trim() === '') errs.command = t('mcp.form.err.command');
  const env = parseEnv(f.env);
  if (env.error) errs.env = t(env.error.key, { line: env.error.line, name: env.error.name ?? '' });
  const cwd = f.cwd.trim();
  if (cwd && !cwd.startsWith('/') && !cwd.startsWith('~/')) errs.cwd = t('mcp.form.err.cwd');
  const timeout = f.timeout.trim();
  if (timeout) {
    const ns = parseDuration(timeout);
    if (ns === null) errs.timeout = t('mcp.form.err.timeout', { value: timeout });
    else if (ns <= 0 || ns > MAX_TIMEOUT_NS) errs.timeout = t('mcp.form.err.timeoutRange');
  }
  for (const field of ['include', 'exclude'] as const) {
    const bad = parseList(f[field]).find((g) => !validGlob(g));
    if (bad !== undefined) errs[field] = t('mcp.form.err.glob', { glob: bad });
  }
  return errs;
}

const FIELD_OF: Record<string, FormField> = {
  command: 'command',
  args: 'args',
  env: 'env',
  cwd: 'cwd',
  timeout: 'timeout',
  tools: 'include',
  'tools.include': 'include',
  'tools.exclude': 'exclude',
  autoApprove: 'autoApprove',
};

/**
 * Spreads the backend's error about an entry over the form's fields. Problems read like
 * `entry:1:33: server "x": field "command": is empty; ...` (one per line); what names no field
 * goes to "general".
 */
export function errorsByField(message: string): FormErrors {
  const out: FormErrors = {};
  const add = (k: FormField | 'general', text: string) => {
    out[k] = out[k] ? `${out[k]}\n${text}` : text;
  };
  for (const raw of message.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const m = /field "([^"]+)": (.*)$/.exec(line);
    if (m) {
      const field = FIELD_OF[m[1]];
      if (field) {
        add(field, m[2]);
        continue;
      }
    }
    if (/needs a name|already exists/i.test(line)) add('name', line.replace(/^add server "[^"]*": /, ''));
    else if (/not a duration|duration string/i.test(line)) add('timeout', line.replace(/^.*?JSON: /, ''));
    else add('general', line);
  }
  return out;
}

/** The variable names an entry declares (sorted), for the approval step. */
export function envNames(cfg: McpServerConfig | null | undefined): string[] {
  return Object.keys(cfg?.env ?? {}).sort();
}

// ---------------------------------------------------------------------------------------------
// Prompt templates

/** The prompts of the ready servers, in server order. */
export function readyPrompts(servers: McpStatus[]): McpPrompt[] {
  const out: McpPrompt[] = [];
  for (const s of servers) {
    if (s.state !== 'ready') continue;
    for (const p of s.prompts ?? []) out.push({ ...p, server: p.server || s.name });
  }
  return out;
}

/** The text a fetched prompt puts in the message box: its messages, separated by blank lines. */
export function promptText(r: McpPromptResult | null | undefined): string {
  return (r?.messages ?? [])
    .map((m) => (m.text ?? '').trim())
    .filter((x) => x !== '')
    .join('\n\n');
}

/** The arguments to send: the filled-in ones only. */
export function promptArgs(values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v.trim() !== '') out[k] = v;
  return out;
}

/** Required arguments that are still empty. */
export function missingArgs(p: McpPrompt, values: Record<string, string>): string[] {
  return (p.arguments ?? []).filter((a) => a.required && !(values[a.name] ?? '').trim()).map((a) => a.name);
}

/** Puts a template's text into the draft: it replaces an empty draft and follows any other. */
export function insertTemplate(draft: string, text: string): string {
  if (draft.trim() === '') return text;
  return `${draft.replace(/\s+$/, '')}\n\n${text}`;
}

// ---------------------------------------------------------------------------------------------
// Store

export type McpApi = Pick<
  Api,
  | 'MCPServers'
  | 'MCPProblems'
  | 'MCPCommandLine'
  | 'MCPAddServer'
  | 'MCPApprove'
  | 'MCPRestart'
  | 'MCPSetDisabled'
  | 'MCPRemove'
  | 'MCPSetToolEnabled'
  | 'MCPAcceptToolChanges'
  | 'MCPStderr'
  | 'MCPPrompts'
  | 'MCPGetPrompt'
>;

function isStatus(d: unknown): d is McpStatus {
  return !!d && typeof d === 'object' && typeof (d as McpStatus).name === 'string' && typeof (d as McpStatus).state === 'string';
}

/** The configured servers, kept live by mcp:status events, and the problems of mcp.json. */
export class McpStore {
  servers = $state<McpStatus[]>([]);
  problems = $state<McpProblem[]>([]);
  loaded = $state(false);
  loading = $state(false);
  error = $state('');
  problemsError = $state('');
  /** Per server: an action is running. */
  busy = $state<Record<string, boolean>>({});
  /** Per server: the error of the last action. */
  errors = $state<Record<string, string>>({});
  /** Per server and tool ("server\u0000tool"): a switch is being changed. */
  toolBusy = $state<Record<string, boolean>>({});

  readonly api: McpApi;
  #seq = 0;
  #reloadTimer: ReturnType<typeof setTimeout> | null = null;
  /** Per server: the number of the last mcp:status event applied to its row. */
  #eventOf = new Map<string, number>();
  #events = 0;

  constructor(api: McpApi) {
    this.api = api;
  }

  /** The prompts of the ready servers (the composer's templates). */
  get prompts(): McpPrompt[] {
    return readyPrompts(this.servers);
  }

  server(name: string): McpStatus | undefined {
    return this.servers.find((s) => s.name === name);
  }

  /** Updates a row on every mcp:status event; returns the unsubscribe function. */
  listen(on: (name: string, cb: (d: unknown) => void) => Unsubscribe): Unsubscribe {
    const off = on('mcp:status', (d) => this.apply(d));
    return () => {
      off();
      if (this.#reloadTimer) clearTimeout(this.#reloadTimer);
      this.#reloadTimer = null;
    };
  }

  /**
   * Puts a status into the list, replacing the row of that name. A server the list does not
   * know (added by an edit of mcp.json) is added; a stopped one may have been removed from the
   * file, so the list is read again then, and the problems with it.
   */
  apply(d: unknown): void {
    if (!isStatus(d)) return;
    this.#eventOf.set(d.name, ++this.#events);
    const i = this.servers.findIndex((s) => s.name === d.name);
    if (i >= 0) this.servers[i] = d;
    else if (d.state !== 'stopped') this.servers.push(d);
    if (i < 0 || d.state === 'stopped' || d.state === 'invalid') this.#reloadSoon();
  }

  #reloadSoon() {
    if (!this.loaded) return;
    if (this.#reloadTimer) clearTimeout(this.#reloadTimer);
    this.#reloadTimer = setTimeout(() => {
      this.#reloadTimer = null;
      void this.load();
    }, 250);
  }

  async load(): Promise<void> {
    const seq = ++this.#seq;
    const eventsBefore = this.#events;
    this.loading = true;
    try {
      const [list] = await Promise.all([this.api.MCPServers(), this.loadProblems()]);
      if (seq !== this.#seq) return;
      // A row that an event updated while the list was on its way is newer than the list.
      this.servers = list.map((s) => {
        if ((this.#eventOf.get(s.name) ?? 0) <= eventsBefore) return s;
        return this.servers.find((cur) => cur.name === s.name) ?? s;
      });
      this.error = '';
      this.loaded = true;
    } catch (e) {
      if (seq === this.#seq) this.error = errorMessage(e);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  async loadProblems(): Promise<void> {
    try {
      this.problems = await this.api.MCPProblems();
      this.problemsError = '';
    } catch (e) {
      this.problemsError = errorMessage(e);
    }
  }

  async #act(name: string, fn: () => Promise<McpStatus | void>): Promise<boolean> {
    this.busy[name] = true;
    this.errors[name] = '';
    try {
      const st = await fn();
      if (st) this.apply(st);
      return true;
    } catch (e) {
      this.errors[name] = errorMessage(e);
      return false;
    } finally {
      this.busy[name] = false;
    }
  }

  approve(name: string): Promise<boolean> {
    return this.#act(name, () => this.api.MCPApprove(name));
  }

  restart(name: string): Promise<boolean> {
    return this.#act(name, () => this.api.MCPRestart(name));
  }

  setDisabled(name: string, disabled: boolean): Promise<boolean> {
    return this.#act(name, () => this.api.MCPSetDisabled(name, disabled));
  }

  acceptChanges(name: string): Promise<boolean> {
    return this.#act(name, () => this.api.MCPAcceptToolChanges(name));
  }

  async remove(name: string): Promise<boolean> {
    const ok = await this.#act(name, () => this.api.MCPRemove(name));
    if (ok) {
      this.servers = this.servers.filter((s) => s.name !== name);
      delete this.errors[name];
      void this.loadProblems();
    }
    return ok;
  }

  async setToolEnabled(server: string, tool: McpTool, enabled: boolean): Promise<void> {
    const key = `${server}\u0000${tool.remote}`;
    this.toolBusy[key] = true;
    this.errors[server] = '';
    try {
      this.apply(await this.api.MCPSetToolEnabled(server, toggleName(tool), enabled));
    } catch (e) {
      this.errors[server] = errorMessage(e);
    } finally {
      this.toolBusy[key] = false;
    }
  }

  isToolBusy(server: string, tool: McpTool): boolean {
    return !!this.toolBusy[`${server}\u0000${tool.remote}`];
  }

  /** Adds or replaces an entry; the status says whether it waits for approval. Throws the backend's error. */
  async save(name: string, cfg: McpServerConfig): Promise<McpStatus> {
    const st = await this.api.MCPAddServer(name, configJSON(cfg));
    this.apply(st);
    void this.loadProblems();
    return st;
  }

  /** The end of a server's stderr (the full ring buffer). */
  stderr(name: string): Promise<string> {
    return this.api.MCPStderr(name);
  }
}
