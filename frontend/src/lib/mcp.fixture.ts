// Test data for the MCP tests (not part of the app).
import { vi, type Mock } from 'vitest';
import type { McpStatus, McpTool } from './backend';
import type { McpApi } from './mcp.svelte';

export function tool(over: Partial<McpTool> = {}): McpTool {
  return {
    name: 'everything__echo',
    remote: 'echo',
    description: 'Echoes back the input string',
    annotations: { read_only: true },
    enabled: true,
    user_off: false,
    auto_approve: false,
    changed: false,
    new: false,
    ...over,
  };
}

export function status(over: Partial<McpStatus> = {}): McpStatus {
  return {
    name: 'everything',
    state: 'ready',
    config: { command: 'node', args: ['/srv/everything.js', 'stdio'] },
    command: 'node /srv/everything.js stdio',
    approved: true,
    disabled: false,
    tools_changed: false,
    restarts: 0,
    tools: [tool()],
    has_resources: false,
    resources: 0,
    ...over,
  };
}

export type FakeMcpApi = { [K in keyof McpApi]: Mock<McpApi[K]> };

export function fakeApi(over: Partial<McpApi> = {}): FakeMcpApi {
  const api = {
    MCPServers: vi.fn(async () => [status()]),
    MCPProblems: vi.fn(async () => []),
    MCPCommandLine: vi.fn(async () => 'cmd'),
    MCPAddServer: vi.fn(async (name: string, cfg: string) =>
      status({ name, state: 'awaiting approval', approved: false, config: JSON.parse(cfg), command: 'cmd', tools: [] }),
    ),
    MCPApprove: vi.fn(async (name: string) => status({ name, state: 'starting' })),
    MCPRestart: vi.fn(async (name: string) => status({ name, state: 'starting' })),
    MCPSetDisabled: vi.fn(async (name: string, d: boolean) => status({ name, state: d ? 'disabled' : 'starting', disabled: d })),
    MCPRemove: vi.fn(async () => undefined),
    MCPSetToolEnabled: vi.fn(async (server: string, _tool: string, on: boolean) =>
      status({ name: server, tools: [tool({ enabled: on, user_off: !on })] }),
    ),
    MCPAcceptToolChanges: vi.fn(async (name: string) => status({ name })),
    MCPStderr: vi.fn(async () => 'full log'),
    MCPPrompts: vi.fn(async () => []),
    MCPGetPrompt: vi.fn(async () => ({ messages: [{ role: 'user', text: 'hello' }] })),
    ...over,
  };
  return api as unknown as FakeMcpApi;
}
