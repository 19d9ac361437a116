import { describe, expect, it, vi } from 'vitest';
import {
  AgentsStore,
  agentOfTool,
  applyAgentEvent,
  definitionOf,
  delegationOf,
  draftOf,
  isAgentTool,
  pairDelegations,
  splitTools,
  toAgentEvent,
  type Delegation,
} from './agents.svelte';
import { ChatStore } from './chat.svelte';
import type { SessionDetail, SessionInfo, ToolCall, TurnResult } from './backend';
import { agentProblem, fakeAgentsApi, researchEvents, storedDelegation, translator } from './agents.fixture';

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('delegation helpers', () => {
  it('tells agent tools and the agent they call', () => {
    expect(isAgentTool('agent__researcher')).toBe(true);
    expect(isAgentTool('agent__')).toBe(false);
    expect(isAgentTool('workflow__x')).toBe(false);
    expect(agentOfTool('agent__editor')).toBe('editor');
    expect(agentOfTool('shout')).toBe('');
  });

  it('rejects malformed events', () => {
    expect(toAgentEvent(null)).toBeNull();
    expect(toAgentEvent('text')).toBeNull();
    expect(toAgentEvent({ agent: 'researcher', kind: 'start' })).toBeNull();
    expect(toAgentEvent({ callId: 'c', agent: '', kind: 'start' })).toBeNull();
    expect(toAgentEvent({ callId: 'c', agent: 'researcher', kind: 'bogus' })).toBeNull();
    expect(toAgentEvent({ callId: 'c', agent: 'researcher', kind: 'tool', tool: { nope: 1 } })).toBeNull();
    expect(toAgentEvent({ callId: 'c', agent: 'researcher', kind: 'delta', text: 'x' })).toEqual({
      callId: 'c',
      agent: 'researcher',
      kind: 'delta',
      text: 'x',
    });
  });

  it('builds the steps of a delegation from its events; the streamed answer is shown once', () => {
    const list: Delegation[] = [];
    for (const e of researchEvents.slice(0, 4)) expect(applyAgentEvent(list, e)).toBe(true);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ callId: 'c1', agent: 'researcher', task: 'research my invoices', status: 'running' });
    expect(list[0].steps.map((s) => (s.kind === 'text' ? s.text : s.call.tool))).toEqual(['Searching past chats.', 'session_search']);
    for (const e of researchEvents.slice(4)) applyAgentEvent(list, e);
    expect(list[0].status).toBe('done');
    expect(list[0].answer).toBe('I found: invoice #42');
    expect(list[0].steps).toHaveLength(2);
    expect(applyAgentEvent(list, { kind: 'failed' })).toBe(false);
    applyAgentEvent(list, { callId: 'c2', agent: 'editor', kind: 'failed', error: 'model not found' });
    expect(list[1]).toMatchObject({ agent: 'editor', status: 'failed', error: 'model not found' });
  });

  it('tells delegations without a call id apart by agent and start', () => {
    const list: Delegation[] = [];
    applyAgentEvent(list, { callId: '', agent: 'researcher', kind: 'start', task: 'one' });
    applyAgentEvent(list, { callId: '', agent: 'researcher', kind: 'done', text: 'first' });
    applyAgentEvent(list, { callId: '', agent: 'researcher', kind: 'start', task: 'two' });
    applyAgentEvent(list, { callId: '', agent: 'researcher', kind: 'delta', text: 'second' });
    expect(list.map((d) => [d.task, d.status, d.answer, d.steps.length])).toEqual([
      ['one', 'done', 'first', 0],
      ['two', 'running', '', 1],
    ]);
  });

  it('reads a stored thread: task, tool steps, answer', () => {
    const toolMsg = storedDelegation()[1];
    const d = delegationOf(toolMsg.tool as ToolCall, toolMsg.thread, 'call-7');
    expect(d).toMatchObject({ callId: 'call-7', agent: 'researcher', task: 'research my invoices', status: 'done', answer: 'I found: invoice #42' });
    expect(d.steps.map((s) => s.kind)).toEqual(['tool']);
    const json = delegationOf({ tool: 'agent__researcher', args: '{}', status: 'ok', result: '{"agent":"researcher","answer":"It is 42."}', latencyMs: 1 });
    expect(json.answer).toBe('It is 42.');
    const failed = delegationOf({ tool: 'agent__editor', args: '{"task":"fix"}', status: 'error', error: 'too many rounds', latencyMs: 1 });
    expect(failed).toMatchObject({ agent: 'editor', task: 'fix', status: 'failed', error: 'too many rounds', answer: '' });
  });

  it('pairs calls with their delegations by call id; the rest are live', () => {
    const live: Delegation = { callId: 'c9', agent: 'editor', task: 't', status: 'running', steps: [], answer: '', error: '' };
    const ended: Delegation = { callId: 'c1', agent: 'researcher', task: 't', status: 'done', steps: [], answer: 'a', error: '' };
    const calls: ToolCall[] = [
      { tool: 'calculator', args: '{}', status: 'ok', latencyMs: 1 },
      { tool: 'agent__researcher', args: '{}', status: 'ok', latencyMs: 1, callId: 'c1' },
    ];
    const p = pairDelegations(calls, [live, ended]);
    expect(p.byCall[0]).toBeNull();
    expect(p.byCall[1]).toBe(ended);
    expect(p.live).toEqual([live]);
    // A call whose events never came still gets a thread made from the call.
    const alone = pairDelegations([{ tool: 'agent__editor', args: '{"task":"polish"}', status: 'ok', result: 'ok!', latencyMs: 1 }], []);
    expect(alone.byCall[0]).toMatchObject({ agent: 'editor', task: 'polish', answer: 'ok!', status: 'done' });
  });

  it('turns the form into a definition', () => {
    expect(splitTools(' a, b ,,a，c\nd')).toEqual(['a', 'b', 'c', 'd']);
    const d = draftOf(translator);
    expect(d.tools).toBe('calculator');
    expect(definitionOf({ ...d, name: ' t2 ', maxRounds: '4' })).toEqual({
      name: 't2',
      description: translator.description,
      system: translator.system,
      model: 'qwen2.5:7b',
      tools: ['calculator'],
      memory: 'none',
      maxRounds: 4,
      disabled: false,
      builtin: false,
      line: 0,
    });
    expect(definitionOf({ ...d, maxRounds: 'x' }).maxRounds).toBe(0);
  });
});

