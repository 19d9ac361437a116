// The only module that knows how the UI reaches the Go side.
//
// Two transports:
//  - Wails desktop: bound methods at window.go.app.App.<Method>(...args), events via window.runtime.
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

export type SessionState = 'active' | 'idle' | 'archived';

export interface SessionInfo {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  /** Older backends leave these out: treat a missing state as active and pinned as false. */
  state?: SessionState;
  pinned?: boolean;
  /** A chat kept only while this Hermes runs (erased when it closes; found by no search). */
  incognito?: boolean;
  /** The project the chat is in (absent: none). */
  projectId?: string;
}

export type Role = 'user' | 'assistant' | 'system' | 'tool';
/** unsaved: a reply Hermes holds because its data disk refused it (full, read-only); saved when it can. */
export type MessageStatus = 'ok' | 'cancelled' | 'failed' | 'unsaved';

export interface Message {
  id: string;
  sessionId: string;
  role: Role;
  content: string;
  /** A reply's reasoning (a thinking model's), shown folded above it; never sent back to the model. */
  thinking?: string;
  status: MessageStatus;
  error?: string;
  /** A failed reply's error code and parameters: the UI words `error` in the user's language by them. */
  errorCode?: string;
  errorParams?: Record<string, string>;
  model?: string;
  /** The intent label of a user message (see docs/architecture.md, "Intent labels"), or "unknown". */
  intent?: string;
  intentConfidence?: number;
  pinned?: boolean;
  /** The tool a role "tool" message is the result of (older backends leave it out). */
  toolName?: string;
  createdAt: string;
  /** A stored tool message's call as its card shows it (absent for messages stored without it). */
  tool?: ToolCall | null;
  /** A stored reply's loop-guard stop. */
  stop?: GuardStop | null;
  /** A stored reply claims an action no tool call performed. */
  unverified?: boolean;
  /** The channel the message belongs to: absent or "main" for the conversation, else a sub-agent's name. */
  channel?: string;
  /** On a tool message of an agent__<name> call: the sub-agent's own messages of that delegation. */
  thread?: Message[] | null;
  /** An edited user message's or a regenerated reply's versions; absent when there is only one. */
  versions?: MessageVersions | null;
  /** A reply's figures from the model's counters (absent on old replies). */
  figures?: ReplyFigures | null;
  /** The knowledge-base passages a reply was offered, by the number it cites them with ([n]). */
  sources?: CitedSource[] | null;
  /** Numbers the reply cites ([n]) that point at no passage it was offered. */
  badCitations?: number[] | null;
}

/** A passage offered to a reply, numbered as the reply cites it ([n]). */
export interface CitedSource {
  n: number;
  /** The passage's id: KBPassage and KBOpenFile take it. */
  chunk: string;
  collection: string;
  /** The file, relative to the collection's folder. */
  file: string;
  page?: number;
  heading?: string;
}

/** The versions of a message: the one shown (0-based) and every version's id, oldest first. */
export interface MessageVersions {
  index: number;
  count: number;
  ids: string[];
}

/** What one reply cost: 0 in any field means unknown. */
export interface ReplyFigures {
  model: string;
  promptTokens: number;
  completionTokens: number;
  tokensPerSecond: number;
  firstTokenMs: number;
  totalMs: number;
  /** Time the model spent thinking and the reasoning tokens it streamed (0: it did not think). */
  thinkingMs?: number;
  thinkingTokens?: number;
  /** The context asked for (num_ctx); contextFull: Ollama counted all of it, so it cut the prompt's start. */
  contextSize?: number;
  contextFull?: boolean;
}

/** How one tool call ended (see backend/tools/outcome.go). */
export type ToolStatus = 'ok' | 'error' | 'denied' | 'blocked' | 'timeout' | 'cancelled';

/** One tool call of a turn, as the chat shows it (TurnResult.tools and the chat:tool:<id> event). */
export interface ToolCall {
  tool: string;
  /** The arguments as a JSON text, secrets redacted. */
  args: string;
  status: ToolStatus | string;
  errorKind?: string;
  error?: string;
  /** What the tool returned (plain text, shortened by the backend). */
  result?: string;
  latencyMs: number;
  breaker?: string;
  /** The model's id for the call (the same as the AgentEvents of a delegation carry). */
  callId?: string;
}

/** Why the loop guard stopped a turn. */
export interface GuardStop {
  kind: 'max_iterations' | 'consecutive_failures' | string;
  /** In English; the figures below word it in the user's language (lib/tools.svelte.ts stopDetail). */
  message: string;
  iterations?: number;
  failures?: number;
  lastTool?: string;
}

export interface TurnResult {
  session: SessionInfo;
  user: Message;
  assistant: Message;
  /** The turn's tool calls in order (older backends leave it out). */
  tools?: ToolCall[] | null;
  /** Set when the loop guard stopped the turn ("continue once" resumes it). */
  stop?: GuardStop | null;
  /** The reply claims an action no tool call performed. */
  unverified?: boolean;
}

/** What a tool does to the world; these decide whether a call asks first. */
export interface ToolAnnotations {
  read_only?: boolean;
  destructive?: boolean;
  open_world?: boolean;
  command?: boolean;
  /** Runs a shell with the model's text (allow_shell): the approval says so in red. */
  shell?: boolean;
}

/** Payload of the approval:needed event. */
export interface ApprovalPrompt {
  id: string;
  request_id: string;
  session_id: string;
  call_id: string;
  tool: string;
  description: string;
  /** The full, unredacted arguments (a JSON value). */
  args: unknown;
  annotations: ToolAnnotations;
  definition_hash: string;
}

export type BreakerState = 'closed' | 'open' | 'half-open';

/** A registered tool as the settings show it. */
export interface ToolInfo {
  name: string;
  description: string;
  annotations: ToolAnnotations;
  groups: string[] | null;
  enabled: boolean;
  breaker: BreakerState | string;
  /** When an open breaker lets the next call try again. */
  openUntil?: string;
}

/** One audited tool call, newest first. */
export interface ActivityRow {
  id: number;
  requestId: string;
  sessionId?: string;
  tool: string;
  arguments: string;
  status: ToolStatus | string;
  errorKind?: string;
  error?: string;
  latencyMs: number;
  breaker?: string;
  createdAt: string;
}

/**
 * One line of the network activity (app/network.go NetworkEntry): one part of Hermes's connections
 * to one host and port with one outcome, over the days kept.
 */
export interface NetworkEntry {
  /** "ollama", "mcp:<server>" or "tool:<name>". */
  part: string;
  /** As named: a name or an address. */
  host: string;
  port: string;
  /** The last address connected to or refused (for offline_only_dns, the name server). */
  address?: string;
  outcome: 'made' | 'refused' | 'failed' | string;
  /** Why it was refused or failed (backend/egress Reason* and Fail*). */
  reason?: string;
  count: number;
  /** RFC 3339, UTC. */
  first: string;
  last: string;
}

