import { describe, expect, it, vi } from 'vitest';
import { ChatStore, exportFilename, sortSessions, toUIMessage } from './chat.svelte';
import { BackendError, type Message, type SessionDetail, type SessionInfo, type ToolCall, type TurnResult } from './backend';
import { locale } from './i18n.svelte';

function session(id: string, updatedAt = '2025-01-01T00:00:00Z'): SessionInfo {
  return { id, title: `t-${id}`, createdAt: updatedAt, updatedAt, messageCount: 0, state: 'active', pinned: false };
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

function harness() {
  const handlers = new Map<string, (d: unknown) => void>();
  const pending = deferred<TurnResult>();
  const api = {
    SendMessage: vi.fn((_r: string, _s: string, _t: string) => pending.promise),
    CancelMessage: vi.fn(async (_r: string) => {}),
    ListSessions: vi.fn(async (): Promise<SessionInfo[]> => []),
    LoadSession: vi.fn(async (id: string): Promise<SessionDetail> => ({ session: session(id), messages: [] })),
    NewSession: vi.fn(async () => session('new')),
    RenameSession: vi.fn(async (id: string, title: string) => ({ ...session(id), title })),
    PinSession: vi.fn(async (id: string, pinned: boolean) => ({ ...session(id), pinned })),
    ArchiveSession: vi.fn(async (id: string) => ({ ...session(id), state: 'archived' as const })),
    DeleteSession: vi.fn(async (id: string) => ({ id: `del-${id}`, session_id: id, at: "2025-05-01T12:00:00Z", messages: 2, documents: 0, images: 0, lexical_matches: 0, checkpointed: true })),
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
  const onFailure = vi.fn();
  const store = new ChatStore({ api, on, uuid: () => 'req-1', onFailure });
  const emit = (name: string, d: unknown) => handlers.get(name)?.(d);
  return { store, api, on, emit, pending, handlers, onFailure };
}

describe('ChatStore.send', () => {
  it('appends deltas in order to the streaming assistant message', async () => {
    const h = harness();
    h.store.draft = 'hello';
    const done = h.store.send();
    expect(h.api.SendMessage).toHaveBeenCalledWith('req-1', '', 'hello');
    expect(h.on).toHaveBeenCalledWith('chat:delta:req-1', expect.any(Function));
    expect(h.store.draft).toBe('');
    expect(h.store.streaming).toBe(true);
    expect(h.store.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'ok'],
      ['assistant', 'streaming'],
    ]);

    h.emit('chat:delta:req-1', { text: 'Echo' });
    h.emit('chat:delta:req-1', { text: ': ' });
    h.emit('chat:delta:req-1', { text: 'hello' });
    expect(h.store.messages[1].content).toBe('Echo: hello');

    h.pending.resolve({
      session: session('s1', '2025-02-01T00:00:00Z'),
      user: msg({ id: 'u1', role: 'user', content: 'hello' }),
      assistant: msg({ id: 'a1', role: 'assistant', content: 'Echo: hello world', model: 'llama3.2' }),
      tools: null,
    });
    expect(await done).toBe(true);
    // The streaming message is replaced by the stored one.
    expect(h.store.messages.map((m) => [m.id, m.status, m.content])).toEqual([
      ['u1', 'ok', 'hello'],
      ['a1', 'ok', 'Echo: hello world'],
    ]);
    expect(h.store.streaming).toBe(false);
    expect(h.store.currentId).toBe('s1');
    expect(h.store.sessions.map((s) => s.id)).toEqual(['s1']);
    // Late deltas after the end are ignored.
    expect(h.handlers.has('chat:delta:req-1')).toBe(false);
    h.emit('chat:delta:req-1', { text: 'late' });
    expect(h.store.messages[1].content).toBe('Echo: hello world');
    expect(h.onFailure).not.toHaveBeenCalled();
  });

  it('marks a cancelled reply and keeps its partial text', async () => {
    const h = harness();
    const done = h.store.send('tell me');
    h.emit('chat:delta:req-1', { text: 'Once upon' });
    await h.store.cancel();
    expect(h.api.CancelMessage).toHaveBeenCalledWith('req-1');
    h.pending.resolve({
      session: session('s1'),
      user: msg({ id: 'u1', role: 'user', content: 'tell me' }),
      assistant: msg({ id: 'a1', role: 'assistant', content: 'Once upon', status: 'cancelled' }),
      tools: null,
    });
    await done;
    const a = h.store.messages[1];
    expect(a.status).toBe('cancelled');
    expect(a.content).toBe('Once upon');
  });

  it('marks a failed reply with its error and asks for a status refresh', async () => {
    const h = harness();
    const done = h.store.send('x');
    h.pending.resolve({
      session: session('s1'),
      user: msg({ id: 'u1', role: 'user', content: 'x' }),
      assistant: msg({ id: 'a1', role: 'assistant', content: 'part', status: 'failed', error: 'ollama stopped' }),
      tools: null,
    });
    await done;
    expect(h.store.messages[1]).toMatchObject({ status: 'failed', error: 'ollama stopped', content: 'part' });
    expect(h.onFailure).toHaveBeenCalledTimes(1);
  });

  it('words a send error in the language shown now, not the one shown when it failed', async () => {
    const h = harness();
    h.store.draft = 'hello';
    const done = h.store.send();
    h.pending.reject(new BackendError('Ollama is not reachable at http://h:1.', 'ollama_unreachable', { host: 'http://h:1' }));
    expect(await done).toBe(false);
    expect(h.store.sendErrorText).toContain('Ollama is not reachable at http://h:1');
    locale.lang = 'zh';
    try {
      expect(h.store.sendErrorText).toContain('无法连接 http://h:1 上的 Ollama');
    } finally {
      locale.lang = 'en';
    }
    h.store.sendError = '';
    expect(h.store.sendErrorText).toBe('');
  });

  it('says the reply failed but the message is saved, and Retry answers it without storing it again', async () => {
    const h = harness();
    h.api.ListSessions.mockResolvedValueOnce([session('s9')]);
    h.api.LoadSession.mockResolvedValueOnce({
      session: session('s9'),
      messages: [msg({ id: 'u9', role: 'user', content: 'my long text' })],
    });
    h.store.draft = 'my long text';
    const done = h.store.send();
    h.pending.reject(new Error('ollama is not reachable'));
    expect(await done).toBe(false);
    expect(h.store.sendError).toBe('ollama is not reachable');
    expect(h.store.replyFailedSaved).toBe(true);
    expect(h.store.draft).toBe(''); // stored: sending it again would store it twice
    expect(h.store.streaming).toBe(false);
    expect(h.onFailure).toHaveBeenCalled();
    // The session the backend created for the message is reloaded.
    expect(h.api.LoadSession).toHaveBeenCalledWith('s9');
    expect(h.store.currentId).toBe('s9');
    expect(h.store.messages.map((m) => m.content)).toEqual(['my long text']);
    void h.store.retry();
    expect(h.api.ContinueTurn).toHaveBeenCalledWith(expect.any(String), 's9');
    expect(h.api.SendMessage).toHaveBeenCalledTimes(1);
    expect(h.store.replyFailedSaved).toBe(false);
  });

  it('finds the new chat of a failed send even when the chat list already shows it', async () => {
    // The backend lists the new chat (an event refreshes the list) before the call fails.
    const h = harness();
    h.api.ListSessions.mockResolvedValue([session('s7')]);
    h.api.LoadSession.mockResolvedValueOnce({
      session: session('s7'),
      messages: [msg({ id: 'u7', role: 'user', content: 'raced text' })],
    });
    h.store.draft = 'raced text';
    const done = h.store.send();
    await h.store.refreshSessions(); // as the sessions:changed event does meanwhile
    h.pending.reject(new Error('ollama is not reachable'));
    expect(await done).toBe(false);
    expect(h.api.LoadSession).toHaveBeenCalledWith('s7');
    expect(h.store.replyFailedSaved).toBe(true);
    expect(h.store.draft).toBe('');
  });

  it('says the message is saved when another chat was opened while the send failed', async () => {
    const h = harness();
    h.api.ListSessions.mockResolvedValue([session('s8'), session('other')]);
    h.api.LoadSession.mockImplementation(async (id: string) =>
      id === 's8'
        ? { session: session('s8'), messages: [msg({ id: 'u8', role: 'user', content: 'sent text' })] }
        : { session: session(id), messages: [] },
    );
    h.store.draft = 'sent text';
    const done = h.store.send();
    await h.store.select('other'); // the view moves on before the call fails
    h.pending.reject(new Error('ollama is not reachable'));
    expect(await done).toBe(false);
    expect(h.api.LoadSession).toHaveBeenCalledWith('s8');
    expect(h.store.replyFailedSaved).toBe(true);
    expect(h.store.currentId).toBe('other'); // the other chat stays open
    expect(h.store.draft).toBe(''); // stored: not put back to be sent twice
  });

  it('takes the backend’s word that the message is stored, even when the chat cannot be read back', async () => {
    const h = harness();
    h.api.LoadSession.mockRejectedValue(new Error('database is busy'));
    h.store.draft = 'stored text';
    const done = h.store.send();
    h.pending.reject(new BackendError('Ollama is not reachable', 'ollama_unreachable', { host: 'http://h:1', session: 's5', stored: 'u5' }));
    expect(await done).toBe(false);
    expect(h.api.LoadSession).toHaveBeenCalledWith('s5'); // the chat the backend named
    expect(h.store.replyFailedSaved).toBe(true);
    expect(h.store.draft).toBe('');
  });

  it('shows the failure only once it knows whether the message was stored (no "not sent" first)', async () => {
    const h = harness();
    h.api.ListSessions.mockResolvedValue([session('s6')]);
    let release: (d: SessionDetail) => void = () => {};
    h.api.LoadSession.mockImplementation(() => new Promise<SessionDetail>((r) => (release = r)));
    h.store.draft = 'slow read back';
    const done = h.store.send();
    h.pending.reject(new BackendError('Ollama is not reachable', 'ollama_unreachable', { host: 'http://h:1' }));
    await vi.waitFor(() => expect(h.api.LoadSession).toHaveBeenCalledWith('s6'));
    expect(h.store.sendError).toBe(''); // still reading the chat back: nothing said yet
    expect(h.store.replyFailedSaved).toBe(false);
    release({ session: session('s6'), messages: [msg({ id: 'u6', role: 'user', content: 'slow read back' })] });
    expect(await done).toBe(false);
    expect(h.store.sendError).toContain('Ollama is not reachable');
    expect(h.store.replyFailedSaved).toBe(true);
  });

  it('puts the text back when the message was not stored', async () => {
    const h = harness();
    h.store.draft = 'never stored';
    const done = h.store.send();
    h.pending.reject(new Error('the data dir is read-only'));
    expect(await done).toBe(false);
    expect(h.store.replyFailedSaved).toBe(false);
    expect(h.store.draft).toBe('never stored');
  });

  it('does not overwrite new typing when restoring the text', async () => {
    const h = harness();
    const done = h.store.send('first');
    h.store.draft = 'second';
    h.pending.reject('boom');
    await done;
    expect(h.store.draft).toBe('second');
    expect(h.store.sendError).toBe('boom');
  });

  it('sends attached resources as blocks after the typed text and clears them', async () => {
    const h = harness();
    const a = { server: 'everything', uri: 'demo://a.md', name: 'a.md', mimeType: 'text/markdown', text: 'AAA' };
    const b = { server: 'everything', uri: 'demo://b.md', name: 'b.md', text: 'BBB' };
    h.store.attach(a);
    h.store.attach(b);
    h.store.attach({ ...a, text: 'AAA v2' });
    expect(h.store.attachments.map((x) => x.text)).toEqual(['AAA v2', 'BBB']);
    expect(h.store.isAttached('everything', 'demo://b.md')).toBe(true);
    h.store.detach(b);
    expect(h.store.isAttached('everything', 'demo://b.md')).toBe(false);
    h.store.draft = 'What does it say?';
    expect(h.store.canSend).toBe(true);
    void h.store.send();
    const sent = h.api.SendMessage.mock.calls[0][2];
    expect(sent).toBe(
      'What does it say?\n\n<resource server="everything" uri="demo://a.md" name="a.md" mime_type="text/markdown">\nAAA v2\n</resource>',
    );
    expect(sent).not.toContain('BBB');
    expect(h.store.attachments).toEqual([]);
    expect(h.store.messages[0].content).toBe(sent);
  });

  it('sends an attachment without typed text, and puts both back when the send fails', async () => {
    const h = harness();
    h.store.attach({ server: 's', uri: 'demo://x', name: 'x', text: 'X' });
    expect(h.store.canSend).toBe(true);
    const done = h.store.send();
    expect(h.api.SendMessage.mock.calls[0][2]).toBe('<resource server="s" uri="demo://x" name="x">\nX\n</resource>');
    h.pending.reject(new Error('boom'));
    await done;
    expect(h.store.draft).toBe('');
    expect(h.store.attachments.map((x) => x.uri)).toEqual(['demo://x']);
  });

  it('refuses empty text and a second send while streaming', async () => {
    const h = harness();
    expect(await h.store.send('   ')).toBe(false);
    expect(h.api.SendMessage).not.toHaveBeenCalled();
    void h.store.send('one');
    expect(await h.store.send('two')).toBe(false);
    expect(h.api.SendMessage).toHaveBeenCalledTimes(1);
  });

  it('does not drop a finished reply into a conversation opened meanwhile', async () => {
    const h = harness();
    const done = h.store.send('one');
    await h.store.select('other');
    h.pending.resolve({
      session: session('s1', '2030-01-01T00:00:00Z'),
      user: msg({ id: 'u1', role: 'user', content: 'one' }),
      assistant: msg({ id: 'a1', role: 'assistant', content: 'reply' }),
      tools: null,
    });
    await done;
    expect(h.store.currentId).toBe('other');
    expect(h.store.messages).toEqual([]);
    expect(h.store.sessions[0].id).toBe('s1');
  });
});

