import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackendError } from './backend';
import { locale, t } from './i18n.svelte';
import { errorText } from './errors';
import {
  KnowledgeStore,
  collectionFacts,
  passagePlace,
  progressLine,
  progressPercent,
  progressState,
  reasonText,
  receiptText,
} from './knowledge.svelte';
import { collection, fakeApi, fakeBus, file, passage, progress, receipt } from './knowledge.fixture';

afterEach(() => {
  locale.lang = 'en';
  vi.useRealTimers();
});

function store(api = fakeApi(), desktop = false) {
  const s = new KnowledgeStore({ api, desktop, doneMs: 1000, reloadMs: 10 });
  return { s, api };
}

describe('knowledge words', () => {
  it('words a failed file by its reason in both languages, else shows the backend detail', () => {
    const f = file({ state: 'failed', reason: 'no_text_layer', detail: 'no text layer' });
    expect(reasonText(f, t)).toBe('A PDF without a text layer');
    locale.lang = 'zh';
    expect(reasonText(f, t)).toBe('没有文本层的 PDF');
    expect(reasonText(file({ state: 'failed', reason: 'brand_new', detail: 'the backend words it' }), t)).toBe('the backend words it');
    expect(reasonText(file({ state: 'failed', reason: 'brand_new' }), t)).toBe('brand_new');
  });

  it('words every refusal reason of the brief in both languages', () => {
    const reasons = ['too_big', 'too_long', 'not_pdf', 'not_text', 'no_text_layer', 'empty', 'too_much_memory', 'too_slow', 'reader_failed', 'no_ocr', 'unreadable'];
    for (const lang of ['en', 'zh'] as const) {
      locale.lang = lang;
      for (const reason of reasons) {
        const text = reasonText({ reason, detail: 'DETAIL' }, t);
        expect(text, `${lang} ${reason}`).not.toBe('DETAIL');
        expect(text, `${lang} ${reason}`).not.toMatch(/\{\w+\}/);
      }
    }
  });

  it('lists a collection’s counts, the failed and waiting ones toned', () => {
    const facts = collectionFacts(collection({ files: 12, indexed: 10, failed: 1, pending: 1, chunks: 84, bytes: 1_200_000 }), t);
    expect(facts.map((f) => f.text)).toEqual(['12 files', '10 read', '1 could not be read', '1 waiting', '84 passages', '1.2 MB']);
    expect(facts.map((f) => f.tone ?? '')).toEqual(['', '', 'bad', 'warn', '', '']);
    // All read: no "N read" beside "N files".
    expect(collectionFacts(collection({ files: 1, indexed: 1, failed: 0, chunks: 1, bytes: 0 }), t).map((f) => f.text)).toEqual(['1 file', '1 passage']);
  });

  it('words the reading: files done, rate and time left; paused; done', () => {
    expect(progressLine(progress(), t)).toBe('3 of 10 files · 1.6 MB/s · 5 s left');
    expect(progressPercent(progress())).toBe(30);
    expect(progressPercent(progress({ bytes: 0, done_bytes: 0, files: 4, done: 1 }))).toBe(25);
    expect(progressLine(progress({ done: 0, done_bytes: 0, mbps: 0, eta_seconds: 0 }), t)).toBe('0 of 10 files');
    expect(progressState(progress({ stopped: true }))).toBe('stopped');
    expect(progressLine(progress({ stopped: true }), t)).toBe('7 files waiting');
    expect(progressLine(progress({ finished: true, done: 10 }), t)).toBe('10 files read');
    expect(progressPercent(progress({ finished: true }))).toBe(100);
    locale.lang = 'zh';
    expect(progressLine(progress(), t)).toBe('3 / 10 个文件 · 1.6 MB/s · 剩余 5 秒');
  });

  it('words a removal receipt and a passage’s place', () => {
    expect(receiptText(receipt(), t)).toBe(
      'Removed manuals: 3 files, 14 passages and 14 vectors erased from the index. The database file was scrubbed; the files on disk are untouched.',
    );
    expect(receiptText(receipt({ files: 1, chunks: 1, vectors: 0, scrubbed: false }), t)).toMatch(/^Removed manuals: 1 file, 1 passage and 0 vectors erased/);
    expect(passagePlace({ page: 3, pages: 12, collection: 'manuals' }, t)).toBe('page 3 of 12 · in manuals');
    expect(passagePlace({ collection: 'manuals' }, t)).toBe('in manuals');
  });

  it('words the knowledge-base error codes in both languages', () => {
    const detail = 'add /x: collection already exists: "y" already holds it';
    expect(errorText('kb_exists', { detail }, 'x', 'en')).toBe(`That folder or name is already in the knowledge base (${detail}). Choose another name, or remove the other collection first.`);
    expect(errorText('kb_no_folder', { detail: 'add "/nope": folder not found' }, 'x', 'zh')).toBe('找不到该文件夹或文件（add "/nope": folder not found）。请选择这台电脑上存在的文件夹（或文件）。');
    expect(errorText('needs_desktop', {}, 'x', 'en')).toMatch(/^Only the desktop window can do this/);
    expect(errorText('kb_no_passage', {}, 'x', 'zh')).toMatch(/^该段落已不在知识库中/);
    expect(errorText('kb_not_found', { detail: 'no such collection: "m"' }, 'x', 'en')).toMatch(/^That collection is not in the knowledge base any more/);
  });
});

