import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import IntentChip from './IntentChip.svelte';
import Message from './Message.svelte';
import { setLang } from '../lib/i18n.svelte';
import { confidencePercent, normalizeIntent } from '../lib/intent';
import type { UIMessage } from '../lib/chat.svelte';

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
