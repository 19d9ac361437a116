import { describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/svelte';
import ContextInspector from './ContextInspector.svelte';
import type { ContextReport, MemoryRecallCandidate } from '../lib/backend';
import { mem } from '../lib/memory.fixture';
import { recallDetail, recallWhyKey } from '../lib/recall';

function cand(id: string, text: string, kept: boolean, reason: string, rerank = 0.5): MemoryRecallCandidate {
  return { memory: mem(id, text), rank: 1, score: 0.0312, lexical_rank: kept ? 1 : 0, vector_rank: 3, similarity: 0.41, at: '', kept, rerank, reason };
}

const report: ContextReport = {
  sessionId: 's1',
  queryId: 'u7',
  tokens: 600,
  budget: 2000,
  dropped: 0,
  intent: 'question',
  plan: { intent: 'question', confidence: 0.82, recall: true, recallK: 5, mayWriteMemory: false, toolGroup: 'read-only' },
  items: [{ reason: 'query', role: 'user', preview: 'what am I allergic to?', tokens: 50 }],
};

describe('recall candidates in the context inspector', () => {
  it('lists the memories offered and those considered but not used, with why and the scores', async () => {
    const recallLog = vi.fn(async () => [
      cand('a', 'I am allergic to peanuts', true, 'kept: rare terms allergic; recent'),
      cand('b', 'My sister lives in <b>Lisbon</b>', false, 'dropped: below the threshold 0.35: no query term', 0.12),
      cand('c', 'I am allergic to cats', false, 'dropped: beyond the 1 offered'),
    ]);
    const { getByTestId, getAllByTestId, container } = render(ContextInspector, { report, sessionId: 's1', onrefresh: vi.fn(), onclose: vi.fn(), recallLog });
    await waitFor(() => getByTestId('recall-dropped'));
    expect(recallLog).toHaveBeenCalledWith('u7');
    expect(getByTestId('recall-log').textContent).toContain('Offered to the model (1)');
    expect(getByTestId('recall-log').textContent).toContain('Considered but not used (2)');
    const dropped = getAllByTestId('recall-candidate').filter((e) => e.dataset.kept === 'false');
    expect(dropped.map((e) => e.querySelector('[data-testid="recall-why"]')?.textContent)).toEqual([
      'Below the relevance threshold · no query term',
      'More relevant memories filled the places',
    ]);
    expect(dropped[0].querySelector('[data-testid="recall-scores"]')?.textContent?.trim()).toBe(
      'rerank 0.12 · fused 0.031 · lexical #— · vector #3 · similarity 0.41',
    );
    expect(container.querySelector('b')).toBeNull();
  });

  it('is not shown when the turn did not recall, and says so when nothing was logged', async () => {
    const recallLog = vi.fn(async () => []);
    const { queryByTestId, rerender, getByTestId } = render(ContextInspector, {
      report: { ...report, plan: { ...report.plan, recall: false } },
      sessionId: 's1',
      onrefresh: vi.fn(),
      onclose: vi.fn(),
      recallLog,
    });
    expect(queryByTestId('recall-log')).toBeNull();
    await rerender({ report, sessionId: 's1', onrefresh: vi.fn(), onclose: vi.fn(), recallLog });
    await waitFor(() => getByTestId('recall-none'));
  });

  it('words each backend reason', () => {
    expect(recallWhyKey('kept: confirmed profile memory, always offered')).toBe('recall.why.profile');
    expect(recallWhyKey('dropped: not offerable (another profile, not active, decayed or another session\'s)')).toBe('recall.why.offerable');
    expect(recallWhyKey('dropped: found by similarity only, below the similarity threshold')).toBe('recall.why.similarity');
    expect(recallWhyKey('dropped: says the same as a memory offered')).toBe('recall.why.duplicate');
    expect(recallWhyKey('dropped: something new')).toBe('recall.why.other');
    expect(recallDetail('kept: rare terms allergic')).toBe('rare terms allergic');
    expect(recallDetail('kept: confirmed profile memory, always offered')).toBe('');
  });
});
