// Backend health: polls Status(), keeps the model list, and says in words what to do next.
import { Events, errorCode, errorMessage, type Api, type ModelInfo, type Refusal, type Status, type Unsubscribe } from './backend';
import { t as translate, type MessageKey } from './i18n.svelte';
import { noticeLine, noticeWords } from './notices';

export type StatusState =
  | 'loading'
  | 'backend-error'
  | 'disconnected'
  | 'restarted'
  | 'unreachable'
  | 'model-missing'
  | 'problem'
  | 'ok'
  | 'db-waiting';

/**
 * Web mode, why the page may never get its backend back: "restarted" (the server answers but
 * refuses this page's token), "gone" (disconnected for longer than StatusDeps.goneMs).
 */
export type Away = '' | 'restarted' | 'gone';

export interface StatusView {
  state: StatusState;
  text: string;
}

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/**
 * The status bar's text: the backend's problem and fix when it sends one (worded by its code in
 * the user's language, lib/notices.ts), else our guidance.
 * When the backend is gone (web mode: the event stream or its heartbeat stopped) the bar says
 * so before anything else; while a write waits for another Hermes process (db:waiting) it says that.
 */
export function describeStatus(
  s: Status | null,
  err: string,
  t: Translate,
  dbWaiting = false,
  disconnected = false,
  errCode = '',
  away: Away = '',
): StatusView {
  // Web mode after `hermes serve` was restarted: its new token is not this page's, and no retry
  // will change that; the page has to be opened from the new link.
  if (away === 'restarted') return { state: 'restarted', text: t('status.restarted') };
  // Web mode without the token (a tab opened on the bare address): the server is there but
  // refuses this tab, its event stream too; say how to get in rather than "reconnecting".
  const noToken = errCode === 'unauthorized' || /^unauthorized\b/.test(err);
  if (noToken && !s) return { state: 'backend-error', text: t('status.noToken') };
  if (disconnected) {
    // Gone for a while: a `hermes serve` started again listens on a new port unless --addr fixed
    // it, and this page cannot find it there; say what to do rather than only "reconnecting".
    return { state: 'disconnected', text: t(away === 'gone' ? 'status.disconnectedLong' : 'status.disconnected') };
  }
  if (dbWaiting) return { state: 'db-waiting', text: t('status.dbWaiting') };
  if (!s) {
    if (err) return { state: 'backend-error', text: t('status.backendError', { error: err }) };
    return { state: 'loading', text: t('status.loading') };
  }
  const own = noticeLine(s, t);
  if (!s.reachable) {
    return { state: 'unreachable', text: own || t('status.unreachable', { host: s.host || '127.0.0.1:11434' }) };
  }
  if (!s.modelAvailable) {
    return { state: 'model-missing', text: own || t('status.modelMissing', { model: s.model || '?' }) };
  }
  if (own) return { state: 'problem', text: own };
  const text = t('status.ok', { version: s.version || '?', host: s.host, model: s.model });
  return { state: 'ok', text: s.ollamaManaged ? `${text} · ${t('status.managed')}` : text };
}

export interface StatusDeps {
  api: Pick<Api, 'Status' | 'ListModels' | 'SetSetting' | 'UIReady'>;
  intervalMs?: number;
  /** Called when the backend is back after a disconnection (the app reloads its lists). */
  onReconnect?: () => void;
  /** After this long disconnected the bar also says how to reach a restarted server (30 s). */
  goneMs?: number;
  /** The first Status, asked for before the page was drawn (main.ts): the first refresh takes it. */
  first?: () => Promise<Status> | undefined;
}

export class StatusStore {
  status = $state<Status | null>(null);
  error = $state('');
  /** The last failure's code (app/errors.go), "" when none or it had none. */
  errorCode = $state('');
  /** The backend is gone (web mode): the event stream dropped or its heartbeat stopped. */
  disconnected = $state(false);
  /** Web mode: the server was restarted and refuses this page's token (final; see backend Refusal). */
  restarted = $state(false);
  /** Web mode: disconnected for longer than goneMs. */
  gone = $state(false);
  #goneTimer: ReturnType<typeof setTimeout> | undefined;

  /** Why the backend may not come back by itself, for describeStatus. */
  get away(): Away {
    return this.restarted ? 'restarted' : this.gone ? 'gone' : '';
  }
  models = $state<ModelInfo[]>([]);
  dismissed = $state<string[]>([]);
  /** The intent banner was hidden for this run. */
  intentDismissed = $state(false);
  /** A write waits for another Hermes process (the db:waiting event). */
  dbWaiting = $state(false);

