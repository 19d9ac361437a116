import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import Message from './Message.svelte';
import { locale } from '../lib/i18n.svelte';
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

  it('shows attached resources folded above the typed text, as text', async () => {
    const content =
      'What is this?\n\n<resource server="everything" uri="demo://a.md" name="a.md" mime_type="text/markdown">\n<b>raw</b> text\n</resource>';
    const { getByTestId, getAllByTestId } = render(Message, { message: m({ content }) });
    const [res] = getAllByTestId('message-resource');
    expect(res.tagName).toBe('DETAILS');
    expect(res.dataset.uri).toBe('demo://a.md');
    expect(res.querySelector('summary')!.textContent).toContain('a.md');
    expect(res.querySelector('summary')!.textContent).toContain('resource from everything');
    expect(res.querySelector('pre')!.textContent).toBe('<b>raw</b> text');
    expect(res.querySelector('b')).toBeNull();
    expect(getByTestId('message-body').textContent).toBe('What is this?');
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

  it('shows a reply the disk could not take, its text whole, marked as not saved yet', () => {
    const { getByTestId } = render(Message, {
      message: m({ role: 'assistant', content: 'Echo: the whole answer', status: 'unsaved' }),
    });
    expect(getByTestId('message').dataset.status).toBe('unsaved');
    expect(getByTestId('message').textContent).toContain('Echo: the whole answer');
    expect(getByTestId('message-marker').textContent).toMatch(/^Not saved yet: .*Copy it/);
  });

  it('shows the error of a failed reply', () => {
    const { getByTestId } = render(Message, {
      message: m({ role: 'assistant', content: 'part', status: 'failed', error: 'model crashed' }),
    });
    expect(getByTestId('message').dataset.status).toBe('failed');
    expect(getByTestId('message-marker').textContent).toBe('failed: model crashed');
    expect(getByTestId('message').textContent).toContain('part');
  });

  it('words a stored failure by its code in the user\'s language', () => {
    const failed = m({
      role: 'assistant',
      content: '',
      status: 'failed',
      error: 'Ollama is not reachable at http://127.0.0.1:9. Start it with `ollama serve`.',
      errorCode: 'ollama_unreachable',
      errorParams: { host: 'http://127.0.0.1:9' },
    });
    locale.lang = 'zh';
    try {
      const { getByTestId } = render(Message, { message: failed });
      const text = getByTestId('message-marker').textContent ?? '';
      expect(text).toContain('无法连接 http://127.0.0.1:9 上的 Ollama');
      expect(text).not.toContain('is not reachable');
    } finally {
      locale.lang = 'en';
    }
  });

  it('marks a streaming reply', () => {
    const { getByTestId, queryByTestId } = render(Message, {
      message: m({ role: 'assistant', content: 'Ech', status: 'streaming' }),
    });
    expect(getByTestId('message').dataset.status).toBe('streaming');
    expect(queryByTestId('message-marker')).toBeNull();
  });

  it('shows tool cards, the unverified warning and the loop-stopped card', async () => {
    const oncontinue = vi.fn();
    const { getByTestId, getAllByTestId } = render(Message, {
      message: m({
        role: 'assistant',
        content: 'I saved it.',
        tools: [
          { tool: 'calculator', args: '{}', status: 'ok', latencyMs: 1 },
          { tool: 'calculator', args: '{}', status: 'blocked', latencyMs: 0 },
        ],
        unverified: true,
        stop: { kind: 'consecutive_failures', message: 'Stopped after 3 tool calls in a row failed.', iterations: 0, failures: 0 },
      }),
      oncontinue,
    });
    expect(getAllByTestId('tool-card').map((c) => c.dataset.status)).toEqual(['ok', 'blocked']);
    expect(getByTestId('unverified-warning').textContent).toContain('This reply says it did something, but no tool ran.');
    const card = getByTestId('loop-stopped');
    expect(card.dataset.kind).toBe('consecutive_failures');
    expect(card.textContent).toContain('Several tool calls in a row failed.');
    expect(getByTestId('loop-message').textContent).toBe('Stopped after 3 tool calls in a row failed.');
    await fireEvent.click(getByTestId('continue-once'));
    expect(oncontinue).toHaveBeenCalledTimes(1);
  });

  it('words the stop by its figures in the user language, and hides a reply that only repeats it', () => {
    locale.lang = 'zh';
    try {
      const msg = 'Stopped after 5 rounds of tool calls without a final answer.';
      const r = render(Message, {
        message: m({ role: 'assistant', content: `_${msg}_`, stop: { kind: 'max_iterations', message: msg, iterations: 5, failures: 0 } }),
      });
      expect(r.getByTestId('loop-message').textContent).toBe('进行了 5 轮工具调用仍没有最终回答，已停止。');
      expect(r.getByTestId('message-body').hidden).toBe(true);
      r.unmount();
      const f = render(Message, {
        message: m({
          role: 'assistant',
          content: 'Partial answer.',
          stop: { kind: 'consecutive_failures', message: 'Stopped after 3 …', iterations: 0, failures: 3, lastTool: 'clock' },
        }),
      });
      expect(f.getByTestId('loop-message').textContent).toBe('连续 3 次工具调用失败（最后一次：clock），已停止。');
      expect(f.getByTestId('message-body').hidden).toBe(false);
    } finally {
      locale.lang = 'en';
    }
  });

  it('offers no continue button without a handler and no warnings on a plain reply', () => {
    const stopped = render(Message, {
      message: m({ id: 'x', role: 'assistant', content: 'a', stop: { kind: 'max_iterations', message: '', iterations: 0, failures: 0 } }),
    });
    expect(stopped.getByTestId('loop-stopped')).toBeTruthy();
    expect(stopped.queryByTestId('continue-once')).toBeNull();
    const plain = render(Message, { message: m({ id: 'y', role: 'assistant', content: 'b' }) });
    const q = (id: string) => plain.container.querySelector(`[data-testid="${id}"]`);
    expect(q('unverified-warning')).toBeNull();
    expect(q('loop-stopped')).toBeNull();
    expect(q('tool-cards')).toBeNull();
  });
});
