// Message: a streaming reply's Markdown is drawn at most every 150 ms (the first words at once, a
// finished reply at once), not on every token.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/svelte';
import { tick } from 'svelte';
import Message from './Message.svelte';
import type { UIMessage } from '../lib/chat.svelte';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Message while streaming', () => {
  it('draws the first words at once, later tokens together after the interval, the end at once', async () => {
    const message = $state<UIMessage>({ id: 'p1', role: 'assistant', content: '', status: 'streaming', createdAt: '2025-01-01T00:00:00Z', requestId: 'r1' });
    const { getByTestId } = render(Message, { message });
    const body = () => getByTestId('message-body').textContent?.trim();

    message.content = 'Hello';
    await tick();
    expect(body()).toBe('Hello');

    message.content += ' there';
    await tick();
    message.content += ' friend';
    await tick();
    expect(body()).toBe('Hello'); // within the interval: not drawn yet
    await sleep(200);
    await tick();
    expect(body()).toBe('Hello there friend'); // drawn once for both tokens

    message.content += ' and more';
    message.status = 'ok';
    await tick();
    expect(body()).toBe('Hello there friend and more'); // finished: at once
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('draws when its timer goes off, even a fraction of a millisecond early by the clock, and sets no second timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let now = 1000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const message = $state<UIMessage>({ id: 'p2', role: 'assistant', content: '', status: 'streaming', createdAt: '2025-01-01T00:00:00Z', requestId: 'r2' });
    const { getByTestId } = render(Message, { message });
    const body = () => getByTestId('message-body').textContent?.trim();

    message.content = 'One';
    await tick();
    expect(body()).toBe('One');
    now = 1010;
    message.content += ' two';
    await tick();
    expect(vi.getTimerCount()).toBe(1); // the redraw, 140 ms on
    now = 1149.6; // the timer fires; the clock says 0.4 ms are still to go
    await vi.advanceTimersByTimeAsync(140);
    await tick();
    expect(body()).toBe('One two');
    expect(vi.getTimerCount()).toBe(0);
  });
});
