// The memory browser's state: filters, the list, a memory's detail, the pending inbox, erasing with
// a receipt, the chat's "memory updated" notice and incognito. Pure helpers are exported for tests.
import {
  Events,
  BackendError,
  errorMessage,
  scrubbedIds,
  toError,
  type Api,
  type MemoryImportMode,
  type Memory,
  type MemoryChange,
  type MemoryDetail,
  type MemoryFilter,
  type MemoryHit,
  type MemoryImportResult,
  type MemoryHalfLife,
  type MemoryProfileInfo,
  type MemoryUndoState,
  type MemoryProgress,
  type MemoryReceipt,
  type MemoryTombstone,
  type Unsubscribe,
} from './backend';
import { errorText } from './errors';
import { t, type MessageKey } from './i18n.svelte';

/** What the user says an import's text is: Hermes' own export or JSONL lines (the backend recognises it either way). */
export type ImportKind = 'export' | 'jsonl';

export const MEMORY_LAYERS = ['working', 'fact', 'profile'] as const;
export const MEMORY_STATUSES = ['pending', 'active', 'archived', 'superseded'] as const;
export const MEMORY_CATEGORIES = [
  'identity',
  'preference',
  'health',
  'relationship',
  'work',
  'location',
  'schedule',
  'possession',
  'goal',
  'other',
] as const;

/** A category's name in the UI's language (one it does not know stays as it is). */
export function categoryText(category: string): string {
  return (MEMORY_CATEGORIES as readonly string[]).includes(category) ? t(`memory.cat.${category}` as MessageKey) : category;
}

/**
 * A half-life the Decay editor's row was refused: named by the row's category, not by the
 * setting (memory_half_lives) it is stored in.
 */
export function halfLifeError(e: unknown, category: string): string {
  const err = toError(e);
  if (!(err instanceof BackendError) || err.code !== 'bad_setting') return errorMessage(e);
  return errorText(err.code, { ...(err.params ?? {}), key: categoryText(category) }, err.message);
}

/** The profile every install has; it can be emptied but not deleted. */
export const DEFAULT_PROFILE = 'personal';

/** Below this strength a fact is archived (see the decay rule). */
export const ARCHIVE_BELOW = 0.3;

export interface MemoryFilterState {
  /** The search box: ranked by MemorySearch, and matched as text in the list. */
  query: string;
  layer: string;
  status: string;
  category: string;
  /** 0..1; 0 = no minimum. */
  minStrength: number;
  profile: string;
}

export function emptyFilter(): MemoryFilterState {
  return { query: '', layer: '', status: '', category: '', minStrength: 0, profile: '' };
}

/** The JSON MemoryList takes. Empty fields are left out; statuses overrides the status filter. */
export function buildMemoryFilter(f: Partial<MemoryFilterState>, opts: { statuses?: string[]; limit?: number } = {}): MemoryFilter {
  const out: MemoryFilter = {};
  if (f.profile) out.profile = f.profile;
  if (f.layer) out.layer = f.layer;
  const statuses = opts.statuses ?? (f.status ? [f.status] : []);
  if (statuses.length > 0) out.statuses = statuses;
  if (f.category) out.category = f.category;
  const min = Number(f.minStrength ?? 0);
  if (Number.isFinite(min) && min > 0) out.minConfidence = Math.min(1, min);
  if (opts.limit) out.limit = opts.limit;
  return out;
}

/** The decay bar's filled share in percent (0..100, whole numbers). */
export function decayWidth(strength: number): number {
  if (!Number.isFinite(strength)) return 0;
  return Math.round(Math.min(1, Math.max(0, strength)) * 100);
}

/** weak: below the archive line; mid: under 0.6; strong otherwise. */
export function decayLevel(strength: number): 'weak' | 'mid' | 'strong' {
  if (!(strength >= ARCHIVE_BELOW)) return 'weak';
  return strength < 0.6 ? 'mid' : 'strong';
}

type T = (key: MessageKey, params?: Record<string, string | number>) => string;

/** A receipt as the panel shows it: scrubbed is set when scrub:done named it later. */
export type ShownReceipt = MemoryReceipt & { scrubbed?: boolean };

/**
 * "Forgot N memories. A new search finds 0 lexical and 0 vector matches.", followed by whether
 * the file still waits to be scrubbed (another Hermes process was reading the database) or was
 * scrubbed later.
 */
