import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import Message from './Message.svelte';
import type { UIMessage } from '../lib/chat.svelte';
import { setLang } from '../lib/i18n.svelte';
import { resetAnnouncer } from '../lib/announce';

// Noon local time on 1 January 2025: the same day in every time zone the tests run in.
const NOON = new Date(2025, 0, 1, 12, 0, 0).toISOString();

function m(p: Partial<UIMessage>): UIMessage {
  return { id: 'm1', role: 'user', content: '', status: 'ok', createdAt: NOON, ...p };
}

let writeText: ReturnType<typeof vi.fn>;
beforeEach(() => {
  writeText = vi.fn(() => Promise.resolve());
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  setLang('en');
  resetAnnouncer();
});

describe('Message actions', () => {
  it('copies a reply as its Markdown source and says Copied', async () => {
    const content = '**Bold** and `code`\n\n```go\nfmt.Println(1)\n```';
    const { getByTestId } = render(Message, { message: m({ role: 'assistant', content }) });
    const btn = getByTestId('message-copy');
    expect(btn.tagName).toBe('BUTTON');
    expect(btn.getAttribute('aria-label')).toBe('Copy');
    expect(btn.querySelector('svg')).not.toBeNull();
    await fireEvent.click(btn);
    expect(writeText).toHaveBeenCalledWith(content);
    await waitFor(() => expect(getByTestId('message-copy-status').textContent).toBe('Copied'));
    expect(getByTestId('message-copy-status').getAttribute('role')).toBe('status');
    expect(btn.dataset.state).toBe('copied');
  });

  it('copies the text a user typed, without attached resources', async () => {
    const content = 'What is this?\n\n<resource server="s" uri="demo://a.md" name="a.md">\nbody\n</resource>';
    const { getByTestId } = render(Message, { message: m({ content }) });
    await fireEvent.click(getByTestId('message-copy'));
    expect(writeText).toHaveBeenCalledWith('What is this?');
  });

  it('has no Copy while a reply streams or when there is no text', () => {
    const a = render(Message, { message: m({ id: 'a', role: 'assistant', content: 'Hal', status: 'streaming' }) });
    expect(a.queryByTestId('message-copy')).toBeNull();
    const b = render(Message, { message: m({ id: 'b', role: 'assistant', content: '', status: 'failed', error: 'x' }) });
    expect(b.queryByTestId('message-copy')).toBeNull();
  });

  it('says when copying failed', async () => {
    writeText.mockImplementation(() => Promise.reject(new Error('denied')));
    document.execCommand = vi.fn(() => false);
    const { getByTestId } = render(Message, { message: m({ content: 'hi' }) });
    await fireEvent.click(getByTestId('message-copy'));
    await waitFor(() => expect(getByTestId('message-copy-status').textContent).toBe('Could not copy'));
  });

  it('names Copy and shows the time in Chinese', async () => {
    setLang('zh');
    const { getByTestId } = render(Message, { message: m({ content: '你好' }) });
    expect(getByTestId('message-copy').getAttribute('aria-label')).toBe('复制');
    const time = getByTestId('message-time');
    expect(time.title).toMatch(/2025年1月1日/);
    await fireEvent.click(getByTestId('message-copy'));
    await waitFor(() => expect(getByTestId('message-copy-status').textContent).toBe('已复制'));
  });

  it('shows a short time under the message and the exact one on hover', () => {
    const { getByTestId } = render(Message, { message: m({ content: 'hi' }) });
    const time = getByTestId('message-time');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe(NOON);
    expect(time.textContent).toMatch(/Jan 1, 2025/);
    expect(time.title).toMatch(/January 1, 2025/);
    expect(time.title).toMatch(/\d:\d\d:\d\d/);
  });

  it('shows no time for a message without a valid date', () => {
    const { queryByTestId } = render(Message, { message: m({ content: 'hi', createdAt: '' }) });
    expect(queryByTestId('message-time')).toBeNull();
    expect(queryByTestId('message-copy')).not.toBeNull();
  });
});

