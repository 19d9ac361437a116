// The chat store's branches: Regenerate (a new version of a reply), Edit and resend (a new
// version of a user message), the version switcher (SelectVersion) and Delete turn.
import { describe, expect, it, vi } from 'vitest';
import { ChatStore, toFigures, toVersions, typedText } from './chat.svelte';
import type { Message, SessionDetail, SessionInfo, TurnResult } from './backend';

function session(id: string): SessionInfo {
  return { id, title: `t-${id}`, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', messageCount: 0, state: 'active', pinned: false };
}

function msg(p: Partial<Message> & Pick<Message, 'id' | 'role' | 'content'>): Message {
  return { sessionId: 's1', status: 'ok', createdAt: '2025-01-01T00:00:00Z', intentConfidence: 0, ...p };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A conversation of two turns: u1 → a1, u2 → a2. */
const TWO_TURNS: Message[] = [
  msg({ id: 'u1', role: 'user', content: 'first' }),
  msg({ id: 'a1', role: 'assistant', content: 'Echo: first' }),
  msg({ id: 'u2', role: 'user', content: 'second' }),
  msg({ id: 'a2', role: 'assistant', content: 'Echo: second' }),
];

function harness(stored: Message[] = TWO_TURNS) {
  const handlers = new Map<string, (d: unknown) => void>();
  const pending = deferred<TurnResult>();
  let n = 0;
  const api = {
    SendMessage: vi.fn((_r: string, _s: string, _t: string) => pending.promise),
    CancelMessage: vi.fn(async (_r: string) => {}),
    ListSessions: vi.fn(async (): Promise<SessionInfo[]> => [session('s1')]),
    LoadSession: vi.fn(async (id: string): Promise<SessionDetail> => ({ session: session(id), messages: stored })),
    NewSession: vi.fn(async () => session('new')),
    RenameSession: vi.fn(async (id: string, title: string) => ({ ...session(id), title })),
    PinSession: vi.fn(async (id: string, pinned: boolean) => ({ ...session(id), pinned })),
    ArchiveSession: vi.fn(async (id: string) => ({ ...session(id), state: 'archived' as const })),
    DeleteSession: vi.fn(async (id: string) => ({ id: `del-${id}`, session_id: id, at: '', messages: 2, documents: 0, images: 0, lexical_matches: 0, checkpointed: true })),
    ExportSession: vi.fn(async (id: string, format: string) => `${format}:${id}`),
    PinMessage: vi.fn(async (_id: string, _pinned: boolean) => {}),
    ContinueTurn: vi.fn((_r: string, _s: string) => pending.promise),
    RegenerateReply: vi.fn((_r: string, _s: string, _id: string) => pending.promise),
    EditMessage: vi.fn((_r: string, _s: string, _id: string, _t: string) => pending.promise),
    SelectVersion: vi.fn(async (id: string, _m: string): Promise<SessionDetail> => ({ session: session(id), messages: [] })),
    DeleteTurn: vi.fn(async (id: string, _m: string): Promise<SessionDetail> => ({ session: session(id), messages: [] })),
  };
  const on = vi.fn((name: string, cb: (d: unknown) => void) => {
    handlers.set(name, cb);
    return () => handlers.delete(name);
  });
  const store = new ChatStore({ api, on, uuid: () => `req-${++n}` });
  const emit = (name: string, d: unknown) => handlers.get(name)?.(d);
  return { store, api, emit, pending, handlers };
}

const shown = (s: ChatStore) => s.messages.map((m) => [m.id, m.status, m.content]);

describe('ChatStore.regenerate', () => {
  it('streams a new version in the reply’s place, then shows the stored one as 2 of 2', async () => {
    const h = harness();
    await h.store.select('s1');
    const done = h.store.regenerate('a1');
    expect(h.api.RegenerateReply).toHaveBeenCalledWith('req-1', 's1', 'a1');
    expect(h.api.SendMessage).not.toHaveBeenCalled();
    // Later turns belong to the old version's branch: only u1 and the new reply are shown.
    expect(h.store.messages.map((m) => [m.id, m.status])).toEqual([
      ['u1', 'ok'],
      ['local-assistant-req-1', 'streaming'],
    ]);
    expect(h.store.messages[1].versions).toEqual({ index: 1, count: 2, ids: ['a1', 'local-assistant-req-1'] });
    expect(h.store.streaming).toBe(true);

    h.emit('chat:delta:req-1', { text: 'Echo: ' });
    h.emit('chat:delta:req-1', { text: 'again' });
    expect(h.store.messages[1].content).toBe('Echo: again');

    h.pending.resolve({
      session: session('s1'),
      user: msg({ id: 'u1', role: 'user', content: 'first' }),
      assistant: msg({
        id: 'a1b',
        role: 'assistant',
        content: 'Echo: again',
        versions: { index: 1, count: 2, ids: ['a1', 'a1b'] },
        figures: { model: 'llama3.2', promptTokens: 12, completionTokens: 3, tokensPerSecond: 40, firstTokenMs: 350, totalMs: 900 },
      }),
      tools: null,
    });
    expect(await done).toBe(true);
    expect(shown(h.store)).toEqual([
      ['u1', 'ok', 'first'],
      ['a1b', 'ok', 'Echo: again'],
    ]);
    expect(h.store.messages[1].versions).toEqual({ index: 1, count: 2, ids: ['a1', 'a1b'] });
    expect(h.store.messages[1].figures?.completionTokens).toBe(3);
    expect(h.store.streaming).toBe(false);
  });

  it('does nothing while a reply streams or for an unknown reply', async () => {
    const h = harness();
    await h.store.select('s1');
    expect(await h.store.regenerate('nope')).toBe(false);
    void h.store.regenerate('a2');
    expect(await h.store.regenerate('a1')).toBe(false);
    expect(h.api.RegenerateReply).toHaveBeenCalledTimes(1);
  });

  it('after a failed regenerate says the message is saved, and Retry regenerates (never sends it again)', async () => {
    const h = harness();
    await h.store.select('s1');
    const done = h.store.regenerate('a2');
    h.pending.reject(new Error('model gone'));
    expect(await done).toBe(false);
    // The stored conversation is shown again.
    expect(shown(h.store).map((x) => x[0])).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(h.store.sendError).toBe('model gone');
    expect(h.store.replyFailedSaved).toBe(true);
    void h.store.retry();
    expect(h.api.RegenerateReply).toHaveBeenLastCalledWith('req-2', 's1', 'a2');
    expect(h.api.SendMessage).not.toHaveBeenCalled();
    expect(h.api.ContinueTurn).not.toHaveBeenCalled();
  });
});

describe('ChatStore.selectVersion', () => {
  it('replaces the shown messages with the conversation the backend returns', async () => {
    const h = harness([
      msg({ id: 'u1', role: 'user', content: 'first' }),
      msg({ id: 'a1b', role: 'assistant', content: 'new', versions: { index: 1, count: 2, ids: ['a1', 'a1b'] } }),
    ]);
    await h.store.select('s1');
    h.api.SelectVersion.mockResolvedValueOnce({
      session: session('s1'),
      messages: [
        msg({ id: 'u1', role: 'user', content: 'first' }),
        msg({ id: 'a1', role: 'assistant', content: 'old', versions: { index: 0, count: 2, ids: ['a1', 'a1b'] } }),
        msg({ id: 'u2', role: 'user', content: 'later' }),
        msg({ id: 'a2', role: 'assistant', content: 'Echo: later' }),
      ],
    });
    await h.store.selectVersion('a1');
    expect(h.api.SelectVersion).toHaveBeenCalledWith('s1', 'a1');
    expect(shown(h.store)).toEqual([
      ['u1', 'ok', 'first'],
      ['a1', 'ok', 'old'],
      ['u2', 'ok', 'later'],
      ['a2', 'ok', 'Echo: later'],
    ]);
    expect(h.store.messages[1].versions?.index).toBe(0);
  });

  it('throws the backend’s error and keeps what is shown', async () => {
    const h = harness();
    await h.store.select('s1');
    h.api.SelectVersion.mockRejectedValueOnce(new Error('no such version'));
    await expect(h.store.selectVersion('x')).rejects.toThrow('no such version');
    expect(shown(h.store).map((x) => x[0])).toEqual(['u1', 'a1', 'u2', 'a2']);
  });
});

describe('ChatStore edit and resend', () => {
  it('opens the editor with the typed text, without attached resources', async () => {
    const h = harness([
      msg({ id: 'u1', role: 'user', content: 'What is this?\n\n<resource server="s" uri="demo://a.md" name="a.md">\nbody\n</resource>' }),
    ]);
    await h.store.select('s1');
    h.store.startEdit('u1');
    expect(h.store.editing).toEqual({ id: 'u1', text: 'What is this?' });
    h.store.editing!.text = 'What is that?';
    void h.store.submitEdit();
    // The attachment goes with the new version.
    expect(h.api.EditMessage).toHaveBeenCalledWith(
      'req-1',
      's1',
      'u1',
      'What is that?\n\n<resource server="s" uri="demo://a.md" name="a.md">\nbody\n</resource>',
    );
    expect(typedText('plain')).toBe('plain');
  });

  it('resends as a new version: later turns go, the new reply streams, the user message shows 2 of 2', async () => {
    const h = harness();
    await h.store.select('s1');
    h.store.startEdit('u1');
    h.store.editing!.text = 'first, edited';
    const done = h.store.submitEdit();
    expect(h.api.EditMessage).toHaveBeenCalledWith('req-1', 's1', 'u1', 'first, edited');
    expect(h.store.editing).toBeNull();
    expect(h.store.messages.map((m) => [m.id, m.role, m.status])).toEqual([
      ['local-user-req-1', 'user', 'ok'],
      ['local-assistant-req-1', 'assistant', 'streaming'],
    ]);
    h.emit('chat:delta:req-1', { text: 'Echo: first, edited' });
    h.pending.resolve({
      session: session('s1'),
      user: msg({ id: 'u1b', role: 'user', content: 'first, edited', versions: { index: 1, count: 2, ids: ['u1', 'u1b'] } }),
      assistant: msg({ id: 'a1c', role: 'assistant', content: 'Echo: first, edited' }),
      tools: null,
    });
    expect(await done).toBe(true);
    expect(shown(h.store)).toEqual([
      ['u1b', 'ok', 'first, edited'],
      ['a1c', 'ok', 'Echo: first, edited'],
    ]);
    expect(h.store.messages[0].versions).toEqual({ index: 1, count: 2, ids: ['u1', 'u1b'] });
  });

  it('keeps the edited text and says why when the backend did not take the edit', async () => {
    const h = harness();
    await h.store.select('s1');
    h.store.startEdit('u2');
    h.store.editing!.text = 'second, better';
    const done = h.store.submitEdit();
    h.pending.reject(new Error('database is locked'));
    expect(await done).toBe(false);
    // The stored conversation is back, the editor open again on u2 with the new text.
    expect(shown(h.store).map((x) => x[0])).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(h.store.editing).toEqual({ id: 'u2', text: 'second, better', error: 'database is locked' });
    expect(h.store.sendError).toBe('');
  });

  it('keeps the edited text when even reloading the conversation fails', async () => {
    const h = harness();
    await h.store.select('s1');
    h.api.LoadSession.mockRejectedValue(new Error('gone'));
    h.store.startEdit('u1');
    h.store.editing!.text = 'changed';
    const done = h.store.submitEdit();
    h.pending.reject(new Error('offline'));
    await done;
    expect(shown(h.store).map((x) => x[0])).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(h.store.editing).toEqual({ id: 'u1', text: 'changed', error: 'offline' });
  });

  it('cancels without sending; refuses an empty text', async () => {
    const h = harness();
    await h.store.select('s1');
    h.store.startEdit('u1');
    h.store.editing!.text = '   ';
    expect(await h.store.submitEdit()).toBe(false);
    h.store.cancelEdit();
    expect(h.store.editing).toBeNull();
    expect(h.api.EditMessage).not.toHaveBeenCalled();
  });
});

describe('ChatStore.deleteTurn', () => {
  it('deletes through the backend and shows the conversation it returns', async () => {
    const h = harness();
    await h.store.select('s1');
    h.api.DeleteTurn.mockResolvedValueOnce({ session: session('s1'), messages: TWO_TURNS.slice(0, 2) });
    await h.store.deleteTurn('u2');
    expect(h.api.DeleteTurn).toHaveBeenCalledWith('s1', 'u2');
    expect(shown(h.store).map((x) => x[0])).toEqual(['u1', 'a1']);
  });
});

describe('versions and figures from the backend', () => {
  it('keeps only versions that add up', () => {
    expect(toVersions({ index: 1, count: 3, ids: ['a', 'b', 'c'] })).toEqual({ index: 1, count: 3, ids: ['a', 'b', 'c'] });
    expect(toVersions({ index: 0, count: 1, ids: ['a'] })).toBeUndefined();
    expect(toVersions({ index: 3, count: 3, ids: ['a', 'b', 'c'] })).toBeUndefined();
    expect(toVersions({ index: 0, count: 3, ids: ['a', 'b'] })).toBeUndefined();
    expect(toVersions(null)).toBeUndefined();
  });

  it('treats missing and nonsense figures as unknown', () => {
    expect(toFigures({ model: '', promptTokens: 0, completionTokens: 0, tokensPerSecond: 0, firstTokenMs: 0, totalMs: 0 })).toBeUndefined();
    expect(toFigures({ model: 'm', promptTokens: -3, completionTokens: 'x', tokensPerSecond: NaN })).toEqual({
      model: 'm',
      promptTokens: 0,
      completionTokens: 0,
      tokensPerSecond: 0,
      firstTokenMs: 0,
      totalMs: 0,
      thinkingMs: 0,
      thinkingTokens: 0,
    });
    // A full context is kept (the reply says Ollama cut its prompt); nonsense is not.
    expect(toFigures({ model: 'm', promptTokens: 2048, contextSize: 2048, contextFull: true })).toMatchObject({ contextSize: 2048, contextFull: true });
    expect(toFigures({ model: 'm', contextSize: 'big', contextFull: 'yes' })).not.toHaveProperty('contextFull');
  });
});
