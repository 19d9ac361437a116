import { describe, expect, it, vi } from 'vitest';
import { BackendError, type Memory, type MemoryFilter } from './backend';
import { en, format, locale, zh } from './i18n.svelte';
import { fakeApi, mem, profileApi, receipt } from './memory.fixture';
import {
  MEMORY_CATEGORIES,
  MEMORY_LAYERS,
  MEMORY_STATUSES,
  MemoryStore,
  buildMemoryFilter,
  buildTimeline,
  decayLevel,
  decayWidth,
  emptyFilter,
  foldNotice,
  mergeSearch,
  applyScrub,
  receiptClean,
  receiptText,
  editUndoBlock,
  halfLifeError,
} from './memory.svelte';

const tEn = (k: keyof typeof en, p?: Record<string, string | number>) => format(en[k], p);
const tZh = (k: keyof typeof en, p?: Record<string, string | number>) => format(zh[k], p);

describe('memory filter JSON', () => {
  it('leaves out empty fields', () => {
    expect(buildMemoryFilter(emptyFilter())).toEqual({});
  });
  it('maps the UI filters to MemoryList fields', () => {
    const f = { ...emptyFilter(), layer: 'fact', status: 'archived', category: 'health', minStrength: 0.35, profile: 'work', query: 'x' };
    expect(buildMemoryFilter(f, { limit: 50 })).toEqual({
      profile: 'work',
      layer: 'fact',
      statuses: ['archived'],
      category: 'health',
      minConfidence: 0.35,
      limit: 50,
    });
  });
  it('lets explicit statuses win (the pending inbox)', () => {
    expect(buildMemoryFilter({ status: 'active' }, { statuses: ['pending'] })).toEqual({ statuses: ['pending'] });
  });
});

describe('decay bar', () => {
  it('takes its width from the strength, clamped to 0..100', () => {
    expect(decayWidth(0.5)).toBe(50);
    expect(decayWidth(0.123)).toBe(12);
    expect(decayWidth(1.7)).toBe(100);
    expect(decayWidth(-1)).toBe(0);
    expect(decayWidth(NaN)).toBe(0);
  });
  it('marks strengths under the archive line as weak', () => {
    expect(decayLevel(0.29)).toBe('weak');
    expect(decayLevel(0.3)).toBe('mid');
    expect(decayLevel(0.9)).toBe('strong');
  });
});

describe('receipt', () => {
  it('says how many were forgotten and what a new search finds, in both languages', () => {
    expect(receiptText(receipt, tEn)).toBe('Forgot 2 memories. A new search finds 0 lexical and 0 vector matches.');
    expect(receiptText({ ...receipt, count: 1 }, tEn)).toBe('Forgot 1 memory. A new search finds 0 lexical and 0 vector matches.');
    expect(receiptText(receipt, tZh)).toContain('2');
    expect(receiptClean(receipt)).toBe(true);
    expect(receiptClean({ ...receipt, vector_matches: 1 })).toBe(false);
  });

  it('is not clean while the file waits to be scrubbed (another Hermes process was reading)', () => {
    const waiting = { ...receipt, checkpointed: false };
    expect(receiptClean(waiting)).toBe(false);
    expect(receiptText(waiting, tEn)).toBe(
      'Forgot 2 memories. A new search finds 0 lexical and 0 vector matches. ' +
        'Erased from the index; waiting to scrub the file (another Hermes process is reading the database).',
    );
    expect(receiptText(waiting, tZh)).toContain('另一个 Hermes 进程正在读取数据库');
    // An older backend leaves checkpointed out: it always scrubbed at once.
    const { checkpointed: _, ...old } = receipt;
    expect(receiptClean(old as typeof receipt)).toBe(true);
  });

  it('turns clean when scrub:done names it, and only then', () => {
    const waiting = { ...receipt, checkpointed: false };
    expect(applyScrub(waiting, ['other'])).toBe(waiting);
    expect(applyScrub(waiting, 'tb1')).toBe(waiting);
    expect(applyScrub(null, ['tb1'])).toBeNull();
    const done = applyScrub(waiting, ['x', 'tb1']);
    expect(receiptClean(done)).toBe(true);
    expect(receiptText(done, tEn)).toBe(
      'Forgot 2 memories. A new search finds 0 lexical and 0 vector matches. The file has been scrubbed too.',
    );
    expect(applyScrub(receipt, ['tb1'])).toBe(receipt);
  });
});

