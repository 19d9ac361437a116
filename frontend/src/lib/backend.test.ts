import { describe, expect, it, vi } from 'vitest';
import { boundServices } from './wailsfake';
import {
  ConfirmError,
  EventStreamParser,
  TOKEN_KEY,
  adoptToken,
  createApi,
  isConfirmError,
  readToken,
  toError,
  wailsTransport,
  webTransport,
} from './backend';

/** The server side of the event stream: open() answers the fetch, emit() sends an event. */
class FakeEvents {
  calls: Array<[string, RequestInit]> = [];
  #ctrl: ReadableStreamDefaultController<Uint8Array> | null = null;
  #answer: ((r: Response) => void) | null = null;
  #enc = new TextEncoder();
  fetch(url: string, init: RequestInit): Promise<Response> {
    this.calls.push([url, init]);
    return new Promise((resolve) => (this.#answer = resolve));
  }
  open(status = 200) {
    if (status !== 200) {
      this.#answer?.(new Response('{"error":"unauthorized"}', { status }));
      return;
    }
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (this.#ctrl = c) });
    this.#answer?.(new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }));
    this.send(': connected\n\n');
  }
  send(text: string) {
    this.#ctrl?.enqueue(this.#enc.encode(text));
  }
  emit(data: string) {
    this.send(`data: ${data}\n\n`);
  }
  end() {
    this.#ctrl?.close();
  }
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function setup(respond: (url: string, init: RequestInit) => Response | Promise<Response>, retryMs = 1000) {
  const es = new FakeEvents();
  const fetchMock = vi.fn(async (url: string | URL | Request, init?: RequestInit) => respond(String(url), init ?? {}));
  const router = (url: string | URL | Request, init?: RequestInit) =>
    String(url).endsWith('/api/events') ? es.fetch(String(url), init ?? {}) : fetchMock(url, init);
  const t = webTransport({
    token: 'tok en/1',
    fetch: router as unknown as typeof fetch,
    eventsReadyTimeoutMs: 50,
    retryMs,
  });
  return { api: createApi(t), t, fetchMock, es };
}

describe('web transport', () => {
  it('posts positional arguments as a JSON array with the token header', async () => {
    const { api, fetchMock } = setup(() => jsonResponse(200, [{ key: 'a', value: 'b', description: '' }]));
    const list = await api.SetSetting('chat_model', 'llama3.2');
    expect(list).toEqual([{ key: 'a', value: 'b', description: '' }]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/call/SetSetting');
    expect(init.method).toBe('POST');
    const headers = new Headers(init.headers);
    expect(headers.get('X-Hermes-Token')).toBe('tok en/1');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(String(init.body))).toEqual(['chat_model', 'llama3.2']);
  });

  it('sends SendMessage arguments in order and an empty array for no arguments', async () => {
    const { api, fetchMock, es } = setup(() => jsonResponse(200, null));
    es.open();
    await api.SendMessage('req-1', '', 'hello');
    await api.UIReady();
    expect(JSON.parse(String((fetchMock.mock.calls[0] as [string, RequestInit])[1].body))).toEqual(['req-1', '', 'hello']);
    expect((fetchMock.mock.calls[1] as [string, RequestInit])[0]).toBe('/api/call/UIReady');
    expect(JSON.parse(String((fetchMock.mock.calls[1] as [string, RequestInit])[1].body))).toEqual([]);
  });

  it('maps {"error": ...} to an Error with that message', async () => {
    const { api } = setup(() => jsonResponse(400, { error: 'ollama_host: must be a URL like http://127.0.0.1:11434' }));
    await expect(api.SetSetting('ollama_host', 'nope')).rejects.toThrow(
      new Error('ollama_host: must be a URL like http://127.0.0.1:11434'),
    );
    const err = await api.SetSetting('ollama_host', 'nope').catch((e) => e);
    expect(err).toBeInstanceOf(Error);
  });

  it('reports non-JSON errors with the HTTP status', async () => {
    const { api } = setup(() => new Response('forbidden', { status: 403 }));
    await expect(api.Status()).rejects.toThrow(/HTTP 403.*forbidden/);
  });

  it('turns network failures into an Error', async () => {
    const { api } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api.ListSessions()).rejects.toThrow(/cannot reach the Hermes backend: Failed to fetch/);
  });

  it('treats a null list as empty', async () => {
    const { api } = setup(() => jsonResponse(200, null));
    expect(await api.ListSessions()).toEqual([]);
  });

  it('reads the event stream with the token in a header, never in the URL, and dispatches by name', async () => {
    const { t, es } = setup(() => jsonResponse(200, null));
    expect(es.calls.length).toBe(1);
    const [url, init] = es.calls[0];
    expect(url).toBe('/api/events');
    expect(new Headers(init.headers).get('X-Hermes-Token')).toBe('tok en/1');
    expect(init.credentials).toBe('omit');
    es.open();
    const got: unknown[] = [];
    const other: unknown[] = [];
    const off = t.on('chat:delta:r1', (d) => got.push(d));
    t.on('chat:delta:r2', (d) => other.push(d));
    es.emit(JSON.stringify({ name: 'chat:delta:r1', data: { text: 'He' } }));
    es.emit('not json');
    es.send(': ping\n\n');
    // An event split across chunks, with CRLF line ends split too.
    es.send('data: {"name":"chat:delta:r1",');
    es.send('"data":{"text":"llo"}}\r');
    es.send('\n\r\n');
    await flush();
    off();
    es.emit(JSON.stringify({ name: 'chat:delta:r1', data: { text: '!' } }));
    await flush();
    expect(got).toEqual([{ text: 'He' }, { text: 'llo' }]);
    expect(other).toEqual([]);
  });

  it('reconnects the event stream when it ends or fails, and stops once the token is refused', async () => {
    const { es } = setup(() => jsonResponse(200, null), 5);
    es.open();
    await flush();
    es.end();
    await new Promise((r) => setTimeout(r, 30));
    expect(es.calls.length).toBe(2);
    es.open(503);
    await new Promise((r) => setTimeout(r, 60));
    expect(es.calls.length).toBe(3);
    expect(new Headers(es.calls[2][1].headers).get('X-Hermes-Token')).toBe('tok en/1');
    // A restarted `hermes serve` refuses the old token for good: no more attempts.
    es.open(401);
    await new Promise((r) => setTimeout(r, 200));
    expect(es.calls.length).toBe(3);
  });

  it('sends the one-time code in a header and turns a code request into a ConfirmError', async () => {
    let answer: Response = jsonResponse(428, { error: 'Type the code', confirm: 'required', expires_in: 300 });
    const { api, fetchMock } = setup(() => answer);
    const err = await api.MCPApprove('files').catch((e) => e);
    expect(err).toBeInstanceOf(ConfirmError);
    expect(err.reason).toBe('required');
    expect(err.message).toBe('Type the code');
    expect(new Headers((fetchMock.mock.calls[0] as [string, RequestInit])[1].headers).get('X-Hermes-Code')).toBeNull();

    answer = jsonResponse(403, { error: 'not right', confirm: 'wrong', tries_left: 2 });
    const wrong = await api.MCPApprove('files', '000000').catch((e) => e);
    expect(isConfirmError(wrong)).toBe(true);
    expect(wrong.triesLeft).toBe(2);
    expect(new Headers((fetchMock.mock.calls[1] as [string, RequestInit])[1].headers).get('X-Hermes-Code')).toBe('000000');

    answer = jsonResponse(200, { name: 'files', state: 'starting' });
    await api.ResolveApproval('ap1', true, 'once', '123456');
    const [url, init] = fetchMock.mock.calls[2] as [string, RequestInit];
    expect(url).toBe('/api/call/ResolveApproval');
    expect(JSON.parse(String(init.body))).toEqual(['ap1', true, 'once']);
    expect(new Headers(init.headers).get('X-Hermes-Code')).toBe('123456');

    // An error without "confirm" stays a plain Error.
    answer = jsonResponse(422, { error: 'no such server' });
    const plain = await api.MCPApprove('nope', '1').catch((e) => e);
    expect(isConfirmError(plain)).toBe(false);
    expect(api.needsCode()).toBe(true);
  });

  it('never sends credentials (no cookie carries the token)', async () => {
    const { api, fetchMock } = setup(() => jsonResponse(200, null));
    await api.ListSessions();
    expect((fetchMock.mock.calls[0] as [string, RequestInit])[1].credentials).toBe('omit');
  });

  it('waits for the event stream before posting a message', async () => {
    const { api, fetchMock, es } = setup(() => jsonResponse(200, null));
    const p = api.SendMessage('r', '', 'x');
    await new Promise((r) => setTimeout(r, 10));
    expect(fetchMock).not.toHaveBeenCalled();
    es.open();
    await p;
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('waits for the event stream before continuing a turn too', async () => {
    const { api, fetchMock, es } = setup(() => jsonResponse(200, null));
    const p = api.ContinueTurn('r2', 's1');
    await new Promise((r) => setTimeout(r, 10));
    expect(fetchMock).not.toHaveBeenCalled();
    es.open();
    await p;
    expect((fetchMock.mock.calls[0] as [string, RequestInit])[0]).toBe('/api/call/ContinueTurn');
    expect(JSON.parse(String((fetchMock.mock.calls[0] as [string, RequestInit])[1].body))).toEqual(['r2', 's1']);
  });

  it('waits for the event stream before regenerating or resending an edit; sends the branch calls their arguments', async () => {
    const { api, fetchMock, es } = setup(() => jsonResponse(200, null));
    const p = api.RegenerateReply('r3', 's1', 'a1');
    const q = api.EditMessage('r4', 's1', 'u1', 'new text');
    await new Promise((r) => setTimeout(r, 10));
    expect(fetchMock).not.toHaveBeenCalled();
    es.open();
    await Promise.all([p, q]);
    await api.SelectVersion('s1', 'a2');
    await api.DeleteTurn('s1', 'u1');
    const calls = (fetchMock.mock.calls as [string, RequestInit][]).map(([url, init]) => [url, JSON.parse(String(init.body))]);
    expect(calls).toEqual([
      ['/api/call/RegenerateReply', ['r3', 's1', 'a1']],
      ['/api/call/EditMessage', ['r4', 's1', 'u1', 'new text']],
      ['/api/call/SelectVersion', ['s1', 'a2']],
      ['/api/call/DeleteTurn', ['s1', 'u1']],
    ]);
  });

  it('sends the tool methods their arguments with their own types', async () => {
    const { api, fetchMock, es } = setup(() => jsonResponse(200, null));
    es.open();
    await api.ResolveApproval('ap1', true, 'session');
    await api.ResolveApproval('ap2', false, 'once');
    await api.SetToolEnabled('shout', false);
    await api.ResetBreaker('shout');
    expect(await api.ToolActivity('shout', 'ok', '', 200)).toEqual([]);
    expect(await api.ListTools()).toEqual([]);
    const calls = fetchMock.mock.calls.map((c) => {
      const [url, init] = c as [string, RequestInit];
      return [url.replace('/api/call/', ''), JSON.parse(String(init.body))];
    });
    expect(calls).toEqual([
      ['ResolveApproval', ['ap1', true, 'session']],
      ['ResolveApproval', ['ap2', false, 'once']],
      ['SetToolEnabled', ['shout', false]],
      ['ResetBreaker', ['shout']],
      ['ToolActivity', ['shout', 'ok', '', 200]],
      ['ListTools', []],
    ]);
  });

  it('calls NetworkActivity without arguments and passes a null list on as Go sent it', async () => {
    // The generated client empties only a top-level null list; NetworkStore.load reads a null
    // entries as none (network.test.ts).
    const { api, fetchMock, es } = setup(() => jsonResponse(200, { offlineOnly: true, entries: null }));
    es.open();
    expect(await api.NetworkActivity()).toEqual({ offlineOnly: true, entries: null });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect([url, JSON.parse(String(init.body))]).toEqual(['/api/call/NetworkActivity', []]);
  });

  it('reads the token from the query string', () => {
    expect(readToken('?token=abc123&x=1')).toBe('abc123');
    expect(readToken('')).toBe('');
  });
});

describe('adoptToken', () => {
  function place(search: string, stored: string | null = null, opts: { storageFails?: boolean } = {}) {
    const store = new Map<string, string>();
    if (stored !== null) store.set(TOKEN_KEY, stored);
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => {
        if (opts.storageFails) throw new Error('QuotaExceededError');
        store.set(k, v);
      },
    };
    const replaced: string[] = [];
    const history = { state: { keep: 1 }, replaceState: vi.fn((_s: unknown, _t: string, url: string) => void replaced.push(url)) };
    return { p: { location: { search, pathname: '/', hash: '#x' }, storage, history }, store, replaced, history };
  }

  it('moves the token from the URL into session storage and cleans the address', () => {
    const { p, store, replaced, history } = place('?token=abc&lang=zh');
    expect(adoptToken(p)).toBe('abc');
    expect(store.get(TOKEN_KEY)).toBe('abc');
    expect(replaced).toEqual(['/?lang=zh#x']);
    expect(history.replaceState.mock.calls[0][0]).toEqual({ keep: 1 });
  });

  it('leaves no "?" when the token was the only parameter', () => {
    const { p, replaced } = place('?token=abc');
    adoptToken(p);
    expect(replaced).toEqual(['/#x']);
  });

  it('reads the stored token after a reload and does not touch the address', () => {
    const { p, replaced } = place('', 'stored');
    expect(adoptToken(p)).toBe('stored');
    expect(replaced).toEqual([]);
  });

  it('prefers a new token in the URL (a new run of hermes serve)', () => {
    const { p, store } = place('?token=new', 'old');
    expect(adoptToken(p)).toBe('new');
    expect(store.get(TOKEN_KEY)).toBe('new');
  });

  it('still cleans the address when storage refuses the token', () => {
    const { p, replaced } = place('?token=abc', null, { storageFails: true });
    expect(adoptToken(p)).toBe('abc');
    expect(replaced).toEqual(['/#x']);
  });

  it('has no token without either', () => {
    expect(adoptToken(place('').p)).toBe('');
  });
});

describe('EventStreamParser', () => {
  it('joins data lines, skips comments and other fields', () => {
    const p = new EventStreamParser();
    expect(p.push(': connected\n\n')).toEqual([]);
    expect(p.push('event: x\ndata: a\ndata:b\n\ndata: c')).toEqual(['a\nb']);
    expect(p.push('\n\n')).toEqual(['c']);
  });
});

describe('wails transport', () => {
  it('calls bound methods with positional arguments and normalises string rejections', async () => {
    const SetSetting = vi.fn(async (..._a: unknown[]) => {
      throw 'chat_model: model "x" is not installed';
    });
    const ListSessions = vi.fn(async () => [{ id: 's1' }]);
    const off = vi.fn();
    let handler: ((...d: unknown[]) => void) | null = null;
    const w = {
      go: { app: boundServices({ SetSetting, ListSessions }) },
      runtime: {
        EventsOn: (_n: string, cb: (...d: unknown[]) => void) => {
          handler = cb;
          return off;
        },
        EventsOff: vi.fn(),
      },
    };
    const t = wailsTransport(w);
    const api = createApi(t);
    expect(await api.ListSessions()).toEqual([{ id: 's1' }]);
    const err = await api.SetSetting('chat_model', 'x').catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe('chat_model: model "x" is not installed');
    expect(SetSetting).toHaveBeenCalledWith('chat_model', 'x');

    const got: unknown[] = [];
    const unsubscribe = t.on('chat:delta:1', (d) => got.push(d));
    handler!({ text: 'a' });
    expect(got).toEqual([{ text: 'a' }]);
    unsubscribe();
    expect(off).toHaveBeenCalled();
  });

  it('fails clearly when a method is missing', async () => {
    const api = createApi(wailsTransport({ go: { app: { App: {} } } }));
    await expect(api.Status()).rejects.toThrow(/Status is not available/);
  });

  it("calls a domain service's method on that service, not on App", async () => {
    const KBList = vi.fn(async () => [{ name: 'manuals' }]);
    const App = { KBList: vi.fn() };
    const api = createApi(wailsTransport({ go: { app: { App, KnowledgeService: { KBList } } } }));
    expect(await api.KBList()).toEqual([{ name: 'manuals' }]);
    expect(KBList).toHaveBeenCalledOnce();
    expect(App.KBList).not.toHaveBeenCalled();
  });
});

describe('session methods', () => {
  it('pass every argument as a string, as the web mode requires', async () => {
    const calls: Array<[string, unknown[]]> = [];
    const api = createApi({
      call: async (m, a) => {
        calls.push([m, a]);
        return m === 'SearchSessions' ? null : m === 'ExportSession' ? '# md' : {};
      },
    });
    expect(await api.SearchSessions('zebra')).toEqual([]);
    await api.RenameSession('s1', 'Trip');
    await api.PinSession('s1', true);
    await api.PinSession('s1', false);
    await api.ArchiveSession('s1');
    await api.DeleteSession('s1');
    expect(await api.ExportSession('s1', 'md')).toBe('# md');
    await api.PinMessage('m1', true);
    await api.LastContext('s1');
    expect(calls).toEqual([
      ['SearchSessions', ['zebra']],
      ['RenameSession', ['s1', 'Trip']],
      ['PinSession', ['s1', true]],
      ['PinSession', ['s1', false]],
      ['ArchiveSession', ['s1']],
      ['DeleteSession', ['s1']],
      ['ExportSession', ['s1', 'md']],
      ['PinMessage', ['m1', true]],
      ['LastContext', ['s1']],
    ]);
  });
});

describe('MCP resource methods', () => {
  it('post the server and the URI as strings in web mode and read a null list as empty', async () => {
    const content = { server: 'everything', uri: 'demo://a b', mime_type: 'text/plain', text: 'hi' };
    const { api, fetchMock } = setup((url) =>
      jsonResponse(200, url.endsWith('/MCPResources') ? null : content),
    );
    expect(await api.MCPResources('everything')).toEqual([]);
    expect(await api.MCPReadResource('everything', 'demo://a b')).toEqual(content);
    const calls = fetchMock.mock.calls.map((c) => {
      const [url, init] = c as [string, RequestInit];
      return [url.replace('/api/call/', ''), JSON.parse(String(init.body))];
    });
    expect(calls).toEqual([
      ['MCPResources', ['everything']],
      ['MCPReadResource', ['everything', 'demo://a b']],
    ]);
  });

  it('call the bound methods in the desktop window and keep the server’s error', async () => {
    const MCPResources = vi.fn(async () => [{ server: 'everything', uri: 'demo://x', name: 'x' }]);
    const MCPReadResource = vi.fn(async () => {
      throw 'read resource demo://x of everything: not found';
    });
    const api = createApi(wailsTransport({ go: { app: boundServices({ MCPResources, MCPReadResource }) } }));
    expect(await api.MCPResources('everything')).toEqual([{ server: 'everything', uri: 'demo://x', name: 'x' }]);
    expect(MCPResources).toHaveBeenCalledWith('everything');
    await expect(api.MCPReadResource('everything', 'demo://x')).rejects.toThrow('read resource demo://x of everything: not found');
    expect(MCPReadResource).toHaveBeenCalledWith('everything', 'demo://x');
  });
});

describe('toError', () => {
  it('keeps the message of every shape', () => {
    expect(toError('boom').message).toBe('boom');
    expect(toError({ error: 'bad' }).message).toBe('bad');
    expect(toError(new Error('e')).message).toBe('e');
  });
});
