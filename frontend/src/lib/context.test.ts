import { describe, expect, it, vi } from 'vitest';
import { ContextStore, segments, usage } from './context.svelte';
import type { ContextItem, ContextReport, PromptReason } from './backend';

function item(reason: PromptReason, tokens: number): ContextItem {
  return { reason, role: 'user', preview: reason, tokens };
}

describe('budget bar math', () => {
  it('computes used, left and percent', () => {
    expect(usage(512, 2048)).toEqual({ used: 512, budget: 2048, percent: 25, over: false, left: 1536 });
    expect(usage(1, 3)).toMatchObject({ percent: 33.3, left: 2 });
    expect(usage(2048, 2048)).toMatchObject({ percent: 100, over: false, left: 0 });
  });

  it('caps the bar at 100% when over budget', () => {
    expect(usage(3000, 2000)).toEqual({ used: 3000, budget: 2000, percent: 100, over: true, left: 0 });
  });

  it('treats a missing or bad budget safely', () => {
    expect(usage(0, 0)).toEqual({ used: 0, budget: 0, percent: 0, over: false, left: 0 });
    expect(usage(10, 0)).toMatchObject({ percent: 100, over: true });
    expect(usage(Number.NaN, -5)).toMatchObject({ used: 0, budget: 0, percent: 0 });
  });

  it('sums tokens per reason in selection order', () => {
    // A reason this UI does not know (a newer Go side's): deliberately outside the type.
    const unknown: string = 'zzz';
    const segs = segments(
      [item('recent', 100), item('system', 50), item('anchor', 30), item('recent', 20), item(unknown as PromptReason, 10), item('memory', 0)],
      1000,
    );
    expect(segs).toEqual([
      { reason: 'system', tokens: 50, percent: 5 },
      { reason: 'recent', tokens: 120, percent: 12 },
      { reason: 'anchor', tokens: 30, percent: 3 },
      { reason: 'zzz', tokens: 10, percent: 1 },
    ]);
  });

  it('scales segments to the total when it is larger than the budget', () => {
    const segs = segments([item('system', 300), item('recent', 100)], 200);
    expect(segs.map((s) => s.percent)).toEqual([75, 25]);
    expect(segs.reduce((a, s) => a + s.percent, 0)).toBeLessThanOrEqual(100);
    expect(segments([], 100)).toEqual([]);
    expect(segments(null, 0)).toEqual([]);
  });
});

describe('ContextStore', () => {
  const report = (id: string): ContextReport => ({
    sessionId: id,
    items: [item('query', 5)],
    tokens: 5,
    budget: 100,
    dropped: 0,
    intent: 'task',
    plan: { intent: 'task', confidence: 0.9, recall: true, recallK: 3, mayWriteMemory: false, toolGroup: 'task' },
  });

  it('keeps only the answer for the latest session asked', async () => {
    let release!: (r: ContextReport) => void;
    const LastContext = vi
      .fn()
      .mockImplementationOnce(() => new Promise<ContextReport>((r) => (release = r)))
      .mockImplementationOnce(async (id: string) => report(id));
    const store = new ContextStore({ api: { LastContext, ReplyContext: vi.fn() } });
    const first = store.load('a');
    await store.load('b');
    release(report('a'));
    await first;
    expect(store.sessionId).toBe('b');
    expect(store.report?.sessionId).toBe('b');
    expect(store.hasTurn).toBe(true);
  });

  it('clears for no session and normalizes null items', async () => {
    const LastContext = vi.fn(async (id: string) => ({ ...report(id), items: null }));
    const store = new ContextStore({ api: { LastContext, ReplyContext: vi.fn() } });
    await store.load('a');
    expect(store.report?.items).toEqual([]);
    expect(store.hasTurn).toBe(false);
    await store.load('');
    expect(store.report).toBeNull();
    expect(LastContext).toHaveBeenCalledTimes(1);
  });

  it("loads a reply's own context, and the last turn's again when asked", async () => {
    const LastContext = vi.fn(async (id: string) => report(id));
    const ReplyContext = vi.fn(async (id: string, reply: string) => ({ ...report(id), messageId: reply }));
    const store = new ContextStore({ api: { LastContext, ReplyContext } });
    await store.load('a', 'reply-1');
    expect(ReplyContext).toHaveBeenCalledWith('a', 'reply-1');
    expect(store.replyId).toBe('reply-1');
    expect(store.report?.messageId).toBe('reply-1');
    await store.load('a');
    expect(LastContext).toHaveBeenCalledWith('a');
    expect(store.replyId).toBe('');
    // No session: no reply either.
    await store.load('', 'reply-1');
    expect(store.replyId).toBe('');
    expect(ReplyContext).toHaveBeenCalledTimes(1);
  });
});