/** The connections Hermes made or refused, and the setting that limits them. */
export interface NetworkActivity {
  offlineOnly: boolean;
  entries: NetworkEntry[];
}

export interface SessionDetail {
  session: SessionInfo;
  messages: Message[];
}

export interface Status {
  host: string;
  reachable: boolean;
  version: string;
  model: string;
  modelAvailable: boolean;
  models: string[];
  warnings: Notice[] | null;
  /** What keeps the chat from working and what to do, in English; code and params word it (lib/notices.ts). */
  problem: string;
  fix: string;
  code?: string;
  params?: Record<string, string> | null;
  dataDir: string;
  /** Hermes started this Ollama and stops it when it exits. */
  ollamaManaged?: boolean;
  /** The connection's one state (app/connection.go); absent from older backends. */
  connection?: ConnectionState | string;
  /** Set when messages cannot be classified (chat still works). */
  intentProblem?: string;
  intentFix?: string;
  intentCode?: string;
  intentParams?: Record<string, string> | null;
}

/** A warning by code (lib/notices.ts), with its params and its English text. */
export interface Notice {
  code: string;
  params?: Record<string, string> | null;
  text: string;
}

/** A piece of a search snippet; match marks the words that matched the query. */
export interface Fragment {
  text: string;
  match: boolean;
}

export interface SearchHit {
  sessionId: string;
  sessionTitle: string;
  messageId: string;
  role: Role;
  snippet: Fragment[] | null;
  score: number;
  createdAt: string;
  state: SessionState | string;
}

export type ContextReason =
  | 'system'
  | 'query'
  | 'summary'
  | 'memory'
  | 'tool_schema'
  | 'pinned'
  | 'recent'
  | 'relevant'
  | 'anchor'
  | 'newest';

export interface ContextItem {
  reason: ContextReason | string;
  role: string;
  preview: string;
  tokens: number;
  messageId?: string;
  shortened?: boolean;
  /** The image the item carries (DocumentImage shows it); absent for text. */
  imageId?: string;
}

/** The routing decision of a turn. */
export interface PlanInfo {
  intent: string;
  confidence: number;
  recall: boolean;
  recallK: number;
  mayWriteMemory: boolean;
  toolGroup: string;
}

/** A message whose intent the user corrected, with the plan a re-run of its turn gets. */
export interface IntentCorrected {
  messageId: string;
  intent: string;
  intentConfidence: number;
  plan: PlanInfo;
}

/** What the model saw on a session's last turn (empty items when there was none in this run). */
export interface ContextReport {
  sessionId: string;
  /** The reply the report is for (absent when the backend does not know it). */
  messageId?: string;
  /** The user message the turn answered: its recall log is kept under it (MemoryRecallLog). */
  queryId?: string;
  items: ContextItem[] | null;
  tokens: number;
  budget: number;
  dropped: number;
  intent: string;
  plan: PlanInfo;
  /** The chat settings the turn ran with (absent from older backends). */
  settings?: TurnSettings;
  /** The raw estimate tokens was calibrated from (live reports). */
  estimated?: number;
  /** Ollama's count of the prompt (absent: not known); full: it filled the context, so Ollama cut its start. */
  counted?: number;
  full?: boolean;
}

/** A project: chats grouped with their own defaults (app/projects.go). */
export interface ProjectInfo {
  id: string;
  name: string;
  system: string;
  model: string;
  /** The collections its chats may cite: null every one. */
  knowledge: string[] | null;
  memoryProfile: string;
  chats: number;
  updatedAt: string;
}

export interface ProjectInput {
  id?: string;
  name: string;
  system: string;
  model: string;
  knowledge?: string[] | null;
  memoryProfile?: string;
}

export interface ProjectDeleteReceipt {
  project: string;
  kept: number;
  deleted: DeleteReceipt[];
}

/** What the composer's meter starts from (app/contextmeter.go): the next turn before its message. */
export interface ContextMeterInfo {
  budget: number;
  used: number;
  contextSize: number;
  model: string;
  maxMessageBytes: number;
}

/** The chat settings in force on a turn: the system prompt (custom: the chat's own), model, temperature, context. */
export interface TurnSettings {
  system: string;
  custom: boolean;
  model: string;
  /** null: the model's own default. */
  temperature: number | null;
  numCtx: number;
}

/** A conversation's own settings; empty fields (null temperature, 0 context) use the global ones in defaults. */
export interface ChatSettings {
  sessionId: string;
  system: string;
  model: string;
  temperature: number | null;
  numCtx: number;
  /** '' (the model decides), 'on', 'off', 'low', 'medium', 'high'. */
  think: ThinkChoice;
  /** The knowledge-base collections the chat may cite: null every one, [] none. */
  knowledge?: string[] | null;
  defaults: { system: string; model: string; numCtx: number };
}

/** A change to a chat's settings (preset, when set, fills the system prompt from that saved one). */
export interface ChatSettingsInput {
  system: string;
  preset?: string;
  model: string;
  temperature: number | null;
  numCtx: number;
  think: ThinkChoice;
  /** The collections the chat may cite: null every one, [] none. */
  knowledge?: string[] | null;
}

/** A chat's Think setting: '' lets the model decide; low, medium and high are for models with levels (gpt-oss). */
export type ThinkChoice = '' | 'on' | 'off' | 'low' | 'medium' | 'high';
export const THINK_CHOICES: ThinkChoice[] = ['', 'on', 'off', 'low', 'medium', 'high'];

/** A saved system prompt. */
export interface SystemPreset {
  name: string;
  text: string;
  builtin: boolean;
}

export type ExportFormat = 'md' | 'json' | 'html' | 'pdf';

/** The export formats, as the export dialog offers them. */
export const EXPORT_FORMATS: ExportFormat[] = ['md', 'html', 'pdf', 'json'];

/** Where an import's file comes from: Hermes' own JSONL, or another assistant's export. */
export type ChatImportSource = 'jsonl' | 'chatgpt' | 'claude' | 'openwebui';
export const CHAT_IMPORT_SOURCES: ChatImportSource[] = ['chatgpt', 'claude', 'openwebui', 'jsonl'];

/** What an import file holds, counted before anything is written (PreviewChatImport). */
export interface ChatImportPreview {
  source: ChatImportSource;
  conversations: number;
  messages: number;
  /** Versions beside the shown one (regenerated replies, edited prompts), counted in messages. */
  branches: number;
  /** Entries not carried: system and hidden messages, tool calls, empty ones. */
  skipped: number;
  /** Pictures the file refers to: each becomes a line such as [image: file-…]. */
  images: number;
  shortened: number;
  /** RFC 3339; absent when no message has a time. */
  first?: string;
  last?: string;
}

/** Progress of ImportChats (the session:import:<requestId> event). */
export interface ChatImportProgress {
  phase: 'checking' | 'importing';
  done: number;
  total: number;
}

/** What an import wrote. */
export interface SessionImportResult {
  sessions: number;
  messages: number;
  /** Messages already there (the same file imported before). */
  skipped: number;
}

