import { describe, expect, it } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import ToolCard from './ToolCard.svelte';
import type { ToolCall } from '../lib/backend';
import { locale } from '../lib/i18n.svelte';

function call(p: Partial<ToolCall> = {}): ToolCall {
  return { tool: 'shout', args: '{"text":"hi"}', status: 'ok', result: 'hi', latencyMs: 12, ...p };
}

describe('ToolCard', () => {
  it('shows the name, status and latency, and details on demand', async () => {
    const { getByTestId, queryByTestId } = render(ToolCard, { call: call() });
    const card = getByTestId('tool-card');
    expect(card.dataset.status).toBe('ok');
    expect(card.dataset.tool).toBe('shout');
    expect(getByTestId('tool-card-name').textContent).toBe('shout');
    expect(getByTestId('tool-card-status').textContent).toBe('ok');
    expect(getByTestId('tool-card-latency').textContent).toBe('12 ms');
    expect(queryByTestId('tool-card-args')).toBeNull();
    const toggle = getByTestId('tool-card-toggle');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(getByTestId('tool-card-args').textContent).toBe('{\n  "text": "hi"\n}');
    expect(getByTestId('tool-card-result').textContent).toBe('hi');
  });

  it('renders the result and error as text, never HTML', async () => {
    const html = '<img src=x onerror=alert(1)><b>bold</b> **md**';
    const { getByTestId } = render(ToolCard, {
      call: call({ status: 'error', result: html, error: '<script>alert(1)</script>', errorKind: 'exec' }),
    });
    await fireEvent.click(getByTestId('tool-card-toggle'));
    const card = getByTestId('tool-card');
    expect(card.querySelector('img, b, script, strong')).toBeNull();
    expect(getByTestId('tool-card-result').textContent).toBe(html);
    expect(getByTestId('tool-card-error').textContent).toBe('<script>alert(1)</script>');
    expect(getByTestId('tool-card-status').textContent).toBe('error');
  });

  it("words the error's kind and the breaker's state in the user language, an unknown one as it is", async () => {
    locale.lang = 'zh';
    try {
      const r = render(ToolCard, { call: call({ status: 'timeout', error: 'shout did not finish within 10s.', errorKind: 'timeout', breaker: 'open' }) });
      await fireEvent.click(r.getByTestId('tool-card-toggle'));
      expect(r.getByTestId('tool-card-kind').textContent).toBe(' · 类型：超时');
      expect(r.getByText('熔断器：断开（暂停调用）')).toBeTruthy();
      r.unmount();
      const u = render(ToolCard, { call: call({ status: 'error', error: 'x', errorKind: 'flux' }) });
      await fireEvent.click(u.getByTestId('tool-card-toggle'));
      expect(u.getByTestId('tool-card-kind').textContent).toBe(' · 类型：flux');
    } finally {
      locale.lang = 'en';
    }
  });

  it('shows a stored call without arguments or latency', async () => {
    const { getByTestId, queryByTestId } = render(ToolCard, { call: call({ args: '', tool: '', latencyMs: -1, status: 'denied' }) });
    expect(getByTestId('tool-card-name').textContent).toBe('tool');
    expect(getByTestId('tool-card-status').textContent).toBe('denied');
    expect(queryByTestId('tool-card-latency')).toBeNull();
    await fireEvent.click(getByTestId('tool-card-toggle'));
    expect(queryByTestId('tool-card-args')).toBeNull();
  });
});
