import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchStore } from './search.svelte';
import type { SearchHit } from './backend';

const hit = (id: string): SearchHit => ({
  sessionId: 's',
  sessionTitle: 't',
  messageId: id,
  role: 'user',
  snippet: [{ text: id, match: true }],
  score: 1,
  createdAt: '',
  state: 'active',
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('SearchStore', () => {
  it('waits for typing to pause before it searches', async () => {
    const search = vi.fn(async (q: string) => [hit(q)]);
    const s = new SearchStore({ search, delayMs: 200 });
    s.set('z');
    s.set('ze');
    s.set('zebra');
    expect(s.pending).toBe(true);
    await vi.advanceTimersByTimeAsync(199);
    expect(search).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(search).toHaveBeenCalledTimes(1);
    expect(search).toHaveBeenCalledWith('zebra');
    expect(s.hits.map((h) => h.messageId)).toEqual(['zebra']);
    expect(s.pending).toBe(false);
  });

  it('ignores a late answer to an older query', async () => {
    let releaseOld!: (h: SearchHit[]) => void;
    const search = vi
      .fn()
      .mockImplementationOnce(() => new Promise<SearchHit[]>((r) => (releaseOld = r)))
      .mockImplementationOnce(async () => [hit('new')]);
    const s = new SearchStore({ search, delayMs: 10 });
    s.set('old');
    await vi.advanceTimersByTimeAsync(10);
    s.set('new');
    await vi.advanceTimersByTimeAsync(10);
    releaseOld([hit('old')]);
    await vi.advanceTimersByTimeAsync(0);
    expect(s.hits.map((h) => h.messageId)).toEqual(['new']);
  });

  it('clears at once on an empty query and reports errors', async () => {
    const search = vi.fn(async () => {
      throw new Error('index is busy');
    });
    const s = new SearchStore({ search, delayMs: 10 });
    s.set('x');
    await vi.advanceTimersByTimeAsync(10);
    expect(s.error).toBe('index is busy');
    s.clear();
    expect(s.active).toBe(false);
    expect(s.error).toBe('');
    await vi.advanceTimersByTimeAsync(50);
    expect(search).toHaveBeenCalledTimes(1);
  });
});
