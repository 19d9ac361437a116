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
  it('lists every item with its reason in words, preview and tokens', () => {
    const { getAllByTestId, container } = render(ContextInspector, {
      report,
      sessionId: 's1',
      onrefresh: vi.fn(),
      onclose: vi.fn(),
    });
    const items = getAllByTestId('context-item');
    expect(items.map((i) => i.dataset.reason)).toEqual(['system', 'anchor', 'recent', 'query']);
    expect(items[1].textContent).toContain('anchor');
    expect(items[1].textContent).toContain('An older turn with a time, a number');
    expect(items[1].textContent).not.toMatch(/\buser\b/); // no raw roles
    expect(items[1].textContent).toContain('200 tokens');
    expect(items[1].textContent).toContain('earphones yesterday');
    expect(items[3].textContent).toContain('your message');
    expect(container.querySelector('b')).toBeNull();
    expect(items[2].textContent).toContain('<b>not html</b>');
  });

  it('groups the items, folds the tool schemas to a count and keeps the model\'s order within a group', () => {
    const withTools: ContextReport = {
      ...report,
      items: [
        report.items![0],
        { reason: 'tool_schema', role: 'tool_schema', preview: '{"type":"function","function":{"name":"calculator","description":"…"}}', tokens: 60 },
        { reason: 'tool_schema', role: 'tool_schema', preview: '{"type":"function","function":{"name":"current_time"}}', tokens: 40 },
        { reason: 'memory', role: 'system', preview: 'I am allergic to peanuts', tokens: 20 },
        { reason: 'knowledge', role: 'system', preview: '[1] manual.pdf p. 3', tokens: 90 },
        ...report.items!.slice(1),
      ],
    };
    const { getAllByTestId, getByTestId } = render(ContextInspector, { report: withTools, sessionId: 's1', onrefresh: vi.fn(), onclose: vi.fn() });
    const groups = getAllByTestId('context-group');
    expect(groups.map((g) => g.dataset.group)).toEqual(['instructions', 'tools', 'memories', 'documents', 'conversation']);
    expect(groups[1].textContent).toContain('Tools');
    expect(groups[1].textContent).toContain('100 tokens');
    const fold = getByTestId('context-tools') as HTMLDetailsElement;
    expect(fold.open).toBe(false);
    expect(fold.querySelector('summary')?.textContent).toBe('2 tools the model may call');
    expect(fold.textContent).toContain('calculator · 60 tokens');
    expect(groups[4].querySelectorAll('[data-testid="context-item"]')).toHaveLength(3);
    expect(groups[3].textContent).toContain('Your documents');
  });

  it("shows Ollama's count beside the estimate, and says when the context was full", () => {
    const counted = render(ContextInspector, { report: { ...report, counted: 640 }, sessionId: 's1', onrefresh: vi.fn(), onclose: vi.fn() });
    expect(counted.getByTestId('context-counted').textContent).toContain('Ollama counted 640 tokens');
    expect(counted.getByTestId('context-counted').getAttribute('role')).toBeNull();
    counted.unmount();
    const full = render(ContextInspector, { report: { ...report, counted: 4096, full: true }, sessionId: 's1', onrefresh: vi.fn(), onclose: vi.fn() });
    const el = full.getByTestId('context-counted');
    expect(el.getAttribute('role')).toBe('alert');
    expect(el.textContent).toContain('the whole context, so it cut the start of the prompt');
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