describe('AgentsStore', () => {
  it('loads the agents (built-ins first), the problems and the file', async () => {
    const api = fakeAgentsApi();
    const s = new AgentsStore(api);
    await s.load();
    expect(s.agents.map((a) => a.name)).toEqual(['editor', 'researcher', 'translator']);
    expect(s.problems).toEqual([agentProblem]);
    expect(s.file).toBe('/data/agents.yaml');
    expect(s.loaded).toBe(true);
  });

  it('reloads on agents:changed once loaded, and stops listening', async () => {
    const api = fakeAgentsApi();
    const s = new AgentsStore(api);
    const handlers = new Map<string, () => void>();
    const off = s.listen((name, cb) => {
      handlers.set(name, cb as () => void);
      return () => handlers.delete(name);
    });
    handlers.get('agents:changed')!();
    expect(api.ListAgents).not.toHaveBeenCalled();
    await s.load();
    handlers.get('agents:changed')!();
    await flush();
    expect(api.ListAgents).toHaveBeenCalledTimes(2);
    off();
    expect(handlers.size).toBe(0);
  });

  it('switches an agent and keeps the error when it fails', async () => {
    const api = fakeAgentsApi();
    const s = new AgentsStore(api);
    await s.load();
    await s.setEnabled('editor', false);
    expect(api.SetAgentEnabled).toHaveBeenCalledWith('editor', false);
    expect(s.agent('editor')?.disabled).toBe(true);
    api.SetAgentEnabled.mockRejectedValueOnce(new Error('agents.yaml is read-only'));
    await s.setEnabled('editor', true);
    expect(s.agent('editor')?.disabled).toBe(true);
    expect(s.errors.editor).toContain('read-only');
  });

  it('keeps the form and what was typed when a save is refused', async () => {
    const api = fakeAgentsApi({ SaveAgent: vi.fn(async () => Promise.reject(new Error('agent "Bad Name": name: use lower-case letters'))) });
    const s = new AgentsStore(api);
    await s.load();
    s.openAdd();
    s.form!.draft.name = 'Bad Name';
    s.form!.draft.system = 'Long prompt typed by hand';
    expect(await s.save()).toBe(false);
    expect(s.form).not.toBeNull();
    expect(s.form!.error).toContain('lower-case');
    expect(s.form!.draft).toMatchObject({ name: 'Bad Name', system: 'Long prompt typed by hand' });
    expect(api.SaveAgent).toHaveBeenCalledWith('', expect.objectContaining({ name: 'Bad Name', maxRounds: 6 }));
  });

  it('saves an edit (a rename replaces the old entry) and closes the form', async () => {
    const api = fakeAgentsApi();
    const s = new AgentsStore(api);
    await s.load();
    s.openEdit('translator');
    s.form!.draft.name = 'interpreter';
    api.ListAgents.mockResolvedValueOnce([]);
    expect(await s.save()).toBe(true);
    expect(api.SaveAgent).toHaveBeenCalledWith('translator', expect.objectContaining({ name: 'interpreter' }));
    expect(s.form).toBeNull();
  });

  it('deletes only after the user confirms; a refusal shows', async () => {
    const api = fakeAgentsApi();
    const s = new AgentsStore(api);
    await s.load();
    expect(await s.reallyDelete()).toBe(false);
    expect(api.DeleteAgent).not.toHaveBeenCalled();
    s.askDelete('translator');
    expect(await s.reallyDelete()).toBe(true);
    expect(api.DeleteAgent).toHaveBeenCalledWith('translator');
    expect(s.agents.some((a) => a.name === 'translator')).toBe(false);
    api.DeleteAgent.mockRejectedValueOnce(new Error('researcher is built in: switch it off instead'));
    s.askDelete('researcher');
    expect(await s.reallyDelete()).toBe(false);
    expect(s.errors.researcher).toContain('built in');
  });
});