  #deps: StatusDeps;
  #timer: ReturnType<typeof setInterval> | null = null;
  #inflight: Promise<void> | null = null;
  #readySent = false;
  #modelsKey = '\u0000';

  #first: Promise<Status> | undefined;

  constructor(deps: StatusDeps) {
    this.#deps = deps;
    this.#first = deps.first?.();
  }

  /** The warnings the user has not hidden: key (the English, what dismiss takes) and text (in the UI's language). */
  get warnings(): { key: string; text: string }[] {
    return (this.status?.warnings ?? [])
      .filter((w) => w?.text && !this.dismissed.includes(w.text))
      .map((w) => ({ key: w.text, text: noticeWords({ code: w.code, params: w.params, problem: w.text }, translate).problem }));
  }

  /** The intent classifier's problem and fix in the UI's language, unless there is none or the user hid it. */
  get intentNotice(): { problem: string; fix: string } | null {
    const s = this.status;
    if (!(s?.intentProblem ?? '').trim() || this.intentDismissed) return null;
    return noticeWords({ code: s?.intentCode, params: s?.intentParams, problem: s?.intentProblem ?? '', fix: s?.intentFix }, translate);
  }

  /**
   * Follows the backend's liveness (backend.liveness). Going down shows "Disconnected —
   * reconnecting"; coming back asks for Status at once and calls onReconnect. A refusal after the
   * page had been connected (`hermes serve` restarted, a new token) shows "restarted" for good.
   */
  follow(liveness: (cb: (up: boolean, refused?: Refusal) => void) => Unsubscribe): Unsubscribe {
    return liveness((up, refused) => {
      if (refused === 'restarted') {
        clearTimeout(this.#goneTimer);
        this.restarted = true;
        this.disconnected = this.gone = false;
        return;
      }
      if (!up) {
        if (!this.disconnected) {
          clearTimeout(this.#goneTimer);
          this.#goneTimer = setTimeout(() => (this.gone = this.disconnected), this.#deps.goneMs ?? 30_000);
        }
        this.disconnected = true;
        return;
      }
      clearTimeout(this.#goneTimer);
      this.gone = false;
      if (!this.disconnected) return;
      this.disconnected = false;
      void this.refresh(true);
      this.#deps.onReconnect?.();
    });
  }

  /** Follows db:waiting (true while a write waits for another Hermes process). */
  listen(on: (name: string, cb: (d: unknown) => void) => Unsubscribe): Unsubscribe {
    return on(Events.dbWaiting, (d) => (this.dbWaiting = d === true));
  }

  dismissIntent(): void {
    this.intentDismissed = true;
  }

  dismiss(w: string): void {
    if (!this.dismissed.includes(w)) this.dismissed = [...this.dismissed, w];
  }

  start(): void {
    if (this.#timer) return;
    void this.refresh();
    this.#timer = setInterval(() => void this.refresh(), this.#deps.intervalMs ?? 3000);
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Asks for Status() now. With fresh, a call already in flight is followed by a new one. */
  refresh(fresh = false): Promise<void> {
    if (this.#inflight) return fresh ? this.#inflight.then(() => this.refresh()) : this.#inflight;
    this.#inflight = (async () => {
      try {
        const first = this.#first;
        this.#first = undefined;
        const s = await (first ?? this.#deps.api.Status());
        this.status = s;
        this.error = '';
        this.errorCode = '';
        const key = `${s?.reachable}|${(s?.models ?? []).join('\n')}`;
        if (key !== this.#modelsKey) {
          this.#modelsKey = key;
          void this.loadModels();
        }
      } catch (e) {
        this.error = errorMessage(e);
        this.errorCode = errorCode(e);
      } finally {
        this.#inflight = null;
        if (!this.#readySent) {
          this.#readySent = true;
          this.#deps.api.UIReady().catch(() => {});
        }
      }
    })();
    return this.#inflight;
  }

  async loadModels(): Promise<void> {
    try {
      this.models = await this.#deps.api.ListModels();
    } catch {
      this.models = [];
    }
  }

  /** Makes name the chat model. Throws the backend's error. */
  async setModel(name: string): Promise<void> {
    await this.#deps.api.SetSetting('chat_model', name);
    await this.refresh(true);
  }
}
