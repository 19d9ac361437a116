import { afterEach, describe, expect, it, vi } from 'vitest';
import { NetworkStore, hostPort, outcomeText, partOf, partText, summaryText, whenText } from './network.svelte';
import { locale } from './i18n.svelte';

afterEach(() => {
  locale.lang = 'en';
});

describe('network words', () => {
  it('names the part of Hermes a connection belongs to', () => {
    expect(partOf('ollama')).toEqual({ kind: 'ollama', name: '' });
    expect(partOf('mcp:notes')).toEqual({ kind: 'mcp', name: 'notes' });
    expect(partOf('tool:a:b')).toEqual({ kind: 'tool', name: 'a:b' });
    expect(partOf('mcp:')).toEqual({ kind: 'other', name: 'mcp:' });
    expect(partText('tool:lookup')).toBe('Tool lookup');
    locale.lang = 'zh';
    expect(partText('tool:lookup')).toBe('工具 lookup');
    expect(partText('something')).toBe('something');
  });

  it('words the outcome and its reason, and keeps a reason it does not know', () => {
    expect(outcomeText({ outcome: 'refused', reason: 'offline_only_dns' })).toEqual({ outcome: 'refused', reason: 'offline only (name lookup)' });
    expect(outcomeText({ outcome: 'made' })).toEqual({ outcome: 'made', reason: '' });
    expect(outcomeText({ outcome: 'failed', reason: 'brand_new' })).toEqual({ outcome: 'failed', reason: 'brand_new' });
    locale.lang = 'zh';
    expect(outcomeText({ outcome: 'failed', reason: 'timeout' })).toEqual({ outcome: '失败', reason: '超时' });
  });

  it('writes host and port, an IPv6 address in brackets', () => {
    expect(hostPort({ host: 'nas.lan', port: '8080' })).toBe('nas.lan:8080');
    expect(hostPort({ host: '::1', port: '11434' })).toBe('[::1]:11434');
  });

  it('counts connections with the plural rule, and the refused ones', () => {
    expect(summaryText([{ outcome: 'made', count: 1 }])).toBe('1 connection');
    expect(summaryText([{ outcome: 'made', count: 2 }, { outcome: 'refused', count: 3 }])).toBe('5 connections · 3 refused');
    locale.lang = 'zh';
    expect(summaryText([{ outcome: 'refused', count: 1 }])).toBe('1 次连接 · 1 次被拒绝');
  });

  it('shows the clock for today and the day for earlier', () => {
    const now = new Date('2025-03-10T15:00:00');
    expect(whenText(new Date('2025-03-10T21:05:07').toISOString(), now)).toBe('21:05:07'); // 24-hour: short, one line
    expect(whenText(new Date('2025-03-02T09:05:07').toISOString(), now)).toMatch(/Mar/);
    expect(whenText('not a time', now)).toBe('not a time');
  });
});

describe('NetworkStore', () => {
  it('reads a null list of connections (a nil Go slice) as none', async () => {
    const store = new NetworkStore({ NetworkActivity: vi.fn(async () => ({ offlineOnly: true, entries: null })) });
    await store.load();
    expect(store.entries).toEqual([]);
    expect(store.offlineOnly).toBe(true);
    expect(store.loaded).toBe(true);
    expect(store.error).toBe('');
  });
});