export function receiptText(r: ShownReceipt, t: T): string {
  const base = t(r.count === 1 ? 'memory.receiptOne' : 'memory.receipt', {
    n: r.count,
    lexical: r.lexical_matches,
    vector: r.vector_matches,
  });
  if (r.checkpointed === false) return `${base} ${t('memory.receiptWaiting')}`;
  if (r.scrubbed) return `${base} ${t('memory.receiptScrubbed')}`;
  return base;
}

/**
 * The receipt proves a complete erase when a fresh search finds nothing and the file was
 * scrubbed (older backends leave checkpointed out: they always scrubbed at once).
 */
export function receiptClean(r: MemoryReceipt): boolean {
  return r.lexical_matches === 0 && r.vector_matches === 0 && r.checkpointed !== false;
}

/** The receipt after a scrub:done payload: marked scrubbed when it names the receipt. */
export function applyScrub<R extends ShownReceipt | null>(r: R, payload: unknown): R {
  if (!r || r.checkpointed !== false || !scrubbedIds(payload).includes(r.tombstone_id)) return r;
  return { ...r, checkpointed: true, scrubbed: true };
}

export interface TimelineDay {
  day: string;
  created: number;
  archived: number;
  forgotten: number;
}

function dayOf(s: string | undefined): string {
  if (!s) return '';
  const d = new Date(s);
  if (Number.isNaN(d.getTime())) return '';
  return d.toISOString().slice(0, 10);
}

/** Memories created, archived and forgotten (from tombstones) per day for the last `days` days. */
export function buildTimeline(memories: Memory[], tombstones: MemoryTombstone[], days = 14, now = new Date()): TimelineDay[] {
  const out: TimelineDay[] = [];
  const index = new Map<string, TimelineDay>();
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(end - i * 86_400_000).toISOString().slice(0, 10);
    const row = { day, created: 0, archived: 0, forgotten: 0 };
    out.push(row);
    index.set(day, row);
  }
  for (const m of memories) {
    const c = index.get(dayOf(m.created_at));
    if (c) c.created++;
    if (m.status === 'archived') {
      const a = index.get(dayOf(m.updated_at));
      if (a) a.archived++;
    }
  }
  for (const tb of tombstones) {
    const f = index.get(dayOf(tb.at));
    if (f) f.forgotten += tb.count;
  }
  return out;
}

/** Orders rows by search hits first (best first), then the other rows whose text contains the query. */
export function mergeSearch(rows: Memory[], hits: MemoryHit[], query: string): Memory[] {
  const q = query.trim().toLowerCase();
  if (!q) return rows;
  const byId = new Map(rows.map((m) => [m.id, m]));
  const out: Memory[] = [];
  const seen = new Set<string>();
  for (const h of hits) {
    const m = byId.get(h.memory_id);
    if (m && !seen.has(m.id)) {
      out.push(m);
      seen.add(m.id);
    }
  }
  for (const m of rows) {
    if (seen.has(m.id)) continue;
    const hay = `${m.text} ${m.key ?? ''} ${m.value ?? ''}`.toLowerCase();
    if (hay.includes(q)) out.push(m);
  }
  return out;
}

/** The "memory updated" notice after a turn. */
export interface MemoryNotice {
  messageId: string;
  sessionId: string;
  /** What the turn wrote (added or pending): Undo erases these. */
  ids: string[];
  kinds: string[];
  /** The profile the turn wrote into. */
  profile?: string;
}

const TURN_KINDS: ReadonlySet<string> = new Set(['added', 'pending', 'reinforced', 'superseded']);
/** Changes that end a notice's cause: its memories erased, archived or (pending ones) approved. */
const GONE_KINDS: ReadonlySet<string> = new Set(['forgotten', 'archived', 'approved']);

/** The notice once some of its memories were erased or approved elsewhere; null when nothing it said holds any more. */
function settle(prev: MemoryNotice, ch: MemoryChange): MemoryNotice | null {
  if (ch.kind === 'approved') {
    // "waits for your approval" is stale: the memory is now simply remembered
    return { ...prev, kinds: [...prev.kinds.filter((k) => k !== 'pending'), ...(prev.kinds.includes('added') ? [] : ['added'])] };
  }
  const gone = ch.ids ?? [];
  const ids = prev.ids.filter((id) => !gone.includes(id));
  const other = prev.kinds.some((k) => k === 'reinforced' || k === 'superseded');
  return ids.length === 0 && !other ? null : { ...prev, ids };
}

