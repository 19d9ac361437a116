import { describe, expect, it, vi } from 'vitest';
import { StatusStore, describeStatus } from './status.svelte';
import { dictionaries, t } from './i18n.svelte';
import type { Status } from './backend';

function st(p: Partial<Status>): Status {
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
    ...p,
  };
}

describe('describeStatus', () => {
  it('says how to start Ollama when it is unreachable', () => {
    const v = describeStatus(st({ reachable: false, host: 'http://127.0.0.1:9' }), '', t);
    expect(v.state).toBe('unreachable');
    expect(v.text).toBe(
      'Ollama is not reachable at http://127.0.0.1:9. Start it with `ollama serve` (install Ollama first if needed), or change the host in Settings.',
    );
  });

  it('says how to install a missing model', () => {
    const v = describeStatus(st({ modelAvailable: false, model: 'qwen2.5' }), '', t);
    expect(v.state).toBe('model-missing');
    expect(v.text).toBe('Model qwen2.5 is not installed. Pull it in the Models panel (or run `hermes model pull qwen2.5`), or pick another model.');
  });

  it('says when Hermes started Ollama itself', () => {
    expect(describeStatus(st({ ollamaManaged: true }), '', t).text).toContain('Ollama started by Hermes');
    expect(describeStatus(st({}), '', t).text).not.toContain('started by Hermes');
  });

  it("prefers the backend's problem and fix", () => {
    const v = describeStatus(st({ reachable: false, problem: 'Ollama refused.', fix: 'Do X.' }), '', t);
    expect(v).toEqual({ state: 'unreachable', text: 'Ollama refused. Do X.' });
    expect(describeStatus(st({ problem: 'Disk full.' }), '', t)).toEqual({ state: 'problem', text: 'Disk full.' });
  });

  it('reports a healthy state and backend failures', () => {
    expect(describeStatus(st({}), '', t).state).toBe('ok');
    expect(describeStatus(null, '', t).state).toBe('loading');
    const v = describeStatus(null, 'connection refused', t);
    expect(v.state).toBe('backend-error');
    expect(v.text).toContain('connection refused');
  });
});

describe('StatusStore', () => {
  function fakeApi() {
    return {
      Status: vi.fn(async () => st({ warnings: ['old version', 'remote host'] })),
      ListModels: vi.fn(async () => [{ name: 'llama3.2', size: 2e9, modifiedAt: '' }]),
      SetSetting: vi.fn(async () => []),
      UIReady: vi.fn(async () => {}),
    };
  }

  it('calls UIReady once, after the first Status returned', async () => {
    const api = fakeApi();
    let release!: () => void;
    api.Status.mockImplementationOnce(() => new Promise((r) => (release = () => r(st({})))));
    const s = new StatusStore({ api });
    const first = s.refresh();
    expect(api.UIReady).not.toHaveBeenCalled();
    release();
    await first;
    await s.refresh();
    await s.refresh();
    expect(api.UIReady).toHaveBeenCalledTimes(1);
    expect(api.Status).toHaveBeenCalledTimes(3);
  });

  it('calls UIReady even if the first Status failed', async () => {
    const api = fakeApi();
    api.Status.mockRejectedValueOnce('backend down');
    const s = new StatusStore({ api });
    await s.refresh();
    expect(s.error).toBe('backend down');
    expect(api.UIReady).toHaveBeenCalledTimes(1);
  });

  it('polls on an interval', async () => {
    vi.useFakeTimers();
    try {
      const api = fakeApi();
      const s = new StatusStore({ api, intervalMs: 3000 });
      s.start();
      await vi.advanceTimersByTimeAsync(9100);
      s.stop();
      expect(api.Status).toHaveBeenCalledTimes(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('dismisses warnings and loads models', async () => {
    const api = fakeApi();
    const s = new StatusStore({ api });
    await s.refresh();
    await vi.waitFor(() => expect(s.models).toHaveLength(1));
    expect(s.warnings).toEqual(['old version', 'remote host']);
    s.dismiss('old version');
    expect(s.warnings).toEqual(['remote host']);
  });

  it('saves the chat model through SetSetting', async () => {
    const api = fakeApi();
    const s = new StatusStore({ api });
    await s.setModel('qwen2.5');
    expect(api.SetSetting).toHaveBeenCalledWith('chat_model', 'qwen2.5');
  });

  it('shows the intent classifier problem until dismissed for the run', async () => {
    const api = fakeApi();
    api.Status.mockResolvedValue(
      st({ intentProblem: 'The ONNX Runtime library is missing.', intentFix: 'Run `task setup:ort`.' }),
    );
    const s = new StatusStore({ api });
    await s.refresh();
    expect(s.intentNotice).toEqual({ problem: 'The ONNX Runtime library is missing.', fix: 'Run `task setup:ort`.' });
    // Chat still works: the intent problem is not an Ollama problem.
    expect(describeStatus(s.status, '', t).state).toBe('ok');
    s.dismissIntent();
    await s.refresh();
    expect(s.intentNotice).toBeNull();
    const fine = new StatusStore({ api: { ...fakeApi() } });
    await fine.refresh();
    expect(fine.intentNotice).toBeNull();
  });

  it('says a write waits for another Hermes process while db:waiting is true', () => {
    const api = fakeApi();
    const s = new StatusStore({ api });
    const handlers = new Map<string, (d: unknown) => void>();
    const off = s.listen((name, cb) => {
      handlers.set(name, cb);
      return () => handlers.delete(name);
    });
    const ok = st({});
    expect(describeStatus(ok, '', t, s.dbWaiting).state).toBe('ok');
    handlers.get('db:waiting')?.(true);
    expect(s.dbWaiting).toBe(true);
    expect(describeStatus(ok, '', t, s.dbWaiting)).toEqual({ state: 'db-waiting', text: 'Waiting for another Hermes process…' });
    // It says so even before the first Status arrives.
    expect(describeStatus(null, '', t, true).state).toBe('db-waiting');
    handlers.get('db:waiting')?.(false);
    expect(describeStatus(ok, '', t, s.dbWaiting).state).toBe('ok');
    handlers.get('db:waiting')?.('yes');
    expect(s.dbWaiting).toBe(false);
    off();
    expect(handlers.size).toBe(0);
  });

  it('has the waiting text in Chinese too', () => {
    expect(dictionaries.zh['status.dbWaiting']).toBe('正在等待另一个 Hermes 进程…');
  });

  it('tells a tab without the token to open the printed URL', () => {
    const v = describeStatus(null, 'unauthorized: open the URL printed by `hermes serve` (it carries the token) in this tab', t);
    expect(v.state).toBe('backend-error');
    expect(v.text).toBe(dictionaries.en['status.noToken']);
  });
});