describe('ChatStore sessions', () => {
  it('shows a deletion whose file waits to be scrubbed until scrub:done names it', async () => {
    const { store, api, handlers } = harness();
    const off = store.listen();
    api.DeleteSession.mockResolvedValueOnce({
      id: 'del-1', session_id: 's1', at: '2025-05-01T12:00:00Z', messages: 3, documents: 0, images: 0, lexical_matches: 0, checkpointed: false,
    });
    await store.remove('s1');
    expect(store.deleteReceipt?.id).toBe('del-1');
    expect(store.deleteReceipt?.checkpointed).toBe(false);
    handlers.get('scrub:done')?.(['other']);
    expect(store.deleteReceipt?.checkpointed).toBe(false);
    handlers.get('scrub:done')?.(['del-1']);
    expect(store.deleteReceipt?.checkpointed).toBe(true);
    // A clean deletion has nothing to say.
    await store.remove('s2');
    expect(store.deleteReceipt).toBeNull();
    // An older backend returned nothing.
    api.DeleteSession.mockResolvedValueOnce(undefined as never);
    await store.remove('s3');
    expect(store.deleteReceipt).toBeNull();
    off();
    expect(handlers.has('scrub:done')).toBe(false);
  });

  it('lists newest first and opens the newest on start', async () => {
    const h = harness();
    h.api.ListSessions.mockResolvedValueOnce([
      session('old', '2024-01-01T00:00:00Z'),
      session('new', '2025-06-01T10:00:00.123456789Z'),
      session('mid', '2025-01-01T00:00:00+08:00'),
    ]);
    h.api.LoadSession.mockResolvedValueOnce({
      session: session('new', '2025-06-01T10:00:00.123456789Z'),
      messages: [
        msg({ id: 'sys', role: 'system', content: 'you are' }),
        msg({ id: 'u', role: 'user', content: 'q' }),
        msg({ id: 'a', role: 'assistant', content: 'r', status: 'cancelled' }),
      ],
    });
    await h.store.init();
    expect(h.store.sessions.map((s) => s.id)).toEqual(['new', 'mid', 'old']);
    expect(h.store.currentId).toBe('new');
    expect(h.store.messages.map((m) => [m.id, m.status])).toEqual([
      ['u', 'ok'],
      ['a', 'cancelled'],
    ]);
  });

  it('creates a new session only when the open one has messages', async () => {
    const h = harness();
    await h.store.newChat();
    expect(h.api.NewSession).not.toHaveBeenCalled();
    h.store.messages = [{ id: 'x', role: 'user', content: 'hi', status: 'ok', createdAt: '' }];
    h.store.currentId = 's1';
    await h.store.newChat();
    expect(h.api.NewSession).toHaveBeenCalledTimes(1);
    expect(h.store.currentId).toBe('new');
    expect(h.store.messages).toEqual([]);
  });

  it('does not keep a new chat left before its first message', async () => {
    const h = harness();
    h.store.messages = [{ id: 'x', role: 'user', content: 'hi', status: 'ok', createdAt: '' }];
    h.store.currentId = 's1';
    await h.store.newChat();
    expect(h.store.sessions.map((s) => s.id)).toContain('new');
    await h.store.select('s1');
    expect(h.api.DeleteSession).toHaveBeenCalledWith('new');
    expect(h.store.sessions.map((s) => s.id)).not.toContain('new');
    expect(h.store.deleteReceipt).toBeNull();
    // A new chat the user wrote in is kept.
    await h.store.select('s1');
    h.store.messages = [{ id: 'x', role: 'user', content: 'hi', status: 'ok', createdAt: '' }];
    await h.store.newChat();
    h.store.messages = [{ id: 'y', role: 'user', content: 'hello', status: 'ok', createdAt: '' }];
    await h.store.select('s1');
    expect(h.api.DeleteSession).toHaveBeenCalledTimes(1);
  });

  it('sorts by time, not by string', () => {
    const list = sortSessions([session('a', '2025-01-01T10:00:00+02:00'), session('b', '2025-01-01T09:00:00Z')]);
    expect(list.map((s) => s.id)).toEqual(['b', 'a']);
  });

  it('puts pinned sessions first', () => {
    const list = sortSessions([
      session('new', '2025-03-01T00:00:00Z'),
      { ...session('pinned-old', '2024-01-01T00:00:00Z'), pinned: true },
      session('old', '2025-01-01T00:00:00Z'),
    ]);
    expect(list.map((s) => s.id)).toEqual(['pinned-old', 'new', 'old']);
  });

  it('keeps the intent and pin of a message', () => {
    const m = toUIMessage(msg({ id: 'u', role: 'user', content: 'x', intent: 'task', intentConfidence: 0.91, pinned: true }));
    expect([m.intent, m.intentConfidence, m.pinned]).toEqual(['task', 0.91, true]);
    const plain = toUIMessage(msg({ id: 'a', role: 'assistant', content: 'y' }));
    // Go sends intentConfidence 0 for a message with no intent; it passes through as 0.
    expect([plain.intent, plain.intentConfidence, plain.pinned]).toEqual([undefined, 0, false]);
  });

  it('opens a search hit: loads the session and marks the message', async () => {
    const h = harness();
    h.api.LoadSession.mockResolvedValueOnce({
      session: session('old'),
      messages: [msg({ id: 'u9', role: 'user', content: 'my zebra is named Kiwi' })],
    });
    expect(await h.store.open('old', 'u9')).toBe(true);
    expect(h.store.currentId).toBe('old');
    expect(h.store.highlightId).toBe('u9');
    // A message that is not shown (e.g. a tool record) opens the session without a highlight.
    h.api.LoadSession.mockResolvedValueOnce({ session: session('old'), messages: [] });
    expect(await h.store.open('old', 'tool-1')).toBe(false);
    expect(h.store.highlightId).toBe('');
  });

  it('renames, pins and archives through the backend', async () => {
    const h = harness();
    await h.store.rename('s1', '  Trip plans  ');
    expect(h.api.RenameSession).toHaveBeenCalledWith('s1', 'Trip plans');
    expect(h.store.session('s1')?.title).toBe('Trip plans');
    await expect(h.store.rename('s1', '   ')).rejects.toThrow();
    await h.store.setPinned('s1', true);
    expect(h.api.PinSession).toHaveBeenCalledWith('s1', true);
    expect(h.store.session('s1')?.pinned).toBe(true);
    await h.store.archive('s1');
    expect(h.store.session('s1')?.state).toBe('archived');
  });

  it('deleting the open session clears the view', async () => {
    const h = harness();
    h.store.sessions = [session('s1'), session('s2')];
    h.store.currentId = 's1';
    h.store.messages = [{ id: 'x', role: 'user', content: 'hi', status: 'ok', createdAt: '' }];
    await h.store.remove('s1');
    expect(h.api.DeleteSession).toHaveBeenCalledWith('s1');
    expect(h.store.sessions.map((s) => s.id)).toEqual(['s2']);
    expect(h.store.currentId).toBe('');
    expect(h.store.messages).toEqual([]);
  });

  it('pins a message and counts finished turns', async () => {
    const h = harness();
    h.store.messages = [{ id: 'u1', role: 'user', content: 'hi', status: 'ok', createdAt: '' }];
    await h.store.pinMessage('u1', true);
    expect(h.api.PinMessage).toHaveBeenCalledWith('u1', true);
    expect(h.store.messages[0].pinned).toBe(true);
    expect(h.store.turns).toBe(0);
    const done = h.store.send('x');
    h.pending.resolve({
      session: session('s1'),
      user: msg({ id: 'u2', role: 'user', content: 'x', intent: 'chitchat', intentConfidence: 0.8 }),
      assistant: msg({ id: 'a2', role: 'assistant', content: 'y' }),
      tools: null,
    });
    await done;
    expect(h.store.turns).toBe(1);
    expect(h.store.messages.find((m) => m.id === 'u2')?.intent).toBe('chitchat');
  });

  it('makes safe export file names', () => {
    expect(exportFilename({ id: 'abc', title: 'Trip: Paris/Rome?' }, 'md')).toBe('Trip Paris Rome.md');
    expect(exportFilename({ id: '0123456789abcdef', title: '' }, 'json')).toBe('hermes-0123456789ab.json');
    expect(exportFilename({ id: 'x', title: '旅行计划' }, 'json')).toBe('旅行计划.json');
  });
});

