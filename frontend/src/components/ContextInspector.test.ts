import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import ContextInspector from './ContextInspector.svelte';
import type { ContextReport } from '../lib/backend';

const report: ContextReport = {
  sessionId: 's1',
  tokens: 600,
  budget: 2000,
  dropped: 3,
  intent: 'question',
  plan: { intent: 'question', confidence: 0.82, recall: false, recallK: 0, mayWriteMemory: false, toolGroup: 'read-only' },
  items: [
    { reason: 'system', role: 'system', preview: 'You are Hermes', tokens: 100 },
    { reason: 'anchor', role: 'user', preview: 'I bought wireless earphones yesterday', tokens: 200, messageId: 'u1' },
    { reason: 'recent', role: 'assistant', preview: '<b>not html</b>', tokens: 250, messageId: 'a9' },
    { reason: 'query', role: 'user', preview: 'do those earphones support noise cancelling?', tokens: 50 },
  ],
};

describe('ContextInspector', () => {
  it('lists every item with its reason, role, preview and tokens', () => {
    const { getAllByTestId, container } = render(ContextInspector, {
      report,
      sessionId: 's1',
      onrefresh: vi.fn(),
      onclose: vi.fn(),
    });
    const items = getAllByTestId('context-item');
    expect(items.map((i) => i.dataset.reason)).toEqual(['system', 'anchor', 'recent', 'query']);
    expect(items[1].textContent).toContain('anchor');
    expect(items[1].textContent).toContain('user');
    expect(items[1].textContent).toContain('200 tokens');
    expect(items[1].textContent).toContain('earphones yesterday');
    expect(items[3].textContent).toContain('your message');
    expect(container.querySelector('b')).toBeNull();
    expect(items[2].textContent).toContain('<b>not html</b>');
  });

  it('draws the budget as a bar with the dropped count', () => {
    const { getByTestId } = render(ContextInspector, { report, sessionId: 's1', onrefresh: vi.fn(), onclose: vi.fn() });
    const budget = getByTestId('context-budget');
    expect(budget.textContent).toContain('600 of 2000 tokens (30%)');
    expect(getByTestId('context-dropped').textContent).toContain('3 older messages left out');
    const bar = getByTestId('context-bar');
    expect(bar.getAttribute('aria-valuenow')).toBe('600');
    expect(bar.getAttribute('aria-valuemax')).toBe('2000');
    const widths = [...bar.querySelectorAll<HTMLElement>('.seg')].map((s) => s.style.width);
    expect(widths).toEqual(['5%', '2.5%', '12.5%', '10%']);
    expect(getByTestId('context-plan').textContent).toContain('question');
  });

  it('jumps to a shown message and says when there is no turn yet', async () => {
    const onjump = vi.fn();
    const { getAllByTestId } = render(ContextInspector, {
      report,
      sessionId: 's1',
      canJump: (id: string) => id === 'u1',
      onjump,
      onrefresh: vi.fn(),
      onclose: vi.fn(),
    });
    const previews = getAllByTestId('context-preview');
    expect(previews[1].tagName).toBe('BUTTON');
    expect(previews[2].tagName).toBe('DIV');
    await fireEvent.click(previews[1]);
    expect(onjump).toHaveBeenCalledWith('u1');

    const empty = render(ContextInspector, {
      report: { ...report, items: [] },
      sessionId: 's1',
      onrefresh: vi.fn(),
      onclose: vi.fn(),
    });
    expect(empty.getByTestId('context-empty').textContent).toContain('No reply in this conversation kept');
  });

  it("titles a reply's context and goes back to the last turn", async () => {
    const onlast = vi.fn();
    const r = render(ContextInspector, { report, sessionId: 's1', replyId: 'a1', onlast, onrefresh: vi.fn(), onclose: vi.fn() });
    expect(r.container.textContent).toContain('Context of this reply');
    await fireEvent.click(r.getByTestId('context-show-last'));
    expect(onlast).toHaveBeenCalled();
    const last = render(ContextInspector, { report, sessionId: 's1', onrefresh: vi.fn(), onclose: vi.fn() });
    expect(last.container.querySelector('[data-testid="context-show-last"]')).toBeNull();
  });
});
