// The knowledge base as the window shows it: the collections and their files (the Knowledge panel),
// the background reading's progress (kb:progress) with Cancel and Resume, adding a folder (the
// desktop's picker, or a typed path in web mode), Read again and Remove with its receipt; and the
// passage a citation chip opens (the passage viewer). Pure helpers are exported for tests.
import {
  Events,
  errorCode,
  errorMessage,
  type Api,
  type AgentSource,
  type KBCollection,
  type KBFile,
  type KBPassage,
  type KBProgress,
  type KBReceipt,
  type Unsubscribe,
} from './backend';
import { isKey, type MessageKey } from './i18n.svelte';
import { formatBytes, formatEta, formatRate } from './models.svelte';

type T = (key: MessageKey, params?: Record<string, string | number>) => string;
type On = (name: string, cb: (data: unknown) => void) => Unsubscribe;

export type KnowledgeApi = Pick<
  Api,
  'KBList' | 'KBAdd' | 'KBFiles' | 'KBRemove' | 'KBReindex' | 'KBCancel' | 'KBResume' | 'KBPassage' | 'KBPickFolder' | 'KBOpenFile'
>;

// ---------------------------------------------------------------------------------------------
// Words

/** Why a file could not be read, in the user's language; the backend's words for a reason the UI does not know. */
export function reasonText(f: Pick<KBFile, 'reason' | 'detail'>, t: T): string {
  const key = `kb.reason.${f.reason ?? ''}`;
  if (f.reason && isKey(key)) return t(key);
  return f.detail || f.reason || '';
}

/** A collection's counts: "12 files · 10 read · 1 could not be read · 1 waiting · 84 passages · 1.2 MB". */
export function collectionFacts(c: KBCollection, t: T): Array<{ text: string; tone?: 'bad' | 'warn' }> {
  const out: Array<{ text: string; tone?: 'bad' | 'warn' }> = [{ text: t('kb.files', { n: c.files }) }];
  if (c.indexed > 0 && c.indexed !== c.files) out.push({ text: t('kb.indexedCount', { n: c.indexed }) });
  if (c.failed > 0) out.push({ text: t('kb.failedCount', { n: c.failed }), tone: 'bad' });
  if (c.pending > 0) out.push({ text: t('kb.pendingCount', { n: c.pending }), tone: 'warn' });
  out.push({ text: t('kb.passages', { n: c.chunks }) });
  if (c.bytes > 0) out.push({ text: formatBytes(c.bytes) });
  return out;
}

export type ProgressState = 'running' | 'stopped' | 'finished';

export function progressState(p: KBProgress): ProgressState {
  if (p.stopped) return 'stopped';
  return p.finished ? 'finished' : 'running';
}

/** How far the reading is, 0..100: by bytes when they are known, else by files. */
export function progressPercent(p: KBProgress): number {
  if (progressState(p) === 'finished') return 100;
  const frac = p.bytes > 0 ? p.done_bytes / p.bytes : p.files > 0 ? p.done / p.files : 0;
  return Math.max(0, Math.min(100, frac * 100));
}

/** The numbers of the reading: "3 of 10 files · 1.6 MB/s · 5 s left". */
export function progressLine(p: KBProgress, t: T): string {
  const state = progressState(p);
  if (state === 'finished') return t('kb.progressDone', { n: p.done });
  if (state === 'stopped') return t('kb.progressStopped', { n: Math.max(0, p.files - p.done) });
  const parts = [t('kb.progressFiles', { done: p.done, files: p.files })];
  // mbps is MiB a second: worded in the decimal units the sizes use ("12.0 KB/s" for small files).
  const rate = formatRate(p.mbps * 1024 * 1024);
  if (rate) parts.push(rate);
  const eta = p.done_bytes > 0 ? formatEta(p.eta_seconds, t) : '';
  if (eta) parts.push(t('progress.left', { eta }));
  return parts.join(' · ');
}

/** The receipt of a removal, worded. */
export function receiptText(r: KBReceipt, t: T): string {
  const what = t('kb.receipt', { name: r.collection, files: r.files, chunks: r.chunks, vectors: r.vectors });
  return `${what} ${r.scrubbed ? t('kb.receiptScrubbed') : t('kb.receiptPending')}`;
}

/** A passage's place: "page 3 of 12 · in manuals". */
export function passagePlace(p: Pick<KBPassage, 'page' | 'pages' | 'collection'>, t: T): string {
  const parts: string[] = [];
  if (p.page && p.page > 0) parts.push(p.pages && p.pages > 0 ? t('passage.page', { page: p.page, pages: p.pages }) : t('passage.pageOnly', { page: p.page }));
  if (p.collection) parts.push(t('passage.in', { collection: p.collection }));
  return parts.join(' · ');
}

// ---------------------------------------------------------------------------------------------
// The store

