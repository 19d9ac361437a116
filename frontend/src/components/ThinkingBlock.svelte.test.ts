import { describe, expect, it } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import { tick } from 'svelte';
import Message from './Message.svelte';
import { locale } from '../lib/i18n.svelte';
import type { UIMessage } from '../lib/chat.svelte';

function reply(p: Partial<UIMessage>): UIMessage {
  return { id: 'a1', role: 'assistant', content: '', status: 'streaming', createdAt: '2025-01-01T00:00:00Z', ...p };
}

describe('ThinkingBlock in a reply', () => {
  it('is open and live while the model thinks, folds with its time when the answer starts', async () => {
    locale.lang = 'en';
    const msg = $state(reply({ thinking: 'Weighing tea against coffee.' }));
    const { getByTestId, queryByText } = render(Message, { message: msg });
    const block = getByTestId('thinking-block') as HTMLDetailsElement;
    expect(block.open).toBe(true);
    expect(block.dataset.live).toBe('true');
    expect(getByTestId('thinking-summary').textContent).toContain('Thinking…');
    expect(getByTestId('thinking-text').textContent).toBe('Weighing tea against coffee.');
    // The generic placeholder is not shown beside it.
    expect(queryByText('Thinking…', { selector: '.thinking' })).toBeNull();

    msg.content = 'Tea.';
    await tick();
    expect(block.open).toBe(false);
    expect(block.dataset.live).toBe('false');
    expect(getByTestId('thinking-summary').textContent).toMatch(/Thought for [\d.]+ s|Reasoning/);
  });

  it('shows a stored reply folded with the stored time, in Chinese too, and opens from the keyboard', async () => {
    locale.lang = 'zh';
    const { getByTestId } = render(Message, {
      message: reply({ status: 'ok', content: 'Tea.', thinking: 'Weighing.', figures: { model: 'qwen3', promptTokens: 1, completionTokens: 2, tokensPerSecond: 1, firstTokenMs: 1, totalMs: 9000, thinkingMs: 12000, thinkingTokens: 30 } }),
    });
    const block = getByTestId('thinking-block') as HTMLDetailsElement;
    expect(block.open).toBe(false);
    expect(getByTestId('thinking-summary').textContent).toContain('已思考 12 秒');
    expect(getByTestId('thinking-copy')).toBeTruthy();
    block.open = true;
    await fireEvent(block, new Event('toggle'));
    expect(block.open).toBe(true);
    locale.lang = 'en';
  });

  it('says which model is loading before the first token', () => {
    locale.lang = 'en';
    const { getByTestId } = render(Message, { message: reply({ loading: 'qwen3' }) });
    expect(getByTestId('message-loading').textContent).toBe('Loading qwen3…');
  });
});
