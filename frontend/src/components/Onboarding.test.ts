import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import Onboarding from './Onboarding.svelte';
import { ModelsStore } from '../lib/models.svelte';
import { detail, embedder, fakeApi, fakeBus, progress, setupState } from '../lib/models.fixture';
import type { SetupState } from '../lib/backend';
import { locale } from '../lib/i18n.svelte';

function setup(state: Partial<SetupState>, api = fakeApi()) {
  const bus = fakeBus();
  let n = 0;
  const store = new ModelsStore({ api, on: bus.on, uuid: () => `req-${++n}`, fileDialog: true });
  store.setup = setupState({ chat_ready: false, ...state });
  // Nothing changes behind the page unless a test says so.
  api.Setup.mockResolvedValue(store.setup);
  const r = render(Onboarding, { store });
  return { ...r, store, api, bus };
}

describe('Onboarding', () => {
  it('shows nothing when chat is ready or the setup is unknown', () => {
    const bus = fakeBus();
    const store = new ModelsStore({ api: fakeApi(), on: bus.on });
    const r = render(Onboarding, { store });
    expect(r.queryByTestId('onboarding')).toBeNull();
    r.unmount();
    store.setup = setupState();
    expect(render(Onboarding, { store }).queryByTestId('onboarding')).toBeNull();
  });

  it('install: the exact command in a copyable block, and Check again as the primary button', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    const { getByTestId, getByRole, api } = setup({
      ollama: 'missing',
      step: 'install',
      install_hint: 'curl -fsSL https://ollama.invalid/install.sh | sh   (or your distribution’s package)',
      problem: 'Ollama is not installed',
      models: [],
    });
    expect(getByTestId('onboarding').dataset.step).toBe('install');
    expect(getByRole('heading', { level: 1 }).textContent).toBe('Install Ollama to get started');
    expect(getByTestId('setup-install-command').textContent).toBe('curl -fsSL https://ollama.invalid/install.sh | sh');
    expect(getByTestId('setup-install-note').textContent).toBe('or your distribution’s package');
    expect(getByTestId('setup-problem').textContent).toBe('Details: Ollama is not installed');
    await fireEvent.click(getByTestId('setup-copy'));
    expect(writeText).toHaveBeenCalledWith('curl -fsSL https://ollama.invalid/install.sh | sh');
    await waitFor(() => expect(getByTestId('setup-copy').textContent).toBe('Copied'));
    const check = getByTestId('setup-check');
    expect(check.classList.contains('primary')).toBe(true);
    await fireEvent.click(check);
    expect(api.Setup).toHaveBeenCalledTimes(1);
  });

  it('install: leaves out a detail that only repeats the command', () => {
    const hint = 'curl -fsSL https://ollama.invalid/install.sh | sh   (or your distribution’s package)';
    const { queryByTestId } = setup({ ollama: 'missing', step: 'install', install_hint: hint, problem: `Install Ollama: ${hint}`, models: [] });
    expect(queryByTestId('setup-problem')).toBeNull();
  });

  it("in Chinese, words the backend's problem and install note by code, with no English left", () => {
    locale.lang = 'zh';
    try {
      const cmd = 'curl -fsSL https://ollama.invalid/install.sh | sh';
      const r = setup({
        ollama: 'missing',
        step: 'install',
        install_hint: cmd,
        install_note: "Or install your distribution's ollama package; offline, copy the ollama program to /usr/local/bin.",
        problem: 'Ollama, which runs the models, is not installed on this computer.',
        code: 'ollama_missing',
        params: { host: 'http://127.0.0.1:11434', command: cmd },
        os: 'linux',
        models: [],
      });
      expect(r.getByTestId('setup-install-note').textContent).toBe('也可以安装发行版的 ollama 软件包；离线时，把 ollama 程序复制到 /usr/local/bin。');
      // The step's own words already say Ollama is missing: no detail line repeating it.
      expect(r.queryByTestId('setup-problem')).toBeNull();
      r.unmount();
      const bad = setup({
        ollama: 'missing',
        step: 'install',
        install_hint: cmd,
        problem: 'ollama_path is /opt/nothing, which is not an executable program; fix it or clear it.',
        code: 'ollama_path_bad',
        params: { host: 'http://127.0.0.1:11434', path: '/opt/nothing' },
        install_note: 'Or install the app.',
        os: 'darwin',
        models: [],
      });
      expect(bad.getByTestId('setup-install-note').textContent).toBe('也可以从 https://ollama.com/download 安装应用。');
      const text = bad.getByTestId('setup-problem').textContent ?? '';
      expect(text).toContain('设置项 ollama_path 为 /opt/nothing，它不是可执行程序。');
      expect(text).not.toMatch(/which is not|fix it/);
    } finally {
      locale.lang = 'en';
    }
  });

  it('import: the form stays with what was typed until the import has worked', async () => {
    const { getByTestId, queryByTestId, api } = setup({ step: 'pull', models: [] });
    await fireEvent.click(getByTestId('setup-import-toggle'));
    await fireEvent.input(getByTestId('setup-import-path'), { target: { value: '/tmp/notes.gguf' } });
    await fireEvent.click(getByTestId('setup-import-submit'));
    expect((getByTestId('setup-import-submit') as HTMLButtonElement).disabled).toBe(true);
    api.pending.get('req-1')!.reject('notes.gguf: not a GGUF model file');
    await waitFor(() => expect(getByTestId('model-job').dataset.state).toBe('failed'));
    expect((getByTestId('setup-import-path') as HTMLInputElement).value).toBe('/tmp/notes.gguf');
    expect((getByTestId('setup-import-submit') as HTMLButtonElement).disabled).toBe(false);
    await fireEvent.input(getByTestId('setup-import-path'), { target: { value: '/tmp/tiny.gguf' } });
    await fireEvent.click(getByTestId('setup-import-submit'));
    api.pending.get('req-2')!.resolve(detail({ name: 'tiny' }));
    await waitFor(() => expect(queryByTestId('setup-import-form')).toBeNull());
  });

  it('start: the program found and a Start Ollama button; a failure is shown', async () => {
    const api = fakeApi({ StartOllama: vi.fn(async () => Promise.reject(new Error('ollama serve did not answer within 20s'))) });
    const { getByTestId, queryByTestId } = setup({ ollama: 'stopped', connection: 'stopped', step: 'start', binary: '/usr/local/bin/ollama', can_start: true, models: [] }, api);
    expect(getByTestId('setup-binary').textContent).toBe('Found: /usr/local/bin/ollama');
    expect(getByTestId('setup-start').textContent).toBe('Start Ollama');
    expect(queryByTestId('setup-pull-form')).toBeNull();
    await fireEvent.click(getByTestId('setup-start'));
    expect(api.StartOllama).toHaveBeenCalled();
    await waitFor(() => expect(getByTestId('setup-start-error').textContent).toContain('did not answer within 20s'));
  });

  it('start: an Ollama elsewhere that does not answer is only checked again', () => {
    const { getByTestId, queryByTestId } = setup({ ollama: 'unreachable', step: 'start', host: 'http://10.0.0.5:11434', models: [] });
    expect(getByTestId('onboarding').textContent).toContain('Ollama at http://10.0.0.5:11434 does not answer');
    expect(queryByTestId('setup-start')).toBeNull();
    expect(getByTestId('setup-check').classList.contains('primary')).toBe(true);
  });

  it('start: moves on when Ollama is started', async () => {
    const api = fakeApi({ StartOllama: vi.fn(async () => setupState({ chat_ready: false, step: 'pull', models: [], managed: true })) });
    const { getByTestId } = setup({ ollama: 'stopped', connection: 'stopped', step: 'start', can_start: true, models: [] }, api);
    await fireEvent.click(getByTestId('setup-start'));
    await waitFor(() => expect(getByTestId('onboarding').dataset.step).toBe('pull'));
  });

  it('pull: recommendations with size, parameters and why; the first preselected; progress and cancel', async () => {
    const { getByTestId, getAllByTestId, api, bus, store } = setup({ step: 'pull', models: [] });
    const options = getAllByTestId('setup-pull-option');
    expect(options.map((o) => o.dataset.name)).toEqual(['llama3.2:3b', 'qwen2.5:1.5b', '']);
    expect(options[0].textContent).toContain('3B parameters');
    expect(options[0].textContent).toContain('2.0 GB');
    expect(options[0].textContent).toContain('Fast on 8 GB of memory');
    expect((options[0].querySelector('input') as HTMLInputElement).checked).toBe(true);
    expect(getByTestId('setup-pull-form').textContent).toContain('16 GB of memory');
    expect(getByTestId('setup-pull-submit').textContent!.trim()).toBe('Pull llama3.2:3b');

    await fireEvent.click(options[1].querySelector('input')!);
    expect(getByTestId('setup-pull-submit').textContent!.trim()).toBe('Pull qwen2.5:1.5b');
    await fireEvent.click(getByTestId('setup-pull-submit'));
    expect(api.PullModel).toHaveBeenCalledWith('req-1', 'qwen2.5:1.5b');
    bus.emit('model:progress:req-1', progress());
    await waitFor(() => expect(getByTestId('model-job-numbers').textContent).toBe('500 MB of 2.0 GB · 25% · 12.5 MB/s · 2 min 0 s left'));
    expect(getByTestId('model-job-status').textContent).toBe('Downloading');
    expect(getByTestId('model-job-bar').getAttribute('aria-valuenow')).toBe('25');
    await fireEvent.click(getByTestId('model-job-cancel'));
    expect(api.CancelModelJob).toHaveBeenCalledWith('req-1');
    await waitFor(() => expect(getByTestId('model-job').dataset.state).toBe('cancelled'));
    expect(store.running).toEqual([]);
  });

  it('pull: another name is checked, and a pulled model becomes the chat model', async () => {
    const api = fakeApi({ UseModel: vi.fn(async () => setupState()) });
    const { getByTestId, store } = setup({ step: 'pull', models: [] }, api);
    await fireEvent.focus(getByTestId('setup-pull-name'));
    await fireEvent.click(getByTestId('setup-pull-submit'));
    expect(getByTestId('setup-pull-problem').textContent).toBe('Enter a model name.');
    await fireEvent.input(getByTestId('setup-pull-name'), { target: { value: 'my model' } });
    await fireEvent.click(getByTestId('setup-pull-submit'));
    expect(getByTestId('setup-pull-problem').textContent).toBe('A model name has no spaces.');
    await fireEvent.input(getByTestId('setup-pull-name'), { target: { value: 'gemma3:1b' } });
    await fireEvent.click(getByTestId('setup-pull-submit'));
    expect(api.PullModel).toHaveBeenCalledWith('req-1', 'gemma3:1b');
    api.Setup.mockResolvedValue(setupState({ chat_ready: false, step: 'choose', chat_model: 'llama3.2', models: [detail({ name: 'gemma3:1b' })] }));
    api.pending.get('req-1')!.resolve(detail({ name: 'gemma3:1b' }));
    await waitFor(() => expect(api.UseModel).toHaveBeenCalledWith('gemma3:1b', false));
    await waitFor(() => expect(store.setup?.chat_ready).toBe(true));
  });

  it('import: a GGUF file from the file dialog, its name suggested, with Modelfile text', async () => {
    const { getByTestId, api } = setup({ step: 'pull', models: [] });
    await fireEvent.click(getByTestId('setup-import-toggle'));
    await fireEvent.click(getByTestId('setup-import-pick'));
    await waitFor(() => expect((getByTestId('setup-import-path') as HTMLInputElement).value).toBe('/media/usb/Qwen2.5-3B-Instruct-Q4_K_M.gguf'));
    expect((getByTestId('setup-import-name') as HTMLInputElement).value).toBe('qwen2.5-3b-instruct-q4_k_m');
    await fireEvent.input(getByTestId('setup-import-modelfile'), { target: { value: 'PARAMETER temperature 0.3' } });
    await fireEvent.click(getByTestId('setup-import-submit'));
    expect(api.ImportModel).toHaveBeenCalledWith(
      'req-1',
      '/media/usb/Qwen2.5-3B-Instruct-Q4_K_M.gguf',
      'qwen2.5-3b-instruct-q4_k_m',
      'PARAMETER temperature 0.3',
    );
  });

  it('import: in web mode a path field; an empty path is refused', async () => {
    const api = fakeApi({ PickModelFile: vi.fn(async () => Promise.reject(new Error('PickModelFile: no file dialog in web mode'))) });
    const { getByTestId, queryByTestId } = setup({ step: 'pull', models: [] }, api);
    await fireEvent.click(getByTestId('setup-import-toggle'));
    await fireEvent.click(getByTestId('setup-import-pick'));
    await waitFor(() => expect(getByTestId('setup-import-nopicker')).toBeTruthy());
    expect(queryByTestId('setup-import-pick')).toBeNull();
    await fireEvent.click(getByTestId('setup-import-submit'));
    expect(getByTestId('setup-import-problem').textContent).toBe('Choose a GGUF file or type its path.');
    expect(api.ImportModel).not.toHaveBeenCalled();
  });

  it('choose: only chat-capable models are offered; Use makes one the chat model', async () => {
    const { getByTestId, getAllByTestId, api } = setup({
      step: 'choose',
      chat_model: 'llama3.2',
      models: [embedder(), detail({ name: 'qwen2.5:3b', parameter_size: '3.1B' }), detail({ name: 'phi3:mini' })],
    });
    expect(getByTestId('onboarding').textContent).toContain('the chat model (llama3.2) is not one of them');
    const opts = getAllByTestId('setup-choose-option');
    expect(opts.map((o) => o.dataset.name)).toEqual(['qwen2.5:3b', 'phi3:mini']);
    expect(opts[0].textContent).toContain('3.1B · Q4_K_M · 2.0 GB');
    await fireEvent.click(opts[1].querySelector('input')!);
    expect(getByTestId('setup-use').textContent).toBe('Use phi3:mini');
    await fireEvent.click(getByTestId('setup-use'));
    expect(api.UseModel).toHaveBeenCalledWith('phi3:mini', false);
  });

  it('follows setup:changed from one step to the next', async () => {
    const { getByTestId, store, bus, queryByTestId } = setup({ ollama: 'missing', step: 'install', models: [] });
    store.listen();
    bus.emit('setup:changed', setupState({ ollama: 'running', step: 'pull', chat_ready: false, models: [] }));
    await waitFor(() => expect(getByTestId('onboarding').dataset.step).toBe('pull'));
    bus.emit('setup:changed', setupState());
    await waitFor(() => expect(queryByTestId('onboarding')).toBeNull());
  });
  it('connect: another computer that does not answer asks for an address, never to install or start', () => {
    const { getByTestId, queryByTestId, getByRole, getByLabelText } = setup({
      ollama: 'unreachable',
      connection: 'remote_unreachable',
      step: 'connect',
      host: 'http://192.168.1.5:11434',
      remote: true,
      code: 'ollama_remote_down',
      params: { host: 'http://192.168.1.5:11434' },
      problem: 'Nothing answers at http://192.168.1.5:11434',
      models: [],
    });
    expect(getByRole('heading', { level: 1 }).textContent).toBe('Ollama at http://192.168.1.5:11434 does not answer');
    expect((getByLabelText('Ollama address') as HTMLInputElement).value).toBe('http://192.168.1.5:11434');
    expect(queryByTestId('setup-install-command')).toBeNull();
    expect(queryByTestId('setup-start')).toBeNull();
    expect(queryByTestId('setup-problem')).toBeNull(); // the title says it
    expect(getByTestId('setup-check').classList.contains('primary')).toBe(true);
  });

  it('connect: an address Hermes refuses says so', () => {
    const { getByRole } = setup({ connection: 'refused', step: 'connect', host: 'http://8.8.8.8:11434', code: 'ollama_refused', models: [] });
    expect(getByRole('heading', { level: 1 }).textContent).toBe('Hermes does not connect to http://8.8.8.8:11434');
  });

  it('install and start fold the address form under "Ollama runs elsewhere?"', async () => {
    const { getByTestId, queryByLabelText } = setup({ ollama: 'missing', connection: 'not_installed', step: 'install', models: [] });
    expect(queryByLabelText('Ollama address')).toBeNull();
    await fireEvent.click(getByTestId('setup-elsewhere'));
    expect(getByTestId('setup-elsewhere').getAttribute('aria-expanded')).toBe('true');
    expect(queryByLabelText('Ollama address')).not.toBeNull();
  });

  it('start after a failed start shows how it ended and its log', () => {
    const { getByTestId } = setup({ ollama: 'stopped', connection: 'stopped', step: 'start', binary: '/usr/bin/ollama', can_start: true, exited: true, exit: 'exit status 1', log_tail: ['Error: listen tcp 127.0.0.1:11434: bind: address already in use'], models: [] });
    expect(getByTestId('setup-exit').textContent).toContain('exit status 1');
    expect(getByTestId('setup-log').textContent).toContain('address already in use');
  });

  it('reconnect (stopped responding) is the banner\'s, not this screen\'s', () => {
    const { queryByTestId } = setup({ ollama: 'lost', connection: 'not_responding', step: 'reconnect', models: [] });
    expect(queryByTestId('onboarding')).toBeNull();
  });
  it('start: no Start button when Hermes may not start it (manage_ollama never)', () => {
    const { queryByTestId, getByTestId } = setup({ ollama: 'stopped', connection: 'stopped', step: 'start', binary: '/usr/bin/ollama', can_start: false, models: [] });
    expect(queryByTestId('setup-start')).toBeNull();
    expect(getByTestId('setup-binary').textContent).toContain('/usr/bin/ollama');
  });
});
