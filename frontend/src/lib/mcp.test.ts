import { describe, expect, it, vi } from 'vitest';
import { ConfirmError, mcpStateValues, type McpResourceContent, type McpServerConfig, type McpStatus } from './backend';
import { content, fakeApi, remote, resource, status, tool } from './mcp.fixture';
import { annotations } from './tools.fixture';
import { dictionaries, t } from './i18n.svelte';
import {
  McpStore,
  asksFirst,
  canToggle,
  configToForm,
  emptyForm,
  errorsByField,
  formToConfig,
  headerNames,
  insertTemplate,
  classifyHost,
  plainHttpToInternet,
  parseServerURL,
  previewText,
  serverTransport,
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
  type ServerForm,
} from './mcp.svelte';

describe('server states', () => {
  it('names every state in both languages and gives it a tone', () => {
    for (const s of mcpStateValues) {
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
    expect(toolChips(tool({ annotations: annotations({ read_only: true }) }))).toEqual(['mcp.chip.readOnly']);
    expect(toolChips(tool({ annotations: annotations({ destructive: true, open_world: true, command: true }) }))).toEqual([
      'mcp.chip.destructive',
      'mcp.chip.openWorld',
      'mcp.chip.command',
    ]);
    expect(asksFirst(tool({ annotations: annotations({ read_only: true }) }))).toBe(false);
    expect(asksFirst(tool({ annotations: annotations({ open_world: true }) }))).toBe(true);
    expect(asksFirst(tool({ annotations: annotations({ destructive: true }), auto_approve: true }))).toBe(false);
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
      ...emptyForm(),
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
    expect(JSON.parse(JSON.stringify(cfg))).toEqual(cfg); // what the transport sends
  });

  it('leaves empty fields out and keeps a disabled entry disabled', () => {
    expect(formToConfig({ ...emptyForm(), name: 'x', command: 'node' })).toEqual({ command: 'node' });
    expect(JSON.stringify(formToConfig({ ...emptyForm(), command: 'node', exclude: 'a*' }))).toBe('{"command":"node","tools":{"exclude":["a*"]}}');
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

describe('the server form for a URL', () => {
  const urlForm = (over: Partial<ServerForm> = {}): ServerForm => ({
    ...emptyForm(),
    name: 'notes',
    kind: 'url',
    url: ' http://127.0.0.1:3001/mcp ',
    headers: [{ name: ' Authorization ', value: 'Bearer ${TOKEN}', kept: '' }],
    ...over,
  });

  it('sends url, type and headers and none of command, args, env or cwd', () => {
    // Fields of the other kind, typed before switching, are left out.
    const f = urlForm({ command: 'node', args: 'x.js', env: 'A=1', cwd: '/tmp', timeout: '20s', autoApprove: 'search', caFile: '/etc/ca.pem' });
    expect(formToConfig(f)).toEqual({
      url: 'http://127.0.0.1:3001/mcp',
      type: 'http',
      headers: { Authorization: 'Bearer ${TOKEN}' },
      ca_file: '/etc/ca.pem',
      timeout: '20s',
      autoApprove: ['search'],
    });
    expect(formToConfig(urlForm({ transport: 'sse', headers: [], allowInternet: true }), { disabled: true })).toEqual({
      url: 'http://127.0.0.1:3001/mcp',
      type: 'sse',
      allow_internet: true,
      disabled: true,
    });
    // Empty header rows are left out.
    expect(formToConfig(urlForm({ headers: [{ name: ' ', value: '', kept: '' }] }))).toEqual({ url: 'http://127.0.0.1:3001/mcp', type: 'http' });
  });

  it('sends a command entry without url, type or headers, whatever the URL fields hold', () => {
    const f = urlForm({ kind: 'command', command: 'node', allowInternet: true, caFile: '/ca.pem' });
    const cfg = formToConfig(f);
    expect(cfg).toEqual({ command: 'node' });
    expect(JSON.parse(JSON.stringify(cfg))).not.toHaveProperty('url');
  });

  it('keeps a stored header value hidden: [REDACTED] goes back unless the value is changed', () => {
    const entry = remote().config;
    const f = configToForm('remote', entry);
    expect(f.kind).toBe('url');
    expect(f.url).toBe('https://mcp.example.com/mcp');
    expect(f.allowInternet).toBe(true);
    expect(f.headers).toEqual([{ name: 'Authorization', value: '', kept: 'Authorization' }]);
    expect(validateForm(f, t)).toEqual({});
    expect(formToConfig(f)).toEqual(entry);
    // A new value replaces it.
    f.headers[0].value = 'Bearer ${NEW}';
    expect(formToConfig(f).headers).toEqual({ Authorization: 'Bearer ${NEW}' });
    // A renamed header must be given its value again.
    f.headers[0] = { name: 'X-Api-Key', value: '', kept: 'Authorization' };
    expect(validateForm(f, t).headers).toBe('Enter the value of X-Api-Key again: a renamed header does not keep its saved value.');
    // An SSE entry reads back as SSE.
    expect(configToForm('x', { url: 'http://10.0.0.2/sse', type: 'sse' }).transport).toBe('sse');
  });

  it('takes only http:// and https:// addresses', () => {
    for (const u of ['http://127.0.0.1:3001/mcp', 'https://nas.lan/mcp', 'HTTP://[::1]:8080/']) expect(parseServerURL(u), u).not.toBeNull();
    for (const u of ['ftp://x/mcp', 'localhost:3001/mcp', '127.0.0.1:3001', 'http://', 'file:///tmp/x', 'javascript:alert(1)']) {
      expect(parseServerURL(u), u).toBeNull();
    }
    expect(validateForm(urlForm({ url: '' }), t)).toEqual({ url: 'Enter the server’s address.' });
    expect(validateForm(urlForm({ url: 'localhost:3001/mcp' }), t).url).toContain('http:// or https://');
    // The command is not asked for.
    expect(validateForm(urlForm(), t)).toEqual({});
  });

  it('checks the headers', () => {
    const row = (name: string, value: string) => ({ name, value, kept: '' });
    const headerError = (...rows: ReturnType<typeof row>[]) => validateForm(urlForm({ headers: rows }), t).headers;
    expect(headerError(row('', 'x'))).toBe('Every header needs a name.');
    expect(headerError(row('Bad Name', 'x'))).toContain('Bad Name');
    expect(headerError(row('X-A', '1'), row('x-a', '2'))).toBe('The header x-a is set twice.');
    expect(headerError(row('X-A', 'a\nb'))).toBe('The value of X-A must be on one line.');
    expect(headerError(row('X-A', ' '))).toBe('Give the header X-A a value.');
    expect(validateForm(urlForm({ caFile: 'ca.pem' }), t).caFile).toBeTruthy();
  });

  it('sorts hosts as the backend’s network rule does: local, internet, refused', () => {
    const cases: Record<string, string[]> = {
      local: ['localhost', '127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.5', '[::1]', 'fd12::1', 'nas', 'nas.local', 'pi.lan', 'x.home.arpa', 'db.internal'],
      internet: ['mcp.example.com', '8.8.8.8', '172.32.0.1', '100.64.0.1', '2001:db8::1'],
      refused: ['169.254.169.254', '0.0.0.0', '224.0.0.1', 'fe80::1', '[fd00:ec2::254]', '100.100.100.200'],
    };
    for (const [want, hosts] of Object.entries(cases)) for (const h of hosts) expect(classifyHost(h), h).toBe(want);
    const err = (url: string, allowInternet = false) => validateForm(urlForm({ url, allowInternet }), t).url;
    expect(err('https://mcp.example.com/mcp')).toBe('mcp.example.com is on the internet. Tick “Allow internet hosts” below to connect to it.');
    expect(err('https://mcp.example.com/mcp', true)).toBeUndefined();
    expect(err('http://169.254.169.254/latest', true)).toContain('never connects to 169.254.169.254');
    expect(err('http://me:secret@127.0.0.1:3001/mcp')).toContain('user name and password');
    expect(err('http://[::1]:3001/mcp')).toBeUndefined();
    // Plain http to the internet is allowed, with a warning.
    expect(plainHttpToInternet({ kind: 'url', url: 'http://mcp.example.com/mcp', allowInternet: true })).toBe(true);
    expect(plainHttpToInternet({ kind: 'url', url: 'https://mcp.example.com/mcp', allowInternet: true })).toBe(false);
    expect(plainHttpToInternet({ kind: 'url', url: 'http://192.168.1.2/mcp', allowInternet: true })).toBe(false);
  });

  it('puts the backend’s errors about remote fields next to them', () => {
    expect(
      errorsByField(
        'entry:1:9: server "r": field "url": host mcp.example.com is on the internet; set allow_internet\n' +
          'entry:1:40: server "r": field "headers.Authorization": ${TOKEN} is not set',
      ),
    ).toEqual({ url: 'host mcp.example.com is on the internet; set allow_internet', headers: '${TOKEN} is not set' });
  });

  it('reads the transport and header names of a status, also from older backends', () => {
    // An older backend sent no transport: deliberately outside the generated type.
    const older = (config: McpServerConfig) => ({ config }) as Pick<McpStatus, 'transport' | 'config'>;
    expect(serverTransport(status())).toBe('stdio');
    expect(serverTransport(remote())).toBe('http');
    expect(serverTransport(older({ url: 'http://x/sse', type: 'sse' }))).toBe('sse');
    expect(serverTransport(older({ command: 'node' }))).toBe('stdio');
    expect(headerNames(remote())).toEqual(['Authorization']);
    expect(headerNames({ config: { url: 'u', headers: { b: '[REDACTED]', a: '[REDACTED]' } } })).toEqual(['a', 'b']);
  });
});

describe('resource previews', () => {
  it('caps the text by characters, not UTF-16 units', () => {
    expect(previewText('abc', 5)).toEqual({ text: 'abc', cut: false, total: 3 });
    expect(previewText('😀😀😀', 2)).toEqual({ text: '😀😀', cut: true, total: 3 });
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
    const p = { server: 's', name: 'n', arguments: [{ name: 'city', required: true }, { name: 'state', required: false }] };
    expect(missingArgs(p, { city: ' ', state: '' })).toEqual(['city']);
    expect(missingArgs(p, { city: 'Paris' })).toEqual([]);
    expect(promptArgs({ city: 'Paris', state: ' ' })).toEqual({ city: 'Paris' });
  });
});

describe('McpStore', () => {
  it('asks for the one-time code in web mode, then sends it with the approval', async () => {
    const api = fakeApi({ needsCode: vi.fn(() => true) });
    api.MCPApprove.mockRejectedValueOnce(new ConfirmError('type it', 'required'));
    const s = new McpStore(api);
    expect(s.needsCode()).toBe(true);
    expect(await s.approve('everything')).toBe(false);
    expect(api.MCPApprove).toHaveBeenLastCalledWith('everything');
    expect(s.codes.everything).toEqual({ reason: 'required', triesLeft: null });
    expect(s.errors.everything).toBe('');
    expect(s.busy.everything).toBe(false);
    expect(await s.approve('everything', '482913')).toBe(true);
    expect(api.MCPApprove).toHaveBeenLastCalledWith('everything', '482913');
    expect(s.codes.everything).toBeUndefined();
  });

  it('shows any other approval failure as the server’s error and needs no code in the desktop window', async () => {
    const api = fakeApi();
    api.MCPApprove.mockRejectedValueOnce(new Error('its entry in mcp.json has errors'));
    const s = new McpStore(api);
    expect(s.needsCode()).toBe(false);
    expect(await s.approve('everything')).toBe(false);
    expect(s.errors.everything).toBe('its entry in mcp.json has errors');
    expect(s.codes.everything).toBeUndefined();
  });

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

  it('lists a server’s resources and keeps the old list when a refresh fails', async () => {
    const api = fakeApi();
    const store = new McpStore(api);
    await store.loadResources('everything');
    expect(api.MCPResources).toHaveBeenCalledWith('everything');
    expect(store.resources.everything.items?.map((r) => r.name)).toEqual(['architecture.md', 'features.md']);
    api.MCPResources.mockRejectedValueOnce(new Error('list resources: server everything is not ready'));
    await store.loadResources('everything');
    expect(store.resources.everything.error).toBe('list resources: server everything is not ready');
    expect(store.resources.everything.items).toHaveLength(2);
    expect(store.resources.everything.loading).toBe(false);
  });

  it('previews the resource picked last, even when an earlier read answers later', async () => {
    const slow: Array<(c: McpResourceContent) => void> = [];
    const api = fakeApi({
      MCPReadResource: vi.fn((server: string, uri: string) =>
        uri.endsWith('architecture.md') ? new Promise<McpResourceContent>((r) => slow.push(r)) : Promise.resolve(content({ server, uri, text: 'features' })),
      ),
    });
    const store = new McpStore(api);
    const first = store.readResource('everything', resource());
    expect(store.previews.everything?.loading).toBe(true);
    await store.readResource('everything', resource({ uri: 'demo://resource/static/document/features.md', name: 'features.md' }));
    slow[0](content());
    await first;
    expect(store.previews.everything?.resource.name).toBe('features.md');
    expect(store.previews.everything?.content?.text).toBe('features');
    api.MCPReadResource.mockRejectedValueOnce(new Error('read resource demo://x of everything: not found'));
    await store.readResource('everything', resource({ uri: 'demo://x' }));
    expect(store.previews.everything?.error).toBe('read resource demo://x of everything: not found');
    store.closePreview('everything');
    expect(store.previews.everything).toBeNull();
  });

  it('forgets a server’s resources when it stops being ready (a restart may change them)', async () => {
    const store = new McpStore(fakeApi());
    await store.loadResources('everything');
    await store.readResource('everything', resource());
    store.apply(status({ state: 'ready' }));
    expect(store.resources.everything.items).toHaveLength(2);
    store.apply(status({ state: 'starting' }));
    expect(store.resources.everything).toBeUndefined();
    expect(store.previews.everything).toBeNull();
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
