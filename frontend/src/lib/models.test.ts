import { describe, expect, it, vi } from 'vitest';
import { flushSync } from 'svelte';
import { dictionaries, format, locale, t } from './i18n.svelte';
import { BackendError } from './backend';
import {
  CAPABILITIES,
  ModelsStore,
  SETUP_STEPS,
  blockReason,
  canChat,
  canEmbed,
  failureReason,
  recommendationWhy,
  capabilityChips,
  capabilityKey,
  chatModels,
  formatBytes,
  formatContext,
  formatEta,
  formatPercent,
  formatRate,
  nameProblem,
  progressLine,
  progressPercent,
  setupStep,
  splitInstallHint,
  statusText,
  suggestName,
} from './models.svelte';
import { detail, embedder, fakeApi, fakeBus, progress, setupState } from './models.fixture';

function store(api = fakeApi(), onchange = vi.fn()) {
  const bus = fakeBus();
  let n = 0;
  const s = new ModelsStore({ api, on: bus.on, onchange, uuid: () => `req-${++n}` });
  return { s, api, bus, onchange };
}

describe('progress formatting', () => {
  it('formats bytes in decimal units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1000)).toBe('1.0 KB');
    expect(formatBytes(12_345_678)).toBe('12.3 MB');
    expect(formatBytes(274_302_450)).toBe('274 MB');
    expect(formatBytes(999_999_999)).toBe('1.0 GB');
    expect(formatBytes(2_019_393_189)).toBe('2.0 GB');
    expect(formatBytes(40_000_000_000)).toBe('40.0 GB');
    expect(formatBytes(-1)).toBe('');
    expect(formatBytes(NaN)).toBe('');
  });

  it('formats the rate, and nothing while it is unknown', () => {
    expect(formatRate(12_500_000)).toBe('12.5 MB/s');
    expect(formatRate(0)).toBe('');
    expect(formatRate(-5)).toBe('');
  });

  it('computes the percent from the bytes, else from the percent field', () => {
    expect(progressPercent(progress())).toBe(25);
    expect(progressPercent(progress({ total: 0, completed: 0, percent: 40 }))).toBe(40);
    expect(progressPercent(progress({ total: 0, completed: 0, percent: 0 }))).toBeNull();
    expect(progressPercent(progress({ completed: 3e9 }))).toBe(100);
    expect(progressPercent(null)).toBeNull();
  });

  it('formats the percent: one decimal below 10 %, never 100 % before the end', () => {
    expect(formatPercent(null)).toBe('');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(2.56)).toBe('2.5%');
    expect(formatPercent(42.9)).toBe('42%');
    expect(formatPercent(99.99)).toBe('99%');
    expect(formatPercent(100)).toBe('100%');
  });

  it('formats the time left in both languages', () => {
    expect(formatEta(0, t)).toBe('');
    expect(formatEta(Infinity, t)).toBe('');
    expect(formatEta(44.2, t)).toBe('45 s');
    expect(formatEta(200, t)).toBe('3 min 20 s');
    expect(formatEta(3900, t)).toBe('1 h 5 min');
    const zh = (k: keyof typeof dictionaries.zh, p?: Record<string, string | number>) =>
      dictionaries.zh[k].replace(/\{(\w+)\}/g, (_, x) => String(p?.[x] ?? ''));
    expect(formatEta(200, zh)).toBe('3 分 20 秒');
  });

  it('puts bytes, percent, rate and time left on one line', () => {
    expect(progressLine(progress(), t)).toBe('500 MB of 2.0 GB · 25% · 12.5 MB/s · 2 min 0 s left');
    expect(progressLine(progress({ total: 0, completed: 1_500_000, percent: 0, rate_bps: 0, eta_seconds: 0 }), t)).toBe('1.5 MB');
    expect(progressLine(progress({ status: 'pulling manifest', total: 0, completed: 0, percent: 0, rate_bps: 0, eta_seconds: 0 }), t)).toBe('');
    expect(progressLine(null, t)).toBe('');
  });

  it('names the stages of a pull and an import, and keeps an unknown one as it is', () => {
    expect(statusText('pulling manifest', t)).toBe('Reading the manifest');
    expect(statusText('pulling 6a0746a1ec1a', t)).toBe('Downloading');
    expect(statusText('verifying sha256 digest', t)).toBe('Verifying');
    expect(statusText('writing manifest', t)).toBe('Writing the manifest');
    expect(statusText('success', t)).toBe('Done');
    expect(statusText('checking', t)).toBe('Checking the file');
    expect(statusText('hashing', t)).toBe('Computing the checksum');
    expect(statusText('uploading', t)).toBe('Copying into Ollama');
    expect(statusText('copying', t)).toBe('Copying into Ollama');
    expect(statusText('creating', t)).toBe('Creating the model');
    expect(statusText('', t)).toBe('Starting…');
    expect(statusText('frobnicating', t)).toBe('frobnicating');
  });

  it('formats the context window', () => {
    expect(formatContext(131072)).toBe('128K');
    expect(formatContext(8192)).toBe('8K');
    expect(formatContext(2048)).toBe('2K');
    expect(formatContext(1536)).toBe('1.5K');
    expect(formatContext(512)).toBe('512');
    expect(formatContext(0)).toBe('');
  });
});

