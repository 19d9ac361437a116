// MCP servers in the UI: the server list with live status, the add/edit form's conversion to a
// config entry (and back), client-side checks, server errors mapped to form fields, and prompt
// templates. Pure helpers first, then the stores.
import {
  Events,
  mcpStateValues,
  errorMessage,
  isConfirmError,
  type Api,
  type McpPromptInfo,
  type McpProblem,
  type McpPromptResult,
  type McpResourceInfo,
  type McpResourceContent,
  type McpServerConfig,
  type McpState,
  type McpStatus,
  type McpToolStatus,
  type McpTransport,
  type Unsubscribe,
} from './backend';
import type { MessageKey } from './i18n.svelte';
import { needsApproval, type CodeState } from './tools.svelte';

/** The value the backend shows instead of a stored header value (mcp.Redacted; sending it back keeps the value). */
export const MCP_REDACTED = '[REDACTED]';

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
  return (mcpStateValues as readonly string[]).includes(s ?? '');
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
export function toolChips(t: Pick<McpToolStatus, 'annotations'>): MessageKey[] {
  const a = t.annotations ?? {};
  const out: MessageKey[] = [];
  if (a.read_only) out.push('mcp.chip.readOnly');
  if (a.destructive) out.push('mcp.chip.destructive');
  if (a.open_world) out.push('mcp.chip.openWorld');
  if (a.command) out.push('mcp.chip.command');
  return out;
}

/** Whether a call of the tool asks the user first (it needs approval and is not auto-approved). */
export function asksFirst(t: Pick<McpToolStatus, 'annotations' | 'auto_approve'>): boolean {
  return needsApproval(t.annotations) && !t.auto_approve;
}

/** The name MCPSetToolEnabled takes: the server's own name; Hermes's added tools by their registered name. */
export function toggleName(t: Pick<McpToolStatus, 'name' | 'remote' | 'builtin'>): string {
  return t.builtin && t.name ? t.name : t.remote;
}

/** Whether the switch can be used (a changed tool must be accepted first; a skipped one is never offered). */
export function canToggle(t: Pick<McpToolStatus, 'changed' | 'skipped'>): boolean {
  return !t.changed && !t.skipped;
}

// ---------------------------------------------------------------------------------------------
// The add/edit form

/** A local program (stdio) or a remote server (an http(s) URL). */
export type ServerKind = 'command' | 'url';

/** One header of a remote entry, as the form edits it. */
export interface HeaderRow {
  name: string;
  /** The new value; empty keeps a stored one (see kept). */
  value: string;
  /**
   * The header's name in the stored entry when its value is stored (the backend shows it as
   * [REDACTED]); an empty value keeps that value while the name stays the same.
   */
  kept: string;
}

/** The form's fields: plain text (lists one item per line) and, for a remote entry, its choices. */
export interface ServerForm {
  name: string;
  kind: ServerKind;
  command: string;
  /** One argument per line. */
  args: string;
  /** KEY=VALUE lines. */
  env: string;
  cwd: string;
  url: string;
  transport: 'http' | 'sse';
  headers: HeaderRow[];
  allowInternet: boolean;
  caFile: string;
  timeout: string;
  /** Globs, one per line (or separated by commas). */
  include: string;
  exclude: string;
  /** Tool names, one per line (or separated by commas). */
  autoApprove: string;
}

export type FormField = keyof ServerForm;
/** The fields edited in a text box. */
export type TextField = 'name' | 'command' | 'args' | 'env' | 'cwd' | 'url' | 'caFile' | 'timeout' | 'include' | 'exclude' | 'autoApprove';
export type FormErrors = Partial<Record<FormField | 'general', string>>;

export function emptyForm(): ServerForm {
  return {
    name: '',
    kind: 'command',
    command: '',
    args: '',
    env: '',
    cwd: '',
    url: '',
    transport: 'http',
    headers: [],
    allowInternet: false,
    caFile: '',
    timeout: '',
    include: '',
    exclude: '',
    autoApprove: '',
  };
}

