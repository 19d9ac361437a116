import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import SearchResults from './SearchResults.svelte';
import type { SearchHit } from '../lib/backend';

function hit(p: Partial<SearchHit>): SearchHit {
  return {
    sessionId: 's1',
    sessionTitle: 'Pets',
    messageId: 'm1',
    role: 'user',
    snippet: [],
    score: 1,
    createdAt: '2025-01-01T00:00:00Z',
    state: 'active',
    ...p,
  };
}

describe('SearchResults', () => {
  it('puts matches in <mark> and keeps the rest as plain text', () => {
    const { getAllByTestId } = render(SearchResults, {
      hits: [
        hit({
          snippet: [
            { text: 'my ', match: false },
            { text: 'zebra', match: true },
            { text: ' is named Kiwi', match: false },
          ],
        }),
      ],
      query: 'zebra',
      onopen: vi.fn(),
    });
    const snippet = getAllByTestId('search-hit-snippet')[0];
    const marks = snippet.querySelectorAll('mark');
    expect([...marks].map((m) => m.textContent)).toEqual(['zebra']);
    expect(snippet.textContent).toContain('my zebra is named Kiwi');
  });

  it('never renders HTML from a snippet or a title', () => {
    const evil = '<img src=x onerror="alert(1)"><b>bold</b>';
    const { container, getAllByTestId } = render(SearchResults, {
      hits: [
        hit({
          sessionTitle: '<script>alert(1)</script>',
          snippet: [
            { text: evil, match: false },
            { text: '<i>hit</i>', match: true },
          ],
        }),
      ],
      query: 'hit',
      onopen: vi.fn(),
    });
    expect(container.querySelector('img, b, i, script')).toBeNull();
    const snippet = getAllByTestId('search-hit-snippet')[0];
    expect(snippet.textContent).toContain(evil);
    expect(snippet.querySelector('mark')!.textContent).toBe('<i>hit</i>');
    expect(getAllByTestId('search-hit')[0].textContent).toContain('<script>alert(1)</script>');
  });

  it('tags archived sessions and opens a hit on click', async () => {
    const onopen = vi.fn();
    const h1 = hit({ messageId: 'a', state: 'archived', snippet: [{ text: 'old', match: true }] });
    const h2 = hit({ messageId: 'b', sessionTitle: '', snippet: null });
    const { getAllByTestId } = render(SearchResults, { hits: [h1, h2], query: 'old', onopen });
    const items = getAllByTestId('search-hit');
    expect(items).toHaveLength(2);
    expect(items[0].querySelector('[data-testid="search-hit-archived"]')).not.toBeNull();
    expect(items[1].querySelector('[data-testid="search-hit-archived"]')).toBeNull();
    expect(items[1].textContent).toContain('Untitled chat');
    await fireEvent.click(items[0]);
    expect(onopen).toHaveBeenCalledWith(h1);
  });

  it('says when nothing matched, and when a search failed', () => {
    const none = render(SearchResults, { hits: [], query: ' kiwi ', onopen: vi.fn() });
    expect(none.container.textContent).toContain('No messages match “kiwi”.');
    const failed = render(SearchResults, { hits: [], query: 'x', error: 'boom', onopen: vi.fn() });
    expect(failed.getByRole('alert').textContent).toContain('boom');
  });
});
