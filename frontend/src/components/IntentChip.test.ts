import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import IntentChip from './IntentChip.svelte';
import Message from './Message.svelte';
import { setLang } from '../lib/i18n.svelte';
import { confidencePercent, normalizeIntent } from '../lib/intent';
import { ChatStore, type ChatApi, type UIMessage } from '../lib/chat.svelte';

afterEach(() => setLang('en'));

function m(p: Partial<UIMessage>): UIMessage {
  return { id: 'm1', role: 'user', content: 'what time is it', status: 'ok', createdAt: '2025-01-01T00:00:00Z', ...p };
}

describe('IntentChip', () => {
  it('shows the label and the confidence as a percentage on hover', () => {
    const { getByTestId } = render(IntentChip, { intent: 'task', confidence: 0.874 });
    const chip = getByTestId('intent-chip');
    expect(chip.textContent).toBe('task');
    expect(chip.dataset.intent).toBe('task');
    expect(chip.getAttribute('title')).toBe('Intent: task (87% confident)');
    expect(chip.classList.contains('muted')).toBe(false);
  });

  it('shows unknown (and labels it does not know) muted', () => {
    const a = render(IntentChip, { intent: 'unknown', confidence: 0 });
    expect(a.getByTestId('intent-chip').classList.contains('muted')).toBe(true);
    const b = render(IntentChip, { intent: 'weird-label' });
    const chip = b.getAllByTestId('intent-chip')[1];
    expect(chip.dataset.intent).toBe('unknown');
    expect(chip.classList.contains('muted')).toBe(true);
    expect(chip.getAttribute('title')).toBe('Intent: unknown');
  });

  it('is localized', () => {
    setLang('zh');
    const { getByTestId } = render(IntentChip, { intent: 'remember', confidence: 0.5 });
    expect(getByTestId('intent-chip').textContent).toBe('记住');
    expect(getByTestId('intent-chip').getAttribute('title')).toContain('50%');
  });

  it('formats confidences and labels defensively', () => {
    expect(confidencePercent(1)).toBe('100%');
    expect(confidencePercent(1.7)).toBe('100%');
    expect(confidencePercent(0.005)).toBe('1%');
    expect(confidencePercent(undefined)).toBe('');
    expect(confidencePercent(Number.NaN)).toBe('');
    expect(normalizeIntent(' Task ')).toBe('task');
    expect(normalizeIntent('')).toBe('unknown');
  });
});

describe('Message intent and pin', () => {
  it('shows the intent chip on user messages only', () => {
    const user = render(Message, { message: m({ intent: 'task', intentConfidence: 0.93 }) });
    expect(user.getByTestId('intent-chip').textContent).toBe('task');
    const assistant = render(Message, { message: m({ id: 'a', role: 'assistant', content: 'x', intent: 'task' }) });
    expect(assistant.container.querySelector('[data-testid="intent-chip"]')).toBeNull();
  });

  it('has an id to scroll to, and a pin toggle for stored messages', async () => {
    const onpin = vi.fn();
    const stored = render(Message, { message: m({ id: 'u7' }), onpin, highlighted: true });
    const el = stored.getByTestId('message');
    expect(el.id).toBe('msg-u7');
    expect(el.dataset.highlighted).toBe('true');
    const btn = stored.getByTestId('message-pin');
    expect(btn.getAttribute('aria-pressed')).toBe('false');
    await fireEvent.click(btn);
    expect(onpin).toHaveBeenCalledWith(expect.objectContaining({ id: 'u7' }), true);

    const local = render(Message, { message: m({ id: 'local-user-1', requestId: 'r1' }), onpin });
    expect(local.container.querySelector('[data-testid="message-pin"]')).toBeNull();
  });

  it('marks a pinned message', () => {
    const { getByTestId } = render(Message, { message: m({ pinned: true }), onpin: vi.fn() });
    expect(getByTestId('message').dataset.pinned).toBe('true');
    expect(getByTestId('message-pin').getAttribute('aria-pressed')).toBe('true');
    expect(getByTestId('message-pinned')).toBeTruthy();
  });
});