/** Folds a memory:changed event into the notice; returns the notice unchanged when the event is not a turn's write. */
export function foldNotice(prev: MemoryNotice | null, ch: MemoryChange): MemoryNotice | null {
  if (prev && ch && ch.ids && GONE_KINDS.has(ch.kind) && ch.ids.some((id) => prev.ids.includes(id))) return settle(prev, ch);
  if (!ch || !TURN_KINDS.has(ch.kind) || !ch.message_id || !ch.ids || ch.ids.length === 0) return prev;
  const base: MemoryNotice =
    prev && prev.messageId === ch.message_id
      ? { ...prev, ids: [...prev.ids], kinds: [...prev.kinds] }
      : { messageId: ch.message_id, sessionId: ch.session_id ?? '', ids: [], kinds: [], profile: ch.profile };
  if (!base.kinds.includes(ch.kind)) base.kinds.push(ch.kind);
  if (ch.kind === 'added' || ch.kind === 'pending') {
    for (const id of ch.ids) if (!base.ids.includes(id)) base.ids.push(id);
  }
  return base;
}

export type MemoryApi = Pick<
  Api,
  | 'MemoryList'
  | 'MemoryShow'
  | 'MemorySearch'
  | 'MemoryEdit'
  | 'MemoryAdd'
  | 'MemoryForget'
  | 'MemoryForgetMatches'
  | 'MemoryApprove'
  | 'MemoryReject'
  | 'MemoryRestore'
  | 'MemoryConfirm'
  | 'MemoryUndo'
  | 'MemoryUndoable'
  | 'MemoryHalfLives'
  | 'SetMemoryHalfLife'
  | 'MemoryTombstones'
  | 'MemoryExport'
  | 'MemoryImport'
  | 'SetIncognito'
  | 'Incognito'
  | 'MemoryProfiles'
  | 'CreateMemoryProfile'
  | 'UseMemoryProfile'
  | 'RenameMemoryProfile'
  | 'DeleteMemoryProfile'
>;

/** How long after an edit the browser offers to undo it (as the chat notice's Undo). */
export const EDIT_UNDO_MS = 10 * 60_000;

/** An edit that can be undone: the text before and after, and until when. */
export interface EditUndo {
  id: string;
  before: string;
  /** The key and value before the edit, put back with the text. */
  beforeKey: string;
  beforeValue: string;
  after: string;
  profile: string;
  until: number;
}

/** Why an edit's undo can no longer work ('' when it can). */
export type EditUndoBlock = '' | 'erased' | 'superseded' | 'changed' | 'profile' | 'expired';

/**
 * Whether undoing an edit still works against the memory as it is now (undefined: gone from
 * the browser's view): the memory is still there and active or pending, its text is still the
 * edited one, its profile is the active one and the window is open.
 */
export function editUndoBlock(u: EditUndo, m: Memory | undefined, activeProfile: string, now = Date.now()): EditUndoBlock {
  if (!m) return 'erased';
  if (m.status === 'superseded') return 'superseded';
  if ((m.status !== 'active' && m.status !== 'pending') || m.text !== u.after) return 'changed';
  if (activeProfile && u.profile !== activeProfile) return 'profile';
  if (now > u.until) return 'expired';
  return '';
}

export type MemoryTab = 'all' | 'pending' | 'timeline' | 'decay' | 'transfer';

/** A forget waiting for the user's confirmation. */
export interface PendingForget {
  ids: string[];
  texts: string[];
  /** 'forget' erases; 'reject' rejects pending memories (also an erase). */
  action: 'forget' | 'reject';
}