/** The passage a citation opened: loading, shown, or why it cannot be. */
export interface PassageView {
  source: AgentSource;
  passage: KBPassage | null;
  loading: boolean;
  error: string;
  /** Opening the file needs the desktop window (web mode, or it said needs_desktop). */
  needsDesktop: boolean;
  openError: string;
}

export interface KnowledgeDeps {
  api: KnowledgeApi;
  /** The desktop window: a folder picker and Open file are there. */
  desktop: boolean;
  /** How long a finished reading stays shown, in ms. */
  doneMs?: number;
  /** How long to wait before reloading after kb:changed (they come one per file), in ms. */
  reloadMs?: number;
}

export class KnowledgeStore {
  open = $state(false);
  collections = $state<KBCollection[]>([]);
  loaded = $state(false);
  loading = $state(false);
  error = $state('');
  actionError = $state('');
  /** The files of each expanded collection (by name). */
  files = $state<Record<string, KBFile[]>>({});
  expanded = $state<string[]>([]);
  filesError = $state<Record<string, string>>({});
  progress = $state<KBProgress | null>(null);
  /** The add form: shown, its fields, and whether the path is typed (no picker: web mode). */
  adding = $state(false);
  path = $state('');
  name = $state('');
  addBusy = $state(false);
  addError = $state('');
  typePath = $state(false);
  /** The collection a Read again or Remove is under way for. */
  busy = $state('');
  receipt = $state<KBReceipt | null>(null);
  /** Cancel asked, until the reading says it stopped. */
  cancelling = $state(false);
  viewing = $state<PassageView | null>(null);

  readonly desktop: boolean;
  #api: KnowledgeApi;
  #doneMs: number;
  #reloadMs: number;
  #doneTimer: ReturnType<typeof setTimeout> | null = null;
  #reloadTimer: ReturnType<typeof setTimeout> | null = null;
  /** Counts the passages opened: an answer for one closed or replaced meanwhile is dropped. */
  #viewSeq = 0;

  constructor(deps: KnowledgeDeps) {
    this.#api = deps.api;
    this.desktop = deps.desktop;
    this.typePath = !deps.desktop;
    this.#doneMs = deps.doneMs ?? 5000;
    this.#reloadMs = deps.reloadMs ?? 400;
  }

  /** Files waiting to be read, over every collection. */
  get waiting(): number {
    return this.collections.reduce((n, c) => n + Math.max(0, c.pending), 0);
  }

  /** Files still to read in the pass under way (0 when none runs). */
  get reading(): number {
    const p = this.progress;
    return p && progressState(p) === 'running' ? Math.max(0, p.files - p.done) : 0;
  }

  /** Resume is offered: files wait and nothing reads them. */
  get canResume(): boolean {
    const p = this.progress;
    if (p && progressState(p) === 'running') return false;
    return (p !== null && progressState(p) === 'stopped') || this.waiting > 0;
  }

  async refresh(): Promise<void> {
    this.loading = true;
    try {
      this.collections = await this.#api.KBList();
      this.error = '';
      const names = new Set(this.collections.map((c) => c.name));
      this.expanded = this.expanded.filter((n) => names.has(n));
      await Promise.all(this.expanded.map((n) => this.loadFiles(n)));
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.loading = false;
      this.loaded = true;
    }
  }

  async loadFiles(name: string): Promise<void> {
    try {
      const list = await this.#api.KBFiles(name);
      this.files = { ...this.files, [name]: list };
      const { [name]: _, ...rest } = this.filesError;
      this.filesError = rest;
    } catch (e) {
      this.filesError = { ...this.filesError, [name]: errorMessage(e) };
    }
  }

  isExpanded(name: string): boolean {
    return this.expanded.includes(name);
  }

  async toggle(name: string): Promise<void> {
    if (this.isExpanded(name)) {
      this.expanded = this.expanded.filter((n) => n !== name);
      return;
    }
    this.expanded = [...this.expanded, name];
    await this.loadFiles(name);
  }

  /** Opens the add form; on the desktop the folder picker opens at once and fills the path. */
  async startAdd(): Promise<void> {
    this.adding = true;
    this.addError = '';
    if (!this.typePath) await this.pick();
  }

  /** The desktop's folder picker; web mode (needs_desktop) falls back to typing the path. */
  async pick(): Promise<void> {
    try {
      const p = await this.#api.KBPickFolder();
      if (p) this.path = p;
    } catch (e) {
      if (errorCode(e) === 'needs_desktop') this.typePath = true;
      else this.addError = errorMessage(e);
    }
  }

  closeAdd(): void {
    this.adding = false;
    this.path = '';
    this.name = '';
    this.addError = '';
  }

  /** Adds the folder of the form; true when it was added. */
  async add(problemEmpty: string): Promise<boolean> {
    const path = this.path.trim();
    if (!path) {
      this.addError = problemEmpty;
      return false;
    }
    this.addBusy = true;
    this.addError = '';
    try {
      await this.#api.KBAdd(path, this.name.trim());
      this.closeAdd();
      this.receipt = null;
      await this.refresh();
      return true;
    } catch (e) {
      this.addError = errorMessage(e);
      return false;
    } finally {
      this.addBusy = false;
    }
  }