describe('ChatStore and delegations', () => {
  function session(id: string): SessionInfo {
    return { id, title: id, createdAt: '2026-01-02T10:00:00Z', updatedAt: '2026-01-02T10:00:00Z', messageCount: 0, state: 'active', pinned: false };
  }

  function harness(messages = storedDelegation()) {
    const handlers = new Map<string, (d: unknown) => void>();
    let resolve!: (r: TurnResult) => void;
    const api = {
      SendMessage: vi.fn(() => new Promise<TurnResult>((r) => (resolve = r))),
      CancelMessage: vi.fn(async () => {}),
      ListSessions: vi.fn(async () => [session('s1')]),
      LoadSession: vi.fn(async (id: string): Promise<SessionDetail> => ({ session: session(id), messages })),
      NewSession: vi.fn(async () => session('new')),
      RenameSession: vi.fn(),
      PinSession: vi.fn(),
      ArchiveSession: vi.fn(),
      DeleteSession: vi.fn(),
      ExportSession: vi.fn(),
      PinMessage: vi.fn(),
      ContinueTurn: vi.fn(),
    };
    const on = (name: string, cb: (d: unknown) => void) => {
      handlers.set(name, cb);
      return () => handlers.delete(name);
    };
    const store = new ChatStore({ api: api as never, on, uuid: () => 'req-1' });
    return { store, handlers, emit: (n: string, d: unknown) => handlers.get(n)?.(d), resolve: (r: TurnResult) => resolve(r) };
  }

  it('applies chat:agent events to the streaming reply, ignores malformed ones, then unsubscribes', async () => {
    const h = harness();
    h.store.draft = 'research my invoices';
    const done = h.store.send();
    expect(h.handlers.has('chat:agent:req-1')).toBe(true);
    h.emit('chat:agent:req-1', researchEvents[0]);
    h.emit('chat:agent:req-1', { callId: 'c1', kind: 'delta' });
    h.emit('chat:agent:req-1', 'garbage');
    h.emit('chat:agent:req-1', researchEvents[3]);
    const reply = h.store.messages[1];
    expect(reply.delegations).toHaveLength(1);
    expect(reply.delegations![0].status).toBe('running');
    expect(reply.delegations![0].steps.map((s) => s.kind)).toEqual(['tool']);
    h.emit('chat:agent:req-1', researchEvents[5]);
    h.emit('chat:tool:req-1', { tool: 'agent__researcher', args: '{"task":"research my invoices"}', status: 'ok', result: 'I found: invoice #42', latencyMs: 5, callId: 'c1' });
    expect(h.store.messages[1].tools?.[0].callId).toBe('c1');
    const at = '2026-01-02T10:00:00Z';
    h.resolve({
      session: session('s1'),
      user: { id: 'u1', sessionId: 's1', role: 'user', content: 'research my invoices', status: 'ok', intentConfidence: 0, createdAt: at },
      assistant: { id: 'a1', sessionId: 's1', role: 'assistant', content: 'Done: I found: invoice #42', status: 'ok', intentConfidence: 0, createdAt: at },
      tools: [{ tool: 'agent__researcher', args: '{}', status: 'ok', result: 'I found: invoice #42', latencyMs: 5, callId: 'c1' }],
    });
    await done;
    expect(h.handlers.has('chat:agent:req-1')).toBe(false);
    const stored = h.store.messages[1];
    expect(stored.id).toBe('a1');
    expect(stored.delegations?.[0]).toMatchObject({ callId: 'c1', status: 'done', answer: 'I found: invoice #42' });
  });

  it('shows a loaded conversation with the delegation read from its thread; sub-agent messages stay out', async () => {
    const msgs = storedDelegation();
    msgs.push({ id: 'x1', sessionId: 's1', role: 'assistant', content: 'inner reply', status: 'ok', intentConfidence: 0, createdAt: msgs[0].createdAt, channel: 'researcher' });
    const h = harness(msgs);
    await h.store.select('s1');
    expect(h.store.messages.map((m) => m.id)).toEqual(['m1', 'm3']);
    const reply = h.store.messages[1];
    expect(reply.tools?.[0].tool).toBe('agent__researcher');
    expect(reply.delegations).toHaveLength(1);
    expect(reply.delegations![0]).toMatchObject({ callId: 'call-7', task: 'research my invoices', answer: 'I found: invoice #42' });
    expect(pairDelegations(reply.tools, reply.delegations).byCall[0]?.callId).toBe('call-7');
  });
});
