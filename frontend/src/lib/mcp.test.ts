import { describe, expect, it, vi } from 'vitest';
import { MCP_STATES } from './backend';
import { fakeApi, status, tool } from './mcp.fixture';
import { dictionaries, t } from './i18n.svelte';
import {
  McpStore,
  asksFirst,
  canToggle,
  configJSON,
  configToForm,
  emptyForm,
  errorsByField,
  formToConfig,
  insertTemplate,
  missingArgs,
  parseDuration,
  parseEnv,
  promptArgs,
  promptText,
  readyPrompts,
  stateKey,
  stateTone,
  toggleName,
  toolChips,
  validGlob,
  validateForm,
} from './mcp.svelte';

describe('server states', () => {
  it('names every state in both languages and gives it a tone', () => {
    for (const s of MCP_STATES) {
      const k = stateKey(s);
      expect(k, s).not.toBeNull();
      for (const d of Object.values(dictionaries)) expect(d[k!], s).toBeTruthy();
    }
    expect(stateKey('exploded')).toBeNull();
    expect(stateTone('ready')).toBe('ok');
    expect(stateTone('crashed')).toBe('bad');
    expect(stateTone('invalid')).toBe('bad');
    expect(stateTone('backing off')).toBe('warn');
    expect(stateTone('awaiting approval')).toBe('warn');
    expect(stateTone('starting')).toBe('busy');
    expect(stateTone('disabled')).toBe('off');
    expect(stateTone('stopped')).toBe('off');
  });
});

describe('tools', () => {
  it('shows annotation chips and whether a call asks first', () => {
    expect(toolChips(tool({ annotations: { read_only: true } }))).toEqual(['mcp.chip.readOnly']);
    expect(toolChips(tool({ annotations: { destructive: true, open_world: true, command: true } }))).toEqual([
      'mcp.chip.destructive',
      'mcp.chip.openWorld',
      'mcp.chip.command',
    ]);
    expect(asksFirst(tool({ annotations: { read_only: true } }))).toBe(false);
    expect(asksFirst(tool({ annotations: { open_world: true } }))).toBe(true);
    expect(asksFirst(tool({ annotations: { destructive: true }, auto_approve: true }))).toBe(false);
  });

  it('switches a tool by the server’s name for it, and Hermes’s own tools by their registered name', () => {
    expect(toggleName(tool())).toBe('echo');
    expect(toggleName(tool({ name: 'everything__get_prompt', remote: 'get_prompt', builtin: true }))).toBe('everything__get_prompt');
    expect(canToggle(tool())).toBe(true);
    expect(canToggle(tool({ changed: true }))).toBe(false);
    expect(canToggle(tool({ skipped: 'it only runs as an MCP task' }))).toBe(false);
  });
});

