import {
  Events,
  errorCode,
  errorMessage,
  type Api,
  type ChatImportPreview,
  type ChatImportProgress,
  type ChatImportSource,
  type EventHandler,
  type SessionImportResult,
  type Unsubscribe,
} from './backend';

// Importing conversations (ImportForm): a source and a file, then a preview of what the file holds
// (counts, date range) before anything is written, then the import with its progress and result.
// The backend checks the whole file again and writes all of it or nothing.

export type ChatImportApi = Pick<Api, 'PreviewChatImport' | 'ImportChats' | 'PickChatExport' | 'CancelMessage'>;

export type ChatImportStep = 'choose' | 'previewing' | 'preview' | 'importing' | 'done';

export interface ChatImportDeps {
  api: ChatImportApi;
  on: (name: string, cb: EventHandler) => Unsubscribe;
  uuid?: () => string;
  /** Heard after an import wrote something (the chat list reloads). */
  onimported?: () => void;
}

export class ChatImportStore {
  source = $state<ChatImportSource>('chatgpt');
  path = $state('');
  /** The project the imported conversations go into ('' none). */
  project = $state('');
  step = $state<ChatImportStep>('choose');
  preview = $state<ChatImportPreview | null>(null);
  progress = $state<ChatImportProgress | null>(null);
  result = $state<SessionImportResult | null>(null);
  error = $state('');
  #id = '';
  #deps: ChatImportDeps;

  constructor(deps: ChatImportDeps) {
    this.#deps = deps;
  }

  /** A new source or file forgets the preview of the last one. */
  choose(source: ChatImportSource, path: string): void {
    if (source === this.source && path === this.path) return;
    this.source = source;
    this.path = path;
    this.preview = null;
    this.result = null;
    this.error = '';
    this.step = 'choose';
  }

  /** Asks for the file with a native dialog (the desktop window); false where there is none. */
  async pick(): Promise<boolean> {
    try {
      const p = await this.#deps.api.PickChatExport();
      if (p) this.choose(this.source, p);
      return true;
    } catch {
      return false;
    }
  }

  /** Counts what the file holds, writing nothing. */
  async check(): Promise<void> {
    if (this.path.trim() === '' || this.step === 'previewing' || this.step === 'importing') return;
    this.step = 'previewing';
    this.error = '';
    try {
      this.preview = await this.#follow((id) => this.#deps.api.PreviewChatImport(id, this.source, this.path.trim()));
      this.step = 'preview';
    } catch (e) {
      this.error = errorCode(e) === 'cancelled' ? '' : errorMessage(e);
      this.step = 'choose';
    }
  }

  /** Imports the previewed file; resolves when it is done, failed or cancelled. */
  async run(): Promise<void> {
    if (this.step !== 'preview') return;
    this.step = 'importing';
    this.error = '';
    try {
      this.result = await this.#follow((id) => this.#deps.api.ImportChats(id, this.source, this.path.trim(), this.project));
      this.step = 'done';
      this.#deps.onimported?.();
    } catch (e) {
      this.error = errorCode(e) === 'cancelled' ? '' : errorMessage(e);
      this.step = 'preview';
    }
  }

  /** Runs a call with a new request id, its progress events followed meanwhile. */
  async #follow<T>(call: (id: string) => Promise<T>): Promise<T> {
    const id = (this.#deps.uuid ?? (() => crypto.randomUUID()))();
    this.#id = id;
    this.progress = null;
    const off = this.#deps.on(Events.chatImport + id, (d) => {
      if (isProgress(d)) this.progress = d;
    });
    try {
      return await call(id);
    } finally {
      off();
      this.#id = '';
    }
  }

  /** Stops a running preview or import; nothing of it stays. */
  async cancel(): Promise<void> {
    if (this.#id) await this.#deps.api.CancelMessage(this.#id).catch(() => {});
  }

  /** How far the running preview or import is, 0..1 (an import's reading of the file is its first fifth). */
  get fraction(): number {
    const p = this.progress;
    if (!p || p.total <= 0) return 0;
    const f = Math.min(1, p.done / p.total);
    if (this.step === 'previewing') return f;
    return p.phase === 'checking' ? f * 0.2 : 0.2 + f * 0.8;
  }
}

function isProgress(d: unknown): d is ChatImportProgress {
  const o = d as ChatImportProgress;
  return !!o && typeof o.done === 'number' && typeof o.total === 'number' && (o.phase === 'checking' || o.phase === 'importing');
}

/** The day of an RFC 3339 time (YYYY-MM-DD). */
export function dayOf(ts: string | undefined): string {
  return ts ? ts.slice(0, 10) : '';
}