describe('MemoryStore scrub:done', () => {
  it('marks the shown receipt clean when the background retry scrubbed its file', async () => {
    const api = fakeApi([mem('a', 'A')]);
    vi.mocked(api.MemoryForget).mockResolvedValueOnce({ ...receipt, tombstone_id: 'tb9', count: 1, checkpointed: false });
    const s = new MemoryStore(api);
    const handlers = new Map<string, (d: unknown) => void>();
    const off = s.listen((name, cb) => {
      handlers.set(name, cb);
      return () => handlers.delete(name);
    });
    await s.load();
    s.askForget(['a']);
    await s.confirmForgetNow();
    expect(s.receipt && receiptClean(s.receipt)).toBe(false);
    handlers.get('scrub:done')?.(['tb1']);
    expect(s.receipt && receiptClean(s.receipt)).toBe(false);
    handlers.get('scrub:done')?.(['tb9']);
    expect(s.receipt && receiptClean(s.receipt)).toBe(true);
    expect(s.receipt?.scrubbed).toBe(true);
    off();
    expect(handlers.size).toBe(0);
  });
});

describe('i18n of memory values', () => {
  it('has a label for every layer, status and category', () => {
    for (const l of MEMORY_LAYERS) expect(en).toHaveProperty(`memory.layer.${l}`);
    for (const s of MEMORY_STATUSES) expect(en).toHaveProperty(`memory.status.${s}`);
    for (const c of MEMORY_CATEGORIES) expect(en).toHaveProperty(`memory.cat.${c}`);
  });
});

describe('timeline', () => {
  it('counts created, archived and forgotten per day', () => {
    const now = new Date('2025-03-10T20:00:00Z');
    const days = buildTimeline(
      [mem('a', 'x'), mem('b', 'y', { status: 'archived', created_at: '2025-03-09T08:00:00Z' }), mem('c', 'old', { created_at: '2024-01-01T00:00:00Z' })],
      [{ id: 't', at: '2025-03-09T09:00:00Z', kind: 'id', count: 3 }],
      3,
      now,
    );
    expect(days.map((d) => d.day)).toEqual(['2025-03-08', '2025-03-09', '2025-03-10']);
    expect(days[2]).toMatchObject({ created: 1, archived: 1, forgotten: 0 });
    expect(days[1]).toMatchObject({ created: 1, archived: 0, forgotten: 3 });
  });
});

describe('search merge', () => {
  it('puts search hits first, then text matches', () => {
    const rows = [mem('a', 'likes tea'), mem('b', 'allergic to peanuts'), mem('c', 'peanut butter fan')];
    const out = mergeSearch(rows, [{ memory_id: 'c', ref: '', text: '', score: 1 }], 'peanut');
    expect(out.map((m) => m.id)).toEqual(['c', 'b']);
    expect(mergeSearch(rows, [], '  ')).toBe(rows);
  });
});