describe('the server form', () => {
  it('builds the config entry: args one per line, env KEY=VALUE lines, globs and names', () => {
    const cfg = formToConfig({
      name: 'fs',
      command: '  npx ',
      args: '-y\n  @modelcontextprotocol/server-filesystem \r\n\n/home/me/my notes\n',
      env: 'API_KEY=${MY_KEY}\n# a comment\n\nMODE = a=b \n',
      cwd: ' /home/me ',
      timeout: '45s',
      include: 'read_*\nlist_*, search_*',
      exclude: 'write_*',
      autoApprove: 'read_file\n',
    });
    expect(cfg).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/my notes'],
      env: { API_KEY: '${MY_KEY}', MODE: 'a=b' },
      cwd: '/home/me',
      timeout: '45s',
      tools: { include: ['read_*', 'list_*', 'search_*'], exclude: ['write_*'] },
      autoApprove: ['read_file'],
    });
    expect(JSON.parse(configJSON(cfg))).toEqual(cfg);
  });

  it('leaves empty fields out and keeps a disabled entry disabled', () => {
    expect(formToConfig({ ...emptyForm(), name: 'x', command: 'node' })).toEqual({ command: 'node' });
    expect(configJSON(formToConfig({ ...emptyForm(), command: 'node', exclude: 'a*' }))).toBe('{"command":"node","tools":{"exclude":["a*"]}}');
    expect(formToConfig({ ...emptyForm(), command: 'node' }, { disabled: true })).toEqual({ command: 'node', disabled: true });
  });

  it('fills the form from an entry and back again', () => {
    const cfg = {
      command: 'node',
      args: ['a b', 'c'],
      env: { A: '1', B: 'x=y' },
      cwd: '/tmp',
      timeout: '2m0s',
      tools: { include: ['r*'], exclude: ['w*'] },
      autoApprove: ['echo'],
    };
    const f = configToForm('srv', cfg);
    expect(f.name).toBe('srv');
    expect(f.args).toBe('a b\nc');
    expect(f.env).toBe('A=1\nB=x=y');
    expect(formToConfig(f)).toEqual(cfg);
  });

  it('finds mistakes in env lines', () => {
    expect(parseEnv('A=1\nB').error).toEqual({ line: 2, key: 'mcp.form.err.envLine' });
    expect(parseEnv('1A=1').error).toEqual({ line: 1, key: 'mcp.form.err.envName', name: '1A' });
    expect(parseEnv('A=1\nA=2').error).toEqual({ line: 2, key: 'mcp.form.err.envTwice', name: 'A' });
    expect(parseEnv('EMPTY=').env).toEqual({ EMPTY: '' });
  });

  it('reads Go durations', () => {
    expect(parseDuration('30s')).toBe(30e9);
    expect(parseDuration('1m30s')).toBe(90e9);
    expect(parseDuration('1.5h')).toBe(5400e9);
    expect(parseDuration('250ms')).toBe(250e6);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('30')).toBeNull();
    expect(parseDuration('abc')).toBeNull();
    expect(parseDuration('')).toBeNull();
  });

  it('checks globs as path.Match does', () => {
    for (const g of ['read_*', 'a?c', '[abc]*', '[^x]', '[a-z]*', '\\*']) expect(validGlob(g), g).toBe(true);
    for (const g of ['[', '[abc', '[]', 'a\\', '[a-]', '[-a]']) expect(validGlob(g), g).toBe(false);
  });

  it('names the fields that are wrong', () => {
    expect(validateForm({ ...emptyForm(), name: 'x', command: 'node' }, t)).toEqual({});
    const errs = validateForm(
      { ...emptyForm(), env: 'NOPE', cwd: 'relative', timeout: '10 minutes', include: '[abc', exclude: 'ok*' },
      t,
    );
    expect(Object.keys(errs).sort()).toEqual(['command', 'cwd', 'env', 'include', 'name', 'timeout']);
    expect(errs.env).toBe('Line 1: write KEY=VALUE.');
    expect(errs.include).toContain('[abc');
    expect(validateForm({ ...emptyForm(), name: 'x', command: 'n', timeout: '2h' }, t).timeout).toBe('Use more than 0 and at most 1h.');
    expect(validateForm({ ...emptyForm(), name: 'x', command: 'n', timeout: '0s' }, t).timeout).toBeTruthy();
  });

  it('spreads the backend’s errors over the fields', () => {
    const msg =
      'add server "bad": entry:1:33: server "bad": field "command": is empty; name the program to run, e.g. "npx"\n' +
      'entry:1:42: server "bad": field "cwd": "rel" is not an absolute path\n' +
      'entry:1:67: server "bad": field "tools.include": "[" is not a valid glob pattern';
    expect(errorsByField(msg)).toEqual({
      command: 'is empty; name the program to run, e.g. "npx"',
      cwd: '"rel" is not an absolute path',
      include: '"[" is not a valid glob pattern',
    });
    expect(errorsByField('add server "": a server needs a name')).toEqual({ name: 'a server needs a name' });
    expect(errorsByField('The server entry is not valid JSON: "zz" is not a duration; write one such as "30s" or "2m"').timeout).toBe(
      '"zz" is not a duration; write one such as "30s" or "2m"',
    );
    expect(errorsByField('disk full')).toEqual({ general: 'disk full' });
  });
});

