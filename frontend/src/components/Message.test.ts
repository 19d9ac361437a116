import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/svelte';
import Message from './Message.svelte';
import type { UIMessage } from '../lib/chat.svelte';

function m(p: Partial<UIMessage>): UIMessage {
  return { id: 'm1', role: 'user', content: '', status: 'ok', createdAt: '2025-01-01T00:00:00Z', ...p };
}

describe('Message', () => {
  it('shows user text literally, never as HTML', () => {
    const text = '<b>bold</b> <img src=x onerror=alert(1)> **not markdown**';
    const { getByTestId } = render(Message, { message: m({ content: text }) });
    const el = getByTestId('message');
    expect(el.dataset.role).toBe('user');
    expect(el.dataset.status).toBe('ok');
    expect(el.querySelector('b, img, strong')).toBeNull();
    expect(el.querySelector('.body')!.textContent).toBe(text);
  });

  it('renders assistant Markdown sanitized', () => {
    const { getByTestId } = render(Message, {
      message: m({ role: 'assistant', content: '**hi** <img src=x onerror=alert(1)>\n\n```\ncode\n```' }),
    });
    const el = getByTestId('message');
    expect(el.dataset.role).toBe('assistant');
    expect(el.querySelector('strong')!.textContent).toBe('hi');
    expect(el.querySelector('pre code')!.textContent).toBe('code\n');
    expect(el.querySelector('img')).toBeNull();
  });

  it('adds copy buttons to code blocks once the reply is complete', async () => {
    const content = 'x\n\n```sh\nollama serve\n```';
    const streaming = render(Message, { message: m({ id: 's', role: 'assistant', content, status: 'streaming' }) });
    expect(streaming.container.querySelector('button.copy')).toBeNull();
    const done = render(Message, { message: m({ id: 'd', role: 'assistant', content }) });
    await Promise.resolve();
    const btn = done.container.querySelector('.code-wrap button.copy');
    expect(btn).not.toBeNull();
    expect(done.container.querySelector('pre code')!.textContent).toBe('ollama serve\n');
  });

  it('marks a stopped reply and keeps its partial text', () => {
    const { getByTestId } = render(Message, {
      message: m({ role: 'assistant', content: 'Echo: half', status: 'cancelled' }),
    });
    const el = getByTestId('message');
    expect(el.dataset.status).toBe('cancelled');
    expect(el.textContent).toContain('Echo: half');
    expect(getByTestId('message-marker').textContent).toBe('stopped');
  });

  it('shows the error of a failed reply', () => {
    const { getByTestId } = render(Message, {
      message: m({ role: 'assistant', content: 'part', status: 'failed', error: 'model crashed' }),
    });
    expect(getByTestId('message').dataset.status).toBe('failed');
    expect(getByTestId('message-marker').textContent).toBe('failed: model crashed');
    expect(getByTestId('message').textContent).toContain('part');
  });

  it('marks a streaming reply', () => {
    const { getByTestId, queryByTestId } = render(Message, {
      message: m({ role: 'assistant', content: 'Ech', status: 'streaming' }),
    });
    expect(getByTestId('message').dataset.status).toBe('streaming');
    expect(queryByTestId('message-marker')).toBeNull();
  });
});