describe('memory updated notice', () => {
  it('collects what one turn wrote; undo takes the added and pending ids', () => {
    let n = foldNotice(null, { kind: 'added', ids: ['m1'], session_id: 's', message_id: 'u1' });
    n = foldNotice(n, { kind: 'superseded', ids: ['old'], session_id: 's', message_id: 'u1' });
    n = foldNotice(n, { kind: 'pending', ids: ['m2'], session_id: 's', message_id: 'u1' });
    expect(n).toEqual({ messageId: 'u1', sessionId: 's', ids: ['m1', 'm2'], kinds: ['added', 'superseded', 'pending'] });
    expect(foldNotice(n, { kind: 'forgotten', ids: ['other'] })).toBe(n);
    expect(foldNotice(n, { kind: 'updated', ids: ['m1'] })).toBe(n);
    expect(foldNotice(n, { kind: 'added', ids: ['m9'], message_id: 'u2' })?.ids).toEqual(['m9']);
  });

  it('goes when its cause is gone: erased memories leave it, an approval ends "waits for your approval"', () => {
    const added = foldNotice(null, { kind: 'added', ids: ['m1'], session_id: 's', message_id: 'u1' });
    expect(foldNotice(added, { kind: 'forgotten', ids: ['m1'] })).toBeNull();
    expect(foldNotice(added, { kind: 'archived', ids: ['m1', 'x'] })).toBeNull();
    let both = foldNotice(added, { kind: 'pending', ids: ['m2'], session_id: 's', message_id: 'u1' });
    expect(foldNotice(both, { kind: 'forgotten', ids: ['m1'] })?.ids).toEqual(['m2']);
    const pending = foldNotice(null, { kind: 'pending', ids: ['p1'], session_id: 's', message_id: 'u1' });
    expect(foldNotice(pending, { kind: 'approved', ids: ['p1'] })?.kinds).toEqual(['added']);
    // a notice that also says something was reinforced stays, without Undo ids
    both = foldNotice(added, { kind: 'reinforced', ids: ['old'], session_id: 's', message_id: 'u1' });
    expect(foldNotice(both, { kind: 'forgotten', ids: ['m1'] })).toEqual({ messageId: 'u1', sessionId: 's', ids: [], kinds: ['added', 'reinforced'] });
  });

  it('never shows in incognito: switching it on clears the notice and later changes make none', async () => {
    const api = fakeApi();
    const s = new MemoryStore(api);
    const handlers: Record<string, (d: unknown) => void> = {};
    s.listen((name, cb) => {
      handlers[name] = cb;
      return () => {};
    });
    handlers['memory:changed']({ kind: 'added', ids: ['m1'], session_id: 's', message_id: 'u1' });
    expect(s.notice?.ids).toEqual(['m1']);
    await s.setIncognito(true);
    expect(s.incognito).toBe(true);
    expect(s.notice).toBeNull();
    handlers['memory:changed']({ kind: 'added', ids: ['m2'], session_id: 's', message_id: 'u2' });
    expect(s.notice).toBeNull();
  });

  it('offers undo only while the backend says it can work, rechecking on changes and when the window closes', async () => {
    vi.useFakeTimers();
    try {
      const api = fakeApi();
      const until = new Date(Date.now() + 60_000).toISOString();
      const undoable = api.MemoryUndoable as ReturnType<typeof vi.fn>;
      undoable.mockResolvedValue({ ok: true, until });
      const s = new MemoryStore(api);
      const handlers: Record<string, (d: unknown) => void> = {};
      s.listen((name, cb) => {
        handlers[name] = cb;
        return () => {};
      });
      handlers['memory:changed']({ kind: 'added', ids: ['m1'], session_id: 's', message_id: 'u1', profile: 'personal' });
      await vi.waitFor(() => expect(s.undo?.ok).toBe(true));
      expect(undoable).toHaveBeenLastCalledWith(['m1']);
      // a newer version replaced it elsewhere: the check says so
      undoable.mockResolvedValue({ ok: false, code: 'superseded', reason: 'a memory it wrote was replaced by a newer one since', until });
      handlers['memory:changed']({ kind: 'superseded', ids: ['m1'] }); // e.g. a memory added in the browser
      await vi.waitFor(() => expect(s.undo?.code).toBe('superseded'));
      // back to ok, then the window closes: the timer rechecks
      undoable.mockResolvedValue({ ok: true, until });
      await s.checkUndo();
      undoable.mockResolvedValue({ ok: false, code: 'expired', reason: 'late', until });
      await vi.advanceTimersByTimeAsync(61_000);
      expect(s.undo?.code).toBe('expired');
    } finally {
      vi.useRealTimers();
    }
  });

  it('an undo that fails because it can no longer work says why instead of an error', async () => {
    const api = fakeApi();
    (api.MemoryUndo as ReturnType<typeof vi.fn>).mockRejectedValue(new Error('Undo is no longer possible (a memory it wrote was erased since)'));
    (api.MemoryUndoable as ReturnType<typeof vi.fn>).mockResolvedValue({ ok: false, code: 'erased', reason: 'a memory it wrote was erased since', until: '' });
    const s = new MemoryStore(api);
    s.notice = { messageId: 'u1', sessionId: 's', ids: ['m1'], kinds: ['added'] };
    expect(await s.undoNotice()).toBeNull();
    expect(s.undo).toEqual({ ok: false, code: 'erased', reason: 'a memory it wrote was erased since', until: '' });
    expect(s.noticeError).toBe('');
  });

  it('sets a half-life and reports what was saved or refused', async () => {
    const api = fakeApi();
    const set = api.SetMemoryHalfLife as ReturnType<typeof vi.fn>;
    set.mockResolvedValue([{ category: 'health', half_life: '90d', hours: 2160, custom: true }]);
    const s = new MemoryStore(api);
    expect(await s.setHalfLife('health', ' 90d ')).toBe(true);
    expect(set).toHaveBeenCalledWith('health', '90d');
    expect(s.decaySaved?.half_life).toBe('90d');
    set.mockRejectedValue(new Error('"soon" is not a half-life; write it like 30d, 2w or 36h'));
    expect(await s.setHalfLife('health', 'soon')).toBe(false);
    expect(s.decayError).toContain('not a half-life');
    expect(s.decaySaved).toBeNull();
  });

  it('undoes through MemoryUndo and keeps the receipt', async () => {
    const api = fakeApi();
    const s = new MemoryStore(api);
    s.notice = { messageId: 'u1', sessionId: 's', ids: ['m1'], kinds: ['added'] };
    await s.undoNotice();
    expect(api.MemoryUndo).toHaveBeenCalledWith(['m1']);
    expect(s.notice).toBeNull();
    expect(s.receipt).toEqual(receipt);
  });
});