describe('what a model may be used for', () => {
  it('tells chat models from embedding models', () => {
    expect(canChat(detail())).toBe(true);
    expect(canEmbed(detail())).toBe(false);
    expect(canChat(embedder())).toBe(false);
    expect(canEmbed(embedder())).toBe(true);
    expect(canChat(detail({ capabilities: ['completion'] }))).toBe(true);
    expect(canChat(detail({ capabilities: null }))).toBe(false);
    expect(chatModels([detail(), embedder()]).map((m) => m.name)).toEqual(['llama3.2:latest']);
    expect(chatModels(null)).toEqual([]);
  });

  it('orders the capability chips and names each known one in both languages', () => {
    expect(capabilityChips(detail({ capabilities: ['vision', 'completion', 'tools', 'insert'] }))).toEqual(['chat', 'tools', 'vision', 'insert']);
    for (const c of CAPABILITIES) {
      const k = capabilityKey(c)!;
      for (const d of Object.values(dictionaries)) expect(d[k], c).toBeTruthy();
    }
    expect(capabilityKey('insert')).toBeNull();
  });

  it('checks names and suggests one from a GGUF file', () => {
    expect(nameProblem('')).toBe('models.nameRequired');
    expect(nameProblem('my model')).toBe('models.nameSpaces');
    expect(nameProblem(' qwen2.5:3b ')).toBeNull();
    expect(suggestName('/media/usb/Qwen2.5-3B-Instruct-Q4_K_M.gguf')).toBe('qwen2.5-3b-instruct-q4_k_m');
    expect(suggestName('C:\\Models\\My Model (v2).GGUF')).toBe('my-model-v2');
  });
});

describe('setup', () => {
  it('says why Send is off for every step, in both languages', () => {
    expect(blockReason(null, t)).toBe('');
    expect(blockReason(setupState(), t)).toBe('');
    for (const step of SETUP_STEPS) {
      const r = blockReason(setupState({ step, chat_ready: false }), t);
      expect(r, step).toMatch(/^Send is off/);
    }
    expect(blockReason(setupState({ step: '', chat_ready: false, problem: 'the model cannot chat' }), t)).toBe(
      'Send is off: the model cannot chat',
    );
    for (const d of Object.values(dictionaries)) {
      for (const step of SETUP_STEPS) expect(d[`composer.blocked.${step}`]).toBeTruthy();
    }
  });

  it('splits the install hint into the command to copy and a note', () => {
    expect(
      splitInstallHint(
        "curl -fsSL https://ollama.invalid/install.sh | sh   (or your distribution's ollama package; offline: copy the ollama binary to /usr/local/bin)",
      ),
    ).toEqual({
      command: 'curl -fsSL https://ollama.invalid/install.sh | sh',
      note: "or your distribution's ollama package; offline: copy the ollama binary to /usr/local/bin",
    });
    expect(splitInstallHint('winget install Ollama.Ollama')).toEqual({ command: 'winget install Ollama.Ollama', note: '' });
    expect(splitInstallHint('echo (a) b')).toEqual({ command: 'echo (a) b', note: '' });
  });

  it('knows the step to show', () => {
    expect(setupStep(null)).toBe('');
    expect(setupStep(setupState())).toBe('');
    expect(setupStep(setupState({ step: 'pull', chat_ready: false }))).toBe('pull');
    expect(setupStep(setupState({ step: '', chat_ready: false }))).toBe('problem');
  });

  it('loads the setup, follows setup:changed and ignores a payload that is not one', async () => {
    const { s, bus, onchange } = store();
    await s.check();
    expect(s.setup?.step).toBe('');
    expect(s.models.map((m) => m.name)).toEqual(['llama3.2:latest', 'nomic-embed-text:latest']);
    const off = s.listen();
    bus.emit('setup:changed', setupState({ ollama: 'stopped', connection: 'stopped', step: 'start', can_start: true, chat_ready: false, models: [] }));
    expect(s.setup?.step).toBe('start');
    expect(s.models).toEqual([]);
    expect(onchange).toHaveBeenCalledTimes(1);
    bus.emit('setup:changed', { nonsense: true });
    expect(s.setup?.step).toBe('start');
    off();
    expect(bus.listeners('setup:changed')).toBe(0);
  });

  it('keeps nothing blocked when the backend has no Setup (an older one)', async () => {
    const { s } = store(fakeApi({ Setup: vi.fn(async () => Promise.reject(new Error('backend method Setup is not available'))) }));
    await s.check();
    expect(s.setup).toBeNull();
    expect(s.setupError).toContain('not available');
    expect(blockReason(s.setup, t)).toBe('');
  });

  it('starts Ollama and shows why it could not', async () => {
    const { s, api } = store();
    await s.startOllama();
    expect(api.StartOllama).toHaveBeenCalledTimes(1);
    expect(s.setup?.ollama).toBe('running');
    api.StartOllama.mockRejectedValueOnce(new Error('ollama serve exited: address in use'));
    await s.startOllama();
    expect(s.startError).toBe('ollama serve exited: address in use');
    expect(s.starting).toBe(false);
  });
});

