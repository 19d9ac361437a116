// Chat state: the session list, the open conversation and the reply being streamed.
import {
  Events,
  BackendError,
  errorMessage,
  scrubbedIds,
  type Api,
  type AgentSource,
  type SessionDeleteReceipt,
  type ExportFormat,
  type GuardStop,
  type Message,
  type Versions,
  type AgentFigures,
  type SessionDetail,
  type SessionInfo,
  type ToolCall,
  type TurnResult,
  type Unsubscribe,
} from './backend';
import { toToolCall } from './tools.svelte';
import { applyAgentEvent, delegationOf, isAgentTool, type Delegation } from './agents.svelte';
import { attachmentKey, composeMessage, splitMessage, withDocuments, type Attachment, type DocumentInfo } from './attachment';
import { locale } from './i18n.svelte';

export type UIStatus = 'ok' | 'cancelled' | 'failed' | 'unsaved' | 'streaming';

export interface UIMessage {
  id: string;
  role: Message['role'];
  content: string;
  /** A reply's reasoning, streamed apart from its answer (a thinking model's). */
  thinking?: string;
  /** While a reply waits for its first token: the model Ollama is loading. */
  loading?: string;
  status: UIStatus;
  error?: string;
  /** A failed reply's error code and parameters, to word `error` in the user's language. */
  errorCode?: string;
  errorParams?: Record<string, string>;
  model?: string;
  intent?: string;
  intentConfidence?: number;
  pinned?: boolean;
  createdAt: string;
  /** Set on messages created locally for a send that has not finished yet. */
  requestId?: string;
  /** The tool calls made for this reply, in order. */
  tools?: ToolCall[];
  /** Set when the loop guard stopped the turn. */
  stop?: GuardStop;
  /** The reply claims an action no tool call performed. */
  unverified?: boolean;
  /** The sub-agents this reply delegated to: live from chat:agent events, or from stored threads. */
  delegations?: Delegation[];
  /** An edited user message's or a regenerated reply's versions (absent with only one). */
  versions?: Versions;
  /** A reply's figures (model, tokens, speed); absent on old replies. */
  figures?: AgentFigures;
  /** The knowledge-base passages the reply was offered, by the number it cites them with. */
  sources?: AgentSource[];
  /** Numbers the reply cites that point at no passage it was offered. */
  badCitations?: number[];
}

/**
 * What a message's branch buttons do (the chat store behind them, with the app's error notices):
 * Regenerate, Edit and resend, the version switcher and Delete turn.
 */
export interface BranchControls {
  /** A reply streams: nothing can be regenerated, edited, switched or deleted meanwhile. */
  readonly busy: boolean;
  /** The message being edited, if any. */
  readonly editing: EditState | null;
  regenerate(replyId: string): void;
  startEdit(messageId: string): void;
  setEditText(text: string): void;
  cancelEdit(): void;
  submitEdit(): void;
  /** which: the switcher button that asked (the focus goes back to it). */
  selectVersion(messageId: string, which: 'prev' | 'next'): void;
  deleteTurn(messageId: string): Promise<void>;
}

/** A user message being edited in place: its id, the text so far and why the last resend failed. */
export interface EditState {
  id: string;
  text: string;
  error?: string;
}

export type ChatApi = Pick<
  Api,
  | 'SendMessage'
  | 'CancelMessage'
  | 'ListSessions'
  | 'LoadSession'
  | 'NewSession'
  | 'RenameSession'
  | 'PinSession'
  | 'ArchiveSession'
  | 'DeleteSession'
  | 'ExportSession'
  | 'PinMessage'
  | 'ContinueTurn'
  | 'RegenerateReply'
  | 'EditMessage'
  | 'SelectVersion'
  | 'DeleteTurn'
> &
  Partial<Pick<Api, 'CorrectIntent' | 'AttachDocument'>>;

export interface ChatDeps {
  api: ChatApi;
  on: (name: string, cb: (data: unknown) => void) => Unsubscribe;
  uuid?: () => string;
  /** Called after a send failed (rejected, or the reply came back failed). */
  onFailure?: () => void;
}

const STATUSES: ReadonlySet<string> = new Set(['ok', 'cancelled', 'failed']);

export function toUIMessage(m: Message): UIMessage {
  return {
    id: m.id,
    role: m.role,
    content: m.content ?? '',
    thinking: m.thinking || undefined,
    status: STATUSES.has(m.status) ? (m.status as UIStatus) : 'ok',
    error: m.error || undefined,
    errorCode: m.errorCode || undefined,
    errorParams: m.errorParams ?? undefined,
    model: m.model || undefined,
    intent: m.intent || undefined,
    intentConfidence: typeof m.intentConfidence === 'number' ? m.intentConfidence : undefined,
    pinned: m.pinned === true,
    createdAt: m.createdAt,
    stop: m.stop ?? undefined,
    unverified: m.unverified === true || undefined,
    versions: toVersions(m.versions),
    figures: toFigures(m.figures),
    sources: toSources(m.sources),
    badCitations: toBadCitations(m.badCitations),
  };
}