describe('MemoryStore forget', () => {
  it('erases nothing until the user confirms', async () => {
    const api = fakeApi([mem('a', 'A'), mem('b', 'B')]);
    const s = new MemoryStore(api);
    await s.load();
    s.toggle('a');
    s.toggle('b');
    s.askForget(s.selectedIds);
    expect(api.MemoryForget).not.toHaveBeenCalled();
    expect(s.confirmForget?.texts).toEqual(['A', 'B']);
    s.cancelForget();
    expect(api.MemoryForget).not.toHaveBeenCalled();
    s.askForget(s.selectedIds);
    const r = await s.confirmForgetNow();
    expect(api.MemoryForget).toHaveBeenCalledWith(['a', 'b']);
    expect(r?.count).toBe(2);
    expect(s.receipt?.count).toBe(2);
    expect(s.confirmForget).toBeNull();
  });

  it('rejects pending memories through MemoryReject', async () => {
    const api = fakeApi([mem('p', 'P', { status: 'pending' })]);
    const s = new MemoryStore(api);
    await s.loadPending();
    s.askForget(['p'], 'reject');
    await s.confirmForgetNow();
    expect(api.MemoryReject).toHaveBeenCalledWith(['p']);
    expect(api.MemoryForget).not.toHaveBeenCalled();
  });

  it('shows an action error and keeps nothing half-done', async () => {
    const api = fakeApi([mem('a', 'A')]);
    (api.MemoryForget as ReturnType<typeof vi.fn>).mockRejectedValueOnce(new Error('boom'));
    const s = new MemoryStore(api);
    s.askForget(['a']);
    expect(await s.confirmForgetNow()).toBeNull();
    expect(s.actionError).toBe('boom');
    expect(s.receipt).toBeNull();
  });
});

