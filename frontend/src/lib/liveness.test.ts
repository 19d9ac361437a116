import { describe, expect, it, vi } from 'vitest';
import { webTransport } from './backend';
import { StatusStore, describeStatus } from './status.svelte';
import { t } from './i18n.svelte';
import type { Status } from './backend';

/** The server side of the event stream: each fetch of /api/events waits for open() or fail(). */
class Stream {
  calls = 0;
  #ctrl: ReadableStreamDefaultController<Uint8Array> | null = null;
  #answer: ((r: Response) => void) | null = null;
  #reject: ((e: unknown) => void) | null = null;
  fetch = (): Promise<Response> => {
    this.calls++;
    return new Promise((resolve, reject) => ((this.#answer = resolve), (this.#reject = reject)));
  };
  open() {
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (this.#ctrl = c) });
    this.#answer?.(new Response(body, { status: 200 }));
    this.ping();
  }
  fail() {
    this.#reject?.(new TypeError('Failed to fetch'));
  }
  ping() {
    this.#ctrl?.enqueue(new TextEncoder().encode(': ping\n\n'));
  }
  die() {
    this.#ctrl?.error(new TypeError('network error'));
  }
  /** A server that answers but refuses the token (a new `hermes serve` run). */
  refuse(status = 401) {
    this.#answer?.(new Response(JSON.stringify({ code: 'unauthorized', error: 'unauthorized' }), { status }));
  }
}

const tick = () => new Promise((r) => setImmediate(r));
async function settle(ms = 0) {
  await vi.advanceTimersByTimeAsync(ms);
  for (let i = 0; i < 5; i++) await tick();
}

function transport(staleMs = 45_000) {
  const s = new Stream();
  const tr = webTransport({
    token: 't',
    retryMs: 1000,
    staleMs,
    fetch: ((url: string) => (String(url).endsWith('/api/events') ? s.fetch() : Promise.reject(new Error('no calls')))) as unknown as typeof fetch,
  });
  const seen: boolean[] = [];
  const why: Array<string | undefined> = [];
  tr.liveness!((up, refused) => (seen.push(up), why.push(refused)));
  return { s, seen, why };
}

describe('web transport liveness', () => {
  it('is up while the stream is open, down when it breaks, up again after it reconnects', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { s, seen } = transport();
      s.open();
      await settle();
      expect(seen).toEqual([true]);
      s.die(); // hermes serve was killed
      await settle();
      expect(seen).toEqual([true, false]);
      await settle(1000); // the retry after 1 s
      s.fail(); // still gone
      await settle(2000);
      expect(s.calls).toBe(3);
      s.open(); // back
      await settle();
      expect(seen).toEqual([true, false, true]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops retrying and says the server was restarted when a reconnection is refused for the token', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { s, seen, why } = transport();
      s.open();
      await settle();
      s.die(); // hermes serve stopped
      await settle(1000);
      s.refuse(401); // and started again, with a new token
      await settle();
      expect(seen).toEqual([true, false, false]);
      expect(why).toEqual([undefined, undefined, 'restarted']);
      await settle(60_000);
      expect(s.calls).toBe(2); // no pointless retries
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells a tab that never had access apart from a restart, and stops', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { s, seen, why } = transport();
      s.refuse(401);
      await settle(30_000);
      expect(seen).toEqual([false]);
      expect(why).toEqual(['token']);
      expect(s.calls).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps trying after a 403 (the page's Host or Origin, not its token) and does not call it a restart", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { s, why } = transport();
      s.refuse(403);
      await settle(30_000);
      expect(why.every((w) => w === undefined)).toBe(true);
      expect(s.calls).toBeGreaterThan(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is down when no heartbeat arrived for staleMs, and the stream is opened again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { s, seen } = transport(45_000);
      s.open();
      await settle();
      await settle(20_000);
      s.ping();
      await settle(40_000); // 40 s after the last ping: still alive
      expect(seen).toEqual([true]);
      await settle(6_000); // 46 s of silence (a paused or hung server)
      expect(seen).toEqual([true, false]);
      await settle(1000);
      expect(s.calls).toBe(2); // reconnecting
      s.open();
      await settle();
      expect(seen).toEqual([true, false, true]);
    } finally {
      vi.useRealTimers();
    }
  });
});

function okStatus(): Status {
  return {
    host: 'http://127.0.0.1:11434',
    reachable: true,
    version: '0.12.0',
    model: 'llama3.2',
    modelAvailable: true,
    models: ['llama3.2'],
    warnings: [],
    problem: '',
    fix: '',
    code: '',
    params: null,
    dataDir: '/tmp/h',
    ollamaManaged: false,
    connection: 'ready',
    intentProblem: '',
    intentFix: '',
    intentCode: '',
    intentParams: null,
  };
}

describe('StatusStore liveness', () => {
  it('says Disconnected while the backend is gone and recovers by itself, reloading the lists', async () => {
    const api = {
      Status: vi.fn(async () => okStatus()),
      ListModels: vi.fn(async () => []),
      SetSetting: vi.fn(async () => []),
      UIReady: vi.fn(async () => {}),
    };
    const onReconnect = vi.fn();
    const s = new StatusStore({ api, onReconnect });
    let report!: (up: boolean) => void;
    const off = s.follow((cb) => ((report = cb), () => {}));
    await s.refresh();
    const view = () => describeStatus(s.status, s.error, t, s.dbWaiting, s.disconnected, s.errorCode);
    expect(view().state).toBe('ok');

    report(true); // the first connection is not a reconnection
    expect(onReconnect).not.toHaveBeenCalled();

    report(false);
    expect(view()).toEqual({ state: 'disconnected', text: 'Disconnected — reconnecting…' });
    // Even with a status from before and a db:waiting notice, the bar says the backend is gone.
    s.dbWaiting = true;
    expect(view().state).toBe('disconnected');
    s.dbWaiting = false;
    report(false);
    expect(onReconnect).not.toHaveBeenCalled();

    const calls = api.Status.mock.calls.length;
    report(true);
    expect(s.disconnected).toBe(false);
    expect(onReconnect).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(api.Status.mock.calls.length).toBe(calls + 1));
    expect(view().state).toBe('ok');
    off();
  });

  it('says Hermes was restarted, for good, when the new server refuses the page', async () => {
    const api = {
      Status: vi.fn(async () => okStatus()),
      ListModels: vi.fn(async () => []),
      SetSetting: vi.fn(async () => []),
      UIReady: vi.fn(async () => {}),
    };
    const s = new StatusStore({ api });
    let report!: (up: boolean, refused?: 'restarted' | 'token') => void;
    s.follow((cb) => ((report = cb), () => {}));
    await s.refresh();
    report(true);
    report(false);
    report(false, 'restarted');
    expect(s.restarted).toBe(true);
    expect(s.disconnected).toBe(false);
    const view = describeStatus(s.status, s.error, t, s.dbWaiting, s.disconnected, 'unauthorized', s.away);
    expect(view.state).toBe('restarted');
    expect(view.text).toContain('hermes serve');
    expect(view.text).not.toContain('reconnecting');
    const zh = (k: string) => (k === 'status.restarted' ? 'Hermes 已重新启动' : k);
    expect(describeStatus(okStatus(), '', zh as typeof t, false, true, '', 'restarted').text).toBe('Hermes 已重新启动');
    // A tab that never had the token keeps saying how to get in.
    const t2 = new StatusStore({ api });
    t2.follow((cb) => ((report = cb), () => {}));
    report(false, 'token');
    expect(t2.restarted).toBe(false);
    expect(describeStatus(null, 'unauthorized: x', t, false, t2.disconnected, 'unauthorized', t2.away).text).toBe(t('status.noToken'));
  });

  it('adds how to reach a restarted server once disconnected for long, and drops it when back', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const api = {
        Status: vi.fn(async () => okStatus()),
        ListModels: vi.fn(async () => []),
        SetSetting: vi.fn(async () => []),
        UIReady: vi.fn(async () => {}),
      };
      const s = new StatusStore({ api, goneMs: 30_000 });
      let report!: (up: boolean) => void;
      s.follow((cb) => ((report = cb), () => {}));
      await s.refresh();
      const view = () => describeStatus(s.status, s.error, t, s.dbWaiting, s.disconnected, s.errorCode, s.away);
      report(true);
      report(false);
      await vi.advanceTimersByTimeAsync(20_000);
      report(false); // more failed attempts do not restart the clock
      await vi.advanceTimersByTimeAsync(11_000);
      expect(view()).toEqual({ state: 'disconnected', text: t('status.disconnectedLong') });
      expect(view().text).toContain('--addr');
      report(true);
      expect(s.away).toBe('');
      report(false);
      expect(view().text).toBe(t('status.disconnected'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('says it in Chinese', () => {
    const zh = (k: string) => (k === 'status.disconnected' ? '已断开 — 正在重新连接…' : k);
    expect(describeStatus(okStatus(), '', zh as typeof t, false, true).text).toBe('已断开 — 正在重新连接…');
  });

  it('tells a missing token by its code whatever the language', () => {
    expect(describeStatus(null, '此标签页无权访问', t, false, false, 'unauthorized').text).toBe(t('status.noToken'));
    // A tab without the token: its event stream is refused too, but the bar says how to get in.
    expect(describeStatus(null, '此标签页无权访问', t, false, true, 'unauthorized').text).toBe(t('status.noToken'));
  });
});
