// Test data for the MCP tests (not part of the app).
import { vi, type Mock } from 'vitest';
import type { McpResourceInfo, McpResourceContent, McpServerConfig, McpStatus, McpToolStatus } from './backend';
import type { McpApi } from './mcp.svelte';
import { annotations } from './tools.fixture';

export function tool(over: Partial<McpToolStatus> = {}): McpToolStatus {
  return {
    name: 'everything__echo',
    remote: 'echo',
    description: 'Echoes back the input string',
    annotations: annotations({ read_only: true }),
    hints: {},
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
    transport: 'stdio',
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

/** A remote server entry with a header whose value the backend keeps hidden. */
export function remote(over: Partial<McpStatus> = {}): McpStatus {
  return status({
    name: 'remote',
    state: 'awaiting approval',
    approved: false,
    transport: 'http',
    url: 'https://mcp.example.com/mcp',
    header_names: ['Authorization'],
    internet: true,
    config: { url: 'https://mcp.example.com/mcp', type: 'http', headers: { Authorization: '[REDACTED]' }, allow_internet: true },
    command: 'http https://mcp.example.com/mcp (headers: Authorization; on the internet)',
    tools: [],
    ...over,
  });
}

export function resource(over: Partial<McpResourceInfo> = {}): McpResourceInfo {
  return {
    server: 'everything',
    uri: 'demo://resource/static/document/architecture.md',
    name: 'architecture.md',
    description: 'Static document file exposed from /docs: architecture.md',
    mime_type: 'text/markdown',
    ...over,
  };
}

export function content(over: Partial<McpResourceContent> = {}): McpResourceContent {
  return {
    server: 'everything',
    uri: 'demo://resource/static/document/architecture.md',
    mime_type: 'text/markdown',
    text: '# Architecture\n\nThe server is split into tools, resources and prompts.',
    ...over,
  };
}

export type FakeMcpApi = { [K in keyof McpApi]-?: Mock<NonNullable<McpApi[K]>> };

export function fakeApi(over: Partial<McpApi> = {}): FakeMcpApi {
  const api = {
    MCPServers: vi.fn(async () => [status()]),
    MCPProblems: vi.fn(async () => []),
    MCPCommandLine: vi.fn(async () => 'cmd'),
    MCPAddServer: vi.fn(async (name: string, cfg: McpServerConfig) =>
      status({ name, state: 'awaiting approval', approved: false, config: cfg, command: 'cmd', tools: [] }),
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
    MCPResources: vi.fn(async (server: string) => [
      resource({ server }),
      resource({ server, uri: 'demo://resource/static/document/features.md', name: 'features.md' }),
    ]),
    MCPReadResource: vi.fn(async (server: string, uri: string) => content({ server, uri })),
    needsCode: vi.fn(() => false),
    ...over,
  };
  return api as unknown as FakeMcpApi;
}
