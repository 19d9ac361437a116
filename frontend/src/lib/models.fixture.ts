// Test data for the models and first-run tests (not part of the app).
import { vi, type Mock } from 'vitest';
import type { ModelDetail, LlmProgress, Recommendation, SetupState } from './backend';
import type { ModelsApi } from './models.svelte';

export function detail(over: Partial<ModelDetail> = {}): ModelDetail {
  return {
    name: 'llama3.2:latest',
    family: 'llama',
    parameter_size: '3.2B',
    quantization: 'Q4_K_M',
    context_length: 131072,
    capabilities: ['chat', 'tools'],
    size: 2_019_393_189,
    loaded: false,
    modified_at: '2026-01-02T03:04:05Z',
    is_chat: false,
    is_embed: false,
    digest: '',
    ...over,
  };
}

export const embedder = (over: Partial<ModelDetail> = {}) =>
  detail({
    name: 'nomic-embed-text:latest',
    family: 'nomic-bert',
    parameter_size: '137M',
    quantization: 'F16',
    context_length: 2048,
    capabilities: ['embedding'],
    size: 274_302_450,
    ...over,
  });

export function recommendation(over: Partial<Recommendation> = {}): Recommendation {
  return { name: 'llama3.2:3b', title: 'Llama 3.2 3B', size_gb: 2.0, params: '3B', why: 'Fast on 8 GB of memory', ...over };
}

export function setupState(over: Partial<SetupState> = {}): SetupState {
  return {
    ollama: 'running',
    managed: false,
    host: 'http://127.0.0.1:11434',
    version: '0.12.3',
    binary: '',
    install_hint: 'curl -fsSL https://ollama.invalid/install.sh | sh',
    install_note: '',
    os: '',
    chat_model: 'llama3.2',
    chat_ready: true,
    embed_model: 'nomic-embed-text',
    embed_ready: true,
    models: [detail({ is_chat: true }), embedder({ is_embed: true })],
    recommended: [recommendation(), recommendation({ name: 'qwen2.5:1.5b', title: 'Qwen 2.5 1.5B', size_gb: 1.0, params: '1.5B', why: 'Smallest' })],
    memory_gb: 16,
    problem: '',
    code: '',
    params: null,
    step: '',
    // A local Ollama that answers: Go fills CanStart and LogTail only when it does not.
    connection: 'ready',
    remote: false,
    can_start: false,
    exited: false,
    exit: '',
    log_tail: null,
    ...over,
  };
}

export function progress(over: Partial<LlmProgress> = {}): LlmProgress {
  return { status: 'pulling 6a0746a1ec1a', completed: 500_000_000, total: 2_000_000_000, percent: 25, rate_bps: 12_500_000, eta_seconds: 120, ...over };
}

export type FakeModelsApi = { [K in keyof ModelsApi]-?: Mock<NonNullable<ModelsApi[K]>> };

/** A pull or import whose end the test decides: resolve(detail) or reject(message). */
export interface Pending {
  resolve: (d: ModelDetail) => void;
  reject: (msg: string) => void;
}

export function fakeApi(over: Partial<ModelsApi> = {}): FakeModelsApi & { pending: Map<string, Pending> } {
  const pending = new Map<string, Pending>();
  const waitFor = (id: string) =>
    new Promise<ModelDetail>((resolve, reject) => pending.set(id, { resolve, reject: (m) => reject(new Error(m)) }));
  const api = {
    pending,
    Setup: vi.fn(async () => setupState()),
    StartOllama: vi.fn(async () => setupState()),
    ListModelDetails: vi.fn(async () => [detail({ is_chat: true }), embedder({ is_embed: true })]),
    PullModel: vi.fn(async (id: string) => waitFor(id)),
    ImportModel: vi.fn(async (id: string) => waitFor(id)),
    CancelModelJob: vi.fn(async (id: string) => {
      pending.get(id)?.reject('pull cancelled');
    }),
    PickModelFile: vi.fn(async () => '/media/usb/Qwen2.5-3B-Instruct-Q4_K_M.gguf'),
    DeleteModel: vi.fn(async () => undefined),
    CopyModel: vi.fn(async (_src: string, dst: string) => detail({ name: dst })),
    UseModel: vi.fn(async () => setupState()),
    ...over,
  };
  return api as unknown as FakeModelsApi & { pending: Map<string, Pending> };
}

/** An event bus like backend.on: emit(name, data) calls the listeners. */
export function fakeBus() {
  const handlers = new Map<string, Set<(d: unknown) => void>>();
  return {
    on: (name: string, cb: (d: unknown) => void) => {
      let set = handlers.get(name);
      if (!set) handlers.set(name, (set = new Set()));
      set.add(cb);
      return () => void handlers.get(name)?.delete(cb);
    },
    emit: (name: string, data: unknown) => {
      for (const cb of [...(handlers.get(name) ?? [])]) cb(data);
    },
    listeners: (name: string) => handlers.get(name)?.size ?? 0,
  };
}
