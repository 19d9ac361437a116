import { describe, expect, it, vi } from 'vitest';
import { ChatStore } from './chat.svelte';
import type { Message, SessionDetail, SessionInfo, TurnResult } from './backend';
import { figuresText } from './figures';

function session(id: string): SessionInfo {
  return { id, title: '', pinned: false, state: 'active', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', messageCount: 0 } as SessionInfo;
}

function harness() {
  const handlers = new Map<string, (d: unknown) => void>();
  let resolve!: (r: TurnResult) => void;
  const pending = new Promise<TurnResult>((r) => (resolve = r));
  const api = {
    SendMessage: vi.fn(() => pending),
    CancelMessage: vi.fn(async () => {}),
    ListSessions: vi.fn(async (): Promise<SessionInfo[]> => []),
    LoadSession: vi.fn(async (id: string): Promise<SessionDetail> => ({ session: session(id), messages: [] })),
    NewSession: vi.fn(async () => session('new')),
  };
  const on = vi.fn((name: string, cb: (d: unknown) => void) => {
    handlers.set(name, cb);
    return () => handlers.delete(name);
  });
  const store = new ChatStore({ api, on, uuid: () => 'req-1', onFailure: vi.fn() } as unknown as ConstructorParameters<typeof ChatStore>[0]);
  const emit = (name: string, d: unknown) => handlers.get(name)?.(d);
  return { store, emit, resolve };
}

describe('a thinking model streaming', () => {
  it('keeps the reasoning apart from the answer, then takes the stored reply', async () => {
    const h = harness();
    h.store.draft = 'why?';
    const done = h.store.send();
    h.emit('chat:status:req-1', { state: 'loading', model: 'qwen3' });
    expect(h.store.messages[1].loading).toBe('qwen3');
    h.emit('chat:delta:req-1', { text: '', thinking: 'Let me ' });
    expect(h.store.messages[1].loading).toBeUndefined();
    h.emit('chat:delta:req-1', { text: '', thinking: 'see.' });
    h.emit('chat:delta:req-1', { text: 'Because.' });
    expect(h.store.messages[1].thinking).toBe('Let me see.');
    expect(h.store.messages[1].content).toBe('Because.');
    // A late "loading" (the answer is already coming) changes nothing.
    h.emit('chat:status:req-1', { state: 'loading', model: 'qwen3' });
    expect(h.store.messages[1].loading).toBeUndefined();
    h.resolve({
      session: session('s1'),
      user: { id: 'u1', sessionId: 's1', role: 'user', content: 'why?', status: 'ok', createdAt: '' } as Message,
      assistant: { id: 'a1', sessionId: 's1', role: 'assistant', content: 'Because.', thinking: 'Let me see.', status: 'ok', createdAt: '' } as Message,
    } as TurnResult);
    await done;
    expect(h.store.messages[1].thinking).toBe('Let me see.');
  });
});

describe('figures of a reply that thought', () => {
  it('say how long it thought, in English and Chinese', () => {
    const f = { model: 'qwen3', promptTokens: 10, completionTokens: 50, tokensPerSecond: 20, firstTokenMs: 300, totalMs: 9000, thinkingMs: 6500, thinkingTokens: 40 };
    expect(figuresText(f, 'en').parts).toContain('thought 6.5 s');
    expect(figuresText(f, 'en').title).toContain('Thinking: 6.5 s, 40 tokens');
    expect(figuresText(f, 'zh').parts).toContain('思考 6.5 秒');
    expect(figuresText({ ...f, thinkingMs: 0 }, 'en').parts.join(' ')).not.toContain('thought');
  });
});