describe('memory profiles', () => {
  const lastFilter = (api: ReturnType<typeof fakeApi>) => {
    const calls = (api.MemoryList as ReturnType<typeof vi.fn>).mock.calls;
    return calls[calls.length - 1][0] as MemoryFilter;
  };

  it('lists the active profile only, and says nothing in the status bar for the default one', async () => {
    const api = { ...fakeApi([mem('a', 'A')]), ...profileApi([{ name: 'personal', active: true, memories: 1 }, { name: 'work', active: false, memories: 3 }]) };
    const s = new MemoryStore(api);
    await s.refresh();
    expect(s.activeProfile).toBe('personal');
    expect(s.otherProfile).toBe('');
    expect(s.profileList.map((p) => [p.name, p.memories])).toEqual([['personal', 1], ['work', 3]]);
    expect(s.filter.profile).toBe('personal');
    const calls = (api.MemoryList as ReturnType<typeof vi.fn>).mock.calls.map((c) => c[0] as MemoryFilter);
    expect(calls.every((f) => f.profile === 'personal')).toBe(true);
  });

  it('creates a profile, switches to it and reloads its memories', async () => {
    const api = { ...fakeApi([]), ...profileApi() };
    const s = new MemoryStore(api);
    await s.refresh();
    s.selected = { x: true };
    expect(await s.createProfile('  work  ')).toBe(true);
    expect(api.CreateMemoryProfile).toHaveBeenCalledWith('work');
    expect(api.UseMemoryProfile).toHaveBeenCalledWith('work');
    expect(s.activeProfile).toBe('work');
    expect(s.otherProfile).toBe('work');
    expect(s.selected).toEqual({});
    expect(lastFilter(api).profile).toBe('work');
    expect(await s.useProfile('personal')).toBe(true);
    expect(s.activeProfile).toBe('personal');
    expect(lastFilter(api).profile).toBe('personal');
  });

  it("shows the backend's message when a create fails and stays where it was", async () => {
    const api = { ...fakeApi([]), ...profileApi() };
    const s = new MemoryStore(api);
    await s.refresh();
    expect(await s.createProfile('personal')).toBe(false);
    expect(s.profileError).toContain('already exists');
    expect(api.UseMemoryProfile).not.toHaveBeenCalled();
    expect(s.activeProfile).toBe('personal');
    expect(await s.createProfile('   ')).toBe(false);
    expect(api.CreateMemoryProfile).toHaveBeenCalledTimes(1);
  });

  it('asks before deleting another profile (naming its memories) and keeps the receipt; the active one needs a switch first', async () => {
    const api = { ...fakeApi([]), ...profileApi([{ name: 'personal', active: false, memories: 0 }, { name: 'work', active: true, memories: 2 }]) };
    const s = new MemoryStore(api);
    await s.refresh();
    expect(s.otherProfile).toBe('work');
    await s.askDeleteProfile('personal');
    expect(s.confirmDeleteProfile).toBeNull();
    await s.askDeleteProfile('work');
    expect(s.confirmDeleteProfile).toBeNull();
    expect(s.profileError).toContain('switch to another profile first');
    expect(s.profileList.map((p) => p.name)).toEqual(['personal', 'work']);
    await s.useProfile('personal');
    await s.askDeleteProfile('work');
    expect(s.profileError).toBe('');
    expect(s.confirmDeleteProfile?.memories).toBe(2);
    s.cancelDeleteProfile();
    expect(api.DeleteMemoryProfile).toHaveBeenCalledTimes(1); // only the refused one
    await s.askDeleteProfile('work');
    const r = await s.confirmDeleteProfileNow();
    expect(api.DeleteMemoryProfile).toHaveBeenLastCalledWith('work');
    expect(r?.count).toBe(2);
    expect(s.receipt?.kind).toBe('profile');
    expect(s.confirmDeleteProfile).toBeNull();
    expect(s.activeProfile).toBe('personal');
    expect(s.profileList.map((p) => p.name)).toEqual(['personal']);
  });

  it('leaves the list on every profile with a backend that has no profiles', async () => {
    const api = fakeApi([mem('a', 'A')]);
    (api.MemoryProfiles as ReturnType<typeof vi.fn>).mockRejectedValue(new Error('bad call: unknown method "MemoryProfiles"'));
    const s = new MemoryStore(api);
    await s.refresh();
    expect(s.profileList).toEqual([]);
    expect(s.activeProfile).toBe('');
    expect(lastFilter(api).profile).toBeUndefined();
    expect(s.rows).toHaveLength(1);
  });

  it('has every profile string in English and Chinese', () => {
    for (const k of ['memory.profileOption', 'memory.confirmDeleteProfileBody', 'status.profile'] as const) {
      expect(zh[k]).toBeTruthy();
    }
    expect(tEn('memory.profileOption', { name: 'work', n: 3 })).toBe('work (3)');
    expect(tZh('status.profile', { name: 'work' })).toBe('档案：work');
  });
});

describe('MemoryStore add', () => {
  it('remembers what was typed through MemoryAdd and refreshes the list', async () => {
    const rows: Memory[] = [];
    const api = fakeApi(rows);
    (api.MemoryAdd as ReturnType<typeof vi.fn>).mockImplementation(async (text: string) => {
      const m = mem('n1', text);
      rows.push(m);
      return m;
    });
    const s = new MemoryStore(api);
    expect(await s.add('   ')).toBeNull();
    expect(api.MemoryAdd).not.toHaveBeenCalled();
    const m = await s.add('  I am allergic to peanuts ');
    expect(api.MemoryAdd).toHaveBeenCalledWith('I am allergic to peanuts');
    expect(m?.id).toBe('n1');
    expect(s.rows.map((r) => r.text)).toContain('I am allergic to peanuts');
  });

  it('shows the refusal in words and returns nothing', async () => {
    const api = fakeApi([]);
    (api.MemoryAdd as ReturnType<typeof vi.fn>).mockRejectedValue(new Error('Incognito is on: nothing is remembered.'));
    const s = new MemoryStore(api);
    expect(await s.add('my bike is blue')).toBeNull();
    expect(s.actionError).toContain('Incognito is on');
  });
});

