// Message: Regenerate, the version switcher, Edit and resend, Delete turn and the figures line.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import Message from './Message.svelte';
import { ChatStore, type BranchControls, type EditState, type UIMessage } from '../lib/chat.svelte';
import type { Message as StoredMessage, SessionDetail, SessionInfo, TurnResult } from '../lib/backend';
import { setLang } from '../lib/i18n.svelte';
import { resetAnnouncer } from '../lib/announce';

const NOON = new Date(2025, 0, 1, 12, 0, 0).toISOString();

function m(p: Partial<UIMessage>): UIMessage {
  return { id: 'm1', role: 'user', content: '', status: 'ok', createdAt: NOON, ...p };
}

/** Branch controls that only record what was asked. */
function fake(p: Partial<{ busy: boolean; editing: EditState | null }> = {}) {
  return {
    busy: p.busy ?? false,
    editing: p.editing ?? null,
    regenerate: vi.fn(),
    startEdit: vi.fn(),
    setEditText: vi.fn(),
    cancelEdit: vi.fn(),
    submitEdit: vi.fn(),
    selectVersion: vi.fn(),
    deleteTurn: vi.fn(async () => {}),
  } satisfies BranchControls;
}

afterEach(() => {
  setLang('en');
  resetAnnouncer();
});

describe('Message: regenerate and versions', () => {
  it('offers Regenerate on a stored reply, disabled while a reply streams', async () => {
    const b = fake();
    const { getByTestId, rerender } = render(Message, { message: m({ id: 'a1', role: 'assistant', content: 'Hi' }), branch: b });
    const btn = getByTestId('message-regenerate') as HTMLButtonElement;
    expect(btn.getAttribute('aria-label')).toBe('Regenerate');
    expect(btn.title).toBe('Regenerate');
    expect(btn.querySelector('svg')).not.toBeNull();
    await fireEvent.click(btn);
    expect(b.regenerate).toHaveBeenCalledWith('a1');
    await rerender({ message: m({ id: 'a1', role: 'assistant', content: 'Hi' }), branch: fake({ busy: true }) });
    expect((getByTestId('message-regenerate') as HTMLButtonElement).disabled).toBe(true);
  });

  it('has no Regenerate on a streaming reply, a user message or without branch controls', () => {
    const a = render(Message, { message: m({ id: 'a', role: 'assistant', content: 'x', status: 'streaming', requestId: 'r' }), branch: fake() });
    expect(a.queryByTestId('message-regenerate')).toBeNull();
    const b = render(Message, { message: m({ id: 'b', content: 'x' }), branch: fake() });
    expect(b.queryByTestId('message-regenerate')).toBeNull();
    const c = render(Message, { message: m({ id: 'c', role: 'assistant', content: 'x' }) });
    expect(c.queryByTestId('message-regenerate')).toBeNull();
  });

  it('steps through versions with the buttons and the arrow keys', async () => {
    const b = fake();
    const versions = { index: 1, count: 3, ids: ['a1', 'a2', 'a3'] };
    const { getByTestId } = render(Message, { message: m({ id: 'a2', role: 'assistant', content: 'x', versions }), branch: b });
    expect(getByTestId('version-label').textContent).toContain('2/3');
    expect(getByTestId('version-label').title).toBe('Version 2 of 3');
    const prev = getByTestId('version-prev') as HTMLButtonElement;
    const next = getByTestId('version-next') as HTMLButtonElement;
    expect(prev.getAttribute('aria-label')).toBe('Previous version');
    expect(next.getAttribute('aria-label')).toBe('Next version');
    await fireEvent.click(prev);
    expect(b.selectVersion).toHaveBeenLastCalledWith('a1', 'prev');
    await fireEvent.click(next);
    expect(b.selectVersion).toHaveBeenLastCalledWith('a3', 'next');
    await fireEvent.keyDown(next, { key: 'ArrowLeft' });
    expect(b.selectVersion).toHaveBeenLastCalledWith('a1', 'prev');
    expect(getByTestId('version-switcher').getAttribute('role')).toBe('group');
  });

  it('cannot step past the ends or while a reply streams', async () => {
    const b = fake();
    const first = render(Message, {
      message: m({ id: 'a1', role: 'assistant', content: 'x', versions: { index: 0, count: 2, ids: ['a1', 'a2'] } }),
      branch: b,
    });
    expect((first.getByTestId('version-prev') as HTMLButtonElement).disabled).toBe(true);
    expect((first.getByTestId('version-next') as HTMLButtonElement).disabled).toBe(false);
    await fireEvent.keyDown(first.getByTestId('version-next'), { key: 'ArrowLeft' });
    expect(b.selectVersion).not.toHaveBeenCalled();
    const busy = render(Message, {
      message: m({ id: 'u1', content: 'x', versions: { index: 0, count: 2, ids: ['u1', 'u2'] } }),
      branch: fake({ busy: true }),
    });
    expect((within(busy.container).getByTestId('version-next') as HTMLButtonElement).disabled).toBe(true);
  });

  it('regenerating streams into a new version whose switcher shows 2/2', async () => {
    const stored: StoredMessage[] = [
      { id: 'u1', sessionId: 's1', role: 'user', content: 'hello', status: 'ok', intentConfidence: 0, createdAt: NOON },
      { id: 'a1', sessionId: 's1', role: 'assistant', content: 'Echo: hello', status: 'ok', intentConfidence: 0, createdAt: NOON },
    ];
    let finish!: (r: TurnResult) => void;
    const handlers = new Map<string, (d: unknown) => void>();
    const session: SessionInfo = { id: 's1', title: 't', createdAt: NOON, updatedAt: NOON, messageCount: 2, state: 'active', pinned: false };
    const store = new ChatStore({
      api: {
        LoadSession: async (): Promise<SessionDetail> => ({ session, messages: stored }),
        RegenerateReply: () => new Promise<TurnResult>((r) => (finish = r)),
      } as never,
      on: (name, cb) => (handlers.set(name, cb), () => handlers.delete(name)),
      uuid: () => 'r1',
    });
    await store.select('s1');
    const branch: BranchControls = {
      get busy() {
        return store.streaming;
      },
      get editing() {
        return store.editing;
      },
      regenerate: (id) => void store.regenerate(id),
      startEdit: () => {},
      setEditText: () => {},
      cancelEdit: () => {},
      submitEdit: () => {},
      selectVersion: () => {},
      deleteTurn: async () => {},
    };
    const before = render(Message, { message: store.messages[1], branch });
    await fireEvent.click(before.getByTestId('message-regenerate'));
    before.unmount();

    const live = render(Message, { message: store.messages[1], branch });
    handlers.get('chat:delta:r1')?.({ text: 'Echo: hello again' });
    await tick();
    expect(live.getByTestId('message-body').textContent?.trim()).toBe('Echo: hello again');
    expect(live.getByTestId('version-label').textContent).toContain('2/2');
    expect((live.getByTestId('version-prev') as HTMLButtonElement).disabled).toBe(true); // streaming
    live.unmount();

    finish({
      session,
      user: stored[0],
      assistant: { ...stored[1], id: 'a2', content: 'Echo: hello again', versions: { index: 1, count: 2, ids: ['a1', 'a2'] } },
      tools: null,
    });
    await waitFor(() => expect(store.streaming).toBe(false));
    const done = render(Message, { message: store.messages[1], branch });
    expect(done.getByTestId('version-label').textContent).toContain('2/2');
    expect((done.getByTestId('version-prev') as HTMLButtonElement).disabled).toBe(false);
    expect((done.getByTestId('version-next') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Message: edit and resend', () => {
  it('Edit opens the editor through the store', async () => {
    const b = fake();
    const { getByTestId } = render(Message, { message: m({ id: 'u1', content: 'hello' }), branch: b });
    expect(getByTestId('message-edit').getAttribute('aria-label')).toBe('Edit');
    await fireEvent.click(getByTestId('message-edit'));
    expect(b.startEdit).toHaveBeenCalledWith('u1');
  });

  it('shows the text in a textarea: Enter sends, Shift+Enter does not, Esc cancels', async () => {
    const b = fake({ editing: { id: 'u1', text: 'hello again' } });
    const { getByTestId, queryByTestId } = render(Message, { message: m({ id: 'u1', content: 'hello' }), branch: b });
    const area = getByTestId('message-edit-text') as HTMLTextAreaElement;
    expect(area.value).toBe('hello again');
    expect(document.activeElement).toBe(area);
    expect(queryByTestId('message-body')).toBeNull();
    expect(queryByTestId('message-actions')).toBeNull();
    await fireEvent.input(area, { target: { value: 'hello there' } });
    expect(b.setEditText).toHaveBeenLastCalledWith('hello there');
    await fireEvent.keyDown(area, { key: 'Enter', shiftKey: true });
    expect(b.submitEdit).not.toHaveBeenCalled();
    await fireEvent.keyDown(area, { key: 'Enter' });
    expect(b.submitEdit).toHaveBeenCalledTimes(1);
    await fireEvent.click(getByTestId('message-edit-send'));
    expect(b.submitEdit).toHaveBeenCalledTimes(2);
    await fireEvent.keyDown(area, { key: 'Escape' });
    expect(b.cancelEdit).toHaveBeenCalledTimes(1);
  });

  it('keeps the edited text and shows the error after a failed resend', async () => {
    const session: SessionInfo = { id: 's1', title: 't', createdAt: NOON, updatedAt: NOON, messageCount: 2, state: 'active', pinned: false };
    const stored: StoredMessage[] = [
      { id: 'u1', sessionId: 's1', role: 'user', content: 'hello', status: 'ok', intentConfidence: 0, createdAt: NOON },
      { id: 'a1', sessionId: 's1', role: 'assistant', content: 'Echo: hello', status: 'ok', intentConfidence: 0, createdAt: NOON },
    ];
    const store = new ChatStore({
      api: {
        LoadSession: async (): Promise<SessionDetail> => ({ session, messages: stored }),
        ListSessions: async () => [session],
        EditMessage: async () => {
          throw new Error('database is locked');
        },
      } as never,
      on: () => () => {},
    });
    await store.select('s1');
    const branch: BranchControls = {
      get busy() {
        return store.streaming;
      },
      get editing() {
        return store.editing;
      },
      regenerate: () => {},
      startEdit: (id) => store.startEdit(id),
      setEditText: (t) => {
        if (store.editing) store.editing.text = t;
      },
      cancelEdit: () => store.cancelEdit(),
      submitEdit: () => void store.submitEdit(),
      selectVersion: () => {},
      deleteTurn: async () => {},
    };
    store.startEdit('u1');
    const first = render(Message, { message: store.messages[0], branch });
    await fireEvent.input(first.getByTestId('message-edit-text'), { target: { value: 'hello, edited' } });
    await fireEvent.keyDown(first.getByTestId('message-edit-text'), { key: 'Enter' });
    await waitFor(() => expect(store.editing?.error).toBe('database is locked'));
    first.unmount();
    const again = render(Message, { message: store.messages[0], branch });
    expect((again.getByTestId('message-edit-text') as HTMLTextAreaElement).value).toBe('hello, edited');
    expect(again.getByTestId('message-edit-error').textContent).toBe('Not sent: database is locked');
  });
});

describe('Message: delete a turn', () => {
  it('asks first; Cancel deletes nothing, Delete deletes the turn', async () => {
    const b = fake();
    const { getByTestId, queryByTestId } = render(Message, { message: m({ id: 'u1', content: 'hello' }), branch: b });
    const del = getByTestId('message-delete');
    expect(del.getAttribute('aria-label')).toBe('Delete turn');
    await fireEvent.click(del);
    const dialog = getByTestId('turn-confirm-delete');
    expect(dialog.getAttribute('role')).toBe('alertdialog');
    expect(dialog.textContent).toContain('Delete this turn?');
    expect(document.activeElement).toBe(getByTestId('turn-delete-cancel'));
    expect(b.deleteTurn).not.toHaveBeenCalled();
    await fireEvent.click(getByTestId('turn-delete-cancel'));
    expect(queryByTestId('turn-confirm-delete')).toBeNull();
    expect(b.deleteTurn).not.toHaveBeenCalled();

    await fireEvent.click(del);
    await fireEvent.click(getByTestId('turn-delete-ok'));
    expect(b.deleteTurn).toHaveBeenCalledWith('u1');
    await waitFor(() => expect(queryByTestId('turn-confirm-delete')).toBeNull());
  });

  it('has no Delete on a reply or on a message not stored yet', () => {
    const a = render(Message, { message: m({ id: 'a1', role: 'assistant', content: 'x' }), branch: fake() });
    expect(a.queryByTestId('message-delete')).toBeNull();
    const b = render(Message, { message: m({ id: 'local-user-1', content: 'x', requestId: '1' }), branch: fake() });
    expect(b.queryByTestId('message-delete')).toBeNull();
    expect(b.queryByTestId('message-edit')).toBeNull();
  });
});

describe('Message: figures and Chinese names', () => {
  const figures = { model: 'llama3.2', promptTokens: 1204, completionTokens: 312, tokensPerSecond: 41, firstTokenMs: 350, totalMs: 7600 };

  it('shows the figures line under a finished reply only', async () => {
    const { getByTestId, queryByTestId, rerender } = render(Message, {
      message: m({ id: 'a1', role: 'assistant', content: 'Hi', figures }),
    });
    const line = getByTestId('message-figures');
    expect(line.textContent).toBe('llama3.2 · 1,204 → 312 tokens · 41 tok/s · first token 0.35 s');
    expect(line.title).toContain('Total time: 7.6 s');
    await rerender({ message: m({ id: 'a1', role: 'assistant', content: 'Hi', figures, status: 'streaming', requestId: 'r' }) });
    expect(queryByTestId('message-figures')).toBeNull();
  });

  it('names every control in Chinese', async () => {
    setLang('zh');
    const reply = render(Message, {
      message: m({ id: 'a2', role: 'assistant', content: 'x', figures, versions: { index: 1, count: 3, ids: ['a1', 'a2', 'a3'] } }),
      branch: fake(),
    });
    expect(reply.getByTestId('message-regenerate').getAttribute('aria-label')).toBe('重新生成');
    expect(reply.getByTestId('version-prev').getAttribute('aria-label')).toBe('上一个版本');
    expect(reply.getByTestId('version-next').getAttribute('aria-label')).toBe('下一个版本');
    expect(reply.getByTestId('version-label').title).toBe('第 2/3 个版本');
    expect(reply.getByTestId('message-figures').textContent).toBe('llama3.2 · 1,204 → 312 个词元 · 41 词元/秒 · 首个词元 0.35 秒');
    const user = render(Message, { message: m({ id: 'u1', content: '你好' }), branch: fake() });
    expect(user.getByTestId('message-edit').getAttribute('aria-label')).toBe('编辑');
    expect(user.getByTestId('message-delete').getAttribute('aria-label')).toBe('删除这一轮');
  });
});