describe('jobs', () => {
  it('pulls with progress events, then refreshes the list and the picker', async () => {
    const { s, api, bus, onchange } = store();
    const done = s.pull(' llama3.2:3b ');
    expect(api.PullModel).toHaveBeenCalledWith('req-1', 'llama3.2:3b');
    expect(s.running.map((j) => j.name)).toEqual(['llama3.2:3b']);
    bus.emit('model:progress:req-1', progress());
    flushSync();
    expect(s.jobs[0].progress?.completed).toBe(500_000_000);
    bus.emit('model:progress:req-2', progress({ completed: 1 }));
    bus.emit('model:progress:req-1', 'garbage');
    expect(s.jobs[0].progress?.completed).toBe(500_000_000);
    api.pending.get('req-1')!.resolve(detail({ name: 'llama3.2:3b' }));
    const j = await done;
    expect(j.state).toBe('done');
    expect(j.result?.name).toBe('llama3.2:3b');
    expect(s.jobs[0].progress?.completed).toBe(2_000_000_000);
    expect(bus.listeners('model:progress:req-1')).toBe(0);
    expect(api.ListModelDetails).toHaveBeenCalled();
    expect(onchange).toHaveBeenCalled();
  });

  it('runs several jobs at once and cancels one of them', async () => {
    const { s, api, bus } = store();
    const a = s.pull('a');
    const b = s.importFile('/x/b.gguf', 'b', 'PARAMETER temperature 0.2');
    expect(api.ImportModel).toHaveBeenCalledWith('req-2', '/x/b.gguf', 'b', 'PARAMETER temperature 0.2');
    bus.emit('model:progress:req-2', progress({ status: 'hashing' }));
    expect(s.running.length).toBe(2);
    await s.cancel('req-1');
    expect(api.CancelModelJob).toHaveBeenCalledWith('req-1');
    const ja = await a;
    expect(ja.state).toBe('cancelled');
    expect(ja.error).toBe('');
    expect(s.running.map((j) => j.id)).toEqual(['req-2']);
    api.pending.get('req-2')!.resolve(detail({ name: 'b' }));
    expect((await b).state).toBe('done');
  });

  it('a second pull of the same model joins the first', async () => {
    const { s, api } = store();
    const a = s.pull('same');
    const b = s.pull('same');
    expect(api.PullModel).toHaveBeenCalledTimes(1);
    api.pending.get('req-1')!.resolve(detail({ name: 'same' }));
    expect((await a).state).toBe('done');
    expect((await b).state).toBe('done');
  });

  it('keeps the error of a failed job and lets it be dismissed', async () => {
    const { s, api } = store();
    const p = s.pull('nope');
    api.pending.get('req-1')!.reject('pull nope: model "nope" not found; check the name');
    const j = await p;
    expect(j.state).toBe('failed');
    expect(j.error).toBe('pull nope: model "nope" not found; check the name');
    s.dismiss('req-1');
    expect(s.jobs).toEqual([]);
  });

  it('says when cancel itself failed and the job goes on', async () => {
    const { s, api } = store(fakeApi({ CancelModelJob: vi.fn(async () => Promise.reject(new Error('no such job'))) }));
    void s.pull('x');
    await s.cancel('req-1');
    expect(s.jobs[0].state).toBe('running');
    expect(s.jobs[0].cancelling).toBe(false);
    expect(s.jobs[0].error).toBe('no such job');
    api.pending.get('req-1')!.resolve(detail({ name: 'x' }));
  });
});

