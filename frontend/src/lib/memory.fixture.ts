// Test data for the memory store and panel tests.
import { vi } from 'vitest';
import type { Memory, MemoryProfileInfo, MemoryReceipt } from './backend';
import type { MemoryApi } from './memory.svelte';

export function mem(id: string, text: string, extra: Partial<Memory> = {}): Memory {
  return {
    id,
    profile: 'personal',
    layer: 'fact',
    status: 'active',
    text,
    category: 'health',
    confidence: 0.9,
    strength: 0.8,
    asserted_by: 'user',
    origin: 'chat',
    source_message_ids: [],
    created_at: '2025-03-10T10:00:00Z',
    updated_at: '2025-03-10T10:00:00Z',
    last_confirmed_at: '2025-03-10T10:00:00Z',
    ...extra,
  };
}

export const receipt: MemoryReceipt = {
  tombstone_id: 'tb1',
  at: '2025-03-10T11:00:00Z',
  kind: 'id',
  count: 2,
  older_versions: 0,
  lexical_matches: 0,
  vector_matches: 0,
  checkpointed: true,
};

/** A fake of the profile calls: a "personal" profile (active) to start with. */
export function profileApi(list: MemoryProfileInfo[] = [{ name: 'personal', active: true, memories: 0 }]) {
  let profiles = list.map((p) => ({ ...p }));
  return {
    MemoryProfiles: vi.fn(async () => profiles.map((p) => ({ ...p }))),
    CreateMemoryProfile: vi.fn(async (name: string) => {
      if (profiles.some((p) => p.name === name)) throw new Error(`create profile ${name}: a profile of that name already exists`);
      profiles.push({ name, active: false, memories: 0 });
    }),
    UseMemoryProfile: vi.fn(async (name: string) => {
      if (!profiles.some((p) => p.name === name)) throw new Error(`use profile ${name}: there is no such profile`);
      profiles = profiles.map((p) => ({ ...p, active: p.name === name }));
    }),
    RenameMemoryProfile: vi.fn(async (old: string, name: string) => {
      if (profiles.some((p) => p.name === name)) throw new Error(`rename profile ${old}: a profile of that name already exists`);
      if (!profiles.some((p) => p.name === old)) throw new Error(`rename profile ${old}: there is no such profile`);
      profiles = profiles.map((p) => (p.name === old ? { ...p, name } : p));
    }),
    DeleteMemoryProfile: vi.fn(async (name: string) => {
      const p = profiles.find((x) => x.name === name);
      if (!p) throw new Error(`delete profile ${name}: there is no such profile`);
      if (p.active) throw new Error(`${name} is the active profile; switch to another profile first (hermes memory profile use personal), then delete it`);
      profiles = profiles.filter((x) => x.name !== name);
      return { ...receipt, kind: 'profile', count: p.memories };
    }),
  };
}

export function fakeApi(rows: Memory[] = []): MemoryApi {
  return {
    MemoryList: vi.fn(async () => rows),
    MemoryShow: vi.fn(async (id: string) => ({ memory: rows.find((m) => m.id === id)!, history: [], supersedes: [], recalls: 0 })),
    MemorySearch: vi.fn(async () => []),
    MemoryEdit: vi.fn(async (id: string, text: string, key: string, value: string) => ({ ...rows.find((m) => m.id === id)!, text, key, value })),
    MemoryAdd: vi.fn(async (text: string) => {
      const m = mem(`added-${rows.length}`, text);
      rows.unshift(m);
      return m;
    }),
    MemoryForget: vi.fn(async (ids: string[] | null) => ({ ...receipt, count: ids?.length ?? 0 })),
    MemoryForgetMatches: vi.fn(async () => []),
    MemoryApprove: vi.fn(async () => {}),
    MemoryReject: vi.fn(async () => receipt),
    MemoryRestore: vi.fn(async () => {}),
    MemoryConfirm: vi.fn(async () => {}),
    MemoryUndo: vi.fn(async () => receipt),
    MemoryUndoable: vi.fn(async () => ({ ok: true, until: new Date(Date.now() + 600_000).toISOString() })),
    MemoryHalfLives: vi.fn(async () => []),
    SetMemoryHalfLife: vi.fn(async () => []),
    MemoryTombstones: vi.fn(async () => []),
    MemoryExport: vi.fn(async () => '{}'),
    MemoryImport: vi.fn(async () => ({ added: 1, skipped: 0, merged: 0, replaced: 0 })),
    SetIncognito: vi.fn(async (on: boolean) => on),
    Incognito: vi.fn(async () => false),
    ...profileApi(),
  };
}

