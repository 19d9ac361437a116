import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_CODES, errorText } from './errors';
import { BackendError, createApi, errorCode, errorMessage, toError, wailsTransport, webTransport } from './backend';
import { dictionaries, locale } from './i18n.svelte';
import { boundServices } from './wailsfake';

afterEach(() => {
  locale.lang = 'en';
});

describe('errorText', () => {
  const cases: Array<{ code: string; params: Record<string, string>; message: string; en: string; zh: string }> = [
    {
      code: 'ollama_unreachable',
      params: { host: 'http://127.0.0.1:9' },
      message: 'Ollama is not reachable at http://127.0.0.1:9. …',
      en: 'Ollama is not reachable at http://127.0.0.1:9. Start it with `ollama serve` (install Ollama first if needed), or change the host in Settings.',
      zh: '无法连接 http://127.0.0.1:9 上的 Ollama。请用 `ollama serve` 启动它（如未安装请先安装 Ollama），或在设置中更改主机地址。',
    },
    {
      code: 'offline_refused',
      params: { host: '10.0.0.5', part: 'ollama' },
      message: 'connection to 10.0.0.5:11434 refused: offline_only is on …',
      en: 'Hermes did not connect to 10.0.0.5: Offline only is on, so Hermes connects only to this computer. Turn it off in Settings → Privacy → Offline only, or run `hermes settings set offline_only false`.',
      zh: 'Hermes 没有连接 10.0.0.5：“仅离线”已开启，Hermes 只连接本机。可在“设置 → 隐私 → 仅离线”中关闭，或运行 `hermes settings set offline_only false`。',
    },
    {
      code: 'model_missing',
      params: { model: 'qwen2.5' },
      message: 'Model qwen2.5 is not installed. …',
      en: 'Model qwen2.5 is not installed. Run `hermes model pull qwen2.5` (or pull it in the Models panel), or pick another model.',
      zh: '模型 qwen2.5 尚未安装。请运行 `hermes model pull qwen2.5`（或在模型面板中拉取），或选择其他模型。',
    },
    {
      code: 'ollama_timeout',
      params: { setting: 'first_token_timeout', limit: '2m0s' },
      message: 'Ollama sent nothing within 2m0s …',
      en: 'Ollama sent nothing within 2m0s (a large model can take longer to load). Try again; if it keeps happening, raise first_token_timeout in Settings.',
      zh: 'Ollama 在 2m0s 内没有任何回应（大型模型加载可能需要更久）。请重试；如果反复出现，请在设置中调大 first_token_timeout。',
    },
    {
      code: 'ollama_timeout',
      params: { setting: 'token_gap_timeout', limit: '30s' },
      message: 'Ollama stopped in the middle …',
      en: 'Ollama stopped in the middle of the reply (no new text for 30s). Try again; if it keeps happening, raise token_gap_timeout in Settings.',
      zh: 'Ollama 在回复中途停止了（30s 内没有新文字）。请重试；如果反复出现，请在设置中调大 token_gap_timeout。',
    },
    {
      code: 'bad_setting',
      params: { key: 'memory_half_lives', reason: 'not_half_life', value: '3 months', category: 'health' },
      message: 'invalid setting: "3 months" is not a half-life …',
      en: 'memory_half_lives: “3 months” is not a half-life; write it like 30d, 2w or 36h.',
      zh: 'memory_half_lives：“3 months”不是半衰期；请写成 30d、2w 或 36h 这样的形式。',
    },
    {
      code: 'bad_setting',
      params: { key: 'memory_verifiers', reason: 'too_many', count: '51', max: '50' },
      message: '51 verifiers; at most 50',
      en: 'memory_verifiers: 51 verifiers; at most 50.',
      zh: 'memory_verifiers：验证工具有 51 个，最多 50 个。',
    },
    {
      code: 'disk_full',
      params: {},
      message: "Ollama's disk is full. …",
      en: "Ollama's disk is full. Free some space (remove models you no longer need in the Models panel) and try again.",
      zh: 'Ollama 所在的磁盘已满。请腾出空间（可在模型面板中删除不再需要的模型）后重试。',
    },
    {
      code: 'ollama_start_timeout',
      params: { binary: '/usr/local/bin/ollama', wait: '20s', log: '/home/a/.local/share/hermes/ollama.log' },
      message: 'start ollama: … did not answer within 20s …',
      en: '/usr/local/bin/ollama serve started but did not answer within 20s. Its log says why: /home/a/.local/share/hermes/ollama.log',
      zh: '/usr/local/bin/ollama serve 已启动，但在 20s 内没有响应。原因请看它的日志：/home/a/.local/share/hermes/ollama.log',
    },
    {
      code: 'model_too_big',
      params: { model: 'llama3.1:70b', need: '40.1 GiB', free: '12.0 GiB' },
      message: 'Model llama3.1:70b needs more memory …',
      en: 'Model llama3.1:70b needs more memory than is free now (needs 40.1 GiB, 12.0 GiB free). Close other programs, or choose a smaller model in the Models panel.',
      zh: '模型 llama3.1:70b 需要的内存超过当前可用内存（需要 40.1 GiB，可用 12.0 GiB）。请关闭其他程序，或在模型面板中选择更小的模型。',
    },
    {
      code: 'model_too_big',
      params: { model: 'llama3.1:70b' },
      message: 'Model llama3.1:70b needs more memory …',
      en: 'Model llama3.1:70b needs more memory than is free now. Close other programs, or choose a smaller model in the Models panel.',
      zh: '模型 llama3.1:70b 需要的内存超过当前可用内存。请关闭其他程序，或在模型面板中选择更小的模型。',
    },
    {
      code: 'db_busy',
      params: { wait: '30s' },
      message: 'Another Hermes process kept the database busy …',
      en: 'Another Hermes process kept the database busy for more than 30s (a long import or forget?). Nothing was changed; try again when it has finished.',
      zh: '另一个 Hermes 进程占用数据库超过 30s（可能在进行较长的导入或遗忘操作）。没有做任何更改；请在它完成后重试。',
    },
    {
      code: 'invalid_input',
      params: { detail: 'Title is too long.' },
      message: 'Title is too long.',
      en: 'Title is too long.',
      zh: '无法接受该输入：Title is too long.',
    },
    {
      code: 'not_found',
      params: {},
      message: 'That conversation no longer exists. Start a new chat.',
      en: 'That no longer exists (it may have been deleted). Refresh the list and try again.',
      zh: '要找的内容已不存在（可能已被删除）。请刷新列表后再试。',
    },
    {
      code: 'doc_too_big',
      params: { name: 'scan.pdf', size: '12.3 MB', limit: '10.0 MB' },
      message: '"scan.pdf" is 12.3 MB; files up to 10.0 MB can be attached.',
      en: '“scan.pdf” is 12.3 MB; files up to 10.0 MB can be attached.',
      zh: '“scan.pdf”大小为 12.3 MB；只能附加不超过 10.0 MB 的文件。',
    },
    {
      code: 'doc_not_text',
      params: { name: 'photo.png' },
      message: '"photo.png" is not a text file.',
      en: '“photo.png” is not a text file or an image Hermes reads; it can attach text, Markdown, code, CSV and PDF files (UTF-8 text), and PNG, JPEG, WebP and GIF images.',
      zh: '“photo.png”不是 Hermes 能读取的文本文件或图片；可以附加文本、Markdown、代码、CSV 和 PDF 文件（UTF-8 文本），以及 PNG、JPEG、WebP 和 GIF 图片。',
    },
    {
      code: 'bad_setting',
      params: { key: 'first_token_timeout', reason: 'not_duration', value: '120', detail: 'first_token_timeout: "120" is not a duration' },
      message: 'first_token_timeout: "120" is not a duration; write it like 30s or 2m',
      en: 'first_token_timeout: “120” is not a duration; write it like 30s or 2m.',
      zh: 'first_token_timeout：“120”不是时长；请写成 30s 或 2m 这样的形式。',
    },
    {
      code: 'bad_setting',
      params: { key: 'memory_half_lives', reason: 'flux', detail: 'memory_half_lives: "x" is not a half-life' },
      message: 'memory_half_lives: "x" is not a half-life',
      en: 'memory_half_lives: "x" is not a half-life',
      zh: '设置无效：memory_half_lives: "x" is not a half-life',
    },
    {
      code: 'internal',
      params: { detail: 'disk on fire' },
      message: 'Something went wrong: disk on fire',
      en: 'Something went wrong: disk on fire',
      zh: '出错了：disk on fire',
    },
  ];
  for (const c of cases) {
    it(`words ${c.code} ${c.params.setting ?? ''} in English and Chinese`, () => {
      expect(errorText(c.code, c.params, c.message, 'en')).toBe(c.en);
      expect(errorText(c.code, c.params, c.message, 'zh')).toBe(c.zh);
    });
  }

  it('has a message in both languages for every code, with no placeholder left', () => {
    for (const code of ERROR_CODES) {
      for (const lang of ['en', 'zh'] as const) {
        const params = { host: 'h', model: 'm', setting: 's', limit: '1s', wait: '1s', detail: 'd', name: 'n', size: '1 KB', chars: '9', file: 'f', need: '5 GiB', free: '3 GiB', key: 'k', value: 'v', min: '1', max: '2', choices: 'a, b', binary: 'b', log: 'l', version: '0.4.7', dir: '/d', path: '/d/hermes.db', pixels: '9000×9000', models: 'gemma3' };
        const text = errorText(code, params, 'msg', lang);
        expect(text, `${lang} ${code}`).not.toMatch(/\{\w+\}/);
        expect(text.length, `${lang} ${code}`).toBeGreaterThan(0);
      }
      expect(dictionaries.zh[`err.${code}` as keyof typeof dictionaries.zh]).toBeTruthy();
    }
  });

  it('words every reason a setting is refused for, in both languages, with no placeholder left', () => {
    const reasons = Object.keys(dictionaries.en).filter((k) => k.startsWith('err.bad_setting.'));
    expect(reasons.length).toBeGreaterThan(10);
    for (const k of reasons) {
      const reason = k.slice('err.bad_setting.'.length);
      const params = { key: 'k', reason, value: 'v', min: '1', max: '2', choices: 'a, b', detail: 'd', installed: 'i', count: '3' };
      for (const lang of ['en', 'zh'] as const) {
        const text = errorText('bad_setting', params, 'msg', lang);
        expect(text, `${lang} ${reason}`).not.toMatch(/\{\w+\}/);
        expect(text, `${lang} ${reason}`).toMatch(/^k/);
      }
    }
  });

  it('words a refused Modelfile line by its reason, and an Ollama too old to import, in both languages', () => {
    const reasons = Object.keys(dictionaries.en).filter((k) => k.startsWith('err.bad_modelfile.'));
    expect(reasons.map((k) => k.slice('err.bad_modelfile.'.length)).sort()).toEqual(['bad_value', 'no_value', 'not_directive', 'unclosed']);
    for (const k of reasons) {
      const params = { line: '3', word: 'ADAPTER', reason: k.slice('err.bad_modelfile.'.length), detail: 'd' };
      const en = errorText('bad_modelfile', params, 'msg', 'en');
      const zh = errorText('bad_modelfile', params, 'msg', 'zh');
      expect(en).toMatch(/^Modelfile line 3: /);
      expect(zh).toMatch(/^Modelfile 第 3 行：/);
      for (const text of [en, zh]) expect(text).not.toMatch(/\{\w+\}/);
    }
    expect(errorText('bad_modelfile', { line: '2', word: 'ADAPTER', reason: 'not_directive' }, 'msg', 'zh')).toBe(
      'Modelfile 第 2 行：导入时不能设置 ADAPTER（可以设置的有 FROM、TEMPLATE、SYSTEM、PARAMETER、LICENSE、MESSAGE、RENDERER、PARSER 和 REQUIRES）。',
    );
    // A reason this page does not know: the backend's words, introduced in Chinese.
    expect(errorText('bad_modelfile', { line: '2', reason: 'newer' }, 'Modelfile line 2: something new', 'zh')).toBe('Modelfile 有误：Modelfile line 2: something new');
    expect(errorText('ollama_too_old', { version: '0.4.7', need: '0.5.5' }, 'msg', 'zh')).toBe('Ollama 0.4.7 无法从文件创建模型；请将 Ollama 更新到 0.5.5 或更高版本后重试。');
    expect(errorText('ollama_too_old', { version: '0.4.7', need: '0.5.5' }, 'msg', 'en')).toBe(
      'Ollama 0.4.7 cannot create a model from a file; update Ollama to 0.5.5 or newer and try again.',
    );
  });

  it("falls back to the backend's English text for an unknown or missing code", () => {
    expect(errorText('flux_capacitor', { x: 'y' }, 'The flux capacitor broke.', 'zh')).toBe('The flux capacitor broke.');
    expect(errorText(undefined, undefined, 'Plain old error.', 'zh')).toBe('Plain old error.');
  });
});

