// Sub-agent data for the unit tests (shaped as the app's ListAgents and chat:agent events send it).
import { vi } from 'vitest';
import type { AgentEvent, AgentInfo, Message } from './backend';
import type { AgentsApi } from './agents.svelte';

export const researcher: AgentInfo = {
  name: 'researcher',
  description: 'Looks things up in past conversations and memories.',
  system: "You are Hermes' researcher.",
  tools: ['session_search', 'memory_search'],
  memory: 'read',
  maxRounds: 6,
  disabled: false,
  builtin: true,
  line: 0,
  tool: 'agent__researcher',
};

export const editor: AgentInfo = {
  name: 'editor',
  description: 'Rewrites text.',
  system: "You are Hermes' editor.",
  tools: [],
  memory: 'none',
  maxRounds: 3,
  disabled: false,
  builtin: true,
  line: 0,
  tool: 'agent__editor',
};

export const translator: AgentInfo = {
  name: 'translator',
  description: 'Translates between English and Chinese.',
  system: 'Translate.',
  model: 'qwen2.5:7b',
  tools: ['calculator'],
  memory: 'none',
  maxRounds: 2,
  disabled: true,
  builtin: false,
  line: 3,
  tool: 'agent__translator',
};

export const agentProblem = '/data/agents.yaml:12: agent broken: max_rounds: must be between 1 and 20';

export function fakeAgentsApi(over: Partial<AgentsApi> = {}) {
  const api = {
    ListAgents: vi.fn(async () => [translator, editor, researcher].map((a) => structuredClone(a))),
    AgentProblems: vi.fn(async () => [agentProblem]),
    AgentFile: vi.fn(async () => '/data/agents.yaml'),
    SaveAgent: vi.fn(async (_original: string, def: { name: string }) => ({ ...structuredClone(translator), ...def, builtin: false, disabled: false, line: 3 }) as AgentInfo),
    DeleteAgent: vi.fn(async () => undefined),
    SetAgentEnabled: vi.fn(async () => undefined),
  };
  return Object.assign(api, over) as typeof api;
}

/** The chat:agent events of one delegation to the researcher (call c1). */
export const researchEvents: AgentEvent[] = [
  { callId: 'c1', agent: 'researcher', kind: 'start', task: 'research my invoices' },
  { callId: 'c1', agent: 'researcher', kind: 'delta', text: 'Searching ' },
  { callId: 'c1', agent: 'researcher', kind: 'delta', text: 'past chats.' },
  {
    callId: 'c1',
    agent: 'researcher',
    kind: 'tool',
    tool: { tool: 'session_search', args: '{"query":"invoice"}', status: 'ok', result: 'invoice #42 from ACME', latencyMs: 12 },
  },
  { callId: 'c1', agent: 'researcher', kind: 'delta', text: 'I found: invoice #42' },
  { callId: 'c1', agent: 'researcher', kind: 'done', text: 'I found: invoice #42' },
];

/** A stored conversation with one delegation whose thread the backend kept. */
export function storedDelegation(sessionId = 's1'): Message[] {
  const at = '2026-01-02T10:00:00Z';
  return [
    { id: 'm1', sessionId, role: 'user', content: 'research my invoices', status: 'ok', intentConfidence: 0, createdAt: at },
    {
      id: 'm2',
      sessionId,
      role: 'tool',
      toolName: 'agent__researcher',
      content: 'I found: invoice #42',
      status: 'ok',
      intentConfidence: 0,
      createdAt: at,
      tool: { tool: 'agent__researcher', args: '{"task":"research my invoices"}', status: 'ok', result: 'I found: invoice #42', latencyMs: 900, callId: 'call-7' },
      thread: [
        { id: 't1', sessionId, role: 'user', content: 'research my invoices', status: 'ok', intentConfidence: 0, createdAt: at, channel: 'researcher' },
        { id: 't2', sessionId, role: 'assistant', content: '', status: 'ok', intentConfidence: 0, createdAt: at, channel: 'researcher' },
        {
          id: 't3',
          sessionId,
          role: 'tool',
          toolName: 'session_search',
          content: 'invoice #42 from ACME',
          status: 'ok',
          intentConfidence: 0,
          createdAt: at,
          channel: 'researcher',
          tool: { tool: 'session_search', args: '{"query":"invoice"}', status: 'ok', result: 'invoice #42 from ACME', latencyMs: 10 },
        },
        { id: 't4', sessionId, role: 'assistant', content: 'I found: invoice #42', status: 'ok', intentConfidence: 0, createdAt: at, channel: 'researcher' },
      ],
    },
    { id: 'm3', sessionId, role: 'assistant', content: 'Done: I found: invoice #42', status: 'ok', intentConfidence: 0, createdAt: at },
  ];
}
