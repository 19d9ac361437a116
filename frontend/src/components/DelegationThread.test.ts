import { describe, expect, it, vi } from 'vitest';
import { tick } from 'svelte';
import { fireEvent, render } from '@testing-library/svelte';
import DelegationThread from './DelegationThread.svelte';
import Message from './Message.svelte';
import { ChatStore } from '../lib/chat.svelte';
import { locale } from '../lib/i18n.svelte';
import type { Delegation } from '../lib/agents.svelte';
import type { SessionDetail, SessionInfo } from '../lib/backend';
import { researchEvents, storedDelegation } from '../lib/agents.fixture';

function session(id: string): SessionInfo {
  return { id, title: id, createdAt: '2026-01-02T10:00:00Z', updatedAt: '2026-01-02T10:00:00Z', messageCount: 0, state: 'active', pinned: false };
}

function chat() {
  const handlers = new Map<string, (d: unknown) => void>();
  const api = {
    SendMessage: vi.fn(() => new Promise(() => {})),
    LoadSession: vi.fn(async (id: string): Promise<SessionDetail> => ({ session: session(id), messages: storedDelegation(id) })),
    ListSessions: vi.fn(async () => [session('s1')]),
  };
  const store = new ChatStore({
    api: api as never,
    on: (name, cb) => {
      handlers.set(name, cb);
      return () => handlers.delete(name);
    },
    uuid: () => 'req-1',
  });
  return { store, emit: (n: string, d: unknown) => handlers.get(n)?.(d) };
}

describe('DelegationThread', () => {
  it('shows live events as steps while open, then folds once the answer comes', async () => {
    const c = chat();
    c.store.draft = 'research my invoices';
    void c.store.send();
    const { getByTestId, getAllByTestId, queryByTestId } = render(Message, { message: c.store.messages[1] });
    c.emit('chat:agent:req-1', researchEvents[0]);
    c.emit('chat:agent:req-1', researchEvents[1]);
    c.emit('chat:agent:req-1', researchEvents[2]);
    await tick();
    const thread = getByTestId('delegation');
    expect(thread.dataset.agent).toBe('researcher');
    expect(thread.dataset.status).toBe('running');
    const toggle = getByTestId('delegation-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-label')).toBe('Delegated to researcher: working…');
    expect(getByTestId('delegation-task').textContent).toBe('research my invoices');
    expect(getAllByTestId('delegation-step').map((s) => s.dataset.kind)).toEqual(['text']);
    expect(getAllByTestId('delegation-step')[0].textContent).toContain('Searching past chats.');

    c.emit('chat:agent:req-1', researchEvents[3]);
    await tick();
    expect(getAllByTestId('delegation-step').map((s) => s.dataset.kind)).toEqual(['text', 'tool']);
    const card = getAllByTestId('delegation-step')[1].querySelector('[data-testid="tool-card"]') as HTMLElement;
    expect(card.dataset.tool).toBe('session_search');

    c.emit('chat:agent:req-1', researchEvents[4]);
    c.emit('chat:agent:req-1', researchEvents[5]);
    await tick();
    expect(getByTestId('delegation').dataset.status).toBe('done');
    expect(getByTestId('delegation-toggle').getAttribute('aria-expanded')).toBe('false');
    expect(queryByTestId('delegation-steps')).toBeNull();
    await fireEvent.click(getByTestId('delegation-toggle'));
    expect(getByTestId('delegation-answer').textContent).toBe('I found: invoice #42');
    // The streamed answer is not shown twice.
    expect(getAllByTestId('delegation-step')).toHaveLength(2);
  });

  it('renders a loaded conversation: the agent call becomes its thread, folded', async () => {
    const c = chat();
    await c.store.select('s1');
    const { getByTestId, queryByTestId, getAllByTestId } = render(Message, { message: c.store.messages[1] });
    expect(queryByTestId('tool-card')).toBeNull();
    const toggle = getByTestId('delegation-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(getByTestId('delegation-task-line').textContent).toBe('research my invoices');
    await fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(getByTestId('delegation-answer').textContent).toBe('I found: invoice #42');
    const steps = getAllByTestId('delegation-step');
    expect(steps.map((s) => s.dataset.kind)).toEqual(['tool']);
    expect(steps[0].querySelector<HTMLElement>('[data-testid="tool-card"]')!.dataset.tool).toBe('session_search');
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)).not.toBeNull();
  });

  it('shows a failure and names it in Chinese', async () => {
    const d: Delegation = { callId: 'c', agent: 'editor', task: 'polish', status: 'failed', steps: [], answer: '', error: 'model missing' };
    locale.lang = 'zh';
    try {
      const { getByTestId } = render(DelegationThread, { delegation: d });
      expect(getByTestId('delegation-toggle').getAttribute('aria-label')).toBe('已委托给 editor：失败');
      await fireEvent.click(getByTestId('delegation-toggle'));
      expect(getByTestId('delegation-error').textContent).toBe('model missing');
    } finally {
      locale.lang = 'en';
    }
  });
});