export class MemoryStore {
  open = $state(false);
  tab = $state<MemoryTab>('all');
  filter = $state<MemoryFilterState>(emptyFilter());
  rows = $state<Memory[]>([]);
  pending = $state<Memory[]>([]);
  profiles = $state<string[]>([]);
  loading = $state(false);
  error = $state('');
  /** Ids ticked for a bulk action. */
  selected = $state<Record<string, boolean>>({});
  detail = $state<MemoryDetail | null>(null);
  detailError = $state('');
  actionError = $state('');
  /** The last erase's receipt. */
  receipt = $state<ShownReceipt | null>(null);
  confirmForget = $state<PendingForget | null>(null);
  forgetQuery = $state('');
  forgetPreview = $state<MemoryHit[] | null>(null);
  tombstones = $state<MemoryTombstone[]>([]);
  all = $state<Memory[]>([]);
  notice = $state<MemoryNotice | null>(null);
  noticeError = $state('');
  incognito = $state(false);
  progress = $state<MemoryProgress | null>(null);
  importResult = $state<MemoryImportResult | null>(null);
  /** The memory profiles with their counts (empty with a backend that has none). */
  profileList = $state<MemoryProfileInfo[]>([]);
  /** The profile new conversations use and the lists show ("" until known). */
  activeProfile = $state('');
  /** What the backend said when creating, switching or deleting a profile failed. */
  profileError = $state('');
  /** A profile delete waiting for the user's confirmation. */
  confirmDeleteProfile = $state<MemoryProfileInfo | null>(null);
  /** The last edit made in the browser, while it may be undone. */
  editUndo = $state<EditUndo | null>(null);
  /** Set when the edit's undo window closed (the view rechecks). */
  editUndoExpired = $state(false);
  /** Whether the notice's Undo can still work (null: not known yet, so not offered). */
  undo = $state<MemoryUndoState | null>(null);
  /** Each category's decay half-life (the Decay tab). */
  halfLives = $state<MemoryHalfLife[]>([]);
  decayError = $state('');
  /** The category and half-life just saved (the Decay tab's confirmation). */
  decaySaved = $state<MemoryHalfLife | null>(null);

  #api: MemoryApi;
  #seq = 0;
  #reload: ReturnType<typeof setTimeout> | null = null;
  #undoTimer: ReturnType<typeof setTimeout> | null = null;
  #undoSeq = 0;

  constructor(api: MemoryApi) {
    this.#api = api;
  }

  get selectedIds(): string[] {
    return Object.keys(this.selected).filter((id) => this.selected[id]);
  }

  listen(on: (name: string, cb: (d: unknown) => void) => Unsubscribe): Unsubscribe {
    const a = on(Events.memoryChanged, (d) => {
      const ch = d as MemoryChange;
      const before = this.notice;
      this.notice = this.incognito ? null : foldNotice(this.notice, ch);
      // Any change may end what Undo needs (an erase, a newer version, an archive).
      if (this.notice || before) void this.checkUndo();
      if (this.open) this.#scheduleReload();
      else if (ch?.kind === 'pending') void this.loadPending();
    });
    const b = on(Events.memoryProgress, (d) => {
      const p = d as MemoryProgress;
      this.progress = p && p.total > 0 && p.done < p.total ? p : null;
    });
    // The background retry scrubbed the file of an erase that could not do it at once.
    const c = on(Events.scrubDone, (d) => (this.receipt = applyScrub(this.receipt, d)));
    return () => {
      a();
      b();
      c();
    };
  }

