// The recall log as the context inspector shows it: the candidates a recall considered, split into
// those offered to the model and those considered but not used, each with a reason the UI words.
import type { MemoryRecallCandidate } from './backend';
import type { MessageKey } from './i18n.svelte';

/** The reason's kind, from the backend's words ("kept: …", "dropped: below the threshold …"). */
export function recallWhyKey(reason: string): MessageKey {
  const r = reason.replace(/^(kept|dropped):\s*/, '');
  if (reason.startsWith('kept:')) return r.startsWith('confirmed profile memory') ? 'recall.why.profile' : 'recall.why.kept';
  if (r.startsWith('not offerable')) return 'recall.why.offerable';
  if (r.startsWith('below the threshold')) return 'recall.why.threshold';
  if (r.startsWith('found by similarity only')) return 'recall.why.similarity';
  if (r.startsWith('beyond the')) return 'recall.why.beyond';
  if (r.startsWith('says the same')) return 'recall.why.duplicate';
  return 'recall.why.other';
}

/** The backend's own detail after the kind (e.g. the reranker's terms), "" when none. */
export function recallDetail(reason: string): string {
  if (recallWhyKey(reason) === 'recall.why.profile') return '';
  const r = reason.replace(/^(kept|dropped):\s*/, '');
  const i = r.indexOf(': ');
  return i >= 0 ? r.slice(i + 2) : reason.startsWith('kept:') ? r : '';
}

export function splitRecall(list: MemoryRecallCandidate[]): { kept: MemoryRecallCandidate[]; dropped: MemoryRecallCandidate[] } {
  return { kept: list.filter((c) => c.kept), dropped: list.filter((c) => !c.kept) };
}

/** A score with two decimals ("—" for none). */
export function fmtScore(n: number, digits = 2): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '—';
}
