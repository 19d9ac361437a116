// Sub-agents in the UI: the specialists the main model may delegate to (the built-ins and those of
// agents.yaml) with the mistakes found there, the Add/Edit form's draft, and the delegations a
// reply made: live from the chat:agent:<requestId> events, or from a stored tool message's thread.
import {
  Events,
  errorMessage,
  type SubagentDefinition,
  type AgentEvent,
  type AgentInfo,
  type Api,
  type Message,
  type ToolCall,
  type Unsubscribe,
} from './backend';
import { toToolCall } from './tools.svelte';

/** The prefix of the tools a sub-agent is offered to the model as. */
export const AGENT_TOOL_PREFIX = 'agent__';

export function isAgentTool(name: string | null | undefined): boolean {
  return (name ?? '').startsWith(AGENT_TOOL_PREFIX) && (name ?? '').length > AGENT_TOOL_PREFIX.length;
}

/** The sub-agent an agent__<name> tool calls ('' for another tool). */
export function agentOfTool(name: string | null | undefined): string {
  return isAgentTool(name) ? (name as string).slice(AGENT_TOOL_PREFIX.length) : '';
}

// ---------------------------------------------------------------------------------------------
// Delegations

export type DelegationStatus = 'running' | 'done' | 'failed';

/** One step of a delegation: text the sub-agent wrote, or one of its tool calls. */
export type DelegationStep = { kind: 'text'; text: string } | { kind: 'tool'; call: ToolCall };

/** One call of a sub-agent inside a reply. */
export interface Delegation {
  callId: string;
  agent: string;
  task: string;
  status: DelegationStatus;
  steps: DelegationStep[];
  /** Its final answer (what the main model got as the tool result). */
  answer: string;
  error: string;
}

const KINDS: ReadonlySet<string> = new Set(['start', 'delta', 'tool', 'done', 'failed']);

/** A chat:agent:<id> payload, checked; null when it is malformed. */
export function toAgentEvent(p: unknown): AgentEvent | null {
  if (!p || typeof p !== 'object') return null;
  const o = p as Record<string, unknown>;
  // A model that gives its calls no id leaves callId empty: the agent's name tells them apart.
  if (typeof o.callId !== 'string' || typeof o.agent !== 'string' || o.agent === '' || !KINDS.has(o.kind as string)) return null;
  const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
  const e: AgentEvent = { callId: o.callId, agent: o.agent, kind: o.kind as AgentEvent['kind'] };
  if (str(o.task) !== undefined) e.task = str(o.task);
  if (str(o.text) !== undefined) e.text = str(o.text);
  if (str(o.error) !== undefined) e.error = str(o.error);
  if (o.kind === 'tool') {
    const call = toToolCall(o.tool);
    if (!call) return null;
    e.tool = call;
  }
  return e;
}

/** The last text step: the streamed answer is shown as the answer, not twice. */
function dropAnswerStep(d: Delegation): void {
  const last = d.steps[d.steps.length - 1];
  if (last?.kind === 'text' && last.text.trim() === d.answer.trim()) d.steps.pop();
}

/**
 * Applies a chat:agent event to a reply's delegations (in place); returns false when the payload
 * is malformed and nothing changed.
 */
export function applyAgentEvent(list: Delegation[], payload: unknown): boolean {
  const e = toAgentEvent(payload);
  if (!e) return false;
  // Without a call id, an event belongs to the newest delegation of its agent that is still
  // running (a start always begins one).
  let d = e.callId
    ? list.find((x) => x.callId === e.callId)
    : e.kind === 'start'
      ? undefined
      : [...list].reverse().find((x) => x.callId === '' && x.agent === e.agent && x.status === 'running');
  if (!d) {
    list.push({ callId: e.callId, agent: e.agent, task: e.task ?? '', status: 'running', steps: [], answer: '', error: '' });
    d = list[list.length - 1];
  }
  switch (e.kind) {
    case 'start':
      if (e.task) d.task = e.task;
      d.status = 'running';
      break;
    case 'delta': {
      if (!e.text) break;
      const last = d.steps[d.steps.length - 1];
      if (last?.kind === 'text') last.text += e.text;
      else d.steps.push({ kind: 'text', text: e.text });
      break;
    }
    case 'tool':
      if (e.tool) d.steps.push({ kind: 'tool', call: e.tool });
      break;
    case 'done':
      d.answer = e.text ?? '';
      d.status = 'done';
      dropAnswerStep(d);
      break;
    case 'failed':
      d.error = e.error || e.text || '';
      d.status = 'failed';
      break;
  }
  return true;
}

/** The task an agent__ call's arguments name ('' when they name none). */
export function taskOfArgs(args: string | null | undefined): string {
  try {
    const o = JSON.parse(args ?? '');
    return o && typeof o === 'object' && typeof o.task === 'string' ? o.task : '';
  } catch {
    return '';
  }
}