describe('ChatStore tools', () => {
  const shout: ToolCall = { tool: 'shout', args: '{"text":"hi"}', status: 'ok', result: 'hi', latencyMs: 4 };

  it('shows tool calls as they finish and keeps the turn result flags', async () => {
    const h = harness();
    const done = h.store.send('please shout hi');
    expect(h.on).toHaveBeenCalledWith('chat:tool:req-1', expect.any(Function));
    h.emit('chat:tool:req-1', shout);
    h.emit('chat:tool:req-1', { not: 'a tool call' });
    expect(h.store.messages[1].tools).toEqual([{ ...shout, errorKind: undefined, error: undefined, breaker: undefined }]);
    h.pending.resolve({
      session: session('s1'),
      user: msg({ id: 'u1', role: 'user', content: 'please shout hi' }),
      assistant: msg({ id: 'a1', role: 'assistant', content: 'I saved it.' }),
      tools: [shout, { ...shout, status: 'denied', result: undefined }],
      stop: { kind: 'max_iterations', message: 'Stopped after 5 rounds.', iterations: 5, failures: 0 },
      unverified: true,
    });
    await done;
    const a = h.store.messages[1];
    expect(a.id).toBe('a1');
    expect(a.tools?.map((c) => c.status)).toEqual(['ok', 'denied']);
    // With its figures: the card words the stop by them in the user's language.
    expect(a.stop).toEqual({ kind: 'max_iterations', message: 'Stopped after 5 rounds.', iterations: 5, failures: 0 });
    expect(a.unverified).toBe(true);
    expect(h.handlers.has('chat:tool:req-1')).toBe(false);
  });

  it('keeps the streamed tool calls when an older backend sends none', async () => {
    const h = harness();
    const done = h.store.send('x');
    h.emit('chat:tool:req-1', shout);
    h.pending.resolve({
      session: session('s1'),
      user: msg({ id: 'u1', role: 'user', content: 'x' }),
      assistant: msg({ id: 'a1', role: 'assistant', content: 'y' }),
      tools: null,
    });
    await done;
    expect(h.store.messages[1].tools?.map((c) => c.tool)).toEqual(['shout']);
    expect(h.store.messages[1].stop).toBeUndefined();
    expect(h.store.messages[1].unverified).toBeUndefined();
  });

  it('continues a stopped turn as a new streamed reply to the same user message', async () => {
    const h = harness();
    h.store.currentId = 's1';
    h.store.messages = [
      { id: 'u1', role: 'user', content: 'loop', status: 'ok', createdAt: '' },
      { id: 'a1', role: 'assistant', content: 'stopped', status: 'ok', createdAt: '', stop: { kind: 'max_iterations', message: 'm', iterations: 0, failures: 0 } },
    ];
    const done = h.store.continueTurn();
    expect(h.api.ContinueTurn).toHaveBeenCalledWith('req-1', 's1');
    expect(h.store.streaming).toBe(true);
    expect(await h.store.continueTurn()).toBe(false); // one at a time
    h.emit('chat:delta:req-1', { text: 'More' });
    h.emit('chat:tool:req-1', { tool: 'calculator', args: '{"expression":"1+1"}', status: 'ok', result: '2', latencyMs: 0 });
    expect(h.store.messages.map((m) => [m.role, m.status, m.content])).toEqual([
      ['user', 'ok', 'loop'],
      ['assistant', 'ok', 'stopped'],
      ['assistant', 'streaming', 'More'],
    ]);
    h.pending.resolve({
      session: session('s1'),
      user: msg({ id: 'u1', role: 'user', content: 'loop' }),
      assistant: msg({ id: 'a2', role: 'assistant', content: 'More words' }),
      tools: [{ tool: 'calculator', args: '{"expression":"1+1"}', status: 'ok', result: '2', latencyMs: 0 }],
    });
    expect(await done).toBe(true);
    expect(h.store.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'a2']);
    expect(h.store.messages[2].tools?.[0].tool).toBe('calculator');
    expect(h.store.turns).toBe(1);
  });

  it('does not continue without an open conversation', async () => {
    const h = harness();
    expect(await h.store.continueTurn()).toBe(false);
    expect(h.api.ContinueTurn).not.toHaveBeenCalled();
  });

  it('shows stored tool records as cards on the reply that follows them', async () => {
    const h = harness();
    h.api.LoadSession.mockResolvedValueOnce({
      session: session('s1'),
      messages: [
        msg({ id: 'u1', role: 'user', content: 'shout' }),
        msg({ id: 't1', role: 'tool', content: 'hello', toolName: 'shout' }),
        msg({ id: 't2', role: 'tool', content: 'no', status: 'failed' }),
        msg({ id: 'a1', role: 'assistant', content: 'Done' }),
        msg({ id: 'u2', role: 'user', content: 'again' }),
        msg({ id: 'a2', role: 'assistant', content: 'ok' }),
      ],
    });
    await h.store.select('s1');
    expect(h.store.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(h.store.messages[1].tools).toEqual([
      { tool: 'shout', args: '', status: 'ok', result: 'hello', error: undefined, latencyMs: -1 },
      { tool: '', args: '', status: 'error', result: 'no', error: undefined, latencyMs: -1 },
    ]);
    expect(h.store.messages[3].tools).toBeUndefined();
  });

  it('shows the arguments, exact outcome, loop stop and warning the backend kept with a stored turn', async () => {
    const h = harness();
    const kept: ToolCall = { tool: 'shout', args: '{"text":"hi"}', status: 'denied', errorKind: 'denied_by_user', result: 'denied', latencyMs: 3 };
    const stop = { kind: 'max_iterations', message: 'Stopped after 5 rounds.', iterations: 5, failures: 0 };
    h.api.LoadSession.mockResolvedValueOnce({
      session: session('s1'),
      messages: [
        msg({ id: 'u1', role: 'user', content: 'shout hi' }),
        msg({ id: 't1', role: 'tool', content: 'denied', status: 'failed', toolName: 'shout', tool: kept }),
        msg({ id: 'a1', role: 'assistant', content: 'I could not.', stop }),
        msg({ id: 'u2', role: 'user', content: 'save it' }),
        msg({ id: 'a2', role: 'assistant', content: 'I have saved it.', unverified: true }),
      ],
    });
    await h.store.select('s1');
    expect(h.store.messages[1].tools).toEqual([kept]);
    expect(h.store.messages[1].stop).toEqual(stop);
    expect(h.store.messages[1].unverified).toBeUndefined();
    expect(h.store.messages[3].unverified).toBe(true);
    expect(h.store.messages[3].stop).toBeUndefined();
  });
});