/** An empty header row. */
export function emptyHeader(): HeaderRow {
  return { name: '', value: '', kept: '' };
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

/** A header row with neither a name nor a value is left out. */
function headerRows(rows: HeaderRow[] | undefined): HeaderRow[] {
  return (rows ?? []).filter((h) => h.name.trim() !== '' || h.value !== '');
}

/** Whether a row keeps its stored value (left empty, its name unchanged). */
export function keepsStored(h: HeaderRow): boolean {
  return h.kept !== '' && h.value === '' && h.name.trim() === h.kept;
}

/**
 * The config entry a form describes (empty fields are left out). A command entry has no
 * url, type or headers; a URL entry has no command, args, env or cwd. A header whose stored
 * value is kept is sent as [REDACTED], which the backend reads as "keep the stored value".
 */
export function formToConfig(f: ServerForm, base: Pick<McpServerConfig, 'disabled'> = {}): McpServerConfig {
  let cfg: McpServerConfig;
  if (f.kind === 'url') {
    cfg = { url: f.url.trim(), type: f.transport === 'sse' ? 'sse' : 'http' };
    const headers: Record<string, string> = {};
    for (const h of headerRows(f.headers)) headers[h.name.trim()] = keepsStored(h) ? MCP_REDACTED : h.value.trim();
    if (Object.keys(headers).length) cfg.headers = headers;
    if (f.allowInternet) cfg.allow_internet = true;
    const ca = f.caFile.trim();
    if (ca) cfg.ca_file = ca;
  } else {
    cfg = { command: f.command.trim() };
    const args = parseArgs(f.args);
    if (args.length) cfg.args = args;
    const env = parseEnv(f.env).env;
    if (Object.keys(env).length) cfg.env = env;
    const cwd = f.cwd.trim();
    if (cwd) cfg.cwd = cwd;
  }
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

/** Whether an entry is a remote server. */
export function isRemoteConfig(c: McpServerConfig | null | undefined): boolean {
  return !!c && (!!c.url || c.type === 'http' || c.type === 'sse');
}

/** A form filled in from an entry (for editing); stored header values stay hidden. */
export function configToForm(name: string, c: McpServerConfig | null | undefined): ServerForm {
  const cfg = c ?? {};
  return {
    ...emptyForm(),
    name,
    kind: isRemoteConfig(cfg) ? 'url' : 'command',
    command: cfg.command ?? '',
    args: (cfg.args ?? []).join('\n'),
    env: Object.entries(cfg.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    cwd: cfg.cwd ?? '',
    url: cfg.url ?? '',
    transport: cfg.type === 'sse' ? 'sse' : 'http',
    headers: Object.entries(cfg.headers ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => (v === MCP_REDACTED ? { name: k, value: '', kept: k } : { name: k, value: v, kept: '' })),
    allowInternet: cfg.allow_internet === true,
    caFile: cfg.ca_file ?? '',
    timeout: cfg.timeout ?? '',
    include: (cfg.tools?.include ?? []).join('\n'),
    exclude: (cfg.tools?.exclude ?? []).join('\n'),
    autoApprove: (cfg.autoApprove ?? []).join('\n'),
  };
}

/** The URL as a URL when it is an http:// or https:// address with a host, else null. */
export function parseServerURL(text: string): URL | null {
  const s = text.trim();
  if (!/^https?:\/\//i.test(s)) return null;
  try {
    const u = new URL(s);
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return null;
    return u;
  } catch {
    return null;
  }
}

/** Where a host is, by its look: as backend/netguard classifies it. */
export type HostClass = 'local' | 'internet' | 'refused' | 'unknown';

function classifyV4(a: number[]): HostClass {
  const [x, y] = a;
  if (a.join('.') === '100.100.100.200') return 'refused'; // cloud metadata
  if (x === 0 || (x === 169 && y === 254) || (x >= 224 && x <= 239) || a.join('.') === '255.255.255.255') return 'refused';
  if (x === 127 || x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168)) return 'local';
  return 'internet';
}

/**
 * Where a URL's host is, by its look alone, following backend/netguard: loopback, the private
 * ranges and local names (localhost, a single label, .local, .lan, .home.arpa, .internal) are
 * local; link-local, multicast, unspecified and cloud-metadata addresses are refused; other
 * addresses and names are on the internet. An IPv6 form this does not know is "unknown" (the
 * backend decides).
 */
export function classifyHost(host: string): HostClass {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) return classifyV4(v4.slice(1).map(Number));
  if (h.includes(':')) {
    if (h === '::1') return 'local';
    if (h === '::' || h === 'fd00:ec2::254' || /^ff/.test(h) || /^fe[89ab]/.test(h)) return 'refused';
    if (/^f[cd]/.test(h)) return 'local';
    if (h.startsWith('::ffff:') || h.startsWith('::')) return 'unknown';
    return 'internet';
  }
  if (h === 'localhost' || !h.includes('.')) return 'local';
  return /\.(localhost|local|lan|home\.arpa|internal)$/.test(h) ? 'local' : 'internet';
}

/** An http:// URL to an internet host (allowed, but unencrypted). */
export function plainHttpToInternet(f: Pick<ServerForm, 'kind' | 'url' | 'allowInternet'>): boolean {
  if (f.kind !== 'url' || !f.allowInternet) return false;
  const u = parseServerURL(f.url);
  return !!u && u.protocol === 'http:' && classifyHost(u.hostname) === 'internet';
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** Checks a form before it is sent; the errors are in the current language, by field. */
export function validateForm(f: ServerForm, t: Translate): FormErrors {
  const errs: FormErrors = {};
  if (f.name.trim() === '') errs.name = t('mcp.form.err.name');
  else if (/[\u0000-\u001f]/.test(f.name)) errs.name = t('mcp.form.err.nameChars');
  if (f.kind === 'url') {
    const u = parseServerURL(f.url);
    if (f.url.trim() === '') errs.url = t('mcp.form.err.url');
    else if (!u) errs.url = t('mcp.form.err.urlScheme');
    else if (u.username || u.password) errs.url = t('mcp.form.err.urlUser');
    else {
      const where = classifyHost(u.hostname);
      if (where === 'refused') errs.url = t('mcp.form.err.urlRefused', { host: u.hostname });
      else if (where === 'internet' && !f.allowInternet) errs.url = t('mcp.form.err.urlInternet', { host: u.hostname });
    }
    const seen = new Set<string>();
    for (const h of headerRows(f.headers)) {
      const name = h.name.trim();
      if (name === '') {
        errs.headers = t('mcp.form.err.headerName');
        break;
      }
      if (!HEADER_NAME.test(name)) {
        errs.headers = t('mcp.form.err.headerChars', { name });
        break;
      }
      if (seen.has(name.toLowerCase())) {
        errs.headers = t('mcp.form.err.headerTwice', { name });
        break;
      }
      seen.add(name.toLowerCase());
      if (/[\r\n\u0000]/.test(h.value)) {
        errs.headers = t('mcp.form.err.headerValueChars', { name });
        break;
      }
      if (h.value.trim() === '' && !keepsStored(h)) {
        errs.headers = t(h.kept ? 'mcp.form.err.headerRenamed' : 'mcp.form.err.headerValue', { name });
        break;
      }
    }
    const ca = f.caFile.trim();
    if (ca && !ca.startsWith('/') && !ca.startsWith('~/')) errs.caFile = t('mcp.form.err.cwd');
  } else {
    if (f.command.trim() === '') errs.command = t('mcp.form.err.command');
    const env = parseEnv(f.env);
    if (env.error) errs.env = t(env.error.key, { line: env.error.line, name: env.error.name ?? '' });
    const cwd = f.cwd.trim();
    if (cwd && !cwd.startsWith('/') && !cwd.startsWith('~/')) errs.cwd = t('mcp.form.err.cwd');
  }
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
  url: 'url',
  type: 'transport',
  headers: 'headers',
  allow_internet: 'allowInternet',
  ca_file: 'caFile',
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
      // A header is named like headers.Authorization.
      const field = FIELD_OF[m[1]] ?? FIELD_OF[m[1].replace(/\..*$/, '')];
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
// Transports

/** How Hermes talks to a server (older backends say nothing: read it from the entry). */
export function serverTransport(s: Pick<McpStatus, 'transport' | 'config'>): McpTransport {
  if (s.transport === 'stdio' || s.transport === 'http' || s.transport === 'sse') return s.transport;
  if (!isRemoteConfig(s.config)) return 'stdio';
  return s.config?.type === 'sse' ? 'sse' : 'http';
}

/** Whether a server is remote (reached over HTTP). */
export function isRemote(s: Pick<McpStatus, 'transport' | 'config'>): boolean {
  return serverTransport(s) !== 'stdio';
}

/** A remote server's address. */
export function serverURL(s: Pick<McpStatus, 'url' | 'config'>): string {
  return s.url || s.config?.url || '';
}

/** The names of a remote server's headers (never their values), sorted. */
export function headerNames(s: Pick<McpStatus, 'header_names' | 'config'>): string[] {
  if (Array.isArray(s.header_names)) return [...s.header_names];
  return Object.keys(s.config?.headers ?? {}).sort();
}

/** The badge text of a transport. */
export function transportKey(tr: McpTransport): MessageKey {
  return tr === 'http' ? 'mcp.transport.http' : tr === 'sse' ? 'mcp.transport.sse' : 'mcp.transport.stdio';
}

// ---------------------------------------------------------------------------------------------
// Resources

/** The most characters a resource preview shows (the whole text is attached). */
export const PREVIEW_CHARS = 8000;

/** The start of a resource's text for the preview, and whether it was cut. */
export function previewText(text: string, max = PREVIEW_CHARS): { text: string; cut: boolean; total: number } {
  const all = [...text];
  if (all.length <= max) return { text, cut: false, total: all.length };
  return { text: all.slice(0, max).join(''), cut: true, total: all.length };
}

/** What the list shows for a resource: its title, else its name, else its URI. */
export function resourceLabel(r: Pick<McpResourceInfo, 'title' | 'name' | 'uri'>): string {
  return r.title || r.name || r.uri;
}

/** Whether a read resource can be attached to a message (it has text, and not only a binary description). */
export function canAttach(c: McpResourceContent | null | undefined): boolean {
  return !!c && !c.binary && c.text.trim() !== '';
}

/** A server's resource list as the panel shows it. */
export interface ResourceList {
  loading: boolean;
  error: string;
  /** null until loaded. */
  items: McpResourceInfo[] | null;
}

/** The resource being previewed in a server's card. */
export interface ResourcePreview {
  resource: McpResourceInfo;
  loading: boolean;
  error: string;
  content: McpResourceContent | null;
}

// ---------------------------------------------------------------------------------------------
// Prompt templates

/** The prompts of the ready servers, in server order. */
export function readyPrompts(servers: McpStatus[]): McpPromptInfo[] {
  const out: McpPromptInfo[] = [];
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
export function missingArgs(p: McpPromptInfo, values: Record<string, string>): string[] {
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
  | 'MCPResources'
  | 'MCPReadResource'
> &
  Partial<Pick<Api, 'needsCode'>>;

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
  /** Per server: its approval waits for the one-time code (web mode), and why. */
  codes = $state<Record<string, CodeState>>({});
  /** Per server and tool ("server\u0000tool"): a switch is being changed. */
  toolBusy = $state<Record<string, boolean>>({});
  /** Per server: its resources, once asked for. */
  resources = $state<Record<string, ResourceList>>({});
  /** Per server: the resource being previewed. */
  previews = $state<Record<string, ResourcePreview | null>>({});

  readonly api: McpApi;
  #seq = 0;
  #reloadTimer: ReturnType<typeof setTimeout> | null = null;
  /** Per server: the number of the last mcp:status event applied to its row. */
  #eventOf = new Map<string, number>();
  #events = 0;
  /** Per server: the number of the last resource read asked for. */
  #reads = new Map<string, number>();

  constructor(api: McpApi) {
    this.api = api;
  }

  /** The prompts of the ready servers (the composer's templates). */
  get prompts(): McpPromptInfo[] {
    return readyPrompts(this.servers);
  }

  server(name: string): McpStatus | undefined {
    return this.servers.find((s) => s.name === name);
  }

  /** Updates a row on every mcp:status event; returns the unsubscribe function. */
  listen(on: (name: string, cb: (d: unknown) => void) => Unsubscribe): Unsubscribe {
    const off = on(Events.mcpStatus, (d) => this.apply(d));
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
    // A server that is no longer ready may list other resources when it is back.
    if (d.state !== 'ready' && (this.resources[d.name] || this.previews[d.name])) {
      delete this.resources[d.name];
      this.closePreview(d.name);
    }
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

  /** Whether approving a server needs the one-time code printed by `hermes serve` (web mode). */
  needsCode(): boolean {
    return this.api.needsCode?.() === true;
  }

  /**
   * Approves a server's command and starts it. In web mode the first try makes the server print
   * a one-time code (codes[name] then says why it wants one) and the next one sends it.
   */
  async approve(name: string, code = ''): Promise<boolean> {
    this.busy[name] = true;
    this.errors[name] = '';
    try {
      const st = code ? await this.api.MCPApprove(name, code) : await this.api.MCPApprove(name);
      if (st) this.apply(st);
      delete this.codes[name];
      return true;
    } catch (e) {
      if (isConfirmError(e)) {
        this.codes[name] = { reason: e.reason, triesLeft: e.triesLeft };
      } else {
        delete this.codes[name];
        this.errors[name] = errorMessage(e);
      }
      return false;
    } finally {
      this.busy[name] = false;
    }
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

  async setToolEnabled(server: string, tool: McpToolStatus, enabled: boolean): Promise<void> {
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

  isToolBusy(server: string, tool: McpToolStatus): boolean {
    return !!this.toolBusy[`${server}\u0000${tool.remote}`];
  }

  /** Adds or replaces an entry; the status says whether it waits for approval. Throws the backend's error. */
  async save(name: string, cfg: McpServerConfig): Promise<McpStatus> {
    const st = await this.api.MCPAddServer(name, cfg);
    this.apply(st);
    void this.loadProblems();
    return st;
  }

  /** Lists a server's resources (again), keeping the old list on screen while it loads. */
  async loadResources(server: string): Promise<void> {
    const cur = this.resources[server];
    this.resources[server] = { loading: true, error: '', items: cur?.items ?? null };
    try {
      const items = await this.api.MCPResources(server);
      this.resources[server] = { loading: false, error: '', items };
    } catch (e) {
      this.resources[server] = { loading: false, error: errorMessage(e), items: cur?.items ?? null };
    }
  }

  /** Reads a resource into the server's preview; a later pick wins over an earlier one still loading. */
  async readResource(server: string, resource: McpResourceInfo): Promise<void> {
    const seq = (this.#reads.get(server) ?? 0) + 1;
    this.#reads.set(server, seq);
    this.previews[server] = { resource, loading: true, error: '', content: null };
    const mine = () => this.#reads.get(server) === seq;
    try {
      const content = await this.api.MCPReadResource(server, resource.uri);
      if (mine()) this.previews[server] = { resource, loading: false, error: '', content };
    } catch (e) {
      if (mine()) this.previews[server] = { resource, loading: false, error: errorMessage(e), content: null };
    }
  }

  closePreview(server: string): void {
    this.#reads.set(server, (this.#reads.get(server) ?? 0) + 1);
    this.previews[server] = null;
  }

  /** The end of a server's stderr (the full ring buffer). */
  stderr(name: string): Promise<string> {
    return this.api.MCPStderr(name);
  }
}