describe('Message code highlighting', () => {
  it('highlights a finished block that names a language, keeping its text', async () => {
    const content = '```js\nconst x = "<b>hi</b>"; // note\n```';
    const { container } = render(Message, { message: m({ role: 'assistant', content }) });
    const code = container.querySelector('pre code') as HTMLElement;
    await waitFor(() => expect(code.querySelector('.hljs-keyword')).not.toBeNull());
    expect(code.classList.contains('hljs')).toBe(true);
    expect(code.textContent).toBe('const x = "<b>hi</b>"; // note\n');
    expect(code.querySelector('b')).toBeNull();
    expect(code.querySelector('.hljs-string')!.textContent).toBe('"<b>hi</b>"');
    expect(code.querySelector('.hljs-comment')!.textContent).toBe('// note');
    for (const el of code.querySelectorAll('*')) {
      expect(el.tagName).toBe('SPAN');
      expect([...el.attributes].map((a) => a.name)).toEqual(['class']);
    }
  });

  it('leaves streaming, unlabelled and unknown-language blocks as plain text', async () => {
    const streaming = render(Message, {
      message: m({ id: 's', role: 'assistant', content: '```js\nlet a\n```', status: 'streaming' }),
    });
    const plain = render(Message, { message: m({ id: 'p', role: 'assistant', content: '```\nlet a\n```\n\n```klingon\nlet a\n```' }) });
    // A block that names a language, drawn after them, is highlighted: the others had their turn.
    const control = render(Message, { message: m({ id: 'c', role: 'assistant', content: '```js\nlet a\n```' }) });
    await waitFor(() => expect(control.container.querySelector('pre code .hljs-keyword')).not.toBeNull());
    expect(streaming.container.querySelector('pre code span')).toBeNull();
    expect(plain.container.querySelectorAll('pre code span').length).toBe(0);
  });
});

describe('Message: a finished reply is drawn once', () => {
  it('keeps its nodes (and highlighting) when the message is replaced by an equal one, and redraws a changed text', async () => {
    const content = 'Some **bold** text\n\n```js\nlet a = 1\n```';
    const view = render(Message, { message: m({ id: 'r', role: 'assistant', content }) });
    const code = view.container.querySelector('pre code')!;
    await waitFor(() => expect(code.querySelector('.hljs-keyword')).not.toBeNull());
    await view.rerender({ message: m({ id: 'r', role: 'assistant', content }) });
    expect(view.container.querySelector('pre code')).toBe(code);
    expect(code.querySelector('.hljs-keyword')).not.toBeNull();
    await view.rerender({ message: m({ id: 'r', role: 'assistant', content: content.replace('Some', 'Other') }) });
    expect(view.container.querySelector('pre code')).not.toBe(code);
    expect(view.getByTestId('message-body').textContent).toContain('Other bold text');
  });
});

describe('Message: the finished reply is announced', () => {
  const region = () => document.querySelector('[data-testid="reply-announcer"]') as HTMLElement | null;

  it('reads out the stored reply that replaces a streaming one, once', async () => {
    const streaming = render(Message, {
      message: m({ id: 'local-assistant-1', role: 'assistant', content: 'Hello **wor', status: 'streaming', requestId: '1' }),
    });
    const r = region();
    expect(r).not.toBeNull();
    expect(r!.getAttribute('aria-live')).toBe('polite');
    expect(r!.textContent).toBe('');
    streaming.unmount(); // the chat swaps the placeholder for the stored reply
    render(Message, { message: m({ id: 'stored-1', role: 'assistant', content: 'Hello **world**.' }) });
    await waitFor(() => expect(region()!.textContent).toBe('Hermes replied: Hello world.'));
  });

  it('announces nothing for replies shown when a chat opens', async () => {
    render(Message, { message: m({ id: 'a', role: 'assistant', content: 'Old reply' }) });
    render(Message, { message: m({ id: 'b', role: 'assistant', content: 'Older reply' }) });
    await new Promise((r) => setTimeout(r, 100));
    expect(region()?.textContent ?? '').toBe('');
  });

  it('announces nothing while a reply streams or when it failed', async () => {
    const { rerender } = render(Message, {
      message: m({ id: 'x', role: 'assistant', content: 'Part', status: 'streaming', requestId: '2' }),
    });
    await rerender({ message: m({ id: 'x', role: 'assistant', content: 'Part of', status: 'streaming', requestId: '2' }) });
    await rerender({ message: m({ id: 'x', role: 'assistant', content: 'Part of', status: 'failed', requestId: '2' }) });
    await new Promise((r) => setTimeout(r, 100));
    expect(region()!.textContent).toBe('');
  });
});
