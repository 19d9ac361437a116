import { describe, expect, it, vi } from 'vitest';
import { StatusStore, describeStatus } from './status.svelte';
import { dictionaries, format, locale, t, type MessageKey } from './i18n.svelte';
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
    code: '',
    params: null,
    dataDir: '/tmp/h',
    ollamaManaged: false,
    connection: 'ready',
    intentProblem: '',
    intentFix: '',
    intentCode: '',
    intentParams: null,
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

  const zh = (key: MessageKey, p?: Record<string, string | number>) => format(dictionaries.zh[key], p);

  it("words the backend's problem and fix by their code, in the user language", () => {
    const missing = st({
      reachable: false,
      problem: 'Ollama is not reachable at http://127.0.0.1:11434.',
      fix: 'Install Ollama: curl -fsSL https://ollama.invalid/install.sh | sh   (Or install your package.)',
      code: 'ollama_missing',
      params: { host: 'http://127.0.0.1:11434', command: 'curl -fsSL https://ollama.invalid/install.sh | sh' },
    });
    expect(describeStatus(missing, '', t)).toEqual({
      state: 'unreachable',
      text: 'Ollama is not reachable at http://127.0.0.1:11434, and no ollama program was found on this computer. Install it: curl -fsSL https://ollama.invalid/install.sh | sh',
    });
    expect(describeStatus(missing, '', zh).text).toBe('无法连接 http://127.0.0.1:11434 上的 Ollama，本机也没有找到 ollama 程序。安装命令：curl -fsSL https://ollama.invalid/install.sh | sh');
    const model = st({
      modelAvailable: false,
      model: 'qwen2.5',
      problem: 'Model qwen2.5 is not installed (installed: llama3.2).',
      fix: 'Run `hermes model pull qwen2.5`.',
      code: 'model_not_installed',
      params: { model: 'qwen2.5', installed: 'llama3.2' },
    });
    expect(describeStatus(model, '', zh)).toEqual({
      state: 'model-missing',
      text: '模型 qwen2.5 尚未安装（已安装：llama3.2）。请在模型面板中拉取它（或运行 `hermes model pull qwen2.5`），或选择一个已安装的聊天模型。',
    });
    // Without a known code the backend's English is shown as it came.
    expect(describeStatus({ ...model, code: 'flux_capacitor' }, '', zh).text).toBe(
      'Model qwen2.5 is not installed (installed: llama3.2). Run `hermes model pull qwen2.5`.',
    );
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
      Status: vi.fn(async () =>
        st({
          warnings: [
            { code: 'ollama_old', params: { version: '0.12.0', min: '0.17.1' }, text: 'Ollama 0.12.0 is old.' },
            { code: 'flux_capacitor', text: 'Remote host.' },
          ],
        }),
      ),
      ListModels: vi.fn(async () => [{ name: 'llama3.2', size: 2e9, modifiedAt: '', parameter_size: '3.2B' }]),
      SetSetting: vi.fn(async () => []),
      UIReady: vi.fn(async () => {}),
    };
  }

  it('takes the status asked for before the page was drawn, then asks again', async () => {
    const api = fakeApi();
    const early = st({ version: '0.17.4' });
    const s = new StatusStore({ api, first: () => Promise.resolve(early) });
    await s.refresh();
    expect(api.Status).not.toHaveBeenCalled();
    expect(s.status?.version).toBe(early.version);
    expect(api.UIReady).toHaveBeenCalledTimes(1);
    await s.refresh();
    expect(api.Status).toHaveBeenCalledTimes(1);
    expect(s.status?.version).toBe('0.12.0');
  });

  it('reports a failed early status as any failed one', async () => {
    const api = fakeApi();
    const s = new StatusStore({ api, first: () => Promise.reject(new Error('backend gone')) });
    await s.refresh();
    expect(s.error).toContain('backend gone');
    expect(api.UIReady).toHaveBeenCalledTimes(1);
  });

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
    expect(s.warnings).toEqual([
      {
        key: 'Ollama 0.12.0 is old.',
        text: 'Ollama 0.12.0 is older than 0.17.1 and has a known memory-disclosure flaw; update Ollama.',
      },
      { key: 'Remote host.', text: 'Remote host.' }, // a code not known here: the English
    ]);
    s.dismiss('Ollama 0.12.0 is old.');
    expect(s.warnings.map((w) => w.key)).toEqual(['Remote host.']);
    // In Chinese the warning is worded in Chinese, and a dismissal made in English still holds.
    s.dismissed = [];
    locale.lang = 'zh';
    try {
      expect(s.warnings[0].text).toBe('Ollama 0.12.0 低于 0.17.1，存在已知的内存信息泄露漏洞；请更新 Ollama。');
      s.dismiss(s.warnings[0].key);
      expect(s.warnings.map((w) => w.key)).toEqual(['Remote host.']);
    } finally {
      locale.lang = 'en';
    }
  });

  it('words the intent problem by its code in the user language', async () => {
    const api = fakeApi();
    api.Status.mockResolvedValue(
      st({
        intentProblem: 'The ONNX Runtime library is missing, so messages are not classified (intent: unknown): no such file.',
        intentFix: 'Install it.',
        intentCode: 'intent_no_library',
        intentParams: { detail: 'load onnxruntime library /x/libonnxruntime.so.1: no such file' },
      }),
    );
    const s = new StatusStore({ api });
    await s.refresh();
    locale.lang = 'zh';
    try {
      expect(s.intentNotice?.problem).toBe('缺少 ONNX Runtime 库，消息无法分类（意图：unknown）：load onnxruntime library /x/libonnxruntime.so.1: no such file。');
      expect(s.intentNotice?.fix).toContain('go tool task setup:ort');
      expect(s.intentNotice?.fix).toContain('请用');
    } finally {
      locale.lang = 'en';
    }
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
