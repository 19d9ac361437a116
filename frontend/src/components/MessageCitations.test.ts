import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, within } from '@testing-library/svelte';
import Message from './Message.svelte';
import { locale } from '../lib/i18n.svelte';
import type { UIMessage } from '../lib/chat.svelte';
import type { AgentSource } from '../lib/backend';

afterEach(() => {
  locale.lang = 'en';
});

const sources: AgentSource[] = [
  { n: 1, chunk: '11', collection: 'manuals', file: 'pump.md', page: 3, heading: 'Faults' },
  { n: 2, chunk: '12', collection: 'manuals', file: 'boiler.md' },
  { n: 3, chunk: '13', collection: 'manuals', file: 'unused.md' },
];

function reply(p: Partial<UIMessage>): UIMessage {
  return { id: 'a1', role: 'assistant', content: '', status: 'ok', createdAt: '2025-01-01T00:00:00Z', ...p };
}

describe('citations in a reply', () => {
  it('makes [n] chips that open their passage, and lists the cited sources below', async () => {
    const oncite = vi.fn();
    const { getByTestId, getAllByTestId } = render(Message, {
      message: reply({ content: 'According to [1], the pump **stops** when dry [1][2].', sources }),
      oncite,
    });
    const body = getByTestId('message-body');
    expect(body.querySelector('strong')!.textContent).toBe('stops');
    const chips = within(body).getAllByTestId('citation');
    expect(chips.map((c) => c.textContent)).toEqual(['1', '1', '2']);
    expect(chips[0].getAttribute('aria-label')).toBe('Source 1: pump.md · p. 3 · Faults');
    await fireEvent.click(chips[2]);
    expect(oncite).toHaveBeenCalledWith(sources[1]);
    // The footer: the cited sources in order; the one offered but not cited folded apart.
    const footer = getByTestId('message-sources');
    expect(footer.textContent).toContain('Sources');
    const listed = getAllByTestId('source');
    expect(listed.map((b) => b.textContent)).toEqual(['[1] pump.md · p. 3 · Faults', '[2] boiler.md', '[3] unused.md']);
    expect(within(getByTestId('sources-uncited')).getByTestId('source').dataset.n).toBe('3');
    expect(getByTestId('sources-uncited').querySelector('summary')!.textContent).toBe('1 passage was found but not cited');
    await fireEvent.click(listed[0]);
    expect(oncite).toHaveBeenLastCalledWith(sources[0]);
  });

  it('flags a number that points at no offered source, as the unverified warning is shown', () => {
    const { getByTestId } = render(Message, {
      message: reply({ content: 'Pumps stop [1]. Also [9].', sources: sources.slice(0, 1), badCitations: [9] }),
      oncite: vi.fn(),
    });
    const bad = within(getByTestId('message-body')).getByTestId('citation-bad');
    expect(bad.tagName).toBe('S');
    expect(bad.title).toBe('[9] cites no source that was offered');
    const warn = getByTestId('bad-citations');
    expect(warn.className).toContain('unverified');
    expect(warn.getAttribute('role')).toBe('note');
    expect(warn.textContent).toContain('[9]: this citation points at no passage the assistant was given.');
  });

  it('handles [1, 2] groups and leaves code alone', () => {
    const { getByTestId } = render(Message, {
      message: reply({ content: 'Both say so [1, 2]. See `arr[1]`.', sources }),
      oncite: vi.fn(),
    });
    const body = getByTestId('message-body');
    expect(within(body).getAllByTestId('citation').map((c) => c.dataset.cite)).toEqual(['1', '2']);
    expect(body.querySelector('code')!.textContent).toBe('arr[1]');
  });

  it('shows no chips or footer on a reply without sources, or while it streams', () => {
    const plain = render(Message, { message: reply({ id: 'p', content: 'A list [1] of things.' }) });
    expect(plain.queryByTestId('citation')).toBeNull();
    expect(plain.queryByTestId('message-sources')).toBeNull();
    const live = render(Message, { message: reply({ id: 's', content: 'According to [1]', status: 'streaming', sources }) });
    expect(live.queryByTestId('citation')).toBeNull();
    expect(live.queryByTestId('message-sources')).toBeNull();
  });

  it('words the chips and the footer in Chinese', () => {
    locale.lang = 'zh';
    const { getByTestId, getAllByTestId } = render(Message, {
      message: reply({ content: '根据[1]，水泵会停止。', sources: sources.slice(0, 1), badCitations: [9] }),
      oncite: vi.fn(),
    });
    expect(within(getByTestId('message-body')).getByTestId('citation').getAttribute('aria-label')).toBe('来源 1：pump.md · 第 3 页 · Faults');
    expect(getAllByTestId('source')[0].textContent).toBe('[1] pump.md · 第 3 页 · Faults');
    expect(getByTestId('message-sources').textContent).toContain('来源');
    expect(getByTestId('bad-citations').textContent).toContain('[9]：1 处引用指向的段落并未提供给助手。');
  });
});