describe('IntentChip correction', () => {
  const labels = ['chitchat', 'question', 'task', 'remember', 'recall', 'forget', 'hypothetical'];

  it('opens a menu of the seven labels and gives the message the one picked', async () => {
    const oncorrect = vi.fn(async (_l: string) => {});
    const { getByTestId, getAllByTestId, queryByRole } = render(IntentChip, { intent: 'hypothetical', confidence: 0.95, oncorrect });
    const chip = getByTestId('intent-chip');
    expect(chip.tagName).toBe('BUTTON');
    expect(chip.getAttribute('aria-haspopup')).toBe('menu');
    expect(chip.getAttribute('aria-expanded')).toBe('false');
    expect(chip.getAttribute('aria-label')).toBe('Intent: hypothetical (95% confident). Change the intent');
    await fireEvent.click(chip);
    expect(chip.getAttribute('aria-expanded')).toBe('true');
    const items = getAllByTestId('intent-choice');
    expect(items.map((b) => b.dataset.intent)).toEqual(labels);
    expect(items.map((b) => b.textContent)).toEqual(labels);
    expect(items.filter((b) => b.getAttribute('aria-checked') === 'true').map((b) => b.dataset.intent)).toEqual(['hypothetical']);
    expect(document.activeElement).toBe(items[6]); // the current label has the focus
    await fireEvent.click(items[3]);
    expect(oncorrect).toHaveBeenCalledWith('remember');
    expect(queryByRole('menu')).toBeNull();
  });

  it('is keyboard operable', async () => {
    const oncorrect = vi.fn();
    const { getByTestId, getAllByTestId, queryByRole, getByRole } = render(IntentChip, { intent: 'task', oncorrect });
    const chip = getByTestId('intent-chip');
    chip.focus();
    await fireEvent.click(chip); // Enter or Space on a button
    const menu = getByRole('menu');
    const items = getAllByTestId('intent-choice');
    expect(document.activeElement).toBe(items[2]);
    await fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[3]);
    await fireEvent.keyDown(menu, { key: 'End' });
    expect(document.activeElement).toBe(items[6]);
    await fireEvent.keyDown(menu, { key: 'ArrowDown' }); // wraps
    expect(document.activeElement).toBe(items[0]);
    await fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items[6]);
    await fireEvent.keyDown(menu, { key: 'Escape' });
    expect(queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(chip);
    expect(oncorrect).not.toHaveBeenCalled();
  });

  it('shows the labels in Chinese', async () => {
    setLang('zh');
    const { getByTestId, getAllByTestId, getByRole } = render(IntentChip, { intent: 'task', oncorrect: vi.fn() });
    await fireEvent.click(getByTestId('intent-chip'));
    expect(getByRole('menu').getAttribute('aria-label')).toBe('这条消息的意图');
    expect(getAllByTestId('intent-choice').map((b) => b.textContent)).toEqual(['闲聊', '提问', '任务', '记住', '回忆', '遗忘', '假设']);
  });

  it('says when the correction failed', async () => {
    const oncorrect = vi.fn(async () => {
      throw new Error('boom');
    });
    const { getByTestId, getAllByTestId, findByTestId } = render(IntentChip, { intent: 'task', oncorrect });
    await fireEvent.click(getByTestId('intent-chip'));
    await fireEvent.click(getAllByTestId('intent-choice')[3]);
    expect((await findByTestId('intent-error')).textContent).toContain('Could not change the intent');
  });

  it('is corrected from a stored user message, not from one still being sent', async () => {
    const onintent = vi.fn();
    const stored = render(Message, { message: m({ id: 'u7', intent: 'task' }), onintent });
    await fireEvent.click(stored.getByTestId('intent-chip'));
    await fireEvent.click(stored.getAllByTestId('intent-choice')[3]);
    expect(onintent).toHaveBeenCalledWith(expect.objectContaining({ id: 'u7' }), 'remember');
    const local = render(Message, { message: m({ id: 'local-user-1', requestId: 'r1', intent: 'task' }), onintent });
    expect(local.container.querySelector('[data-testid="intent-chip"]')?.tagName).toBe('SPAN');
  });

  it('updates the chip from the backend answer', async () => {
    const api = {
      CorrectIntent: vi.fn(async (messageId: string, label: string) => ({
        messageId,
        intent: label,
        intentConfidence: 1,
        plan: { intent: label, confidence: 1, recall: true, recallK: 5, mayWriteMemory: true, toolGroup: 'memory' },
      })),
    } as unknown as ChatApi;
    const store = new ChatStore({ api, on: () => () => {} });
    store.messages = [m({ id: 'u1', intent: 'hypothetical', intentConfidence: 0.95 })];
    await store.correctIntent('u1', 'remember');
    expect(api.CorrectIntent).toHaveBeenCalledWith('u1', 'remember');
    expect(store.messages[0].intent).toBe('remember');
    expect(store.messages[0].intentConfidence).toBe(1);
  });
});