describe('prompt templates', () => {
  it('lists the prompts of ready servers only', () => {
    const p = { server: 'everything', name: 'simple-prompt' };
    expect(readyPrompts([status({ prompts: [p] }), status({ name: 'off', state: 'crashed', prompts: [p] })])).toEqual([p]);
  });

  it('joins the messages of a fetched prompt and puts them in the message box', () => {
    expect(promptText({ messages: [{ role: 'user', text: 'One. ' }, { role: 'user', text: '' }, { role: 'assistant', text: 'Two.' }] })).toBe(
      'One.\n\nTwo.',
    );
    expect(promptText({ messages: null })).toBe('');
    expect(insertTemplate('', 'T')).toBe('T');
    expect(insertTemplate('  ', 'T')).toBe('T');
    expect(insertTemplate('Hi there\n', 'T')).toBe('Hi there\n\nT');
  });

  it('sends only the arguments filled in and knows which required ones are missing', () => {
    const p = { server: 's', name: 'n', arguments: [{ name: 'city', required: true }, { name: 'state' }] };
    expect(missingArgs(p, { city: ' ', state: '' })).toEqual(['city']);
    expect(missingArgs(p, { city: 'Paris' })).toEqual([]);
    expect(promptArgs({ city: 'Paris', state: ' ' })).toEqual({ city: 'Paris' });
  });
});

describe('McpStore', () => {
  it('loads the servers and problems and follows mcp:status events', async () => {
    const api = fakeApi({ MCPProblems: vi.fn(async () => [{ file: 'mcp.json', line: 3, column: 5, message: 'bad' }]) });
    const store = new McpStore(api);
    const handlers: Record<string, (d: unknown) => void> = {};
    const off = store.listen((name, cb) => {
      handlers[name] = cb;
      return () => delete handlers[name];
    });
    await store.load();
    expect(store.servers.map((s) => s.name)).toEqual(['everything']);
    expect(store.problems).toHaveLength(1);
    handlers['mcp:status'](status({ state: 'crashed', error: 'boom' }));
    expect(store.servers[0].state).toBe('crashed');
    handlers['mcp:status'](status({ name: 'fs', state: 'starting' }));
    expect(store.servers.map((s) => s.name)).toEqual(['everything', 'fs']);
    handlers['mcp:status']({ nonsense: true });
    expect(store.servers).toHaveLength(2);
    expect(store.prompts).toEqual([]);
    off();
    expect(handlers['mcp:status']).toBeUndefined();
  });

  it('keeps a row an event updated while the list was loading (a restart seen mid-reload)', async () => {
    let release: (v: ReturnType<typeof status>[]) => void = () => {};
    const api = fakeApi();
    const store = new McpStore(api);
    const handlers: Record<string, (d: unknown) => void> = {};
    store.listen((name, cb) => {
      handlers[name] = cb;
      return () => delete handlers[name];
    });
    await store.load();
    api.MCPServers = vi.fn(() => new Promise((resolve) => { release = resolve; })) as typeof api.MCPServers;
    const loading = store.load(); // the list is read while the server is still starting…
    handlers['mcp:status'](status({ state: 'ready' })); // …and it becomes ready before the answer arrives
    release([status({ state: 'starting' })]);
    await loading;
    expect(store.servers[0].state).toBe('ready');
  });

  it('switches a tool with the server’s tool name and applies the new status', async () => {
    const api = fakeApi();
    const store = new McpStore(api);
    await store.load();
    await store.setToolEnabled('everything', store.servers[0].tools![0], false);
    expect(api.MCPSetToolEnabled).toHaveBeenCalledWith('everything', 'echo', false);
    expect(store.servers[0].tools![0].enabled).toBe(false);
  });

  it('keeps an action’s error per server and drops a removed server', async () => {
    const api = fakeApi({ MCPRestart: vi.fn(async () => Promise.reject(new Error('not running'))) });
    const store = new McpStore(api);
    await store.load();
    expect(await store.restart('everything')).toBe(false);
    expect(store.errors.everything).toBe('not running');
    expect(await store.remove('everything')).toBe(true);
    expect(store.servers).toEqual([]);
    // The stopped status of the removed server does not bring it back.
    store.apply(status({ state: 'stopped' }));
    expect(store.servers).toEqual([]);
  });

  it('reads the list again when a server stops (it may have been removed from mcp.json)', async () => {
    vi.useFakeTimers();
    try {
      const api = fakeApi({ MCPServers: vi.fn(async () => [status()]) });
      const store = new McpStore(api);
      await store.load();
      store.apply(status({ name: 'gone', state: 'ready' }));
      expect(store.servers.map((s) => s.name)).toEqual(['everything', 'gone']);
      store.apply(status({ name: 'gone', state: 'stopped' }));
      expect(api.MCPServers).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(300);
      expect(api.MCPServers).toHaveBeenCalledTimes(2);
      expect(store.servers.map((s) => s.name)).toEqual(['everything']);
    } finally {
      vi.useRealTimers();
    }
  });
});