export interface ModelInfo {
  name: string;
  size: number;
  modifiedAt: string;
  /** Such as "3.2B" (older backends leave it out). */
  parameter_size?: string;
}

// ---------------------------------------------------------------------------------------------
// Models and the first run (see backend/llm and app/models.go)

/** What a model can do, as Ollama reports it. */
export type ModelCapability = 'chat' | 'tools' | 'embedding' | 'vision' | 'thinking';

/** An installed model with its details (ListModelDetails, SetupState.models). */
export interface ModelDetail {
  name: string;
  family: string;
  parameter_size: string;
  quantization: string;
  context_length: number;
  capabilities: (ModelCapability | string)[] | null;
  /** Bytes on disk. */
  size: number;
  /** In memory now. */
  loaded: boolean;
  modified_at: string;
  /** The chat model now. */
  is_chat: boolean;
  /** The embedding model now. */
  is_embed: boolean;
}

/** A model worth pulling, sized to this computer's memory (the first fits best). */
export interface Recommendation {
  name: string;
  title: string;
  size_gb: number;
  params: string;
  why: string;
}

export type OllamaState = 'running' | 'stopped' | 'missing' | 'unreachable' | 'lost';
/** The next thing the user has to do; "" when chat is ready. */
export type SetupStep = 'install' | 'start' | 'reconnect' | 'connect' | 'pull' | 'choose' | '';
/**
 * The connection to Ollama, computed by the backend (app/connection.go): ready; not installed;
 * installed and stopped; stopped responding (it answered before: the chat stays, Start again);
 * another computer that does not answer; an address Hermes's own rules refuse.
 */
export type ConnectionState = 'ready' | 'not_installed' | 'stopped' | 'not_responding' | 'remote_unreachable' | 'refused';

/** What Hermes found at an Ollama address (CheckOllamaHost, UseOllamaHost). */
export interface OllamaCheck {
  /** The address as Hermes writes it (scheme://host:port). */
  host: string;
  ok: boolean;
  version: string;
  models: number;
  /** Not this computer. */
  remote: boolean;
  /** It is the address in use now. */
  saved: boolean;
  /** Why it cannot be used: bad_url, never, needs_internet, offline, no_answer, not_ollama, error. */
  code: string;
  params: Record<string, string> | null;
  /** The same in English. */
  problem: string;
  /** "plain_http": http:// to an internet host. */
  warning: string;
}

/** What the first run still needs (Setup, StartOllama, UseModel and the setup:changed event). */
export interface SetupState {
  ollama: OllamaState | string;
  /** Hermes started this Ollama and stops it on exit. */
  managed: boolean;
  host: string;
  version: string;
  /** An ollama program found but not running. */
  binary: string;
  /** The exact command that installs Ollama on this OS. */
  install_hint: string;
  /** Other ways to install it (offline too); absent from older backends. */
  install_note?: string;
  /** The OS the backend runs on (Go's GOOS), for the install note's words. */
  os?: string;
  chat_model: string;
  /** The chosen chat model is installed and can chat. */
  chat_ready: boolean;
  embed_model: string;
  embed_ready: boolean;
  models: ModelDetail[] | null;
  recommended: Recommendation[] | null;
  memory_gb: number;
  /** What is missing, in English; code and params word it (lib/notices.ts). */
  problem: string;
  code?: string;
  params?: Record<string, string> | null;
  step: SetupStep | string;
  /** The connection's one state; the rest say what can be done (absent from older backends). */
  connection?: ConnectionState | string;
  remote?: boolean;
  /** Start Ollama (or Start again) would start one. */
  can_start?: boolean;
  /** The Ollama Hermes started has exited, and how. */
  exited?: boolean;
  exit?: string;
  /** The end of its log, since its last start. */
  log_tail?: string[] | null;
}

/** Progress of a pull or an import (the model:progress:<requestId> event). */
export interface ModelProgress {
  status: string;
  completed: number;
  total: number;
  percent: number;
  rate_bps: number;
  eta_seconds: number;
}

export interface Setting {
  key: string;
  value: string;
  description: string;
}

// ---------------------------------------------------------------------------------------------
// MCP servers (see backend/mcp/status.go)

export const MCP_STATES = [
  'starting',
  'ready',
  'crashed',
  'backing off',
  'disabled',
  'awaiting approval',
  'invalid',
  'stopped',
] as const;
export type McpState = (typeof MCP_STATES)[number];

/** How Hermes talks to a server: a local program (stdio), Streamable HTTP or legacy HTTP+SSE. */
export type McpTransport = 'stdio' | 'http' | 'sse';

/** The value the backend shows instead of a stored header value (sending it back keeps the value). */
export const MCP_REDACTED = '[REDACTED]';

/**
 * One entry of mcpServers in mcp.json, as the form edits it: a local program (command, args,
 * env, cwd) or a remote server (url, type, headers, allow_internet, ca_file).
 */
export interface McpServerConfig {
  /** Absent for a remote entry. */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** A remote server's address (http:// or https://). */
  url?: string;
  /** "http" (Streamable HTTP, the default with a url) or "sse" (legacy HTTP+SSE). */
  type?: 'http' | 'sse' | 'stdio' | string;
  /** Sent with every request; values may be ${VAR}. Stored values come back as MCP_REDACTED. */
  headers?: Record<string, string>;
  /** Lets a remote entry reach a host outside loopback and the private LAN. */
  allow_internet?: boolean;
  /** A PEM file of the CA that signed a LAN server's certificate. */
  ca_file?: string;
  disabled?: boolean;
  /** A duration such as "30s". */
  timeout?: string;
  tools?: { include?: string[]; exclude?: string[] };
  /** Tool names (the server's) that never ask first. */
  autoApprove?: string[];
}

/** What the server says about a tool (untrusted). */
export interface McpHints {
  read_only_hint?: boolean;
  destructive_hint?: boolean;
  idempotent_hint?: boolean;
  open_world_hint?: boolean;
}

/** One of a server's tools. */
export interface McpTool {
  /** As the model sees it; "" when it is not registered. */
  name: string;
  /** As the server calls it. */
  remote: string;
  title?: string;
  description: string;
  /** Hermes's annotations (these decide whether a call asks first). */
  annotations: ToolAnnotations;
  hints?: McpHints;
  /** Offered to the model. */
  enabled: boolean;
  /** Switched off by the user. */
  user_off: boolean;
  auto_approve: boolean;
  /** The definition differs from the approved one: off until accepted. */
  changed: boolean;
  /** Appeared after the server was approved. */
  new: boolean;
  /** Why it is not offered at all. */
  skipped?: string | null;
  hash?: string;
  /** A tool Hermes adds for the server's resources or prompts. */
  builtin?: boolean | null;
}

export interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** A prompt template a server offers. */
export interface McpPrompt {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments?: McpPromptArgument[] | null;
}

export interface McpPromptResult {
  description?: string;
  messages: { role: string; text: string }[] | null;
}