/** The answer in an agent__ call's result ({"agent": …, "answer": …}), or the result as it is. */
export function answerOf(result: string | null | undefined): string {
  const r = result ?? '';
  try {
    const o = JSON.parse(r);
    if (o && typeof o === 'object' && typeof o.answer === 'string') return o.answer;
  } catch {
    // plain text
  }
  return r;
}

function storedCall(m: Message): ToolCall {
  if (m.tool) return { ...(toToolCall(m.tool) ?? m.tool), tool: m.tool.tool || m.toolName || '' };
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
 * A delegation as its call shows it, with its thread when the backend kept one (a stored tool
 * message of an agent__<name> call): its task, its steps, its answer.
 */
export function delegationOf(call: ToolCall, thread?: Message[] | null, callId?: string): Delegation {
  const failed = call.status !== 'ok';
  const d: Delegation = {
    callId: callId || call.callId || '',
    agent: agentOfTool(call.tool),
    task: taskOfArgs(call.args),
    status: failed ? 'failed' : 'done',
    steps: [],
    answer: failed ? '' : answerOf(call.result),
    error: failed ? call.error || call.result || '' : '',
  };
  if (!Array.isArray(thread)) return d;
  const replies: string[] = [];
  for (const m of thread) {
    if (!m || typeof m !== 'object') continue;
    if (m.role === 'user') {
      if (!d.task) d.task = m.content ?? '';
    } else if (m.role === 'tool') {
      d.steps.push({ kind: 'tool', call: storedCall(m) });
    } else if (m.role === 'assistant' && (m.content ?? '').trim() !== '') {
      d.steps.push({ kind: 'text', text: m.content });
      replies.push(m.content);
    }
  }
  if (!failed && replies.length > 0 && !d.answer) d.answer = replies[replies.length - 1];
  if (d.answer) dropAnswerStep(d);
  return d;
}

/**
 * Pairs a reply's tool calls with its delegations: for each call, the delegation it ended (by
 * call id, else the first unpaired one of the same agent; one made from the call when there is
 * none); the delegations no call has ended yet (still running) come in `live`.
 */
export function pairDelegations(
  calls: ToolCall[] | null | undefined,
  delegations: Delegation[] | null | undefined,
): { byCall: (Delegation | null)[]; live: Delegation[] } {
  const left = [...(delegations ?? [])];
  const byCall = (calls ?? []).map((c) => {
    if (!isAgentTool(c.tool)) return null;
    let i = c.callId ? left.findIndex((d) => d.callId === c.callId) : -1;
    if (i < 0 && !c.callId) i = left.findIndex((d) => d.agent === agentOfTool(c.tool));
    if (i < 0) return delegationOf(c);
    const d = left.splice(i, 1)[0];
    // The call's end is the delegation's end, even when its final event was lost.
    if (d.status === 'running') {
      const ended = delegationOf(c);
      return { ...d, status: ended.status, answer: d.answer || ended.answer, error: d.error || ended.error };
    }
    return d;
  });
  return { byCall, live: left };
}

// ---------------------------------------------------------------------------------------------
// The Agents tab

export const AGENT_MEMORY = ['none', 'read'] as const;

/** What the Add/Edit form holds (as typed). */
export interface AgentDraft {
  name: string;
  description: string;
  system: string;
  model: string;
  /** Comma-separated tool names. */
  tools: string;
  memory: string;
  maxRounds: string;
}

export function emptyDraft(): AgentDraft {
  return { name: '', description: '', system: '', model: '', tools: '', memory: 'none', maxRounds: '6' };
}

export function draftOf(a: AgentInfo): AgentDraft {
  return {
    name: a.name,
    description: a.description ?? '',
    system: a.system ?? '',
    model: a.model ?? '',
    tools: (a.tools ?? []).join(', '),
    memory: a.memory || 'none',
    maxRounds: String(a.maxRounds ?? ''),
  };
}

/** The comma- (or newline-) separated tool names, trimmed, without empties or repeats. */
export function splitTools(s: string): string[] {
  const out: string[] = [];
  for (const x of s.split(/[,，\n]/)) {
    const v = x.trim();
    if (v && !out.includes(v)) out.push(v);
  }
  return out;
}

/** The definition SaveAgent takes; the backend checks it. An empty max rounds goes as 0: the default. */
export function definitionOf(d: AgentDraft): SubagentDefinition {
  const n = Number(d.maxRounds.trim());
  return {
    name: d.name.trim(),
    description: d.description.trim(),
    system: d.system,
    model: d.model.trim(),
    tools: splitTools(d.tools),
    memory: d.memory,
    maxRounds: d.maxRounds.trim() !== '' && Number.isFinite(n) ? Math.trunc(n) : 0, // an int on the Go side
    // the form edits none of these (the Go side reads builtin and line from the file)
    disabled: false,
    builtin: false,
    line: 0,
  };
}

export type AgentsApi = Pick<Api, 'ListAgents' | 'AgentProblems' | 'SaveAgent' | 'DeleteAgent' | 'SetAgentEnabled' | 'AgentFile'>;

/** The form open in the Agents tab: original '' adds one. */
export interface AgentForm {
  original: string;
  draft: AgentDraft;
  error: string;
  saving: boolean;
}

export class AgentsStore {
  agents = $state<AgentInfo[]>([]);
  problems = $state<string[]>([]);
  /** The path of agents.yaml. */
  file = $state('');
  loaded = $state(false);
  loading = $state(false);
  error = $state('');
  /** Per agent: the last action's error (switch, delete). */
  errors = $state<Record<string, string>>({});
  /** Per agent: a switch or a delete on its way. */
  busy = $state<Record<string, boolean>>({});
  form = $state<AgentForm | null>(null);
  /** The agent whose delete waits for the user to confirm. */
  confirmDelete = $state('');

  #api: AgentsApi;
  #seq = 0;

  constructor(api: AgentsApi) {
    this.#api = api;
  }

  agent(name: string): AgentInfo | undefined {
    return this.agents.find((a) => a.name === name);
  }

  /** Subscribes to agents:changed (agents.yaml changed on disk); returns the unsubscribe function. */
  listen(on: (name: string, cb: (d: unknown) => void) => Unsubscribe): Unsubscribe {
    return on(Events.agentsChanged, () => {
      if (this.loaded) void this.load();
    });
  }

  async load(): Promise<void> {
    const seq = ++this.#seq;
    this.loading = true;
    try {
      const [list, problems, file] = await Promise.all([
        this.#api.ListAgents(),
        this.#api.AgentProblems(),
        this.#api.AgentFile().catch(() => this.file),
      ]);
      if (seq !== this.#seq) return;
      // The built-ins first, then by name.
      this.agents = [...list].sort((a, b) => Number(!!b.builtin) - Number(!!a.builtin) || a.name.localeCompare(b.name));
      this.problems = problems;
      this.file = file ?? '';
      this.error = '';
      this.loaded = true;
    } catch (e) {
      if (seq === this.#seq) this.error = errorMessage(e);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  async setEnabled(name: string, on: boolean): Promise<void> {
    this.busy[name] = true;
    this.errors[name] = '';
    try {
      await this.#api.SetAgentEnabled(name, on);
      const a = this.agent(name);
      if (a) a.disabled = !on;
    } catch (e) {
      this.errors[name] = errorMessage(e);
    } finally {
      delete this.busy[name];
    }
  }

  openAdd(): void {
    this.form = { original: '', draft: emptyDraft(), error: '', saving: false };
  }

  openEdit(name: string): void {
    const a = this.agent(name);
    if (!a) return;
    this.form = { original: a.name, draft: draftOf(a), error: '', saving: false };
  }

  closeForm(): void {
    this.form = null;
  }

  /** Saves the open form; on error the form stays open with what was typed and the message. */
  async save(): Promise<boolean> {
    const f = this.form;
    if (!f || f.saving) return false;
    f.saving = true;
    f.error = '';
    try {
      const saved = await this.#api.SaveAgent(f.original, definitionOf(f.draft));
      if (saved && typeof saved === 'object' && typeof saved.name === 'string') {
        const rest = this.agents.filter((a) => a.name !== f.original && a.name !== saved.name);
        this.agents = [...rest, saved].sort((a, b) => Number(!!b.builtin) - Number(!!a.builtin) || a.name.localeCompare(b.name));
      }
      if (this.form === f) this.form = null;
      void this.load();
      return true;
    } catch (e) {
      f.error = errorMessage(e);
      return false;
    } finally {
      f.saving = false;
    }
  }

  askDelete(name: string): void {
    this.confirmDelete = name;
  }

  cancelDelete(): void {
    this.confirmDelete = '';
  }

  /** Deletes the agent the user confirmed. */
  async reallyDelete(): Promise<boolean> {
    const name = this.confirmDelete;
    if (!name) return false;
    this.busy[name] = true;
    this.errors[name] = '';
    try {
      await this.#api.DeleteAgent(name);
      this.agents = this.agents.filter((a) => a.name !== name);
      this.confirmDelete = '';
      void this.load();
      return true;
    } catch (e) {
      this.errors[name] = errorMessage(e);
      this.confirmDelete = '';
      return false;
    } finally {
      delete this.busy[name];
    }
  }
}