describe('MemoryStore edit undo', () => {
  function editable() {
    const rows = [mem('a', 'I live in Porto', { key: 'home_city', value: 'Porto' })];
    const api = fakeApi(rows);
    (api.MemoryEdit as ReturnType<typeof vi.fn>).mockImplementation(async (id: string, text: string, key: string, value: string) => {
      const i = rows.findIndex((m) => m.id === id);
      if (i < 0) throw new Error('That memory no longer exists.');
      rows[i] = { ...rows[i], text, key, value };
      return rows[i];
    });
    return { rows, api, s: new MemoryStore(api) };
  }

  it('offers to put the old text back while the memory is as the edit left it', async () => {
    const { api, s } = editable();
    await s.refresh();
    await s.show('a');
    expect(await s.edit('a', 'I live in Lisbon', 'home_city', 'Lisbon')).toBe(true);
    expect(api.MemoryEdit).toHaveBeenLastCalledWith('a', 'I live in Lisbon', 'home_city', 'Lisbon');
    expect(s.editUndo).toMatchObject({ id: 'a', before: 'I live in Porto', beforeKey: 'home_city', beforeValue: 'Porto', after: 'I live in Lisbon' });
    expect(s.editUndoBlocked).toBe('');
    expect(await s.undoEdit()).toBe(true);
    expect(api.MemoryEdit).toHaveBeenLastCalledWith('a', 'I live in Porto', 'home_city', 'Porto');
    expect(s.detail?.memory).toMatchObject({ text: 'I live in Porto', value: 'Porto' });
    expect(s.editUndo).toBeNull();
  });

  it('sends the key and value as they were when only the text is edited', async () => {
    const { api, s } = editable();
    await s.refresh();
    await s.show('a');
    expect(await s.edit('a', 'I live in Porto, by the river')).toBe(true);
    expect(api.MemoryEdit).toHaveBeenLastCalledWith('a', 'I live in Porto, by the river', 'home_city', 'Porto');
  });

  it('says why once it cannot work: changed again, superseded, erased, another profile, the window passed', async () => {
    const { rows, api, s } = editable();
    await s.refresh();
    await s.show('a');
    await s.edit('a', 'I live in Lisbon');
    rows[0] = { ...rows[0], text: 'I live in Faro' };
    await s.refresh();
    expect(s.editUndoBlocked).toBe('changed');
    expect(await s.undoEdit()).toBe(false);
    expect(api.MemoryEdit).toHaveBeenCalledTimes(1);
    const u = s.editUndo!;
    const m = rows[0];
    expect(editUndoBlock(u, { ...m, text: u.after, status: 'superseded' }, 'personal')).toBe('superseded');
    expect(editUndoBlock(u, undefined, 'personal')).toBe('erased');
    expect(editUndoBlock(u, { ...m, text: u.after }, 'work')).toBe('profile');
    expect(editUndoBlock(u, { ...m, text: u.after }, 'personal', u.until + 1)).toBe('expired');
    expect(editUndoBlock(u, { ...m, text: u.after }, 'personal', u.until - 1)).toBe('');
  });
});

describe('halfLifeError', () => {
  it('names a refused half-life by its category, in the page language, not by the setting', () => {
    const e = new BackendError('invalid setting: "soon" is not a half-life', 'bad_setting', {
      key: 'memory_half_lives',
      reason: 'not_half_life',
      value: 'soon',
      category: 'health',
    });
    expect(halfLifeError(e, 'health')).toBe('health: “soon” is not a half-life; write it like 30d, 2w or 36h.');
    locale.lang = 'zh';
    try {
      const zhText = halfLifeError(e, 'health');
      expect(zhText).toBe(`${zh['memory.cat.health']}：“soon”不是半衰期；请写成 30d、2w 或 36h 这样的形式。`);
      expect(zhText).not.toContain('memory_half_lives');
    } finally {
      locale.lang = 'en';
    }
    expect(halfLifeError(new Error('plain'), 'health')).toBe('plain');
  });
});
