// Intent labels (docs/architecture.md, "Intent labels") as the UI shows them.
import type { MessageKey } from './i18n.svelte';

export const INTENTS = ['chitchat', 'question', 'task', 'remember', 'recall', 'forget', 'hypothetical', 'unknown'] as const;
export type Intent = (typeof INTENTS)[number];

/** The labels a user can give a message on its chip (every label but unknown). */
export const CORRECTABLE_INTENTS = INTENTS.filter((l) => l !== 'unknown');

/** A label the UI knows; anything else (or nothing) is shown as unknown. */
export function normalizeIntent(label: string | null | undefined): Intent {
  const l = (label ?? '').trim().toLowerCase();
  return (INTENTS as readonly string[]).includes(l) ? (l as Intent) : 'unknown';
}

export function intentKey(label: string | null | undefined): MessageKey {
  return `intent.${normalizeIntent(label)}` as MessageKey;
}

/** Confidence 0..1 as a whole percentage, e.g. 0.874 -> "87%". Empty when there is none. */
export function confidencePercent(c: number | null | undefined): string {
  if (typeof c !== 'number' || !Number.isFinite(c) || c < 0) return '';
  return `${Math.round(Math.min(1, c) * 100)}%`;
}

export const TOOL_GROUPS = ['none', 'read-only', 'task', 'memory', 'memory-keep'] as const;

export function toolGroupKey(group: string | null | undefined): MessageKey | null {
  const g = (group ?? '').trim();
  return (TOOL_GROUPS as readonly string[]).includes(g) ? (`tools.${g}` as MessageKey) : null;
}
