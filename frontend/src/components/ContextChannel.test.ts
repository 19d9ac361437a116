import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import ContextInspector from './ContextInspector.svelte';
import { ContextStore } from '../lib/context.svelte';
import type { ContextReport } from '../lib/backend';

function report(preview: string): ContextReport {
  return {
    sessionId: 's1',
    tokens: 100,
    budget: 1000,
    dropped: 0,
    intent: 'question',
    plan: { intent: 'question', confidence: 0.9, recall: false, recallK: 0, mayWriteMemory: false, toolGroup: 'read-only' },
    items: [{ reason: 'system', role: 'system', preview, tokens: 100 }],
  };
}

function fakeApi() {
  return {
    LastContext: vi.fn(async () => report('You are Hermes')),
    ReplyContext: vi.fn(async () => report('reply')),
    SessionChannels: vi.fn(async (id: string) => (id === 's1' ? ['main', 'researcher'] : ['main'])),
    ChannelContext: vi.fn(async (_s: string, ch: string) => report(`You are Hermes' ${ch}`)),
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('ContextStore channels', () => {
  it('lists the channels and shows a sub-agent channel from ChannelContext', async () => {
    const api = fakeApi();
    const ctx = new ContextStore({ api });
    await ctx.load('s1');
    await flush();
    expect(ctx.channels).toEqual(['main', 'researcher']);
    expect(ctx.report?.items?.[0].preview).toBe('You are Hermes');
    await ctx.setChannel('researcher');
    expect(api.ChannelContext).toHaveBeenCalledWith('s1', 'researcher');
    expect(ctx.report?.items?.[0].preview).toBe("You are Hermes' researcher");
    // A refresh stays on the channel; main goes back to what it shows today.
    await ctx.load('s1');
    expect(api.ChannelContext).toHaveBeenCalledTimes(2);
    await ctx.setChannel('main');
    expect(api.LastContext).toHaveBeenCalledTimes(2);
    expect(ctx.report?.items?.[0].preview).toBe('You are Hermes');
  });

  it("goes back to main to show a reply's context", async () => {
    const api = fakeApi();
    const ctx = new ContextStore({ api });
    await ctx.load('s1');
    await ctx.setChannel('researcher');
    await ctx.load('s1', 'a7');
    expect(ctx.channel).toBe('main');
    expect(api.ReplyContext).toHaveBeenCalledWith('s1', 'a7');
  });

  it('goes back to main in another session', async () => {
    const api = fakeApi();
    const ctx = new ContextStore({ api });
    await ctx.load('s1');
    await ctx.setChannel('researcher');
    await ctx.load('s2');
    await flush();
    expect(ctx.channel).toBe('main');
    expect(ctx.channels).toEqual(['main']);
    expect(api.LastContext).toHaveBeenLastCalledWith('s2');
  });

  it('works with a backend that has no channels', async () => {
    const api = { LastContext: vi.fn(async () => report('x')), ReplyContext: vi.fn() };
    const ctx = new ContextStore({ api });
    await ctx.load('s1');
    expect(ctx.channels).toEqual([]);
    expect(ctx.report?.items?.[0].preview).toBe('x');
  });
});

describe('ContextInspector channel switch', () => {
  const base = { sessionId: 's1', onrefresh: vi.fn(), onclose: vi.fn() };

  it('has no switch with a single channel', () => {
    const { queryByTestId } = render(ContextInspector, { ...base, report: report('a'), channels: ['main'], channel: 'main', onchannel: vi.fn() });
    expect(queryByTestId('context-channel')).toBeNull();
  });

  it('offers the channels and names the one shown', async () => {
    const onchannel = vi.fn();
    const { getByTestId, getByRole, rerender } = render(ContextInspector, {
      ...base,
      report: report('a'),
      channels: ['main', 'researcher'],
      channel: 'main',
      onchannel,
    });
    const select = getByTestId('context-channel') as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['main', 'The conversation'],
      ['researcher', 'Specialist researcher'],
    ]);
    expect(getByRole('combobox', { name: 'Context of' })).toBe(select);
    await fireEvent.change(select, { target: { value: 'researcher' } });
    expect(onchannel).toHaveBeenCalledWith('researcher');
    await rerender({ ...base, report: report("You are Hermes' researcher"), channels: ['main', 'researcher'], channel: 'researcher', onchannel });
    expect(getByTestId('context-channel-hint').textContent).toContain('researcher');
    expect(document.getElementById('ctx-title')!.textContent).toBe('Context of researcher');
  });
});
