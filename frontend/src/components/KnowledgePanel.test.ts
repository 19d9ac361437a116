import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor, within } from '@testing-library/svelte';
import KnowledgePanel from './KnowledgePanel.svelte';
import PassageViewer from './PassageViewer.svelte';
import { KnowledgeStore } from '../lib/knowledge.svelte';
import { locale } from '../lib/i18n.svelte';
import { collection, fakeApi, fakeBus, passage, progress } from '../lib/knowledge.fixture';

afterEach(() => {
  locale.lang = 'en';
});

function panel(api = fakeApi(), desktop = false) {
  const store = new KnowledgeStore({ api, desktop, reloadMs: 5 });
  const bus = fakeBus();
  store.listen(bus.on);
  const onclose = vi.fn();
  const r = render(KnowledgePanel, { store, onclose });
  return { ...r, store, api, bus, onclose };
}

describe('KnowledgePanel', () => {
  it('explains the knowledge base when there is none, and that nothing leaves the computer', async () => {
    const api = fakeApi();
    api.KBList.mockResolvedValue([]);
    const { getByTestId } = panel(api);
    const empty = await waitFor(() => getByTestId('kb-empty'));
    expect(empty.textContent).toContain('Your documents, searched and cited');
    expect(empty.textContent).toContain('cites the passages it used as [1], [2]');
    expect(empty.textContent).toContain('Nothing is copied or sent anywhere');
  });

  it('lists a collection with its folder and counts, and its files with the reasons they failed', async () => {
    const { getByTestId, getAllByTestId, api } = panel();
    const c = await waitFor(() => getByTestId('kb-collection'));
    expect(c.dataset.name).toBe('manuals');
    expect(within(c).getByTestId('kb-root').textContent).toBe('/home/ada/Manuals');
    expect(within(c).getByTestId('kb-facts').textContent).toBe('3 files · 2 read · 1 could not be read · 14 passages · 52.0 KB');
    const expand = within(c).getByTestId('kb-expand');
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    await fireEvent.click(expand);
    expect(api.KBFiles).toHaveBeenCalledWith('manuals');
    await waitFor(() => expect(getAllByTestId('kb-file').length).toBe(4));
    expect(expand.getAttribute('aria-expanded')).toBe('true');
    const [broken, odd, pump, scan] = getAllByTestId('kb-file');
    expect(broken.dataset.state).toBe('failed');
    expect(within(broken).getByTestId('kb-file-reason').textContent).toBe('Not a readable PDF');
    expect(within(broken).getByTestId('kb-file-reason').title).toBe('could not be read as a PDF (no header)');
    expect(within(odd).getByTestId('kb-file-reason').textContent).toBe('a reason the UI does not know');
    expect(pump.textContent).toContain('4 passages');
    expect(scan.textContent).toContain('6 passages · 3 pages');
  });

  it('adds a typed folder in the browser, with Enter', async () => {
    const { getByTestId, queryByTestId, api } = panel();
    await waitFor(() => getByTestId('kb-collection'));
    await fireEvent.click(getByTestId('kb-add'));
    const path = getByTestId('kb-path') as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(path));
    expect(queryByTestId('kb-browse')).toBeNull();
    expect(getByTestId('kb-add-form').textContent).toContain('only the desktop window has a folder picker');
    await fireEvent.keyDown(path, { key: 'Enter' });
    expect(getByTestId('kb-add-error').textContent).toBe('Type the folder’s path first.');
    await fireEvent.input(path, { target: { value: '/tmp/notes' } });
    await fireEvent.input(getByTestId('kb-name'), { target: { value: 'notes' } });
    await fireEvent.keyDown(path, { key: 'Enter' });
    await waitFor(() => expect(api.KBAdd).toHaveBeenCalledWith('/tmp/notes', 'notes'));
    await waitFor(() => expect(queryByTestId('kb-add-form')).toBeNull());
  });

  it('opens the picker on the desktop, and Esc closes the form before the panel', async () => {
    const api = fakeApi();
    api.KBPickFolder.mockResolvedValue('/home/ada/Papers');
    const { getByTestId, queryByTestId, onclose } = panel(api, true);
    await waitFor(() => getByTestId('kb-collection'));
    await fireEvent.click(getByTestId('kb-add'));
    await waitFor(() => expect((getByTestId('kb-path') as HTMLInputElement).value).toBe('/home/ada/Papers'));
    expect(getByTestId('kb-browse')).toBeTruthy();
    await fireEvent.keyDown(getByTestId('kb-path'), { key: 'Escape' });
    expect(queryByTestId('kb-add-form')).toBeNull();
    expect(onclose).not.toHaveBeenCalled();
    await fireEvent.keyDown(getByTestId('knowledge-panel'), { key: 'Escape' });
    expect(onclose).toHaveBeenCalled();
  });

  it('shows the reading with files, rate and time left; Cancel, then Resume', async () => {
    const { getByTestId, queryByTestId, bus, api } = panel();
    await waitFor(() => getByTestId('kb-collection'));
    bus.emit('kb:progress', progress({ failed: 1 }));
    const box = await waitFor(() => getByTestId('kb-progress'));
    expect(box.dataset.state).toBe('running');
    expect(getByTestId('kb-progress-line').textContent).toBe('3 of 10 files · 1.6 MB/s · 5 s left · 1 could not be read');
    expect(getByTestId('kb-progress-current').textContent).toBe('Reading manuals/boiler.pdf');
    expect(getByTestId('kb-progress-bar').dataset.percent).toBe('30.0');
    await fireEvent.click(getByTestId('kb-cancel'));
    expect(api.KBCancel).toHaveBeenCalled();
    bus.emit('kb:progress', progress({ stopped: true, current: '' }));
    await waitFor(() => expect(getByTestId('kb-progress').dataset.state).toBe('stopped'));
    expect(queryByTestId('kb-cancel')).toBeNull();
    await fireEvent.click(getByTestId('kb-resume'));
    expect(api.KBResume).toHaveBeenCalled();
  });

  it('removes a collection after a confirmation naming its files and passages, then shows the receipt', async () => {
    const { getByTestId, queryByTestId, api } = panel();
    await waitFor(() => getByTestId('kb-collection'));
    await fireEvent.click(getByTestId('kb-remove'));
    const dlg = getByTestId('kb-remove-dialog');
    expect(dlg.textContent).toContain('Remove manuals?');
    expect(dlg.textContent).toContain('Its 3 files and 14 passages are erased from the index');
    expect(dlg.textContent).toContain('The files on disk are not touched.');
    // The safe choice has the focus.
    expect(document.activeElement).toBe(getByTestId('kb-remove-cancel'));
    await fireEvent.click(getByTestId('kb-remove-ok'));
    await waitFor(() => expect(api.KBRemove).toHaveBeenCalledWith('manuals'));
    const r = await waitFor(() => getByTestId('kb-receipt'));
    expect(r.textContent).toContain('Removed manuals: 3 files, 14 passages and 14 vectors erased from the index.');
    expect(queryByTestId('kb-collection')).toBeNull();
  });

  it('speaks Chinese', async () => {
    locale.lang = 'zh';
    const api = fakeApi();
    api.KBList.mockResolvedValue([collection({ pending: 2 })]);
    const { getByTestId } = panel(api);
    const c = await waitFor(() => getByTestId('kb-collection'));
    expect(within(c).getByTestId('kb-facts').textContent).toBe('3 个文件 · 已读取 2 个 · 1 个无法读取 · 2 个等待中 · 14 个段落 · 52.0 KB');
    expect(getByTestId('kb-waiting').textContent).toContain('有 2 个文件等待读取。');
    expect(getByTestId('kb-add').textContent).toContain('添加文件夹');
  });
});

