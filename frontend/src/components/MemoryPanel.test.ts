import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import MemoryPanel from './MemoryPanel.svelte';
import MemoryNotice from './MemoryNotice.svelte';
import DecayBar from './DecayBar.svelte';
import { MemoryStore } from '../lib/memory.svelte';
import { fakeApi, mem, profileApi, receipt } from '../lib/memory.fixture';
import StatusBar from './StatusBar.svelte';
import { locale } from '../lib/i18n.svelte';

function setup(rows = [mem('a', '<b>I am allergic to peanuts</b>', { strength: 0.42, session_id: 's1', source_message_ids: ['msg-1'] }), mem('b', 'Likes tea')]) {
  const api = fakeApi(rows);
  const store = new MemoryStore(api);
  const onopensource = vi.fn();
  const r = render(MemoryPanel, { store, onclose: vi.fn(), onopensource, onexport: vi.fn() });
  return { api, store, onopensource, ...r };
}

describe('DecayBar', () => {
  it('fills as much as the strength', () => {
    const { getByTestId } = render(DecayBar, { strength: 0.42 });
    const bar = getByTestId('decay-bar');
    expect(bar.dataset.width).toBe('42');
    expect((bar.querySelector('.fill') as HTMLElement).style.width).toBe('42%');
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
  });
});