/** A reply's cited sources, each well formed (chunk as text), in number order; none when there are none. */
export function toSources(v: unknown): AgentSource[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: AgentSource[] = [];
  for (const x of v) {
    if (!x || typeof x !== 'object') continue;
    const o = x as Record<string, unknown>;
    const n = Number(o.n);
    const chunk = typeof o.chunk === 'number' || typeof o.chunk === 'string' ? String(o.chunk) : '';
    if (!Number.isInteger(n) || n <= 0 || !chunk) continue;
    const s: AgentSource = { n, chunk, collection: String(o.collection ?? ''), file: String(o.file ?? '') };
    if (typeof o.page === 'number' && o.page > 0) s.page = o.page;
    if (typeof o.heading === 'string' && o.heading) s.heading = o.heading;
    out.push(s);
  }
  out.sort((a, b) => a.n - b.n);
  return out.length > 0 ? out : undefined;
}

/** The numbers a reply cites that point at no offered source; none when there are none. */
export function toBadCitations(v: unknown): number[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out = v.filter((n): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0);
  return out.length > 0 ? out : undefined;
}

/** A message's versions as the switcher uses them; none when there is only one or they do not add up. */
export function toVersions(v: unknown): Versions | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Partial<Versions>;
  const ids = Array.isArray(o.ids) ? o.ids.filter((x): x is string => typeof x === 'string' && x !== '') : [];
  const count = typeof o.count === 'number' && o.count > 0 ? Math.floor(o.count) : ids.length;
  const index = typeof o.index === 'number' ? Math.floor(o.index) : -1;
  if (count < 2 || ids.length !== count || index < 0 || index >= count) return undefined;
  return { index, count, ids };
}

const num = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0);

/** A reply's figures with every unknown or nonsense value as 0; none when nothing is known. */
export function toFigures(f: unknown): AgentFigures | undefined {
  if (!f || typeof f !== 'object') return undefined;
  const o = f as Partial<Record<keyof AgentFigures, unknown>>;
  const out: AgentFigures = {
    model: typeof o.model === 'string' ? o.model : '',
    promptTokens: num(o.promptTokens),
    completionTokens: num(o.completionTokens),
    tokensPerSecond: num(o.tokensPerSecond),
    firstTokenMs: num(o.firstTokenMs),
    totalMs: num(o.totalMs),
    thinkingMs: num(o.thinkingMs),
    thinkingTokens: num(o.thinkingTokens),
  };
  if (num(o.contextSize) > 0) out.contextSize = num(o.contextSize);
  if (o.contextFull === true) out.contextFull = true;
  const known = out.model !== '' || out.promptTokens || out.completionTokens || out.tokensPerSecond || out.firstTokenMs || out.totalMs;
  return known ? out : undefined;
}

function time(s: string): number {
  const n = Date.parse(s);
  return Number.isNaN(n) ? 0 : n;
}

/** Pinned first, then newest first by last update. */
export function sortSessions(list: SessionInfo[]): SessionInfo[] {
  return [...list].sort((a, b) => Number(!!b.pinned) - Number(!!a.pinned) || time(b.updatedAt) - time(a.updatedAt));
}

export function isArchived(s: SessionInfo): boolean {
  return s.state === 'archived';
}

/** A file name for an exported session: its title made safe, or its id. */
export function exportFilename(s: Pick<SessionInfo, 'id' | 'title'> | undefined, format: ExportFormat): string {
  const base =
    (s?.title ?? '')
      .normalize('NFKC')
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 60)
      .trim() ||
    `hermes-${(s?.id ?? 'session').slice(0, 12)}`;
  return `${base}.${format}`;
}

/**
 * A stored tool record as a card: the call as the backend kept it, or, for a record stored
 * without it, its tool name, outcome and result.
 */
function storedToolCall(m: Message): ToolCall {
  if (m.tool) return { ...m.tool, tool: m.tool.tool || m.toolName || '' };
  return {
    tool: m.toolName ?? '',
    args: '',
    status: m.status === 'ok' ? 'ok' : m.status === 'cancelled' ? 'cancelled' : 'error',
    result: m.content || undefined,
    error: m.error || undefined,
    latencyMs: -1,
  };
}

/**
 * Only conversation turns are shown; system prompts stay hidden and stored tool records become
 * cards on the reply that follows them.
 */