describe('KnowledgeStore', () => {
  it('loads the collections, and the files of an expanded one', async () => {
    const { s, api } = store();
    await s.refresh();
    expect(s.loaded).toBe(true);
    expect(s.collections.map((c) => c.name)).toEqual(['manuals']);
    await s.toggle('manuals');
    expect(api.KBFiles).toHaveBeenCalledWith('manuals');
    expect(s.files.manuals.map((f) => f.state)).toEqual(['failed', 'failed', 'indexed', 'indexed']);
    expect(s.isExpanded('manuals')).toBe(true);
    await s.toggle('manuals');
    expect(s.isExpanded('manuals')).toBe(false);
  });

  it('says why the list could not load', async () => {
    const api = fakeApi();
    api.KBList.mockRejectedValue(new BackendError('boom', 'internal', { detail: 'boom' }));
    const { s } = store(api);
    await s.refresh();
    expect(s.error).toBe('Something went wrong: boom');
  });

  it('types the path in web mode, and adds with the optional name', async () => {
    const { s, api } = store();
    expect(s.typePath).toBe(true);
    await s.startAdd();
    expect(api.KBPickFolder).not.toHaveBeenCalled();
    expect(await s.add('Type the folder’s path first.')).toBe(false);
    expect(s.addError).toBe('Type the folder’s path first.');
    s.path = '  /tmp/notes ';
    s.name = ' Notes ';
    expect(await s.add('x')).toBe(true);
    expect(api.KBAdd).toHaveBeenCalledWith('/tmp/notes', 'Notes');
    expect(s.adding).toBe(false);
    expect(s.path).toBe('');
    expect(api.KBList).toHaveBeenCalled();
  });

  it('opens the folder picker on the desktop, and falls back to typing on needs_desktop', async () => {
    const api = fakeApi();
    api.KBPickFolder.mockResolvedValueOnce('/home/ada/Papers');
    const { s } = store(api, true);
    expect(s.typePath).toBe(false);
    await s.startAdd();
    expect(s.path).toBe('/home/ada/Papers');
    // Cancelled: the path stays as it was.
    api.KBPickFolder.mockResolvedValueOnce('');
    await s.pick();
    expect(s.path).toBe('/home/ada/Papers');
    // A backend without a picker: type the path instead.
    await s.pick();
    expect(s.typePath).toBe(true);
    expect(s.addError).toBe('');
  });

  it('shows a refused folder in the user’s words', async () => {
    const api = fakeApi();
    api.KBAdd.mockRejectedValue(new BackendError('Add "/nope": folder not found. Choose …', 'kb_no_folder', { detail: 'add "/nope": folder not found' }));
    const { s } = store(api);
    locale.lang = 'zh';
    await s.startAdd();
    s.path = '/nope';
    expect(await s.add('x')).toBe(false);
    expect(s.addError).toBe('找不到该文件夹或文件（add "/nope": folder not found）。请选择这台电脑上存在的文件夹（或文件）。');
    expect(s.adding).toBe(true);
  });

  it('follows the reading: running, cancelled with Resume, finished then hidden', async () => {
    vi.useFakeTimers();
    const bus = fakeBus();
    const { s, api } = store();
    await s.refresh();
    const off = s.listen(bus.on);
    bus.emit('kb:progress', progress());
    expect(progressState(s.progress!)).toBe('running');
    expect(s.reading).toBe(7);
    expect(s.canResume).toBe(false);
    await s.cancel();
    expect(api.KBCancel).toHaveBeenCalled();
    expect(s.cancelling).toBe(true);
    bus.emit('kb:progress', progress({ stopped: true, current: '' }));
    expect(s.cancelling).toBe(false);
    expect(s.canResume).toBe(true);
    expect(s.reading).toBe(0);
    await s.resume();
    expect(api.KBResume).toHaveBeenCalled();
    bus.emit('kb:progress', progress({ done: 10, done_bytes: 10_000_000, finished: true }));
    expect(progressState(s.progress!)).toBe('finished');
    // The list is read again once the burst of events is over.
    api.KBList.mockClear();
    await vi.advanceTimersByTimeAsync(20);
    expect(api.KBList).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(s.progress).toBeNull();
    // A pass with nothing to read shows nothing.
    bus.emit('kb:progress', progress({ files: 0, done: 0, bytes: 0, done_bytes: 0, finished: true }));
    expect(s.progress).toBeNull();
    off();
  });

  it('reads the list again after kb:changed, once per burst', async () => {
    vi.useFakeTimers();
    const bus = fakeBus();
    const { s, api } = store();
    await s.refresh();
    await s.toggle('manuals');
    s.listen(bus.on);
    api.KBList.mockClear();
    api.KBFiles.mockClear();
    for (let i = 0; i < 5; i++) bus.emit('kb:changed', 'manuals');
    await vi.advanceTimersByTimeAsync(20);
    expect(api.KBList).toHaveBeenCalledTimes(1);
    expect(api.KBFiles).toHaveBeenCalledTimes(1);
  });

  it('offers Resume when files wait and nothing reads them', async () => {
    const api = fakeApi();
    api.KBList.mockResolvedValue([collection({ pending: 4 })]);
    const { s } = store(api);
    await s.refresh();
    expect(s.waiting).toBe(4);
    expect(s.canResume).toBe(true);
  });

  it('reads a collection again, and removes one with its receipt', async () => {
    const { s, api } = store();
    await s.refresh();
    await s.toggle('manuals');
    await s.reindex('manuals');
    expect(api.KBReindex).toHaveBeenCalledWith('manuals');
    expect(s.collections[0].pending).toBe(3);
    await s.remove('manuals');
    expect(api.KBRemove).toHaveBeenCalledWith('manuals');
    expect(s.receipt).toEqual(receipt());
    expect(s.collections).toEqual([]);
    expect(s.isExpanded('manuals')).toBe(false);
    expect(s.busy).toBe('');
  });

  it('opens a cited passage, and says where the file is when only the desktop could open it', async () => {
    const { s, api } = store();
    const src = { n: 1, chunk: '7', collection: 'manuals', file: 'pump.md' };
    await s.openPassage(src);
    expect(api.KBPassage).toHaveBeenCalledWith('7');
    expect(s.viewing?.passage).toEqual(passage());
    expect(s.viewing?.needsDesktop).toBe(true);
    s.closePassage();
    expect(s.viewing).toBeNull();
  });

  it('opens the file on the desktop; a needs_desktop answer turns the button into the path', async () => {
    const api = fakeApi();
    api.KBOpenFile.mockResolvedValueOnce(undefined);
    const { s } = store(api, true);
    await s.openPassage({ n: 2, chunk: '7', collection: 'manuals', file: 'pump.md' });
    expect(s.viewing?.needsDesktop).toBe(false);
    await s.openFile();
    expect(api.KBOpenFile).toHaveBeenCalledWith('7');
    expect(s.viewing?.needsDesktop).toBe(false);
    await s.openFile();
    expect(s.viewing?.needsDesktop).toBe(true);
    expect(s.viewing?.openError).toBe('');
  });

  it('says why a passage cannot be shown', async () => {
    const api = fakeApi();
    api.KBPassage.mockRejectedValue(new BackendError('gone', 'kb_no_passage'));
    const { s } = store(api);
    await s.openPassage({ n: 1, chunk: '9', collection: 'manuals', file: 'pump.md' });
    expect(s.viewing?.loading).toBe(false);
    expect(s.viewing?.error).toMatch(/^That passage is no longer in the knowledge base/);
  });
});
