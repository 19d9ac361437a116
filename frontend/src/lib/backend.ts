// The only module that knows how the UI reaches the Go side.
//
// Two transports:
//  - Wails desktop: bound methods at window.go.app.<Service>.<Method>(...args) (serviceOf: App or a
//    domain's service), events via window.runtime.
//  - Web mode (`hermes serve`): POST /api/call/<Method> with a JSON array of positional arguments
//    and the per-run token in X-Hermes-Token; events as a server-sent event stream read with
//    fetch from /api/events (EventSource cannot send the header). The token arrives once in the
//    URL printed by `hermes serve`: adoptToken moves it into session storage and out of the
//    address bar and the history. No cookie carries it, so no other local server receives it.
//    Approving a new MCP command or a call of a tool that runs a program also needs a one-time
//    code printed in the terminal that runs `hermes serve` (ConfirmError tells the UI).
//
// Every failure is normalised to an Error carrying the backend's message. A backend error is a
// BackendError with the code and params the Go side gave it (app/errors.go ErrorBody: the web
// mode's JSON body, and the object a Wails binding's promise is rejected with, through the
// window's ErrorFormatter); errorMessage words it in the user's language (errors.ts).
import { errorText } from './errors';
import { confirmReasonValues, createApi, serviceOf, type Api, type CodeReply, type ConfirmReason, type ToolCall, type ToolsAnnotations } from './bindings.gen';

// The types of the Go side and the typed client, written from Go by bindgen.
export * from './bindings.gen';

// ---------------------------------------------------------------------------------------------
// Events

/**
 * The receipt ids in a scrub:done payload: erasures whose file was scrubbed by the background
 * retry after another Hermes process stopped reading the database.
 */
export function scrubbedIds(payload: unknown): string[] {
  return Array.isArray(payload) ? payload.filter((x): x is string => typeof x === 'string') : [];
}

// ---------------------------------------------------------------------------------------------
// Transports

export type Unsubscribe = () => void;
export type EventHandler = (data: unknown) => void;

export interface CallOptions {
  /** The one-time approval code the user typed (web mode). */
  code?: string;
}

export interface Transport {
  call(method: string, args: unknown[], opts?: CallOptions): Promise<unknown>;
  on(name: string, cb: EventHandler): Unsubscribe;
  openExternal(url: string): void;
  /** Approving a program needs the one-time code from the terminal (web mode only). */
  approvalCodes?: boolean;
  /**
   * Follows whether the backend is alive: true while the event stream is open and its heartbeat
   * arrives, false when it is not (web mode only; the desktop window's backend is in-process).
   * A down with a Refusal is final: the server answers but refuses this page's token, and the
   * page no longer retries.
   */
  liveness?(cb: (up: boolean, refused?: Refusal) => void): Unsubscribe;
}

/**
 * Why the server refused the event stream (HTTP 401): "restarted" when this page had been
 * connected before (a new `hermes serve` run with a new token), "token" when it never was (a tab
 * opened without the token).
 */
export type Refusal = 'restarted' | 'token';

/** A failed backend call: the English message, the code (app/errors.go) and its params. */
export class BackendError extends Error {
  readonly code: string;
  readonly params: Record<string, string>;
  constructor(message: string, code = '', params: Record<string, string> = {}) {
    super(message);
    this.name = 'BackendError';
    this.code = code;
    this.params = params;
  }
}

function stringParams(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (typeof x === 'string') out[k] = x;
  }
  return out;
}

/**
 * A call that needs the one-time code printed in the terminal that runs `hermes serve`: the
 * server's CodeReply (app/webcode.go), its reason one of ConfirmReason's.
 */
export class ConfirmError extends Error {
  readonly reason: ConfirmReason;
  readonly triesLeft: number | null;
  constructor(message: string, reason: ConfirmReason, triesLeft: number | null = null) {
    super(message);
    this.name = 'ConfirmError';
    this.reason = reason;
    this.triesLeft = triesLeft;
  }
}

const CONFIRM_REASONS: ReadonlySet<string> = new Set(confirmReasonValues);

export function isConfirmError(e: unknown): e is ConfirmError {
  return e instanceof ConfirmError;
}

/** Turns anything a transport can throw into an Error with a readable message. */
export function toError(e: unknown): Error {
  if (e instanceof Error) return e;
  if (typeof e === 'string') return new Error(e || 'unknown error');
  if (e && typeof e === 'object') {
    const o = e as Record<string, unknown>;
    if (typeof o.error === 'string') {
      return typeof o.code === 'string' && o.code ? new BackendError(o.error, o.code, stringParams(o.params)) : new Error(o.error);
    }
    if (typeof o.message === 'string') return new Error(o.message);
  }
  return new Error(String(e ?? 'unknown error'));
}