function visible(messages: Message[] | null | undefined): UIMessage[] {
  const out: UIMessage[] = [];
  let pending: ToolCall[] = [];
  let threads: Delegation[] = [];
  for (const m of messages ?? []) {
    // Only the conversation's own messages: a sub-agent's come in its delegation's thread.
    if (m.channel && m.channel !== 'main') continue;
    if (m.role === 'tool') {
      const call = storedToolCall(m);
      if (isAgentTool(call.tool)) {
        if (!call.callId) call.callId = `stored-${m.id}`;
        threads.push(delegationOf(call, m.thread, call.callId));
      }
      pending.push(call);
    } else if (m.role === 'user') {
      pending = [];
      threads = [];
      out.push(toUIMessage(m));
    } else if (m.role === 'assistant') {
      const ui = toUIMessage(m);
      if (pending.length > 0) ui.tools = pending;
      if (threads.length > 0) ui.delegations = threads;
      pending = [];
      threads = [];
      out.push(ui);
    }
  }
  return out;
}

/** The text a user typed in a message, without its attached resources. */
export function typedText(content: string): string {
  const parts = splitMessage(content);
  if (!parts.some((p) => p.kind !== 'text')) return content;
  return parts
    .filter((p) => p.kind === 'text')
    .map((p) => p.text)
    .join('\n\n');
}

/** A message's new text with the resources the old one had attached. */
function withAttachments(old: string, text: string): string {
  const resources: Attachment[] = [];
  const docs: DocumentInfo[] = [];
  for (const p of splitMessage(old)) {
    if (p.kind === 'resource') resources.push({ server: p.server, uri: p.uri, name: p.name, mimeType: p.mimeType || undefined, text: p.text });
    if (p.kind === 'document') docs.push(p.doc);
  }
  return withDocuments(resources.length === 0 ? text : composeMessage(text, resources), docs);
}

/** The versions a message will have once a new one (local id) is added after its last. */
function nextVersion(m: UIMessage, id: string): Versions {
  const ids = m.versions?.ids ? [...m.versions.ids] : [m.id];
  ids.push(id);
  return { index: ids.length - 1, count: ids.length, ids };
}

/** A chat:delta payload's answer text and reasoning (either may be empty). */
function deltaParts(payload: unknown): { text: string; thinking: string } {
  if (typeof payload === 'string') return { text: payload, thinking: '' };
  const o = payload && typeof payload === 'object' ? (payload as { text?: unknown; thinking?: unknown }) : {};
  return { text: typeof o.text === 'string' ? o.text : '', thinking: typeof o.thinking === 'string' ? o.thinking : '' };
}