describe('backend errors in the user language', () => {
  it('reads the code and params of the web mode body', async () => {
    const t = webTransport({
      token: 't',
      fetch: (async (url: string) =>
        String(url).endsWith('/api/events')
          ? new Promise(() => {})
          : new Response(
              JSON.stringify({ error: 'Model qwen2.5 is not installed. …', code: 'model_missing', params: { model: 'qwen2.5' } }),
              { status: 422 },
            )) as unknown as typeof fetch,
    });
    const err = await createApi(t)
      .ListModels()
      .catch((e) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect(err.message).toBe('Model qwen2.5 is not installed. …'); // the English text stays the Error's message
    expect(errorCode(err)).toBe('model_missing');
    locale.lang = 'zh';
    expect(errorMessage(err)).toBe('模型 qwen2.5 尚未安装。请运行 `hermes model pull qwen2.5`（或在模型面板中拉取），或选择其他模型。');
  });

  it('reads the object a Wails binding rejects with (the ErrorFormatter body)', async () => {
    const w = {
      go: {
        app: boundServices({
          Status: () => Promise.reject({ error: 'Ollama is busy …', code: 'ollama_busy' }),
          ListSessions: () => Promise.reject('an old plain string'),
        }),
      },
    };
    const a = createApi(wailsTransport(w));
    locale.lang = 'zh';
    const busy = await a.Status().catch((e) => e);
    expect(errorCode(busy)).toBe('ollama_busy');
    expect(errorMessage(busy)).toBe('Ollama 正忙于处理其他请求。请稍后再试。');
    const plain = await a.ListSessions().catch((e) => e);
    expect(errorCode(plain)).toBe('');
    expect(errorMessage(plain)).toBe('an old plain string');
  });

  it('gives a network failure its own code', async () => {
    const t = webTransport({
      token: 't',
      fetch: (async (url: string) => {
        if (String(url).endsWith('/api/events')) return new Promise(() => {});
        throw new TypeError('Failed to fetch');
      }) as unknown as typeof fetch,
    });
    const err = await createApi(t)
      .Status()
      .catch((e) => e);
    expect(err.message).toMatch(/cannot reach the Hermes backend: Failed to fetch/);
    expect(errorCode(err)).toBe('backend_unreachable');
    locale.lang = 'zh';
    expect(errorMessage(err)).toBe('无法连接 Hermes 后端。它可能已停止；恢复后此页面会自动重新连接。');
  });

  it('keeps a body without a code a plain Error', () => {
    const e = toError({ error: 'x' });
    expect(e).not.toBeInstanceOf(BackendError);
    expect(errorMessage(e)).toBe('x');
  });
});