/** The code of a backend error ("" when it has none). */
export function errorCode(e: unknown): string {
  const err = toError(e);
  return err instanceof BackendError ? err.code : '';
}

/** The message to show: a backend error in the user's language by its code, else the error's text. */
export function errorMessage(e: unknown): string {
  const err = toError(e);
  return err instanceof BackendError && err.code ? errorText(err.code, err.params, err.message) : err.message;
}

// ---------------------------------------------------------------------------------------------
// Wails

interface WailsRuntime {
  EventsOn(name: string, cb: (...data: unknown[]) => void): (() => void) | void;
  EventsOff(name: string, ...more: string[]): void;
  BrowserOpenURL?(url: string): void;
}

interface WailsWindow {
  go?: { app?: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>> | undefined> };
  runtime?: WailsRuntime;
}

export function isWails(w: unknown = globalThis): boolean {
  const app = (w as WailsWindow)?.go?.app;
  return typeof app?.App === 'object' && app.App !== null;
}

export function wailsTransport(w: WailsWindow = globalThis as unknown as WailsWindow): Transport {
  return {
    async call(method, args) {
      const fn = w.go?.app?.[serviceOf[method] ?? 'App']?.[method];
      if (typeof fn !== 'function') throw new Error(`backend method ${method} is not available`);
      try {
        return await fn(...args);
      } catch (e) {
        throw toError(e);
      }
    },
    on(name, cb) {
      const rt = w.runtime;
      if (!rt) return () => {};
      const off = rt.EventsOn(name, (...data: unknown[]) => cb(data[0]));
      if (typeof off === 'function') return off;
      return () => rt.EventsOff(name);
    },
    openExternal(url) {
      w.runtime?.BrowserOpenURL?.(url);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Web mode

export interface WebOptions {
  token: string;
  base?: string;
  fetch?: typeof fetch;
  open?: (url: string) => void;
  /** How long a SendMessage waits for the event stream to connect before it posts anyway. */
  eventsReadyTimeoutMs?: number;
  /** The wait before the event stream reconnects (doubles up to 10 s). */
  retryMs?: number;
  /**
   * The backend counts as gone when the event stream has sent nothing (not even its ": ping"
   * heartbeat, every 20 s) for this long; the stream is then dropped and opened again.
   */
  staleMs?: number;
}

/** Reads the per-run token from a query string such as "?token=abc". */
export function readToken(search: string): string {
  try {
    return new URLSearchParams(search).get('token') ?? '';
  } catch {
    return '';
  }
}

/** Where the page keeps the token: this tab's session storage (never a cookie). */
export const TOKEN_KEY = 'hermes.token';

interface TokenPlace {
  location: Pick<Location, 'search' | 'pathname' | 'hash'>;
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  history?: Pick<History, 'replaceState' | 'state'> | null;
}

/**
 * Takes the token out of the URL the first time the page loads: it goes into session storage
 * and the address (and its history entry) is replaced by one without it. Later loads of the tab
 * (a reload) read it from session storage.
 */
export function adoptToken(place: TokenPlace): string {
  const { location: loc } = place;
  let storage = place.storage ?? null;
  const fromURL = readToken(loc.search);
  if (fromURL) {
    try {
      storage?.setItem(TOKEN_KEY, fromURL);
    } catch {
      storage = null; // storage refused (a private window with it off): the token lives in memory
    }
    const q = new URLSearchParams(loc.search);
    q.delete('token');
    const rest = q.toString();
    try {
      place.history?.replaceState(place.history.state, '', `${loc.pathname}${rest ? `?${rest}` : ''}${loc.hash}`);
    } catch {
      // the address stays as it was; calls still work
    }
    return fromURL;
  }
  try {
    return storage?.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Splits a server-sent event stream into the data of its events. */
export class EventStreamParser {
  #buf = '';
  #data: string[] = [];

  /** Feeds text; returns the data of every event it completed. */
  push(chunk: string): string[] {
    this.#buf += chunk;
    const out: string[] = [];
    for (;;) {
      const nl = this.#buf.search(/\r\n|\r|\n/);
      if (nl < 0 || (nl === this.#buf.length - 1 && this.#buf[nl] === '\r')) break; // "\r\n" may be split
      const line = this.#buf.slice(0, nl);
      this.#buf = this.#buf.slice(nl + (this.#buf.startsWith('\r\n', nl) ? 2 : 1));
      if (line === '') {
        if (this.#data.length) out.push(this.#data.join('\n'));
        this.#data = [];
      } else if (line.startsWith('data:')) {
        this.#data.push(line.slice(line[5] === ' ' ? 6 : 5));
      }
      // comments (": ping") and other fields are ignored
    }
    return out;
  }
}

/** Methods whose progress arrives as events: they wait for the event stream first. */
const STREAMING: ReadonlySet<string> = new Set([
  'SendMessage',
  'ContinueTurn',
  'RegenerateReply',
  'EditMessage',
  'PullModel',
  'ImportModel',
  'PreviewChatImport',
  'ImportChats',
  'RunWorkflow',
  'ResumeWorkflow',
]);

export function webTransport(opts: WebOptions): Transport {
  const base = opts.base ?? '';
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => globalThis.fetch(...a));
  const readyTimeout = opts.eventsReadyTimeoutMs ?? 3000;
  const firstRetry = opts.retryMs ?? 1000;
  const staleMs = opts.staleMs ?? 45_000;
  const handlers = new Map<string, Set<EventHandler>>();
  let started = false;
  let opened = false;
  let openWaiters: Array<() => void> = [];
  /** null until the first connection attempt ends one way or the other. */
  let alive: boolean | null = null;
  /** Set once the server refused the token: the stream is not opened again. */
  let refusal: Refusal | undefined;
  /** The stream was open at least once (a later refusal means the server was restarted). */
  let everOpened = false;
  const liveWatchers = new Set<(up: boolean, refused?: Refusal) => void>();

  function setAlive(up: boolean, refused?: Refusal) {
    if (alive === up && !refused) return;
    alive = up;
    if (refused) refusal = refused;
    for (const cb of [...liveWatchers]) {
      try {
        cb(up, refusal);
      } catch (err) {
        console.error('liveness handler failed', err);
      }
    }
  }

  function dispatch(raw: string) {
    let msg: { name?: unknown; data?: unknown };
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (!msg || typeof msg.name !== 'string') return;
    const set = handlers.get(msg.name);
    if (!set) return;
    for (const cb of [...set]) {
      try {
        cb(msg.data);
      } catch (err) {
        console.error(`event handler for ${msg.name} failed`, err);
      }
    }
  }

  function markOpen() {
    opened = true;
    const w = openWaiters;
    openWaiters = [];
    w.forEach((f) => f());
  }

  /** Reads the event stream, with the token in a header; reconnects when it ends. */
  async function stream() {
    let wait = firstRetry;
    for (;;) {
      try {
        const res = await doFetch(`${base}/api/events`, {
          method: 'GET',
          headers: { 'X-Hermes-Token': opts.token, Accept: 'text/event-stream' },
          credentials: 'omit',
          cache: 'no-store',
        });
        if (res.ok && res.body) {
          everOpened = true;
          markOpen();
          setAlive(true);
          wait = firstRetry;
          const reader = res.body.getReader();
          const decoder = new TextDecoder();
          const parser = new EventStreamParser();
          // Anything read (an event or the ": ping" heartbeat) shows the backend is alive; a
          // stream silent for staleMs is a backend that hangs or a connection that died quietly.
          let stale: ReturnType<typeof setTimeout> | undefined;
          const arm = () => {
            clearTimeout(stale);
            stale = setTimeout(() => {
              setAlive(false);
              reader.cancel().catch(() => {});
            }, staleMs);
          };
          arm();
          try {
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              arm();
              setAlive(true);
              for (const d of parser.push(decoder.decode(value, { stream: true }))) dispatch(d);
            }
          } finally {
            clearTimeout(stale);
          }
        } else {
          // Read the refusal so the connection is released.
          await res.text().catch(() => '');
          if (res.status === 401) {
            // This token will never be accepted again (`hermes serve` makes a new one each
            // run): say so once and stop asking. (A 403 is about the page's Host or Origin,
            // not its token: that is retried as any other failure.)
            opened = false;
            setAlive(false, everOpened ? 'restarted' : 'token');
            return;
          }
        }
      } catch {
        // the server went away: try again below
      }
      opened = false;
      setAlive(false);
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(wait * 2, 10_000);
    }
  }

  function connect() {
    if (started) return;
    started = true;
    void stream();
  }

  function eventsReady(): Promise<void> {
    connect();
    if (opened) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, readyTimeout);
      openWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  // Connect right away so that streaming events are not missed on the first send.
  connect();

  return {
    approvalCodes: true,
    async call(method, args, callOpts) {
      // Deltas are pushed only to connected listeners: wait briefly for the stream before a send.
      if (STREAMING.has(method)) await eventsReady();
      const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Hermes-Token': opts.token };
      if (callOpts?.code) headers['X-Hermes-Code'] = callOpts.code;
      let res: Response;
      try {
        res = await doFetch(`${base}/api/call/${encodeURIComponent(method)}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(args),
          credentials: 'omit',
        });
      } catch (e) {
        const detail = toError(e).message;
        throw new BackendError(`cannot reach the Hermes backend: ${detail}`, 'backend_unreachable', { detail });
      }
      const body = await res.text();
      let parsed: unknown = null;
      let parsedOK = true;
      if (body.trim() !== '') {
        try {
          parsed = JSON.parse(body);
        } catch {
          parsedOK = false;
        }
      }
      if (!res.ok) {
        if (parsedOK && parsed && typeof parsed === 'object' && typeof (parsed as { error?: unknown }).error === 'string') {
          const o = parsed as CodeReply;
          if (typeof o.confirm === 'string' && CONFIRM_REASONS.has(o.confirm)) {
            throw new ConfirmError(o.error, o.confirm, typeof o.tries_left === 'number' ? o.tries_left : null);
          }
          throw toError(parsed);
        }
        const detail = body.trim() || res.statusText;
        throw new Error(`${method} failed (HTTP ${res.status})${detail ? `: ${detail}` : ''}`);
      }
      if (!parsedOK) throw new Error(`${method}: the backend sent a response that is not JSON`);
      return parsed;
    },
    on(name, cb) {
      connect();
      let set = handlers.get(name);
      if (!set) handlers.set(name, (set = new Set()));
      set.add(cb);
      return () => {
        const s = handlers.get(name);
        if (!s) return;
        s.delete(cb);
        if (s.size === 0) handlers.delete(name);
      };
    },
    openExternal(url) {
      (opts.open ?? ((u: string) => globalThis.open?.(u, '_blank', 'noopener,noreferrer')))(url);
    },
    liveness(cb) {
      connect();
      liveWatchers.add(cb);
      if (alive !== null) cb(alive, refusal);
      return () => {
        liveWatchers.delete(cb);
      };
    },
  };
}


let chosen: Transport | null = null;

function transport(): Transport {
  if (chosen) return chosen;
  if (isWails()) {
    chosen = wailsTransport();
  } else {
    chosen = webTransport({ token: startToken() });
  }
  return chosen;
}

let tabToken: string | null = null;

/** The token of this tab, taken out of the URL on first use (see adoptToken). */
function startToken(): string {
  if (tabToken !== null) return tabToken;
  if (typeof location === 'undefined') return '';
  let storage: Storage | null = null;
  try {
    storage = globalThis.sessionStorage ?? null;
  } catch {
    storage = null;
  }
  tabToken = adoptToken({ location, storage, history: typeof history !== 'undefined' ? history : null });
  return tabToken;
}

/**
 * In web mode, takes the token out of the address bar at once, before anything else runs;
 * main.ts calls it first. (The transport itself is still picked on first use.)
 */
export function startBackend(): void {
  if (!isWails()) startToken();
}

const lazy: Transport = {
  call: (m, a, o) => transport().call(m, a, o),
  on: (n, cb) => transport().on(n, cb),
  openExternal: (u) => transport().openExternal(u),
  get approvalCodes() {
    return transport().approvalCodes === true;
  },
  liveness: (cb) => transport().liveness?.(cb) ?? (() => {}),
};

/** Follows the backend's liveness (web mode; in the desktop window it never reports). */
export function liveness(cb: (up: boolean, refused?: Refusal) => void): Unsubscribe {
  return lazy.liveness!(cb);
}

/** The app's backend. The transport is picked on first use. */
export const api: Api = createApi(lazy);

/** Subscribes to a backend event; returns the unsubscribe function. */
export function on(name: string, cb: EventHandler): Unsubscribe {
  return lazy.on(name, cb);
}

/** Opens a link outside the app window (the system browser in the desktop app). */
export function openExternal(url: string): void {
  lazy.openExternal(url);
}

/**
 * Whether a file can be saved by a Blob download. The web mode runs in a real browser; inside the
 * desktop window (WebKitGTK under Wails v2) downloads are not handled, so the UI shows the text
 * with a copy button instead.
 */
export function canDownload(): boolean {
  return !isWails();
}

/** Whether PickModelFile can open a native file dialog (the desktop window; not web mode). */
export function hasFileDialog(): boolean {
  return isWails();
}

/** Offers text as a file download (Blob + <a download>). Returns false where that is not possible. */
export function downloadText(filename: string, text: string | Uint8Array<ArrayBuffer>, mime: string): boolean {
  if (!canDownload() || typeof document === 'undefined' || typeof URL?.createObjectURL !== 'function') return false;
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return true;
}
