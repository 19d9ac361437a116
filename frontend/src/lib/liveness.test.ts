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
  tr.liveness!((up) => seen.push(up));
  return { s, seen };
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
    dataDir: '/tmp/h',
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
