// Test data for the knowledge-base tests (not part of the app).
import { vi, type Mock } from 'vitest';
import { BackendError, type KBCollection, type KBFile, type KBPassage, type KBProgress, type KBReceipt } from './backend';
import type { KnowledgeApi } from './knowledge.svelte';

export function collection(over: Partial<KBCollection> = {}): KBCollection {
  return {
    id: 1,
    name: 'manuals',
    root: '/home/ada/Manuals',
    single: false,
    scanned: true,
    files: 3,
    indexed: 2,
    pending: 0,
    failed: 1,
    chunks: 14,
    bytes: 52_000,
    created: '2026-01-02T03:04:05Z',
    ...over,
  };
}

export function file(over: Partial<KBFile> = {}): KBFile {
  return { path: 'pump.md', size: 2048, state: 'indexed', kind: 'markdown', chunks: 4, indexed: '2026-01-02T03:04:06Z', ...over };
}

export function progress(over: Partial<KBProgress> = {}): KBProgress {
  return {
    collection: '',
    files: 10,
    done: 3,
    failed: 0,
    bytes: 10_000_000,
    done_bytes: 3_000_000,
    current: 'manuals/boiler.pdf',
    mbps: 1.5,
    eta_seconds: 5,
    finished: false,
    stopped: false,
    ...over,
  };
}

export function receipt(over: Partial<KBReceipt> = {}): KBReceipt {
  return { collection: 'manuals', files: 3, chunks: 14, vectors: 14, scrubbed: true, ...over };
}

const PASSAGE_TEXT = '# Pump\n\nIntro line.\n\n## Faults\n\nE1 means low water. Refill the tank.\n\nEnd.';
const PASSAGE_AT = PASSAGE_TEXT.indexOf('E1 means');

export function passage(over: Partial<KBPassage> = {}): KBPassage {
  return {
    chunk: 7,
    collection: 'manuals',
    file: 'pump.md',
    path: '/home/ada/Manuals/pump.md',
    kind: 'markdown',
    heading: 'Pump > Faults',
    text: PASSAGE_TEXT,
    start: PASSAGE_AT,
    end: PASSAGE_AT + 'E1 means low water.'.length,
    ...over,
  };
}

export const needsDesktop = () =>
  new BackendError("Only the desktop window can do this. In the browser, type the folder's path instead.", 'needs_desktop');

export type FakeKnowledgeApi = { [K in keyof KnowledgeApi]: Mock };

export function fakeApi(): FakeKnowledgeApi {
  return {
    KBList: vi.fn().mockResolvedValue([collection()]),
    KBAdd: vi.fn().mockResolvedValue(collection({ id: 2, name: 'notes', root: '/tmp/notes', files: 0, indexed: 0, failed: 0, chunks: 0, bytes: 0 })),
    KBFiles: vi.fn().mockResolvedValue([
      file({ path: 'broken.pdf', state: 'failed', kind: 'pdf', reason: 'not_pdf', detail: 'could not be read as a PDF (no header)', chunks: 0 }),
      file({ path: 'odd.xyz', state: 'failed', reason: 'something_new', detail: 'a reason the UI does not know', chunks: 0 }),
      file(),
      file({ path: 'scan.pdf', state: 'indexed', kind: 'pdf', pages: 3, chunks: 6 }),
    ]),
    KBRemove: vi.fn().mockResolvedValue(receipt()),
    KBReindex: vi.fn().mockResolvedValue(collection({ pending: 3, indexed: 0, failed: 0 })),
    KBCancel: vi.fn().mockResolvedValue(undefined),
    KBResume: vi.fn().mockResolvedValue(undefined),
    KBPassage: vi.fn().mockResolvedValue(passage()),
    KBPickFolder: vi.fn().mockRejectedValue(needsDesktop()),
    KBOpenFile: vi.fn().mockRejectedValue(needsDesktop()),
  };
}

/** A stand-in for the event bus: on() subscribes, emit() delivers. */
export function fakeBus() {
  const subs = new Map<string, Set<(d: unknown) => void>>();
  return {
    on(name: string, cb: (d: unknown) => void) {
      if (!subs.has(name)) subs.set(name, new Set());
      subs.get(name)!.add(cb);
      return () => subs.get(name)?.delete(cb);
    },
    emit(name: string, data: unknown) {
      for (const cb of subs.get(name) ?? []) cb(data);
    },
  };
}