/** A server as the MCP panel shows it. */
export interface McpStatus {
  name: string;
  state: McpState | string;
  error?: string;
  warnings?: string[] | null;
  config: McpServerConfig;
  /**
   * The exact command line, shell-quoted, as the user approves it; for a remote server a
   * one-line description of what is approved (transport, URL, header names).
   */
  command: string;
  /** "stdio", "http" or "sse" (older backends leave it out: stdio). */
  transport?: McpTransport | string;
  /** A remote server's address. */
  url?: string;
  /** The names (never the values) of a remote entry's headers. */
  header_names?: string[] | null;
  /** A remote server outside loopback and the private LAN: messages leave this computer. */
  internet?: boolean;
  approved: boolean;
  disabled: boolean;
  /** Some tool definitions changed since approval (a "rug pull"): those tools are off. */
  tools_changed: boolean;
  pid?: number;
  started_at?: string;
  restarts: number;
  retry_at?: string;
  server_name?: string;
  version?: string;
  instructions?: string;
  tools: McpTool[] | null;
  prompts?: McpPrompt[] | null;
  has_resources: boolean;
  resources: number;
  stderr_tail?: string;
}

/** One resource a server lists (see backend/mcp/resources.go). */
export interface McpResource {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mime_type?: string;
}

/** A resource read for the user: its text; binary parts are only described. */
export interface McpResourceContent {
  server: string;
  uri: string;
  mime_type?: string;
  text: string;
  /** A part was binary and is only described in text. */
  binary?: boolean;
}

