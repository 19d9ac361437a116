import { describe, expect, it, vi } from 'vitest';
import { createApi, readToken, toError, wailsTransport, webTransport } from './backend';

class FakeEventSource {
  static last: FakeEventSource | null = null;
  url: string;
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  constructor(url: string) {
    this.url = url;
    FakeEventSource.last = this;
  }
  open() {
    this.onopen?.(new Event('open'));
  }
  emit(data: string) {
    this.onmessage?.(new MessageEvent('message', { data }));
  }
  close() {}
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function setup(respond: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const fetchMock = vi.fn(async (url: string | URL | Request, init?: RequestInit) => respond(String(url), init ?? {}));
  const t = webTransport({
    token: 'tok en/1',
    fetch: fetchMock as unknown as typeof fetch,
    EventSource: FakeEventSource as unknown as typeof EventSource,
    eventsReadyTimeoutMs: 50,
  });
  return { api: createApi(t), t, fetchMock, es: FakeEventSource.last! };
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

  it('opens the event stream with the token and dispatches by name', async () => {
    const { t, es } = setup(() => jsonResponse(200, null));
    expect(es.url).toBe('/api/events?token=tok%20en%2F1');
    const got: unknown[] = [];
    const other: unknown[] = [];
    const off = t.on('chat:delta:r1', (d) => got.push(d));
    t.on('chat:delta:r2', (d) => other.push(d));
    es.emit(JSON.stringify({ name: 'chat:delta:r1', data: { text: 'He' } }));
    es.emit('not json');
    es.emit(JSON.stringify({ name: 'chat:delta:r1', data: { text: 'llo' } }));
    off();
    es.emit(JSON.stringify({ name: 'chat:delta:r1', data: { text: '!' } }));
    expect(got).toEqual([{ text: 'He' }, { text: 'llo' }]);
    expect(other).toEqual([]);
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

  it('sends the tool methods their arguments as strings', async () => {
    const { api, fetchMock, es } = setup(() => jsonResponse(200, null));
    es.open();
    await api.ResolveApproval('ap1', true, 'session');
    await api.ResolveApproval('ap2', false, 'once');
    await api.SetToolEnabled('shout', false);
    await api.ResetBreaker('shout');
    expect(await api.ToolActivity('shout', 'ok', '', '200')).toEqual([]);
    expect(await api.ListTools()).toEqual([]);
    const calls = fetchMock.mock.calls.map((c) => {
      const [url, init] = c as [string, RequestInit];
      return [url.replace('/api/call/', ''), JSON.parse(String(init.body))];
    });
    expect(calls).toEqual([
      ['ResolveApproval', ['ap1', 'true', 'session']],
      ['ResolveApproval', ['ap2', 'false', 'once']],
      ['SetToolEnabled', ['shout', 'false']],
      ['ResetBreaker', ['shout']],
      ['ToolActivity', ['shout', 'ok', '', '200']],
      ['ListTools', []],
    ]);
  });

  it('reads the token from the query string', () => {
    expect(readToken('?token=abc123&x=1')).toBe('abc123');
    expect(readToken('')).toBe('');
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
      go: { app: { App: { SetSetting, ListSessions } } },
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
});

describe('session methods', () => {
  it('pass every argument as a string, as the web mode requires', async () => {
    const calls: Array<[string, unknown[]]> = [];
    const api = createApi({
      call: async (m, a) => {
        calls.push([m, a]);
        return m === 'SearchSessions' ? null : m === 'ExportSession' ? '# md' : {};
      },
      on: () => () => {},
      openExternal: () => {},
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
      ['PinSession', ['s1', 'true']],
      ['PinSession', ['s1', 'false']],
      ['ArchiveSession', ['s1']],
      ['DeleteSession', ['s1']],
      ['ExportSession', ['s1', 'md']],
      ['PinMessage', ['m1', 'true']],
      ['LastContext', ['s1']],
    ]);
    for (const [, args] of calls) for (const a of args) expect(typeof a).toBe('string');
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
    const api = createApi(wailsTransport({ go: { app: { App: { MCPResources, MCPReadResource } } } }));
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