  #scheduleReload() {
    if (this.#reload) clearTimeout(this.#reload);
    this.#reload = setTimeout(() => {
      this.#reload = null;
      void this.refresh();
    }, 150);
  }

  /** Reloads what the open tab shows. */
  async refresh(): Promise<void> {
    await this.loadProfiles();
    await Promise.all([this.load(), this.loadPending(), this.tab === 'timeline' ? this.loadTimeline() : Promise.resolve()]);
    if (this.detail) await this.show(this.detail.memory.id, true);
  }

  async load(): Promise<void> {
    const seq = ++this.#seq;
    this.loading = true;
    try {
      const q = this.filter.query.trim();
      const [rows, hits] = await Promise.all([
        this.#api.MemoryList(buildMemoryFilter(this.filter, { limit: 500 })),
        q ? this.#api.MemorySearch(q, 50) : Promise.resolve([] as MemoryHit[]),
      ]);
      if (seq !== this.#seq) return;
      this.rows = mergeSearch(rows, hits, q);
      const profiles = new Set(this.profiles);
      for (const m of rows) profiles.add(m.profile);
      this.profiles = [...profiles].filter(Boolean).sort();
      const keep: Record<string, boolean> = {};
      for (const m of this.rows) if (this.selected[m.id]) keep[m.id] = true;
      this.selected = keep;
      this.error = '';
    } catch (e) {
      if (seq === this.#seq) this.error = errorMessage(e);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  async loadPending(): Promise<void> {
    try {
      this.pending = await this.#api.MemoryList(buildMemoryFilter({ profile: this.activeProfile }, { statuses: ['pending'], limit: 500 }));
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  async loadTimeline(): Promise<void> {
    try {
      const [all, tomb] = await Promise.all([this.#api.MemoryList(buildMemoryFilter({ profile: this.activeProfile })), this.#api.MemoryTombstones()]);
      this.all = all;
      this.tombstones = tomb;
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  async show(id: string, quiet = false): Promise<void> {
    if (!quiet) this.detailError = '';
    try {
      this.detail = await this.#api.MemoryShow(id);
    } catch (e) {
      if (quiet) this.detail = null;
      else this.detailError = errorMessage(e);
    }
  }

  closeDetail(): void {
    this.detail = null;
    this.detailError = '';
  }

  toggle(id: string): void {
    this.selected[id] = !this.selected[id];
  }

  selectAll(on: boolean): void {
    const next: Record<string, boolean> = {};
    if (on) for (const m of this.rows) next[m.id] = true;
    this.selected = next;
  }

  async #act(fn: () => Promise<unknown>): Promise<boolean> {
    this.actionError = '';
    try {
      await fn();
      await this.refresh();
      return true;
    } catch (e) {
      this.actionError = errorMessage(e);
      return false;
    }
  }

  /**
   * Corrects a memory's text, key and value as the editor shows them (a key or value left as it
   * was is kept by the backend, or dropped when the new text no longer says it).
   */
  async edit(id: string, text: string, key?: string, value?: string): Promise<boolean> {
    const v = text.trim();
    if (!v) return false;
    const before = this.#known(id);
    const k = (key ?? before?.key ?? '').trim();
    const val = (value ?? before?.value ?? '').trim();
    let after: Memory | undefined;
    const ok = await this.#act(async () => {
      after = await this.#api.MemoryEdit(id, v, k, val);
    });
    const changed = after && before && (before.text !== after.text || (before.key ?? '') !== (after.key ?? '') || (before.value ?? '') !== (after.value ?? ''));
    if (ok && before && after && changed)
      this.#offerEditUndo({
        id,
        before: before.text,
        beforeKey: before.key ?? '',
        beforeValue: before.value ?? '',
        after: after.text ?? v,
        profile: before.profile,
        until: Date.now() + EDIT_UNDO_MS,
      });
    return ok;
  }

  /** Remembers what the user typed in the panel: the same path as `hermes memory add`. */
  async add(text: string): Promise<Memory | null> {
    const v = text.trim();
    if (!v) return null;
    let added: Memory | null = null;
    const ok = await this.#act(async () => {
      added = await this.#api.MemoryAdd(v);
    });
    return ok ? added : null;
  }

  #known(id: string): Memory | undefined {
    return this.detail?.memory.id === id ? this.detail.memory : (this.rows.find((m) => m.id === id) ?? this.pending.find((m) => m.id === id));
  }

  #editTimer: ReturnType<typeof setTimeout> | null = null;

  #offerEditUndo(u: EditUndo | null) {
    if (this.#editTimer) clearTimeout(this.#editTimer);
    this.#editTimer = null;
    this.editUndo = u;
    this.editUndoExpired = false;
    if (u) this.#editTimer = setTimeout(() => (this.editUndoExpired = true), Math.max(0, u.until - Date.now()) + 50);
  }

  /** Why the last edit can no longer be undone ('' while it can), from the memory as the browser now shows it. */
  get editUndoBlocked(): EditUndoBlock {
    const u = this.editUndo;
    if (!u) return 'erased';
    void this.editUndoExpired; // rechecked when the window closes
    return editUndoBlock(u, this.#known(u.id), this.activeProfile);
  }

  /** Puts the text back as it was before the last edit (only while editUndoBlocked is ''). */
  async undoEdit(): Promise<boolean> {
    const u = this.editUndo;
    if (!u || this.editUndoBlocked) return false;
    const ok = await this.#act(() => this.#api.MemoryEdit(u.id, u.before, u.beforeKey, u.beforeValue));
    if (ok) this.#offerEditUndo(null);
    return ok;
  }

  confirm(ids: string[]): Promise<boolean> {
    return this.#act(() => this.#api.MemoryConfirm(ids));
  }

  restore(ids: string[]): Promise<boolean> {
    return this.#act(() => this.#api.MemoryRestore(ids));
  }

  approve(ids: string[]): Promise<boolean> {
    return this.#act(() => this.#api.MemoryApprove(ids));
  }

  /** Asks first: nothing is erased until confirmForgetNow(). */
  askForget(ids: string[], action: PendingForget['action'] = 'forget'): void {
    if (ids.length === 0) return;
    const known = [...this.rows, ...this.pending, ...(this.detail ? [this.detail.memory] : [])];
    const texts = ids.map((id) => known.find((m) => m.id === id)?.text ?? (this.forgetPreview?.find((h) => h.memory_id === id)?.text || id));
    this.confirmForget = { ids: [...ids], texts, action };
  }

  cancelForget(): void {
    this.confirmForget = null;
  }

  /** Erases what askForget named and keeps the receipt. */
  async confirmForgetNow(): Promise<MemoryReceipt | null> {
    const p = this.confirmForget;
    if (!p) return null;
    this.actionError = '';
    try {
      const r = p.action === 'reject' ? await this.#api.MemoryReject(p.ids) : await this.#api.MemoryForget(p.ids);
      this.receipt = r;
      this.confirmForget = null;
      this.forgetPreview = null;
      for (const id of p.ids) delete this.selected[id];
      if (this.detail && p.ids.includes(this.detail.memory.id)) this.detail = null;
      await this.refresh();
      return r;
    } catch (e) {
      this.actionError = errorMessage(e);
      this.confirmForget = null;
      return null;
    }
  }

  /** Shows what forgetting by a query would erase (then askForget with their ids). */
  async previewForget(query: string): Promise<void> {
    const q = query.trim();
    if (!q) return;
    this.actionError = '';
    try {
      this.forgetPreview = await this.#api.MemoryForgetMatches(q);
    } catch (e) {
      this.actionError = errorMessage(e);
    }
  }

  /**
   * Asks the backend whether the notice's Undo can still work (its memories still there, not
   * replaced or archived, their profile active, the window open) and rechecks when the window
   * closes: the notice offers Undo only while this says ok, and says why otherwise.
   */
  async checkUndo(): Promise<void> {
    if (this.#undoTimer) clearTimeout(this.#undoTimer);
    this.#undoTimer = null;
    const seq = ++this.#undoSeq;
    const n = this.notice;
    if (!n || n.ids.length === 0) {
      this.undo = null;
      return;
    }
    let st: MemoryUndoState;
    try {
      st = await this.#api.MemoryUndoable([...n.ids]);
    } catch (e) {
      st = { ok: false, reason: errorMessage(e), until: '' };
    }
    if (seq !== this.#undoSeq) return;
    this.undo = st;
    const left = Date.parse(st.until) - Date.now();
    if (st.ok && Number.isFinite(left)) this.#undoTimer = setTimeout(() => void this.checkUndo(), Math.max(0, left) + 250);
  }

  async undoNotice(): Promise<MemoryReceipt | null> {
    const n = this.notice;
    if (!n || n.ids.length === 0) return null;
    this.noticeError = '';
    try {
      const r = await this.#api.MemoryUndo(n.ids);
      this.notice = null;
      this.undo = null;
      this.receipt = r;
      if (this.open) await this.refresh();
      return r;
    } catch (e) {
      // It could no longer work: the check words why (and Undo is no longer offered).
      await this.checkUndo();
      if (this.undo?.ok !== false) this.noticeError = errorMessage(e);
      return null;
    }
  }

  dismissNotice(): void {
    this.notice = null;
    this.noticeError = '';
    this.undo = null;
    if (this.#undoTimer) clearTimeout(this.#undoTimer);
    this.#undoTimer = null;
  }

  async loadHalfLives(): Promise<void> {
    try {
      this.halfLives = await this.#api.MemoryHalfLives();
      this.decayError = '';
    } catch (e) {
      this.decayError = errorMessage(e);
    }
  }

  /** Sets a category's half-life ("30d"; "" for the default); false (with decayError) when refused. */
  async setHalfLife(category: string, halfLife: string): Promise<boolean> {
    this.decayError = '';
    this.decaySaved = null;
    try {
      this.halfLives = await this.#api.SetMemoryHalfLife(category, halfLife.trim());
      this.decaySaved = this.halfLives.find((h) => h.category === category) ?? null;
      if (this.open) void this.load(); // strengths follow the new rate
      return true;
    } catch (e) {
      this.decayError = halfLifeError(e, category);
      return false;
    }
  }

  async loadIncognito(): Promise<void> {
    try {
      this.incognito = await this.#api.Incognito();
    } catch {
      // an older backend: incognito stays off
    }
  }

  async setIncognito(on: boolean): Promise<void> {
    try {
      this.incognito = await this.#api.SetIncognito(on);
      if (this.incognito) this.dismissNotice(); // nothing about memory follows into incognito
    } catch (e) {
      this.actionError = errorMessage(e);
    }
  }

  /** The active profile when it is not the default one ("" otherwise): what the status bar shows. */
  get otherProfile(): string {
    return this.activeProfile && this.activeProfile !== DEFAULT_PROFILE ? this.activeProfile : '';
  }

  /**
   * Loads the profiles; the list and the inbox then show the active profile's memories. An older
   * backend without profiles leaves everything as it was (every profile listed).
   */
  async loadProfiles(): Promise<void> {
    let list: MemoryProfileInfo[];
    try {
      list = await this.#api.MemoryProfiles();
    } catch {
      return;
    }
    this.profileList = list;
    const active = list.find((p) => p.active)?.name ?? (list.length > 0 ? DEFAULT_PROFILE : '');
    this.activeProfile = active;
    if (active) this.filter.profile = active;
  }

  async #switched(): Promise<void> {
    this.selected = {};
    this.detail = null;
    this.forgetPreview = null;
    await this.refresh();
    if (this.notice) await this.checkUndo(); // an undo works only in the profile it wrote into
  }

  /** Makes the profile active and shows its memories. */
  async useProfile(name: string): Promise<boolean> {
    if (!name || name === this.activeProfile) return true;
    this.profileError = '';
    try {
      await this.#api.UseMemoryProfile(name);
    } catch (e) {
      this.profileError = errorMessage(e);
      return false;
    }
    await this.#switched();
    return true;
  }

  /** Creates a profile and switches to it; false (with profileError) when the backend refused. */
  async createProfile(name: string): Promise<boolean> {
    const n = name.trim();
    if (!n) return false;
    this.profileError = '';
    try {
      await this.#api.CreateMemoryProfile(n);
      await this.#api.UseMemoryProfile(n);
    } catch (e) {
      this.profileError = errorMessage(e);
      await this.loadProfiles();
      return false;
    }
    await this.#switched();
    return true;
  }

  /** Renames the active profile (not the default one); false (with profileError) when the backend refused. */
  async renameProfile(name: string): Promise<boolean> {
    const n = name.trim();
    const old = this.activeProfile;
    if (!n || !old || old === DEFAULT_PROFILE) return false;
    if (n === old) return true;
    this.profileError = '';
    try {
      await this.#api.RenameMemoryProfile(old, n);
    } catch (e) {
      this.profileError = errorMessage(e);
      return false;
    }
    await this.#switched();
    return true;
  }

  /**
   * Asks first (naming how many memories go): nothing is erased until confirmDeleteProfileNow().
   * The default profile cannot go; the active one only after switching away, which the backend
   * says (and nothing is asked or erased).
   */
  async askDeleteProfile(name: string): Promise<void> {
    if (!name || name === DEFAULT_PROFILE) return;
    this.profileError = '';
    const p = this.profileList.find((x) => x.name === name) ?? { name, active: false, memories: 0 };
    if (p.active) {
      try {
        await this.#api.DeleteMemoryProfile(name); // refused while active: the error says to switch first
        await this.#switched();
      } catch (e) {
        this.profileError = errorMessage(e);
      }
      return;
    }
    this.confirmDeleteProfile = p;
  }

  cancelDeleteProfile(): void {
    this.confirmDeleteProfile = null;
  }

  /** Erases the profile askDeleteProfile named with its memories and keeps the receipt. */
  async confirmDeleteProfileNow(): Promise<MemoryReceipt | null> {
    const p = this.confirmDeleteProfile;
    if (!p) return null;
    this.profileError = '';
    try {
      const r = await this.#api.DeleteMemoryProfile(p.name);
      this.receipt = r;
      this.confirmDeleteProfile = null;
      await this.#switched();
      return r;
    } catch (e) {
      this.profileError = errorMessage(e);
      this.confirmDeleteProfile = null;
      return null;
    }
  }

  exportText(): Promise<string> {
    return this.#api.MemoryExport();
  }

  async importText(content: string, kind: ImportKind, mode: MemoryImportMode): Promise<boolean> {
    this.importResult = null;
    return this.#act(async () => {
      this.importResult = await this.#api.MemoryImport(content, kind, mode);
    });
  }
}