/** A mistake in mcp.json. */
export interface McpProblem {
  file: string;
  line: number;
  column: number;
  server?: string;
  field?: string;
  message: string;
  warning?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Memory (see backend/memory/model.go, crud.go, forget.go and app/memoryapi.go)

export type MemoryLayer = 'working' | 'fact' | 'profile';
export type MemoryStatus = 'pending' | 'active' | 'archived' | 'superseded';

export interface Memory {
  id: string;
  ref?: string;
  profile: string;
  layer: MemoryLayer | string;
  status: MemoryStatus | string;
  key?: string;
  value?: string;
  text: string;
  category: string;
  /** As of last_confirmed_at. */
  confidence: number;
  /** The confidence decayed to now (what recall uses). */
  strength: number;
  asserted_by: 'user' | 'model' | 'tool' | string;
  origin: 'chat' | 'manual' | 'import' | 'tool' | string;
  sensitive?: boolean;
  session_id?: string;
  source_message_ids: string[] | null;
  superseded_by?: string;
  replaces?: string[] | null;
  note?: string;
  /** Why a pending memory waits in the inbox: sensitive, inferred, unverifiable, rejected or other. */
  reason?: 'sensitive' | 'inferred' | 'unverifiable' | 'rejected' | 'other' | string;
  /** The verifier's own words (or an imported note) behind reason. */
  reason_detail?: string;
  created_at: string;
  updated_at: string;
  last_confirmed_at: string;
  valid_until?: string;
}

/** What the memory browser lists by (app.MemoryFilter); every field may be left out. */
export interface MemoryFilter {
  profile?: string;
  layer?: string;
  statuses?: string[];
  category?: string;
  minConfidence?: number;
  limit?: number;
}

export interface MemoryRevision {
  text: string;
  key?: string;
  value?: string;
  category: string;
  changed_at: string;
  changed_by: string;
}

export interface MemoryDetail {
  memory: Memory;
  history: MemoryRevision[] | null;
  supersedes: Memory[] | null;
  recalls: number;
}

export interface MemoryHit {
  memory_id: string;
  ref: string;
  text: string;
  score: number;
}

/** What an erase leaves: a content-free receipt with a fresh search for the erased text. */
export interface MemoryReceipt {
  tombstone_id: string;
  at: string;
  kind: string;
  count: number;
  lexical_matches: number;
  vector_matches: number;
  checkpointed: boolean;
}

/** A memory profile (a separate memory space) with how many memories it holds (MemoryProfiles). */
export interface MemoryProfileInfo {
  name: string;
  /** The one new conversations recall from and remember into. */
  active: boolean;
  memories: number;
}

/** What deleting a conversation leaves: a content-free receipt (DeleteSession). */
export interface DeleteReceipt {
  id: string;
  session_id: string;
  at: string;
  messages: number;
  /** The attached documents and images erased with them (absent from older backends). */
  documents?: number;
  images?: number;
  /** What a search for the deleted texts still finds: 0 when the erase is complete. */
  lexical_matches: number;
  /**
   * False when another Hermes process was reading the database: the text is gone from every
   * table and index, and the file is scrubbed in the background (scrub:done names the id).
   */
  checkpointed: boolean;
}

/**
 * The receipt ids in a scrub:done payload: erasures whose file was scrubbed by the background
 * retry after another Hermes process stopped reading the database.
 */
export function scrubbedIds(payload: unknown): string[] {
  return Array.isArray(payload) ? payload.filter((x): x is string => typeof x === 'string') : [];
}

export interface MemoryTombstone {
  id: string;
  at: string;
  kind: string;
  count: number;
}

export interface MemoryImportResult {
  added: number;
  skipped: number;
  merged: number;
  replaced: number;
}

export interface RecallEntry {
  memory: Memory;
  rank: number;
  score: number;
  lexical_rank: number;
  vector_rank: number;
  similarity: number;
  at: string;
}

/** One candidate a recall considered (MemoryRecallLog): offered (kept) or dropped, with why. */
export interface RecallCandidate extends RecallEntry {
  kept: boolean;
  rerank: number;
  /** "kept: …" or "dropped: …", in the backend's words. */
  reason: string;
}

/** A memory category's decay half-life (MemoryHalfLives). */
export interface MemoryHalfLife {
  category: string;
  /** "30d", "34h39m". */
  half_life: string;
  hours: number;
  /** Set by the user; false is the default. */
  custom: boolean;
  /** How long a fact of the category stated plainly (confidence 0.9) and never restated keeps before it is archived. */
  archived_after?: string;
}

/** Whether the chat notice's Undo can still work (MemoryUndoable). */
export interface MemoryUndoState {
  ok: boolean;
  /** erased, superseded, changed, profile or expired when not ok. */
  code?: string;
  reason?: string;
  /** When the undo window closes. */
  until: string;
}

/** Payload of memory:changed. */
export interface MemoryChange {
  kind: string;
  ids: string[] | null;
  profile?: string;
  session_id?: string;
  message_id?: string;
}

/** Payload of memory:progress. */
export interface MemoryProgress {
  job: string;
  done: number;
  total: number;
}

// ---------------------------------------------------------------------------------------------
// Knowledge base (app/knowledgeapi.go)

/** A folder (or one file) added to the knowledge base, with its counts. */
export interface KBCollection {
  id: number;
  name: string;
  /** The folder (or the file) on disk. */
  root: string;
  /** The collection is one file, not a folder. */
  single: boolean;
  /** The folder's files are all listed. */
  scanned: boolean;
  files: number;
  indexed: number;
  pending: number;
  failed: number;
  /** Passages. */
  chunks: number;
  bytes: number;
  created: string;
}

export type KBFileState = 'pending' | 'indexed' | 'failed';

/** One file of a collection (failed files come first). */
export interface KBFile {
  /** Relative to the collection's folder. */
  path: string;
  size: number;
  state: KBFileState | string;
  kind?: string;
  /** Why it failed: a document refusal reason (too_big, not_text, …) or "unreadable". */
  reason?: string;
  /** The backend's English words for it. */
  detail?: string;
  pages?: number;
  chunks: number;
  indexed?: string;
}

/** What removing a collection erased. */
export interface KBReceipt {
  collection: string;
  files: number;
  chunks: number;
  vectors: number;
  /** The database file was scrubbed (its write-ahead log emptied). */
  scrubbed: boolean;
}

/** A passage found by KBSearch. */
export interface KBHit {
  chunk: number;
  collection: string;
  file: string;
  path: string;
  page?: number;
  heading?: string;
  text: string;
  start: number;
  end: number;
  score: number;
  words: boolean;
  meaning: boolean;
}

/**
 * A cited passage in its page (PDF) or file: [start, end) are code point offsets in text. changed:
 * the file changed since it was read, and text is the passage alone.
 */
export interface KBPassage {
  chunk: number;
  collection: string;
  file: string;
  path: string;
  kind: string;
  page?: number;
  pages?: number;
  heading?: string;
  text: string;
  start: number;
  end: number;
  changed?: boolean;
}

/** Payload of kb:progress: the background pass reading files ("" collection: every one). */
export interface KBProgress {
  collection: string;
  files: number;
  done: number;
  failed: number;
  bytes: number;
  done_bytes: number;
  current: string;
  mbps: number;
  eta_seconds: number;
  finished: boolean;
  /** Cancelled: the files not read yet wait for Resume. */
  stopped: boolean;
}

export type ImportKind = 'export' | 'jsonl';
export type ImportMode = 'skip' | 'merge' | 'replace';

// ---------------------------------------------------------------------------------------------
// Workflows (see backend/workflow/workflow.go and app/workflow.go)

/** Where a run is; failed and interrupted runs can be resumed, cancelled is final. */
export type WorkflowStatus = 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted';
/** Where a step is. */
export type WorkflowStepStatus = 'pending' | 'running' | 'done' | 'failed' | 'cancelled' | 'skipped';
/** How the steps of a phase run: one after another, all at once, or the first to succeed. */
export type WorkflowMode = 'sequence' | 'all' | 'first';

/** A phase of a declared workflow; steps read "id (tool)". */
export interface WorkflowPhaseInfo {
  name: string;
  mode: WorkflowMode | string;
  steps: string[] | null;
}

/** A workflow declared in workflows.yaml (ListWorkflows). */
export interface WorkflowInfo {
  name: string;
  description: string;
  /** The inputs' JSON Schema (the Run form is made from it); null when it takes none. */
  inputs: unknown;
  /** Per run, such as "10m0s". */
  deadline: string;
  /** The tool the model sees it as (workflow__<name>). */
  tool: string;
  phases: WorkflowPhaseInfo[] | null;
  /** Where it is declared in workflows.yaml. */
  line: number;
}

/** A step of a run's definition (the workflow as it was when the run started). */
export interface WorkflowStepDef {
  id: string;
  tool: string;
  args?: unknown;
  timeout?: string;
  retries?: number;
  backoff?: string;
  /** Runs again on resume even if it was stopped mid-way. */
  idempotent?: boolean;
}

export interface WorkflowDefinition {
  name: string;
  description?: string;
  inputs?: unknown;
  deadline?: string;
  phases: { name: string; mode: WorkflowMode | string; steps: WorkflowStepDef[] | null }[] | null;
}

/** The snapshot of one step of a run. */
export interface WorkflowStep {
  id: string;
  /** The phase's index, from 0. */
  phase: number;
  phase_name: string;
  tool: string;
  status: WorkflowStepStatus | string;
  attempts: number;
  /** The last attempt's arguments as JSON text, secrets redacted. */
  args?: string;
  /** What the tool returned (a JSON value), when done. */
  result?: unknown;
  error?: string;
  error_kind?: string;
  /** The last attempt was stopped while it ran: it may have acted. */
  interrupted?: boolean;
  started_at?: string;
  finished_at?: string;
}

/** A snapshot of one run (GetWorkflowRun, WorkflowRuns, and what the actions return). */
export interface WorkflowRun {
  id: string;
  workflow: string;
  /** "declared" (workflows.yaml) or "plan". */
  kind: string;
  /** The conversation it belongs to (absent outside one). */
  session_id?: string;
  status: WorkflowStatus | string;
  inputs: unknown;
  error?: string;
  steps: WorkflowStep[] | null;
  created_at: string;
  updated_at: string;
  finished_at?: string;
  definition?: WorkflowDefinition | null;
}

/** Payload of workflow:progress: a step's new state, or the run's when step is absent. */
export interface WorkflowEvent {
  run_id: string;
  workflow: string;
  step?: string;
  phase: number;
  phase_name?: string;
  tool?: string;
  /** The step's status, or the run's when step is absent. */
  status: string;
  attempt?: number;
  error?: string;
  /** Nanoseconds until a failed attempt is tried again. */
  retry_in?: number;
  /** Nanoseconds: of the step's attempt, or of the run so far. */
  elapsed: number;
  done: number;
  total: number;
}

/** A mistake in workflows.yaml: a line of text, or (newer backends) its parts. */
export type WorkflowProblem =
  | string
  | { file?: string; line?: number; workflow?: string; phase?: string; step?: string; field?: string; message: string };

// ---------------------------------------------------------------------------------------------
// Sub-agents (agents.yaml and the built-in specialists; see backend/subagent)

export type AgentMemory = 'none' | 'read';

/** A specialist the main model may delegate to, as the tool `tool` (agent__<name>). */
export interface AgentInfo {
  name: string;
  description: string;
  system: string;
  model?: string;
  tools: string[] | null;
  memory: AgentMemory | string;
  maxRounds: number;
  disabled: boolean;
  builtin: boolean;
  /** Its line in agents.yaml (0 for a built-in not written there). */
  line: number;
  tool: string;
}

/** What SaveAgent takes (as JSON). */
export interface AgentDefinition {
  name: string;
  description: string;
  system: string;
  model: string;
  tools: string[];
  memory: AgentMemory | string;
  maxRounds: number;
}

export type AgentEventKind = 'start' | 'delta' | 'tool' | 'done' | 'failed';

/** A step of a delegation while it runs (the chat:agent:<requestId> event). */
export interface AgentEvent {
  callId: string;
  agent: string;
  kind: AgentEventKind;
  task?: string;
  text?: string;
  tool?: ToolCall;
  error?: string;
}

export interface DeltaEvent {
  text: string;
}

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
 * Why the web server wants a one-time code: "required" (one was just printed), "expired" (the
 * code typed was old or used; a new one was printed), "wrong" (tries left, or a new one was
 * printed), "locked" (too many wrong codes: approve in the terminal or restart `hermes serve`),
 * "busy" (too many codes asked for; wait).
 */
export type ConfirmReason = 'required' | 'expired' | 'wrong' | 'locked' | 'busy';

/** A call that needs the one-time code printed in the terminal that runs `hermes serve`. */
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

const CONFIRM_REASONS: ReadonlySet<string> = new Set(['required', 'expired', 'wrong', 'locked', 'busy']);

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
  go?: { app?: { App?: Record<string, (...args: unknown[]) => Promise<unknown>> } };
  runtime?: WailsRuntime;
}