describe('MemoryPanel', () => {
  it('lists memories as text with chips and decay bars', async () => {
    const { store, getAllByTestId, container } = setup();
    await store.load();
    await waitFor(() => expect(getAllByTestId('memory-row')).toHaveLength(2));
    expect(getAllByTestId('memory-open')[0].textContent).toBe('<b>I am allergic to peanuts</b>');
    expect(container.querySelector('.list b')).toBeNull();
    expect(getAllByTestId('decay-bar')[0].dataset.width).toBe('42');
    expect(container.textContent).toContain('2 memories');
  });

  it('asks before a bulk forget and then shows the receipt', async () => {
    const { api, store, getAllByTestId, getByTestId, queryByTestId } = setup();
    await store.load();
    await waitFor(() => expect(getAllByTestId('memory-select')).toHaveLength(2));
    expect((getByTestId('memory-forget-selected') as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(getAllByTestId('memory-select')[0]);
    await fireEvent.click(getAllByTestId('memory-select')[1]);
    await fireEvent.click(getByTestId('memory-forget-selected'));
    expect(api.MemoryForget).not.toHaveBeenCalled();
    expect(getByTestId('memory-confirm-dialog')).toBeTruthy();
    await fireEvent.click(getByTestId('memory-confirm-cancel'));
    expect(queryByTestId('memory-confirm-dialog')).toBeNull();
    expect(api.MemoryForget).not.toHaveBeenCalled();
    await fireEvent.click(getByTestId('memory-forget-selected'));
    await fireEvent.click(getByTestId('memory-confirm-forget'));
    await waitFor(() => expect(getByTestId('memory-receipt').textContent).toContain('Forgot 2 memories. A new search finds 0 lexical and 0 vector matches.'));
    expect(api.MemoryForget).toHaveBeenCalledWith(['a', 'b']);
  });

  it('opens a memory, edits it and opens its source message', async () => {
    const { api, store, onopensource, getAllByTestId, getByTestId } = setup();
    await store.load();
    await waitFor(() => expect(getAllByTestId('memory-open')).toHaveLength(2));
    await fireEvent.click(getAllByTestId('memory-open')[0]);
    await waitFor(() => getByTestId('memory-detail'));
    await fireEvent.click(getByTestId('memory-source'));
    expect(onopensource).toHaveBeenCalledWith('s1', 'msg-1');
    await fireEvent.click(getByTestId('memory-edit'));
    const input = getByTestId('memory-edit-input') as HTMLTextAreaElement;
    await fireEvent.input(input, { target: { value: 'I am allergic to peanuts and cashews' } });
    await fireEvent.input(getByTestId('memory-edit-key'), { target: { value: 'allergy' } });
    await fireEvent.input(getByTestId('memory-edit-value'), { target: { value: 'peanuts, cashews' } });
    await fireEvent.click(getByTestId('memory-edit-save'));
    await waitFor(() => expect(api.MemoryEdit).toHaveBeenCalledWith('a', 'I am allergic to peanuts and cashews', 'allergy', 'peanuts, cashews'));
  });

  it('adds a memory from the panel and opens it', async () => {
    const { api, store, getByTestId } = setup();
    await store.load();
    const button = getByTestId('memory-add') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await fireEvent.input(getByTestId('memory-add-input'), { target: { value: 'My bike is a blue Brompton' } });
    expect(button.disabled).toBe(false);
    await fireEvent.click(button);
    await waitFor(() => expect(api.MemoryAdd).toHaveBeenCalledWith('My bike is a blue Brompton'));
    await waitFor(() => expect(getByTestId('memory-detail-text').textContent).toBe('My bike is a blue Brompton'));
    await fireEvent.click(getByTestId('memory-back'));
    await waitFor(() => expect((getByTestId('memory-add-input') as HTMLInputElement).value).toBe(''));
  });

  it('shows the pending inbox with approve and reject', async () => {
    const { api, store, getByTestId, getAllByTestId } = setup([mem('p', 'Maybe vegan', { status: 'pending', asserted_by: 'model' })]);
    await store.loadPending();
    await fireEvent.click(getByTestId('memory-tab-pending'));
    await waitFor(() => expect(getAllByTestId('memory-pending-row')).toHaveLength(1));
    await fireEvent.click(getByTestId('memory-pending-approve'));
    expect(api.MemoryApprove).toHaveBeenCalledWith(['p']);
    await fireEvent.click(getByTestId('memory-pending-reject'));
    expect(api.MemoryReject).not.toHaveBeenCalled();
    await fireEvent.click(getByTestId('memory-confirm-forget'));
    await waitFor(() => expect(api.MemoryReject).toHaveBeenCalledWith(['p']));
  });
});

describe('MemoryPanel confirm and inbox reasons', () => {
  it('offers Confirm for a fact, not for a profile memory, and marks the profile layer', async () => {
    const { api, store, getAllByTestId, getByTestId, queryByTestId } = setup([mem('a', 'Likes tea'), mem('b', 'Allergic to peanuts', { layer: 'profile' })]);
    await store.load();
    await waitFor(() => expect(getAllByTestId('memory-layer')).toHaveLength(2));
    const chips = getAllByTestId('memory-layer');
    expect(chips[1].dataset.layer).toBe('profile');
    expect(chips[1].getAttribute('title')).toContain('never fades');
    await fireEvent.click(getAllByTestId('memory-open')[1]);
    await waitFor(() => expect(getByTestId('memory-detail-text').textContent).toBe('Allergic to peanuts'));
    expect(queryByTestId('memory-confirm')).toBeNull();
    store.closeDetail();
    await waitFor(() => expect(getAllByTestId('memory-open')).toHaveLength(2));
    await fireEvent.click(getAllByTestId('memory-open')[0]);
    await waitFor(() => getByTestId('memory-confirm'));
    expect(getByTestId('memory-confirm').getAttribute('title')).toContain('moves to your profile');
    await fireEvent.click(getByTestId('memory-confirm'));
    await waitFor(() => expect(api.MemoryConfirm).toHaveBeenCalledWith(['a']));
  });

  it('shows why each pending memory waits, in English and Chinese', async () => {
    const rows = [
      mem('p1', 'Maybe vegan', { status: 'pending', asserted_by: 'model', reason: 'inferred', note: 'inferred by the model' }),
      mem('p2', 'Allergic to penicillin', { status: 'pending', reason: 'rejected', reason_detail: 'the record says otherwise' }),
      mem('p3', 'Phone is ***', { status: 'pending', reason: 'sensitive' }),
    ];
    const { store, getByTestId, getAllByTestId } = setup(rows);
    await store.loadPending();
    await fireEvent.click(getByTestId('memory-tab-pending'));
    await waitFor(() => expect(getAllByTestId('memory-pending-why')).toHaveLength(3));
    const why = getAllByTestId('memory-pending-why').map((e) => e.textContent);
    expect(why[0]).toBe('The model inferred it; you did not say it.');
    expect(why[1]).toBe('The verifier did not confirm it: the record says otherwise');
    expect(why[2]).toContain('personal data');
    locale.lang = 'zh';
    try {
      await waitFor(() => expect(getAllByTestId('memory-pending-why')[1].textContent).toBe('验证器未能确认：the record says otherwise'));
      expect(getAllByTestId('memory-pending-why')[0].textContent).toContain('模型推断');
    } finally {
      locale.lang = 'en';
    }
  });
});

describe('MemoryPanel profiles', () => {
  function setupProfiles() {
    const api = { ...fakeApi([mem('a', 'Likes tea')]), ...profileApi([{ name: 'personal', active: true, memories: 1 }]) };
    const store = new MemoryStore(api);
    const r = render(MemoryPanel, { store, onclose: vi.fn(), onopensource: vi.fn(), onexport: vi.fn() });
    return { api, store, ...r };
  }

  it('creates a profile from the inline box (Enter), switches to it and deletes it after asking', async () => {
    const { api, store, getByTestId, queryByTestId } = setupProfiles();
    await store.refresh();
    await waitFor(() => expect((getByTestId('memory-profile-select') as HTMLSelectElement).value).toBe('personal'));
    expect(getByTestId('memory-profile-select').textContent).toContain('personal (1)');
    await waitFor(() => expect(document.body.textContent).toContain('1 memory'));
    expect(document.body.textContent).not.toContain('1 memories');
    expect(queryByTestId('memory-profile-delete')).toBeNull();
    await fireEvent.click(getByTestId('memory-profile-new'));
    const box = getByTestId('memory-profile-new-input') as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(box));
    await fireEvent.input(box, { target: { value: 'work' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(store.activeProfile).toBe('work'));
    await waitFor(() => expect((getByTestId('memory-profile-select') as HTMLSelectElement).value).toBe('work'));
    expect(api.CreateMemoryProfile).toHaveBeenCalledWith('work');
    await fireEvent.click(getByTestId('memory-profile-manage'));
    // the active profile and the default one cannot be deleted: each row says why
    expect(queryByTestId('memory-profile-delete')).toBeNull();
    const notes = [...document.querySelectorAll('[data-testid="memory-profile-nodelete"]')].map((e) => e.textContent);
    expect(notes).toEqual(['The default profile can be emptied, not deleted', 'In use: switch to another profile to delete it']);
    await store.useProfile('personal');
    await waitFor(() => getByTestId('memory-profile-delete'));
    expect(getByTestId('memory-profile-delete').getAttribute('aria-label')).toBe('Delete work');
    await fireEvent.click(getByTestId('memory-profile-delete'));
    expect(getByTestId('memory-profile-delete-body').textContent).toContain('0 memories');
    expect(api.DeleteMemoryProfile).not.toHaveBeenCalled();
    await fireEvent.click(getByTestId('memory-profile-delete-confirm'));
    await waitFor(() => expect(getByTestId('memory-receipt').textContent).toContain('Forgot 0 memories'));
    expect(api.DeleteMemoryProfile).toHaveBeenCalledWith('work');
    expect(store.activeProfile).toBe('personal');
  });

  it('renames the active profile inline; the list and the select follow', async () => {
    const { api, store, getByTestId, queryByTestId } = setupProfiles();
    await store.refresh();
    await store.createProfile('work');
    await waitFor(() => getByTestId('memory-profile-rename'));
    await fireEvent.click(getByTestId('memory-profile-rename'));
    const box = getByTestId('memory-profile-new-input') as HTMLInputElement;
    expect(box.value).toBe('work');
    expect(box.getAttribute('aria-label')).toBe('New name for profile work');
    await fireEvent.input(box, { target: { value: 'personal' } });
    await fireEvent.click(getByTestId('memory-profile-rename-save'));
    await waitFor(() => expect(getByTestId('memory-profile-error').textContent).toContain('already exists'));
    await fireEvent.input(box, { target: { value: 'job' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(store.activeProfile).toBe('job'));
    expect(api.RenameMemoryProfile).toHaveBeenLastCalledWith('work', 'job');
    await waitFor(() => expect((getByTestId('memory-profile-select') as HTMLSelectElement).value).toBe('job'));
    expect(queryByTestId('memory-profile-new-input')).toBeNull();
    expect(getByTestId('memory-profile-select').textContent).not.toContain('work');
  });

  it('shows the backend error inline and Escape cancels without closing the panel', async () => {
    const { store, getByTestId, queryByTestId, component } = setupProfiles();
    void component;
    await store.refresh();
    await waitFor(() => getByTestId('memory-profile-new'));
    await fireEvent.click(getByTestId('memory-profile-new'));
    const box = getByTestId('memory-profile-new-input') as HTMLInputElement;
    await fireEvent.input(box, { target: { value: 'personal' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(getByTestId('memory-profile-error').textContent).toContain('already exists'));
    expect(box.getAttribute('aria-invalid')).toBe('true');
    await fireEvent.keyDown(box, { key: 'Escape' });
    await waitFor(() => expect(queryByTestId('memory-profile-new-input')).toBeNull());
    expect(queryByTestId('memory-profile-error')).toBeNull();
    expect(getByTestId('memory-panel')).toBeTruthy();
  });

  it('switches with the select', async () => {
    const api = { ...fakeApi([]), ...profileApi([{ name: 'personal', active: true, memories: 0 }, { name: 'work', active: false, memories: 4 }]) };
    const store = new MemoryStore(api);
    const { getByTestId } = render(MemoryPanel, { store, onclose: vi.fn(), onopensource: vi.fn(), onexport: vi.fn() });
    await store.refresh();
    await waitFor(() => expect(getByTestId('memory-profile-select').textContent).toContain('work (4)'));
    await fireEvent.change(getByTestId('memory-profile-select'), { target: { value: 'work' } });
    await waitFor(() => expect(api.UseMemoryProfile).toHaveBeenCalledWith('work'));
    await waitFor(() => expect(store.activeProfile).toBe('work'));
  });
});

describe('StatusBar profile chip', () => {
  it('shows the profile when there is one and opens Memory', async () => {
    const onprofile = vi.fn();
    const view = { state: 'ok', text: 'Ready' } as never;
    const { getByTestId, queryByTestId, rerender } = render(StatusBar, { view, profile: 'work', onprofile });
    expect(getByTestId('profile-chip').textContent).toBe('Profile: work');
    await fireEvent.click(getByTestId('profile-chip'));
    expect(onprofile).toHaveBeenCalled();
    await rerender({ view, profile: '', onprofile });
    expect(queryByTestId('profile-chip')).toBeNull();
  });
});

describe('MemoryNotice', () => {
  it('offers undo only while it can work, and says why once it cannot', async () => {
    const props = {
      notice: { messageId: 'u', sessionId: 's', ids: ['m'], kinds: ['added'], profile: 'work' },
      onundo: vi.fn(),
      onview: vi.fn(),
      ondismiss: vi.fn(),
    };
    const { queryByTestId, getByTestId, rerender } = render(MemoryNotice, { ...props, undo: null });
    expect(queryByTestId('memory-notice-undo')).toBeNull(); // not known yet: not offered
    await rerender({ ...props, undo: { ok: false, code: 'profile', reason: 'x', until: '' } });
    expect(queryByTestId('memory-notice-undo')).toBeNull();
    expect(getByTestId('memory-notice-undo-gone').textContent).toBe('Undo is no longer possible: it wrote into profile work; switch back to undo.');
    await rerender({ ...props, undo: { ok: false, code: 'new-code', reason: 'the backend words it', until: '' } });
    expect(getByTestId('memory-notice-undo-gone').textContent).toBe('Undo is no longer possible: the backend words it');
    await rerender({ ...props, undo: { ok: true, until: new Date(Date.now() + 60_000).toISOString() } });
    expect(queryByTestId('memory-notice-undo-gone')).toBeNull();
    getByTestId('memory-notice-undo');
  });

  it('offers undo and view', async () => {
    const onundo = vi.fn();
    const onview = vi.fn();
    const { getByTestId } = render(MemoryNotice, {
      undo: { ok: true, until: new Date(Date.now() + 60_000).toISOString() },
      notice: { messageId: 'u', sessionId: 's', ids: ['m'], kinds: ['added'] },
      onundo,
      onview,
      ondismiss: vi.fn(),
    });
    expect(getByTestId('memory-notice').textContent).toContain('Memory updated');
    await fireEvent.click(getByTestId('memory-notice-undo'));
    await fireEvent.click(getByTestId('memory-notice-view'));
    expect(onundo).toHaveBeenCalled();
    expect(onview).toHaveBeenCalled();
    void receipt;
  });
});

describe('MemoryPanel decay', () => {
  it('lists each category half-life, saves a change and returns one to the default', async () => {
    const api = fakeApi([]);
    const list = [
      { category: 'health', half_life: '180d', hours: 4320, custom: false, archived_after: '285d' },
      { category: 'schedule', half_life: '2d', hours: 48, custom: false, archived_after: '76h' },
    ];
    (api.MemoryHalfLives as ReturnType<typeof vi.fn>).mockResolvedValue(list);
    (api.SetMemoryHalfLife as ReturnType<typeof vi.fn>).mockImplementation(async (c: string, v: string) =>
      list.map((h) => (h.category === c ? { ...h, half_life: v || '180d', custom: !!v } : h)),
    );
    const store = new MemoryStore(api);
    const { getByTestId, getAllByTestId } = render(MemoryPanel, { store, onclose: vi.fn(), onopensource: vi.fn(), onexport: vi.fn() });
    await fireEvent.click(getByTestId('memory-tab-decay'));
    await waitFor(() => expect(getAllByTestId('memory-decay-row')).toHaveLength(2));
    expect(getByTestId('memory-decay').textContent).toContain('never fade');
    // When each category's facts are archived, said in days (or hours when short).
    expect(getAllByTestId('memory-decay-archived').map((e) => e.textContent)).toEqual(['kept ≈ 285 days', 'kept ≈ 76 hours']);
    const input = getAllByTestId('memory-decay-input')[0] as HTMLInputElement;
    expect(input.getAttribute('aria-label')).toBe('Half-life for health');
    const save = getAllByTestId('memory-decay-save')[0] as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await fireEvent.input(input, { target: { value: '90d' } });
    expect(save.disabled).toBe(false);
    await fireEvent.click(save);
    await waitFor(() => expect(getByTestId('memory-decay-saved').textContent).toContain('health facts now fade with a half-life of 90d'));
    expect(api.SetMemoryHalfLife).toHaveBeenCalledWith('health', '90d');
    expect(getAllByTestId('memory-decay-row')[0].dataset.custom).toBe('true');
    await fireEvent.click(getByTestId('memory-decay-reset'));
    await waitFor(() => expect(getAllByTestId('memory-decay-row')[0].dataset.custom).toBe('false'));
    expect(api.SetMemoryHalfLife).toHaveBeenLastCalledWith('health', '');
  });
});

describe('MemoryPanel edit undo', () => {
  it('offers Undo edit after an edit, and says why once the memory changed again', async () => {
    const rows = [mem('a', 'I live in Porto')];
    const api = fakeApi(rows);
    (api.MemoryEdit as ReturnType<typeof vi.fn>).mockImplementation(async (id: string, text: string) => {
      rows[0] = { ...rows[0], text };
      return rows[0];
    });
    const store = new MemoryStore(api);
    const { getByTestId, queryByTestId } = render(MemoryPanel, { store, onclose: vi.fn(), onopensource: vi.fn(), onexport: vi.fn() });
    await store.refresh();
    await store.show('a');
    await waitFor(() => getByTestId('memory-edit'));
    expect(queryByTestId('memory-edit-undo')).toBeNull();
    await fireEvent.click(getByTestId('memory-edit'));
    await fireEvent.input(getByTestId('memory-edit-input'), { target: { value: 'I live in Lisbon' } });
    await fireEvent.click(getByTestId('memory-edit-save'));
    await waitFor(() => getByTestId('memory-edit-undo'));
    expect(getByTestId('memory-edit-undo').getAttribute('title')).toBe('Puts back: I live in Porto');
    rows[0] = { ...rows[0], status: 'superseded' };
    await store.refresh();
    await waitFor(() => getByTestId('memory-edit-undo-gone'));
    expect(queryByTestId('memory-edit-undo')).toBeNull();
    expect(getByTestId('memory-edit-undo-gone').textContent).toBe('Undo edit is no longer possible: a newer version replaced it since.');
    rows[0] = { ...rows[0], status: 'active' };
    await store.refresh();
    await fireEvent.click(await waitFor(() => getByTestId('memory-edit-undo')));
    await waitFor(() => expect(getByTestId('memory-detail-text').textContent).toBe('I live in Porto'));
    expect(queryByTestId('memory-edit-undo')).toBeNull();
  });
});