  async cancel(): Promise<void> {
    this.cancelling = true;
    this.actionError = '';
    try {
      await this.#api.KBCancel();
    } catch (e) {
      this.cancelling = false;
      this.actionError = errorMessage(e);
    }
  }

  async resume(): Promise<void> {
    this.actionError = '';
    this.cancelling = false;
    try {
      await this.#api.KBResume();
    } catch (e) {
      this.actionError = errorMessage(e);
    }
  }

  async reindex(name: string): Promise<void> {
    this.busy = name;
    this.actionError = '';
    try {
      const c = await this.#api.KBReindex(name);
      this.#put(c);
      if (this.isExpanded(name)) await this.loadFiles(name);
    } catch (e) {
      this.actionError = errorMessage(e);
    } finally {
      this.busy = '';
    }
  }

  /** Removes a collection; the receipt says what was erased. */
  async remove(name: string): Promise<void> {
    this.busy = name;
    this.actionError = '';
    try {
      this.receipt = await this.#api.KBRemove(name);
      this.collections = this.collections.filter((c) => c.name !== name);
      this.expanded = this.expanded.filter((n) => n !== name);
      const { [name]: _, ...rest } = this.files;
      this.files = rest;
    } catch (e) {
      this.actionError = errorMessage(e);
    } finally {
      this.busy = '';
    }
  }

  #put(c: KBCollection) {
    const i = this.collections.findIndex((x) => x.name === c.name);
    if (i >= 0) this.collections[i] = c;
    else this.collections = [...this.collections, c];
  }

  /** Applies a kb:progress event. */
  applyProgress(data: unknown): void {
    if (!data || typeof data !== 'object') return;
    const p = data as KBProgress;
    if (this.#doneTimer) clearTimeout(this.#doneTimer);
    this.#doneTimer = null;
    // A pass with nothing to read says only that it finished: nothing to show.
    if (p.finished && !p.stopped && !(p.files > 0)) {
      if (this.progress && progressState(this.progress) === 'running') this.progress = null;
      return;
    }
    this.progress = { ...p };
    const state = progressState(p);
    if (state !== 'running') {
      this.cancelling = false;
      this.#scheduleReload();
    }
    if (state === 'finished') {
      this.#doneTimer = setTimeout(() => {
        this.#doneTimer = null;
        if (this.progress && progressState(this.progress) === 'finished') this.progress = null;
      }, this.#doneMs);
    }
  }

  dismissProgress(): void {
    this.progress = null;
  }

  listen(on: On): Unsubscribe {
    const a = on(Events.kbProgress, (d) => this.applyProgress(d));
    const b = on(Events.kbChanged, () => this.#scheduleReload());
    return () => {
      a();
      b();
      if (this.#doneTimer) clearTimeout(this.#doneTimer);
      if (this.#reloadTimer) clearTimeout(this.#reloadTimer);
    };
  }

  /** Reloads the list (and the expanded collections' files) once the events of a burst are in. */
  #scheduleReload() {
    if (this.#reloadTimer) return;
    this.#reloadTimer = setTimeout(() => {
      this.#reloadTimer = null;
      // Closed, the panel reads the list anew when it opens; the header's badge needs only the progress.
      if (this.open || this.loaded) void this.refresh();
    }, this.#reloadMs);
  }

  // -------------------------------------------------------------------------------------------
  // The passage viewer

  async openPassage(source: AgentSource): Promise<void> {
    const seq = ++this.#viewSeq;
    this.viewing = { source, passage: null, loading: true, error: '', needsDesktop: !this.desktop, openError: '' };
    try {
      const passage = await this.#api.KBPassage(source.chunk);
      if (this.viewing && seq === this.#viewSeq) this.viewing = { ...this.viewing, passage, loading: false };
    } catch (e) {
      if (this.viewing && seq === this.#viewSeq) this.viewing = { ...this.viewing, loading: false, error: errorMessage(e) };
    }
  }

  closePassage(): void {
    this.#viewSeq++;
    this.viewing = null;
  }

  async openFile(): Promise<void> {
    const v = this.viewing;
    if (!v) return;
    const seq = this.#viewSeq;
    try {
      await this.#api.KBOpenFile(v.source.chunk);
      if (this.viewing && seq === this.#viewSeq) this.viewing = { ...this.viewing, openError: '' };
    } catch (e) {
      if (!this.viewing || seq !== this.#viewSeq) return;
      if (errorCode(e) === 'needs_desktop') this.viewing = { ...this.viewing, needsDesktop: true, openError: '' };
      else this.viewing = { ...this.viewing, openError: errorMessage(e) };
    }
  }
}