export function isWails(w: unknown = globalThis): boolean {
  return typeof (w as WailsWindow)?.go?.app?.App === 'object' && (w as WailsWindow).go!.app!.App !== null;
}

export function wailsTransport(w: WailsWindow = globalThis as unknown as WailsWindow): Transport {
  return {
    async call(method, args) {
      const fn = w.go?.app?.App?.[method];
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
          const o = parsed as { error: string; confirm?: unknown; tries_left?: unknown };
          if (typeof o.confirm === 'string' && CONFIRM_REASONS.has(o.confirm)) {
            throw new ConfirmError(o.error, o.confirm as ConfirmReason, typeof o.tries_left === 'number' ? o.tries_left : null);
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

// ---------------------------------------------------------------------------------------------
// Typed API

export function createApi(t: Transport) {
  const call = <T>(method: string, ...args: unknown[]) => t.call(method, args) as Promise<T>;
  /** A call that may need the one-time approval code (web mode); code "" sends none. */
  const confirmed = <T>(code: string, method: string, ...args: unknown[]) =>
    (code ? t.call(method, args, { code }) : t.call(method, args)) as Promise<T>;
  return {
    /** Whether approving a program needs the one-time code printed by `hermes serve` (web mode). */
    needsCode: () => t.approvalCodes === true,
    SendMessage: (requestId: string, sessionId: string, text: string) =>
      call<TurnResult>('SendMessage', requestId, sessionId, text),
    CancelMessage: (requestId: string) => call<void>('CancelMessage', requestId),
    ListSessions: () => call<SessionInfo[] | null>('ListSessions').then((l) => l ?? []),
    LoadSession: (id: string) => call<SessionDetail>('LoadSession', id),
    NewSession: () => call<SessionInfo>('NewSession'),
    Status: () => call<Status>('Status'),
    ListModels: () => call<ModelInfo[] | null>('ListModels').then((l) => l ?? []),
    GetSettings: () => call<Setting[] | null>('GetSettings').then((l) => l ?? []),
    /** code: the one-time code web mode asks for ollama_path and ollama_allow_internet ("" sends none). */
    SetSetting: (key: string, value: string, code = '') =>
      confirmed<Setting[] | null>(code, 'SetSetting', key, value).then((l) => l ?? []),
    UIReady: () => call<void>('UIReady'),
    SearchSessions: (query: string) => call<SearchHit[] | null>('SearchSessions', query).then((l) => l ?? []),
    RenameSession: (id: string, title: string) => call<SessionInfo>('RenameSession', id, title),
    PinSession: (id: string, pinned: boolean) => call<SessionInfo>('PinSession', id, pinned),
    ArchiveSession: (id: string) => call<SessionInfo>('ArchiveSession', id),
    DeleteSession: (id: string) => call<DeleteReceipt>('DeleteSession', id),
    ExportSession: (id: string, format: ExportFormat) => call<string>('ExportSession', id, format),
    /** A conversation as a PDF, base64-encoded. */
    ExportPDF: (id: string) => call<string>('ExportPDF', id),
    /** Counts what the export file at path holds; writes nothing; progress arrives as session:import:<requestId>. */
    PreviewChatImport: (requestId: string, source: ChatImportSource, path: string) =>
      call<ChatImportPreview>('PreviewChatImport', requestId, source, path),
    /** Imports it all or nothing; progress arrives as session:import:<requestId>; CancelMessage stops it. */
    ImportChats: (requestId: string, source: ChatImportSource, path: string, project = '') =>
      call<SessionImportResult>('ImportChats', requestId, source, path, project),
    /** A native file dialog (the desktop window); web mode types the path. */
    PickChatExport: () => call<string>('PickChatExport'),
    /** The window's save dialog, then the export written there; "" when the user cancelled. */
    SaveExport: (id: string, format: ExportFormat) => call<string>('SaveExport', id, format),
    AttachDocument: (name: string, contentBase64: string) =>
      call<{ id: string; name: string; kind: string; tokens: number; chars: number; mime?: string; width?: number; height?: number; thumb?: string }>(
        'AttachDocument',
        name,
        contentBase64,
      ),
    /** An attached image as a data: URL, to show it in the conversation. */
    DocumentImage: (id: string) => call<string>('DocumentImage', id),
    PinMessage: (messageId: string, pinned: boolean) =>
      call<void>('PinMessage', messageId, pinned),
    /** Gives a user's message the intent the user chose on its chip; a re-run of its turn follows it. */
    CorrectIntent: (messageId: string, label: string) => call<IntentCorrected>('CorrectIntent', messageId, label),
    LastContext: (sessionId: string) => call<ContextReport>('LastContext', sessionId),
    ReplyContext: (sessionId: string, replyId: string) => call<ContextReport>('ReplyContext', sessionId, replyId),
    /** A conversation's own settings (system prompt, model, temperature, context size) and the defaults. */
    SessionSettings: (sessionId: string) => call<ChatSettings>('SessionSettings', sessionId),
    SetSessionSettings: (sessionId: string, settings: ChatSettingsInput) =>
      call<ChatSettings>('SetSessionSettings', sessionId, JSON.stringify(settings)),
    SystemPresets: () => call<SystemPreset[] | null>('SystemPresets').then((l) => l ?? []),
    SaveSystemPreset: (name: string, text: string) =>
      call<SystemPreset[] | null>('SaveSystemPreset', name, text).then((l) => l ?? []),
    DeleteSystemPreset: (name: string) =>
      call<SystemPreset[] | null>('DeleteSystemPreset', name).then((l) => l ?? []),
    /** The channels of a session that have messages: "main" and the sub-agents that ran in it. */
    SessionChannels: (sessionId: string) =>
      call<string[] | null>('SessionChannels', sessionId).then((l) => l ?? []),
    /** The window a channel's next turn would be built from. */
    ChannelContext: (sessionId: string, channel: string) => call<ContextReport>('ChannelContext', sessionId, channel),
    ContinueTurn: (requestId: string, sessionId: string) => call<TurnResult>('ContinueTurn', requestId, sessionId),
    /** Answers again the user message a reply answers: the new reply is a new version of it. */
    RegenerateReply: (requestId: string, sessionId: string, replyId: string) =>
      call<TurnResult>('RegenerateReply', requestId, sessionId, replyId),
    /** Resends a user message with new text, as a new version of it (the old branch is kept). */
    EditMessage: (requestId: string, sessionId: string, messageId: string, text: string) =>
      call<TurnResult>('EditMessage', requestId, sessionId, messageId, text),
    /** Shows one version of a message; returns the conversation as now shown. */
    SelectVersion: (sessionId: string, messageId: string) => call<SessionDetail>('SelectVersion', sessionId, messageId),
    /** Deletes a user message and its reply (every version); returns the conversation as now shown. */
    DeleteTurn: (sessionId: string, messageId: string) => call<SessionDetail>('DeleteTurn', sessionId, messageId),
    /** code: the one-time code (web mode, allowing a tool that runs a program); "" for none. */
    ResolveApproval: (id: string, allow: boolean, scope: 'once' | 'session', code = '') =>
      confirmed<void>(code, 'ResolveApproval', id, allow, scope),
    ListTools: () => call<ToolInfo[] | null>('ListTools').then((l) => l ?? []),
    SetToolEnabled: (name: string, enabled: boolean) => call<void>('SetToolEnabled', name, enabled),
    ResetBreaker: (name: string) => call<void>('ResetBreaker', name),
    /** Audited tool calls, newest first; empty strings match everything. */
    ToolActivity: (tool: string, status: string, sessionId: string, limit: number) =>
      call<ActivityRow[] | null>('ToolActivity', tool, status, sessionId, limit).then((l) => l ?? []),
    /** Every connection Hermes made, refused or failed to make, the latest first. */
    NetworkActivity: () =>
      call<NetworkActivity>('NetworkActivity').then((a) => ({ offlineOnly: !!a?.offlineOnly, entries: a?.entries ?? [] })),
    MCPServers: () => call<McpStatus[] | null>('MCPServers').then((l) => l ?? []),
    MCPProblems: () => call<McpProblem[] | null>('MCPProblems').then((l) => l ?? []),
    /** The exact command line a server entry (as JSON) would run. */
    MCPCommandLine: (config: McpServerConfig) => call<string>('MCPCommandLine', config),
    /** Adds or replaces an entry of mcp.json; a new command waits for MCPApprove. */
    MCPAddServer: (name: string, config: McpServerConfig) => call<McpStatus>('MCPAddServer', name, config),
    /** code: the one-time code printed by `hermes serve` (web mode); "" for none. */
    MCPApprove: (name: string, code = '') => confirmed<McpStatus>(code, 'MCPApprove', name),
    MCPRestart: (name: string) => call<McpStatus>('MCPRestart', name),
    MCPSetDisabled: (name: string, disabled: boolean) =>
      call<McpStatus>('MCPSetDisabled', name, disabled),
    MCPRemove: (name: string) => call<void>('MCPRemove', name),
    /** Switches one of a server's tools (by the server's name for it) on or off for the model. */
    MCPSetToolEnabled: (server: string, tool: string, enabled: boolean) =>
      call<McpStatus>('MCPSetToolEnabled', server, tool, enabled),
    MCPAcceptToolChanges: (server: string) => call<McpStatus>('MCPAcceptToolChanges', server),
    MCPStderr: (name: string) => call<string>('MCPStderr', name),
    MCPPrompts: () => call<McpPrompt[] | null>('MCPPrompts').then((l) => l ?? []),
    /** Fetches a prompt template filled in with args (a JSON object of strings). */
    MCPGetPrompt: (server: string, name: string, args: Record<string, string>) =>
      call<McpPromptResult>('MCPGetPrompt', server, name, args),
    /** The resources a ready server lists, fresh from the server. */
    MCPResources: (server: string) => call<McpResource[] | null>('MCPResources', server).then((l) => l ?? []),
    MCPReadResource: (server: string, uri: string) => call<McpResourceContent>('MCPReadResource', server, uri),
    /** filter: see buildMemoryFilter in memory.svelte.ts ({} lists everything). */
    MemoryList: (filter: MemoryFilter) => call<Memory[] | null>('MemoryList', filter).then((l) => l ?? []),
    MemoryShow: (id: string) => call<MemoryDetail>('MemoryShow', id),
    MemorySearch: (query: string, k: number) =>
      call<MemoryHit[] | null>('MemorySearch', query, k).then((l) => l ?? []),
    MemoryAdd: (text: string) => call<Memory>('MemoryAdd', text),
    ContextMeter: (sessionId: string) => call<ContextMeterInfo>('ContextMeter', sessionId),
    ListProjects: () => call<ProjectInfo[]>('ListProjects'),
    SaveProject: (input: ProjectInput) => call<ProjectInfo>('SaveProject', input),
    MoveToProject: (projectId: string, sessionId: string) => call<null>('MoveToProject', projectId, sessionId),
    DeleteProject: (projectId: string, deleteChats: boolean) => call<ProjectDeleteReceipt>('DeleteProject', projectId, deleteChats),
    MemoryEdit: (id: string, text: string, key: string, value: string) => call<Memory>('MemoryEdit', id, text, key, value),
    MemoryForget: (ids: string[]) => call<MemoryReceipt>('MemoryForget', ids),
    MemoryForgetMatches: (query: string) =>
      call<MemoryHit[] | null>('MemoryForgetMatches', query).then((l) => l ?? []),
    MemoryApprove: (ids: string[]) => call<unknown>('MemoryApprove', ids),
    MemoryReject: (ids: string[]) => call<MemoryReceipt>('MemoryReject', ids),
    MemoryRestore: (ids: string[]) => call<unknown>('MemoryRestore', ids),
    MemoryConfirm: (ids: string[]) => call<unknown>('MemoryConfirm', ids),
    MemoryUndo: (ids: string[]) => call<MemoryReceipt>('MemoryUndo', ids),
    /** Whether Undo of what a turn wrote can still work, until when, and if not, why. */
    MemoryUndoable: (ids: string[]) => call<MemoryUndoState>('MemoryUndoable', ids),
    MemoryHalfLives: () => call<MemoryHalfLife[] | null>('MemoryHalfLives').then((l) => l ?? []),
    /** halfLife like 30d, 2w or 36h; "" returns the category to the default. */
    SetMemoryHalfLife: (category: string, halfLife: string) =>
      call<MemoryHalfLife[] | null>('SetMemoryHalfLife', category, halfLife).then((l) => l ?? []),
    /** The candidates the recall for a user message considered: kept, then dropped, with why. */
    MemoryRecallLog: (messageId: string) =>
      call<RecallCandidate[] | null>('MemoryRecallLog', messageId).then((l) => l ?? []),
    MemoryTombstones: () => call<MemoryTombstone[] | null>('MemoryTombstones').then((l) => l ?? []),
    MemoryExport: () => call<string>('MemoryExport'),
    MemoryImport: (content: string, kind: ImportKind, mode: ImportMode) =>
      call<MemoryImportResult>('MemoryImport', content, kind, mode),
    /** The memory profiles, the active one marked, with their memory counts. */
    MemoryProfiles: () => call<MemoryProfileInfo[] | null>('MemoryProfiles').then((l) => l ?? []),
    /** Makes an empty profile (it does not switch to it). */
    CreateMemoryProfile: (name: string) => call<void>('CreateMemoryProfile', name),
    /** Makes a profile the one new conversations recall from and remember into. */
    UseMemoryProfile: (name: string) => call<void>('UseMemoryProfile', name),
    /** Renames a profile; its memories, conversations, index and the active mark follow. */
    RenameMemoryProfile: (oldName: string, name: string) => call<void>('RenameMemoryProfile', oldName, name),
    /** Erases a profile and every memory in it (not the default one); the receipt says what went. */
    DeleteMemoryProfile: (name: string) => call<MemoryReceipt>('DeleteMemoryProfile', name),
    WhyRecalled: (messageId: string) => call<RecallEntry[] | null>('WhyRecalled', messageId).then((l) => l ?? []),
    SetIncognito: (on: boolean) => call<boolean>('SetIncognito', on),
    Incognito: () => call<boolean>('Incognito'),
    /** What the first run still needs. */
    Setup: () => call<SetupState>('Setup'),
    /** Starts the ollama program found on this computer (Hermes stops it on exit). */
    StartOllama: () => call<SetupState>('StartOllama'),
    /** Checks an Ollama address (version, models) without saving it. */
    CheckOllamaHost: (url: string) => call<OllamaCheck>('CheckOllamaHost', url),
    /** Checks an address and saves it as ollama_host when Ollama answers there (or anyway). */
    UseOllamaHost: (url: string, anyway: boolean) => call<OllamaCheck>('UseOllamaHost', url, anyway),
    ListModelDetails: () => call<ModelDetail[] | null>('ListModelDetails').then((l) => l ?? []),
    /** Blocks until the pull is done; progress arrives as model:progress:<requestId>. */
    PullModel: (requestId: string, name: string) => call<ModelDetail>('PullModel', requestId, name),
    /** Imports a GGUF file on this computer; modelfile is optional Modelfile text. */
    ImportModel: (requestId: string, path: string, name: string, modelfile: string) =>
      call<ModelDetail>('ImportModel', requestId, path, name, modelfile),
    /** Cancels a pull or an import: its call then fails with a message that says so. */
    CancelModelJob: (requestId: string) => call<void>('CancelModelJob', requestId),
    /** A native file dialog in the window ("" when cancelled); fails in web mode. */
    PickModelFile: () => call<string>('PickModelFile'),
    DeleteModel: (name: string) => call<void>('DeleteModel', name),
    CopyModel: (src: string, dst: string) => call<ModelDetail>('CopyModel', src, dst),
    /** Makes name the chat model, or the embedding model with embed. */
    UseModel: (name: string, embed: boolean) => call<SetupState>('UseModel', name, embed),
    /** The workflows declared in workflows.yaml (a broken one is left out: see WorkflowProblems). */
    ListWorkflows: () => call<WorkflowInfo[] | null>('ListWorkflows').then((l) => l ?? []),
    /** The mistakes in workflows.yaml, each with its line and field. */
    WorkflowProblems: () => call<WorkflowProblem[] | null>('WorkflowProblems').then((l) => l ?? []),
    /** Runs, newest first; sessionId "" lists every run. */
    WorkflowRuns: (sessionId: string) => call<WorkflowRun[] | null>('WorkflowRuns', sessionId).then((l) => l ?? []),
    GetWorkflowRun: (id: string) => call<WorkflowRun>('GetWorkflowRun', id),
    /**
     * Runs a workflow with inputs (a JSON object) in a conversation ("" for none). Blocks
     * until the run ends; progress arrives as workflow:progress events.
     */
    RunWorkflow: (sessionId: string, name: string, inputs: Record<string, unknown>) =>
      call<WorkflowRun>('RunWorkflow', sessionId, name, inputs),
    /**
     * Goes on with a failed or interrupted run; confirm runs again the steps stopped mid-way that
     * are not idempotent (without it such a run is refused). Blocks until the run ends.
     */
    ResumeWorkflow: (id: string, confirm: boolean) => call<WorkflowRun>('ResumeWorkflow', id, confirm),
    /** Ends a run for good (waits until it has stopped). */
    CancelWorkflow: (id: string) => call<WorkflowRun>('CancelWorkflow', id),
    /** The sub-agents: the built-ins and those of agents.yaml (a broken one is left out: see AgentProblems). */
    ListAgents: () => call<AgentInfo[] | null>('ListAgents').then((l) => l ?? []),
    /** The mistakes in agents.yaml, one line each. */
    AgentProblems: () => call<string[] | null>('AgentProblems').then((l) => l ?? []),
    /** Adds (original "") or replaces (and may rename) a sub-agent in agents.yaml. */
    SaveAgent: (original: string, definition: AgentDefinition) =>
      call<AgentInfo>('SaveAgent', original, definition),
    /** Takes a sub-agent out of agents.yaml (a built-in cannot go: switch it off instead). */
    DeleteAgent: (name: string) => call<void>('DeleteAgent', name),
    SetAgentEnabled: (name: string, on: boolean) => call<void>('SetAgentEnabled', name, on),
    /** The path of agents.yaml. */
    AgentFile: () => call<string>('AgentFile'),
    /** The knowledge base's collections with their counts. */
    KBList: () => call<KBCollection[] | null>('KBList').then((l) => l ?? []),
    /** Adds a folder (or one file) as a collection (name "": the folder's name); its files are read in the background. */
    KBAdd: (root: string, name: string) => call<KBCollection>('KBAdd', root, name),
    /** A collection's files with their state, failed first. */
    KBFiles: (name: string) => call<KBFile[] | null>('KBFiles', name).then((l) => l ?? []),
    /** Erases a collection from the index (the files on disk stay). */
    KBRemove: (name: string) => call<KBReceipt>('KBRemove', name),
    /** Reads every file of a collection again, in the background. */
    KBReindex: (name: string) => call<KBCollection>('KBReindex', name),
    /** Stops the reading under way; the files not read yet wait until KBResume. */
    KBCancel: () => call<void>('KBCancel'),
    KBResume: () => call<void>('KBResume'),
    KBSearch: (query: string) => call<KBHit[] | null>('KBSearch', query).then((l) => l ?? []),
    /** A cited passage (by its chunk id) in its page or file. */
    KBPassage: (chunk: string) => call<KBPassage>('KBPassage', chunk),
    /** The desktop's folder dialog ("" when cancelled); web mode rejects with needs_desktop. */
    KBPickFolder: () => call<string>('KBPickFolder'),
    /** Opens a cited passage's file with the desktop's program; web mode rejects with needs_desktop. */
    KBOpenFile: (chunk: string) => call<void>('KBOpenFile', chunk),
  };
}

export type Api = ReturnType<typeof createApi>;

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