function defaultUUID(): string {
  if (globalThis.crypto?.randomUUID) return globalThis.crypto.randomUUID();
  // Non-secure contexts lack randomUUID; getRandomValues is still there.
  const b = globalThis.crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export class ChatStore {
  sessions = $state<SessionInfo[]>([]);
  currentId = $state('');
  messages = $state<UIMessage[]>([]);
  /** A send failed after its message was stored: the reply failed, Retry answers it. */
  replyFailedSaved = $state(false);
  /** The composer's text; kept here so a failed send can put it back. */
  draft = $state('');
  /** Resources that go with the next message (sent before the typed text). */
  attachments = $state<Attachment[]>([]);
  /** Documents (files) attached to the next message, read by the backend. */
  documents = $state<DocumentInfo[]>([]);
  /** Files being read (their names), and why the last one was refused. */
  reading = $state<string[]>([]);
  documentError = $state('');
  /** Inline error about the last send (shown next to the composer). */
  sendError = $state('');
  /** The error behind sendError, worded again when shown (the user may switch language). */
  #sendErrorSource = $state<unknown>(null);

  /** sendError in the language shown now. */
  get sendErrorText(): string {
    if (!this.sendError) return '';
    return sentence(this.#sendErrorSource ? errorMessage(this.#sendErrorSource) : this.sendError);
  }

  /** Records why a send failed. */
  #sendFailed(e: unknown): string {
    this.#sendErrorSource = e;
    this.sendError = errorMessage(e);
    return this.sendError;
  }
  /** Error about loading the list or a conversation. */
  loadError = $state('');
  active = $state<{ requestId: string; sessionId: string } | null>(null);
  loading = $state(false);
  /** A message to scroll to and flash briefly (set when a search hit is opened). */
  highlightId = $state('');
  /** Counts finished sends (answered or failed), so views can refresh after each turn. */
  turns = $state(0);
  /** The user message being edited in place (Edit on a message), if any. */
  editing = $state<EditState | null>(null);
  /** Retry after a failed regenerate or edit: answers the user message of that turn again. */
  #retryUser = '';

  /**
   * The last deletion whose file waits to be scrubbed (another Hermes process was reading the
   * database), until dismissed; checkpointed turns true when scrub:done names it.
   */
  deleteReceipt = $state<SessionDeleteReceipt | null>(null);

  #deps: ChatDeps;
  #uuid: () => string;
  /** Bumped whenever the visible conversation changes, so late results do not land in the wrong one. */
  #view = 0;

  constructor(deps: ChatDeps) {
    this.#deps = deps;
    this.#uuid = deps.uuid ?? defaultUUID;
  }

  get streaming(): boolean {
    return this.active !== null;
  }

  async init(): Promise<void> {
    await this.refreshSessions();
    if (this.sessions.length > 0 && this.currentId === '' && this.messages.length === 0) {
      await this.select(this.sessions[0].id);
    }
  }

  async refreshSessions(): Promise<void> {
    try {
      this.sessions = sortSessions(await this.#deps.api.ListSessions());
      this.loadError = '';
    } catch (e) {
      this.loadError = errorMessage(e);
    }
  }

  upsertSession(s: SessionInfo): void {
    const rest = this.sessions.filter((x) => x.id !== s.id);
    this.sessions = sortSessions([s, ...rest]);
  }

  async select(id: string): Promise<void> {
    await this.#dropFresh(id);
    const view = ++this.#view;
    this.loading = true;
    this.highlightId = '';
    this.editing = null;
    try {
      const detail = await this.#deps.api.LoadSession(id);
      if (view !== this.#view) return;
      this.#show(detail.session, detail.messages ?? []);
      this.loadError = '';
      this.sendError = '';
    } catch (e) {
      if (view === this.#view) this.loadError = errorMessage(e);
    } finally {
      if (view === this.#view) this.loading = false;
    }
  }

  #show(session: SessionInfo, messages: Message[]): void {
    this.currentId = session.id;
    this.messages = visible(messages);
    this.upsertSession(session);
    const ed = this.editing;
    if (ed && !this.messages.some((m) => m.id === ed.id)) this.editing = null;
  }

  /** The chat newChat opened: left before its first message, it is not kept. */
  #fresh = '';

  /** Deletes the fresh chat when the user leaves it for next with nothing said (no empty
   * "Untitled chat · 0 messages" rows pile up); a failure leaves it listed as before. */
  async #dropFresh(next: string): Promise<void> {
    const id = this.#fresh;
    this.#fresh = '';
    if (!id || id === next || this.currentId !== id || this.messages.length > 0 || this.active) return;
    try {
      await this.#deps.api.DeleteSession(id);
      this.sessions = this.sessions.filter((x) => x.id !== id);
    } catch {
      // kept: the user can still delete it
    }
  }

  /** The open conversation's id, creating it (fresh, as New chat does) when there is none yet. */
  async ensureSession(): Promise<string> {
    if (this.currentId) return this.currentId;
    const s = await this.#deps.api.NewSession();
    this.currentId = s.id;
    this.#fresh = s.id;
    this.upsertSession(s);
    return s.id;
  }

  /** Opens a fresh conversation, unless the open one is still empty. */
  async newChat(): Promise<void> {
    if (this.messages.length === 0) return;
    const view = ++this.#view;
    this.currentId = '';
    this.messages = [];
    this.sendError = '';
    this.loadError = '';
    this.editing = null;
    try {
      const s = await this.#deps.api.NewSession();
      if (view !== this.#view) return;
      this.currentId = s.id;
      this.#fresh = s.id;
      this.upsertSession(s);
    } catch {
      // Sending with an empty session id creates the session on the first message instead.
    }
  }

  appendDelta(requestId: string, payload: unknown): void {
    const { text, thinking } = deltaParts(payload);
    if (!text && !thinking) return;
    const m = this.#streamingReply(requestId);
    if (!m) return;
    if (m.loading) m.loading = undefined;
    if (thinking) m.thinking = (m.thinking ?? '') + thinking;
    if (text) m.content += text;
  }

  /** A chat:status:<id> event: Ollama is loading the model the reply waits for. */
  setStatus(requestId: string, payload: unknown): void {
    const o = payload && typeof payload === 'object' ? (payload as { state?: unknown; model?: unknown }) : {};
    const m = this.#streamingReply(requestId);
    if (!m || o.state !== 'loading' || typeof o.model !== 'string' || m.content !== '' || m.thinking) return;
    m.loading = o.model;
  }

  /**
   * The reply a request streams into, searched from the end (where it is): a delta arrives for
   * every token, and a long conversation's every message is a reactive proxy to look through.
   */
  #streamingReply(requestId: string): UIMessage | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const x = this.messages[i];
      if (x.requestId === requestId && x.role === 'assistant' && x.status === 'streaming') return x;
    }
    return undefined;
  }

  /** Adds a finished tool call (a chat:tool:<id> event) to the reply being streamed. */
  appendTool(requestId: string, payload: unknown): void {
    const call = toToolCall(payload);
    if (!call) return;
    const m = this.#streamingReply(requestId);
    if (!m) return;
    if (m.tools) m.tools.push(call);
    else m.tools = [call];
  }

  /** Applies a delegation's step (a chat:agent:<id> event) to the reply being streamed. */
  appendAgent(requestId: string, payload: unknown): void {
    const m = this.#streamingReply(requestId);
    if (!m) return;
    const list = m.delegations ?? [];
    if (!applyAgentEvent(list, payload)) return;
    if (!m.delegations) m.delegations = list;
  }

  #replace(requestId: string, res: TurnResult): void {
    const assistant = toUIMessage(res.assistant);
    const streamed = this.messages.find((x) => x.requestId === requestId && x.role === 'assistant');
    const tools = Array.isArray(res.tools)
      ? res.tools.map(toToolCall).filter((c): c is ToolCall => c !== null)
      : streamed?.tools;
    if (tools && tools.length > 0) assistant.tools = tools;
    if (streamed?.delegations?.length) assistant.delegations = $state.snapshot(streamed.delegations) as Delegation[];
    if (res.stop && typeof res.stop === 'object') {
      // The figures too: the card words the stop by them in the user's language.
      assistant.stop = { ...res.stop, kind: String(res.stop.kind ?? ''), message: String(res.stop.message ?? '') };
    }
    if (res.unverified === true) assistant.unverified = true;
    if (res.user?.id) {
      const user = toUIMessage(res.user);
      // A continued turn answers a user message that is already shown.
      let ui = this.messages.findIndex((x) => x.id === user.id);
      if (ui < 0) ui = this.messages.findIndex((x) => x.requestId === requestId && x.role === 'user');
      if (ui >= 0) this.messages[ui] = user;
      else this.messages.push(user);
    }
    const ai = this.messages.findIndex((x) => x.requestId === requestId && x.role === 'assistant');
    if (ai >= 0) this.messages[ai] = assistant;
    else this.messages.push(assistant);
  }

  /** Listens to the streamed text and tool calls of a request. */
  #listen(requestId: string): Unsubscribe {
    const a = this.#deps.on(Events.delta + requestId, (p) => this.appendDelta(requestId, p));
    const b = this.#deps.on(Events.tool + requestId, (p) => this.appendTool(requestId, p));
    const c = this.#deps.on(Events.agent + requestId, (p) => this.appendAgent(requestId, p));
    const d = this.#deps.on(Events.loading + requestId, (p) => this.setStatus(requestId, p));
    return () => {
      a();
      b();
      c();
      d();
    };
  }

  /** Attaches a resource to the next message (again: its text is replaced). */
  attach(a: Attachment): void {
    const key = attachmentKey(a);
    const i = this.attachments.findIndex((x) => attachmentKey(x) === key);
    if (i >= 0) this.attachments[i] = a;
    else this.attachments.push(a);
  }

  /** Takes a resource off the next message. */
  detach(a: Pick<Attachment, 'server' | 'uri'>): void {
    const key = attachmentKey(a);
    this.attachments = this.attachments.filter((x) => attachmentKey(x) !== key);
  }

  isAttached(server: string, uri: string): boolean {
    const key = attachmentKey({ server, uri });
    return this.attachments.some((x) => attachmentKey(x) === key);
  }

  /** Reads files (the paperclip, or dropped on the chat) and attaches their text to the next message. */
  async attachFiles(files: Iterable<File>): Promise<void> {
    const attach = this.#deps.api.AttachDocument;
    if (!attach) return;
    this.documentError = '';
    for (const f of files) {
      this.reading = [...this.reading, f.name];
      try {
        const info = await attach(f.name, await fileBase64(f));
        this.documents = [...this.documents.filter((d) => d.id !== info.id), info];
      } catch (e) {
        this.documentError = errorMessage(e);
      } finally {
        this.reading = this.reading.filter((n, i, all) => n !== f.name || all.indexOf(n) !== i);
      }
    }
  }

  /** Removes a document from the next message. */
  detachDocument(id: string): void {
    this.documents = this.documents.filter((d) => d.id !== id);
  }

  /** Whether the draft can be sent: it has text or attachments. */
  get canSend(): boolean {
    return this.draft.trim() !== '' || this.attachments.length > 0 || this.documents.length > 0;
  }

  /**
   * Sends text (the draft when omitted). Resolves true when the backend answered (even with a
   * cancelled or failed reply) and false when nothing was sent or the call failed.
   */
  async send(text?: string): Promise<boolean> {
    const fromDraft = text === undefined;
    const typed = fromDraft ? this.draft : text;
    // The attachments go with the draft (a text given here is sent as it is).
    const attached = fromDraft ? [...this.attachments] : [];
    const docs = fromDraft ? [...this.documents] : [];
    const body = withDocuments(composeMessage(typed, attached), docs);
    if (!body.trim() || this.active) return false;

    const requestId = this.#uuid();
    const sessionId = this.currentId;
    const view = this.#view;
    const now = new Date().toISOString();
    if (fromDraft) {
      this.draft = '';
      this.attachments = [];
      this.documents = [];
      this.documentError = '';
    }
    this.sendError = '';
    this.replyFailedSaved = false;
    this.messages.push(
      { id: `local-user-${requestId}`, role: 'user', content: body, status: 'ok', createdAt: now, requestId },
      { id: `local-assistant-${requestId}`, role: 'assistant', content: '', status: 'streaming', createdAt: now, requestId },
    );
    return this.#stream(requestId, sessionId, view, () => this.#deps.api.SendMessage(requestId, sessionId, body), (stored, here, savedId) => {
      // The backend stores the message before anything else: when it is there, the reply
      // failed and Retry answers it again (without storing it twice); only a message that
      // was not stored goes back into the box, so nothing typed is lost. What the backend
      // holds decides, also when another view opened meanwhile.
      const list = stored ?? (here ? this.messages : []);
      const last = [...list].reverse().find((m) => m.role === 'user' && !m.id.startsWith('local-'));
      this.replyFailedSaved = savedId !== '' || (!!last && last.content === body);
      if (!here) return;
      if (!this.replyFailedSaved && this.draft.trim() === '' && this.attachments.length === 0 && this.documents.length === 0) {
        this.draft = typed;
        this.attachments = attached;
        this.documents = docs;
      }
    });
  }

  /** Retry after a failed reply whose message is saved: answers it again, storing nothing twice. */
  async retry(): Promise<boolean> {
    this.replyFailedSaved = false;
    // After a failed regenerate or edit, the turn's reply (if one was stored) is answered again.
    const user = this.#retryUser;
    this.#retryUser = '';
    if (user) {
      const i = this.messages.findIndex((m) => m.id === user);
      const reply = i >= 0 ? this.messages[i + 1] : undefined;
      if (reply && reply.role === 'assistant' && !reply.id.startsWith('local-')) return this.regenerate(reply.id);
    }
    return this.continueTurn();
  }

  /**
   * Regenerate: answers again the user message a stored reply answers. The new reply streams in
   * the reply's place as its newest version (later turns belong to the old version's branch).
   * Resolves true when the backend answered.
   */
  async regenerate(replyId: string): Promise<boolean> {
    const sessionId = this.currentId;
    const i = this.messages.findIndex((m) => m.id === replyId && m.role === 'assistant');
    if (this.active || !sessionId || i < 0) return false;
    const old = this.messages[i];
    const requestId = this.#uuid();
    const view = this.#view;
    const placeholder: UIMessage = {
      id: `local-assistant-${requestId}`,
      role: 'assistant',
      content: '',
      status: 'streaming',
      createdAt: new Date().toISOString(),
      requestId,
      versions: nextVersion(old, `local-assistant-${requestId}`),
    };
    this.sendError = '';
    this.replyFailedSaved = false;
    this.editing = null;
    this.messages = [...this.messages.slice(0, i), placeholder];
    const user = [...this.messages].reverse().find((m) => m.role === 'user');
    return this.#stream(
      requestId,
      sessionId,
      view,
      () => this.#deps.api.RegenerateReply(requestId, sessionId, replyId),
      (_, here) => here && this.#failedTurn(user?.id ?? ''),
    );
  }

  /** Opens the in-place editor on a user message, with the text the user typed (attachments stay). */
  startEdit(messageId: string): void {
    const m = this.messages.find((x) => x.id === messageId && x.role === 'user');
    if (!m || this.active) return;
    this.editing = { id: messageId, text: typedText(m.content) };
  }

  cancelEdit(): void {
    this.editing = null;
  }

  /**
   * Resends the message being edited with its new text: it becomes a new version of that
   * message (the old one and its later turns stay as the other branch) and a new reply streams.
   * When the backend did not take the edit, the editor opens again with the text and the error.
   */
  async submitEdit(): Promise<boolean> {
    const ed = this.editing;
    if (!ed || this.active) return false;
    const text = ed.text;
    const i = this.messages.findIndex((m) => m.id === ed.id && m.role === 'user');
    if (i < 0) return false;
    const old = this.messages[i];
    const body = withAttachments(old.content, text);
    if (!body.trim()) return false;
    const before = [...this.messages];
    const requestId = this.#uuid();
    const sessionId = this.currentId;
    const view = this.#view;
    const now = new Date().toISOString();
    this.editing = null;
    this.sendError = '';
    this.replyFailedSaved = false;
    this.messages = [
      ...this.messages.slice(0, i),
      { id: `local-user-${requestId}`, role: 'user', content: body, status: 'ok', createdAt: now, requestId, versions: nextVersion(old, `local-user-${requestId}`) },
      { id: `local-assistant-${requestId}`, role: 'assistant', content: '', status: 'streaming', createdAt: now, requestId },
    ];
    return this.#stream(
      requestId,
      sessionId,
      view,
      () => this.#deps.api.EditMessage(requestId, sessionId, ed.id, body),
      (_, here) => {
        if (!here) return;
        // The conversation as stored: the edit is there (then only its reply failed) or not
        // (then the old message is back and the editor keeps the new text).
        const error = this.sendError;
        if (this.messages.some((m) => m.id === `local-user-${requestId}`)) this.messages = before; // nothing reloaded
        const at = this.messages[i];
        const stored = at && at.role === 'user' && at.id !== ed.id && !at.id.startsWith('local-') && at.content === body ? at : undefined;
        if (stored) {
          this.#failedTurn(stored.id);
        } else if (this.messages.some((m) => m.id === ed.id)) {
          this.sendError = '';
          this.editing = { id: ed.id, text, error };
        }
      },
    );
  }

  /** After a failed regenerate or edit whose message is stored: "reply failed", Retry answers it. */
  #failedTurn(userId: string): void {
    if (!userId) return;
    this.replyFailedSaved = true;
    this.#retryUser = userId;
  }

  /** Shows another version of a message; the conversation after it follows that version's branch. Throws the backend's error. */
  async selectVersion(messageId: string): Promise<void> {
    const sessionId = this.currentId;
    if (this.active || !sessionId) return;
    const view = ++this.#view;
    const detail: SessionDetail = await this.#deps.api.SelectVersion(sessionId, messageId);
    if (view !== this.#view) return;
    this.editing = null;
    this.#show(detail.session, detail.messages ?? []);
  }

  /** Deletes a turn: a user message and its reply (all versions). The UI must have asked first. Throws the backend's error. */
  async deleteTurn(messageId: string): Promise<void> {
    const sessionId = this.currentId;
    if (this.active || !sessionId) return;
    const view = ++this.#view;
    const detail: SessionDetail = await this.#deps.api.DeleteTurn(sessionId, messageId);
    if (view !== this.#view) return;
    if (this.editing?.id === messageId) this.editing = null;
    this.#show(detail.session, detail.messages ?? []);
    this.turns++;
  }

  /**
   * "Continue once": gives the open conversation's turn that the loop guard stopped one more
   * round. The new reply streams like a send. Resolves true when the backend answered.
   */
  async continueTurn(): Promise<boolean> {
    const sessionId = this.currentId;
    if (this.active || !sessionId) return false;
    const requestId = this.#uuid();
    const view = this.#view;
    this.sendError = '';
    this.messages.push({
      id: `local-assistant-${requestId}`,
      role: 'assistant',
      content: '',
      status: 'streaming',
      createdAt: new Date().toISOString(),
      requestId,
    });
    return this.#stream(requestId, sessionId, view, () => this.#deps.api.ContinueTurn(requestId, sessionId));
  }

  /**
   * Runs a turn whose reply streams into the local placeholder of requestId, then shows what
   * the backend stored. On a failed call the placeholder is marked failed, onError runs (while
   * the conversation is still on screen) and the stored state is reloaded.
   */
  async #stream(
    requestId: string,
    sessionId: string,
    view: number,
    call: () => Promise<TurnResult>,
    /** After a failed call: the messages of the conversation as the backend holds them (null when
     *  none was found), whether the view is still the one the call was made from, and the id of
     *  the user's message when the backend said it stored it. */
    onError?: (stored: Message[] | null, here: boolean, savedId: string) => void,
  ): Promise<boolean> {
    this.active = { requestId, sessionId };
    this.#retryUser = '';
    // The chats before the call: a new chat the call created is the one not among them (an
    // event may list it before the call fails, so this is taken now, not after).
    const known = new Set(this.sessions.map((s) => s.id));
    const off = this.#listen(requestId);
    let result: TurnResult;
    try {
      result = await call();
    } catch (e) {
      off();
      this.active = null;
      const msg = errorMessage(e);
      if (view === this.#view) {
        const m = this.messages.find((x) => x.requestId === requestId && x.role === 'assistant');
        if (m) {
          m.status = 'failed';
          m.error = msg;
        }
      }
      this.#deps.onFailure?.();
      // The backend says where it stored the user's message, when it did (app.go storedIn).
      const where = e instanceof BackendError ? e.params : {};
      const stored = await this.#recover(where.session || sessionId, view, known);
      // The error is shown only now, with what was stored decided: shown at once, it said
      // "not sent" while the chat was being read back, then "saved".
      this.#sendFailed(e);
      onError?.(stored, view === this.#view, where.stored ?? ''); // after recovering: what was stored decides
      this.turns++;
      return false;
    }
    off();
    this.active = null;
    if (result.session?.id) this.upsertSession(result.session);
    if (view === this.#view) {
      if (result.session?.id) this.currentId = result.session.id;
      this.#replace(requestId, result);
    }
    if (result.assistant?.status === 'failed') this.#deps.onFailure?.();
    this.turns++;
    return true;
  }

  /**
   * After a failed send, show what the backend actually stored (the user message is persisted).
   * known are the chats there were before the send: a new chat is the one not among them.
   */
  async #recover(sessionId: string, view: number, known: Set<string>): Promise<Message[] | null> {
    await this.refreshSessions();
    let id = sessionId;
    if (!id) id = this.sessions.find((s) => !known.has(s.id))?.id ?? '';
    if (!id) return null;
    try {
      const detail = await this.#deps.api.LoadSession(id);
      if (view === this.#view) this.#show(detail.session, detail.messages ?? []);
      return detail.messages;
    } catch {
      return null; // keep the local view with the failure marker
    }
  }

  /** Opens a session and marks one of its messages to be scrolled to and highlighted. */
  async open(sessionId: string, messageId: string): Promise<boolean> {
    await this.select(sessionId);
    if (this.currentId !== sessionId) return false;
    this.highlightId = this.messages.some((m) => m.id === messageId) ? messageId : '';
    return this.highlightId !== '';
  }

  session(id: string): SessionInfo | undefined {
    return this.sessions.find((s) => s.id === id);
  }

  /** Renames a session. Throws the backend's error (the caller shows it). */
  async rename(id: string, title: string): Promise<void> {
    const t = title.trim();
    if (!t) throw new Error('empty title');
    this.upsertSession(await this.#deps.api.RenameSession(id, t));
  }

  async setPinned(id: string, pinned: boolean): Promise<void> {
    this.upsertSession(await this.#deps.api.PinSession(id, pinned));
  }

  async archive(id: string): Promise<void> {
    this.upsertSession(await this.#deps.api.ArchiveSession(id));
  }

  /**
   * Listens for scrub:done, which says that the file of a deletion was scrubbed after all;
   * returns the unsubscribe function.
   */
  listen(): Unsubscribe {
    return this.#deps.on(Events.scrubDone, (d) => this.scrubDone(d));
  }

  /** Marks the shown deletion scrubbed when scrub:done names its receipt. */
  scrubDone(payload: unknown): void {
    const r = this.deleteReceipt;
    if (r && !r.checkpointed && scrubbedIds(payload).includes(r.id)) this.deleteReceipt = { ...r, checkpointed: true };
  }

  /** Deletes a session for good. The UI must have asked the user first. */
  async remove(id: string): Promise<void> {
    const receipt = await this.#deps.api.DeleteSession(id);
    // Older backends return nothing; a receipt whose file waits for a scrub is shown.
    this.deleteReceipt = receipt && typeof receipt === 'object' && receipt.checkpointed === false ? receipt : null;
    this.sessions = this.sessions.filter((s) => s.id !== id);
    if (this.currentId === id) {
      ++this.#view;
      this.currentId = '';
      this.messages = [];
      this.highlightId = '';
      this.sendError = '';
      this.loadError = '';
    }
  }

  exportText(id: string, format: ExportFormat): Promise<string> {
    return this.#deps.api.ExportSession(id, format);
  }

  /** Pins or unpins a stored message (pinned messages are always offered to the model). */
  async pinMessage(messageId: string, pinned: boolean): Promise<void> {
    await this.#deps.api.PinMessage(messageId, pinned);
    const m = this.messages.find((x) => x.id === messageId);
    if (m) m.pinned = pinned;
  }

  /** Gives a stored user message the intent the user chose; a re-run of its turn is planned from it. */
  async correctIntent(messageId: string, label: string): Promise<void> {
    const correct = this.#deps.api.CorrectIntent;
    if (!correct) throw new Error('correcting an intent is not available');
    const r = await correct(messageId, label);
    const m = this.messages.find((x) => x.id === messageId);
    if (m) {
      m.intent = r.intent;
      m.intentConfidence = r.intentConfidence;
    }
  }

  /** Asks the backend to stop the reply being streamed. */
  async cancel(): Promise<void> {
    const a = this.active;
    if (!a) return;
    try {
      await this.#deps.api.CancelMessage(a.requestId);
    } catch (e) {
      this.#sendFailed(e);
    }
  }
}

/** A file's bytes as base64 (the backend's methods take strings). */
async function fileBase64(f: Blob): Promise<string> {
  const bytes = new Uint8Array(await f.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** text ending as a sentence does in the UI's language (a reason is followed by more text). */
export function sentence(text: string): string {
  const t = text.trimEnd();
  if (t === '' || /[.!?。！？]$/.test(t)) return t;
  return t + (locale.lang === 'zh' ? '。' : '.');
}