describe('actions', () => {
  it('uses a model for chat or embeddings, sending the flag', async () => {
    const { s, api } = store();
    expect(await s.use('llama3.2:latest', false)).toBe(true);
    expect(api.UseModel).toHaveBeenLastCalledWith('llama3.2:latest', false);
    expect(await s.use('nomic-embed-text:latest', true)).toBe(true);
    expect(api.UseModel).toHaveBeenLastCalledWith('nomic-embed-text:latest', true);
  });

  it('shows the backend’s refusal', async () => {
    const { s } = store(
      fakeApi({ UseModel: vi.fn(async () => Promise.reject(new Error('nomic-embed-text is an embedding model; it cannot chat'))) }),
    );
    expect(await s.use('nomic-embed-text:latest', false)).toBe(false);
    expect(s.actionError).toBe('nomic-embed-text is an embedding model; it cannot chat');
    expect(s.busy).toBe('');
  });

  it('deletes, copies, and renames (copy, move the role, delete the original)', async () => {
    const { s, api } = store();
    await s.refresh();
    expect(await s.remove('old')).toBe(true);
    expect(api.DeleteModel).toHaveBeenCalledWith('old');
    expect(await s.copy('llama3.2:latest', ' mine ')).toBe(true);
    expect(api.CopyModel).toHaveBeenCalledWith('llama3.2:latest', 'mine');
    expect(api.DeleteModel).toHaveBeenCalledTimes(1);
    expect(await s.copy('llama3.2:latest', 'renamed', true)).toBe(true);
    expect(api.UseModel).toHaveBeenCalledWith('renamed', false);
    expect(api.DeleteModel).toHaveBeenLastCalledWith('llama3.2:latest');
  });

  it('falls back to a typed path when there is no file dialog', async () => {
    const { s } = store(fakeApi({ PickModelFile: vi.fn(async () => Promise.reject(new Error('no file dialog in web mode'))) }));
    expect(s.noPicker).toBe(false);
    expect(await s.pickFile()).toBe('');
    expect(s.noPicker).toBe(true);
    const web = new ModelsStore({ api: fakeApi(), on: fakeBus().on, fileDialog: false });
    expect(web.noPicker).toBe(true);
  });
});

describe('failureReason', () => {
  it("says an operation's failure once, and a coded one in the user language", () => {
    locale.lang = 'zh';
    try {
      const op = new BackendError('pull model qwen9: pull model manifest: file does not exist', 'failed', {
        detail: 'pull model qwen9: pull model manifest: file does not exist',
      });
      expect(failureReason(op)).toBe('pull model qwen9: pull model manifest: file does not exist');
      expect(format(dictionaries.zh['models.job.failed'], { name: 'qwen9', error: failureReason(op) })).not.toMatch(/失败.*失败/);
      const unknown = new BackendError("Ollama's model library has no model named qwen9", 'pull_unknown', { model: 'qwen9', models: 'qwen3' });
      expect(failureReason(unknown)).toBe('Ollama 的模型库里没有名为 qwen9 的模型。本机已安装、名称相近的有：qwen3。');
      const offline = new BackendError('Ollama cannot reach its model library', 'pull_offline', { model: 'qwen9' });
      expect(failureReason(offline)).toMatch(/^Ollama 在这台电脑上连不到它的模型库/);
      const missing = new BackendError('Model qwen9 is not installed.', 'model_missing', { model: 'qwen9' });
      expect(failureReason(missing)).toMatch(/^模型 qwen9 尚未安装/);
      expect(failureReason(new BackendError('x.txt: not a GGUF model file', 'not_gguf', { file: 'x.txt' }))).toMatch(/^x\.txt 不是 GGUF 模型文件/);
      const v9 = failureReason(new BackendError('future.gguf: GGUF version 9', 'gguf_version', { file: 'future.gguf', version: '9' }));
      expect(v9).toMatch(/^future\.gguf 是第 9 版 GGUF 文件/);
      expect(v9).not.toMatch(/[A-Za-z]{3,}(?<!Hermes|GGUF|gguf|future)\b/);
    } finally {
      locale.lang = 'en';
    }
  });
});

describe('recommendationWhy', () => {
  it("words a known model's reason in the user language, and keeps the backend's for another", () => {
    const zh = (key: Parameters<typeof t>[0]) => format(dictionaries.zh[key]);
    const r = { name: 'qwen2.5:7b', title: 'Qwen 2.5 7B', size_gb: 4.7, params: '7.6B', why: 'better answers, strong Chinese; tools; for 16 GB or more' };
    expect(recommendationWhy(r, zh)).toBe('回答更好，中文强；支持工具；适合 16 GB 及以上');
    expect(recommendationWhy(r, t)).toBe(r.why);
    expect(recommendationWhy({ ...r, name: 'phi9', why: 'new and shiny' }, zh)).toBe('new and shiny');
  });
});