describe('PassageViewer', () => {
  it('shows the file, place and heading with the passage marked', async () => {
    const view = { source: { n: 2, chunk: '7', collection: 'manuals', file: 'pump.md' }, passage: passage({ page: 2, pages: 5 }), loading: false, error: '', needsDesktop: false, openError: '' };
    const onopenfile = vi.fn();
    const { getByTestId, queryByTestId } = render(PassageViewer, { view, onopenfile, onclose: vi.fn() });
    expect(getByTestId('passage-viewer').textContent).toContain('Source [2]');
    expect(getByTestId('passage-file').textContent).toBe('pump.md');
    expect(getByTestId('passage-place').textContent).toBe('page 2 of 5 · in manuals');
    expect(getByTestId('passage-heading').textContent).toBe('Pump > Faults');
    expect(getByTestId('passage-mark').textContent).toBe('E1 means low water.');
    expect(getByTestId('passage-text').textContent).toBe(passage().text);
    expect(queryByTestId('passage-changed')).toBeNull();
    expect(queryByTestId('passage-path-note')).toBeNull();
    await fireEvent.click(getByTestId('passage-open'));
    expect(onopenfile).toHaveBeenCalled();
  });

  it('says when the file changed, and gives the path instead of Open file in the browser', () => {
    const view = {
      source: { n: 1, chunk: '7', collection: 'manuals', file: 'pump.md' },
      passage: passage({ text: 'E1 means low water.', start: 0, end: 19, changed: true }),
      loading: false,
      error: '',
      needsDesktop: true,
      openError: '',
    };
    const { getByTestId, queryByTestId } = render(PassageViewer, { view, onopenfile: vi.fn(), onclose: vi.fn() });
    expect(getByTestId('passage-changed').textContent).toContain('The file changed after it was read');
    expect(queryByTestId('passage-open')).toBeNull();
    expect(getByTestId('passage-path-note').textContent).toContain('/home/ada/Manuals/pump.md');
  });
});
