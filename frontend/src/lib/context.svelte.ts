// The context inspector's data: what the model saw on the last turn of a session, and the
// arithmetic of the budget bar.
import { errorMessage, type Api, type ContextItem, type ContextReport } from './backend';

/** Reasons in the order the prompt builder selects them; unknown reasons sort last. */
export const REASONS = [
  'system',
  'query',
  'summary',
  'memory',
  'knowledge',
  'tool_schema',
  'document',
  'pinned',
  'recent',
  'relevant',
  'anchor',
  'newest',
] as const;

export type KnownReason = (typeof REASONS)[number];

export function isKnownReason(r: string): r is KnownReason {
  return (REASONS as readonly string[]).includes(r);
}

export interface Usage {
  used: number;
  budget: number;
  /** Share of the budget used, 0..100 (rounded to one decimal); 100 when over. */
  percent: number;
  over: boolean;
  /** Budget left, never negative. */
  left: number;
}

function n(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0;
}

/** Used tokens against the budget. A report without a budget counts as fully used. */
export function usage(tokens: number, budget: number): Usage {
  const used = Math.round(n(tokens));
  const b = Math.round(n(budget));
  if (b === 0) return { used, budget: 0, percent: used > 0 ? 100 : 0, over: used > 0, left: 0 };
  const raw = (used / b) * 100;
  return {
    used,
    budget: b,
    percent: Math.min(100, Math.round(raw * 10) / 10),
    over: used > b,
    left: Math.max(0, b - used),
  };
}

export interface Segment {
  reason: string;
  tokens: number;
  /** Width in percent of the bar (the bar is the budget, or the total when that is larger). */
  percent: number;
}

/** Tokens per reason as bar segments, in selection order; widths add up to at most 100. */
export function segments(items: ContextItem[] | null | undefined, budget: number): Segment[] {
  const totals = new Map<string, number>();
  for (const it of items ?? []) totals.set(it.reason, (totals.get(it.reason) ?? 0) + n(it.tokens));
  const sum = [...totals.values()].reduce((a, b) => a + b, 0);
  const scale = Math.max(n(budget), sum);
  if (scale === 0) return [];
  const order = (r: string) => (isKnownReason(r) ? REASONS.indexOf(r) : REASONS.length);
  return [...totals.entries()]
    .filter(([, t]) => t > 0)
    .sort((a, b) => order(a[0]) - order(b[0]) || a[0].localeCompare(b[0]))
    .map(([reason, tokens]) => ({ reason, tokens, percent: Math.round((tokens / scale) * 1000) / 10 }));
}

export interface ContextDeps {
  api: Pick<Api, 'LastContext' | 'ReplyContext'> & Partial<Pick<Api, 'SessionChannels' | 'ChannelContext'>>;
}

/** The conversation's own channel (the others are sub-agents'). */
export const MAIN_CHANNEL = 'main';

export class ContextStore {
  report = $state<ContextReport | null>(null);
  error = $state('');
  loading = $state(false);
  /** The session the report belongs to. */
  sessionId = $state('');
  /** The reply whose context is shown; '' shows the session's last turn. */
  replyId = $state('');
  /** The session's channels that have messages ("main" and the sub-agents that ran in it). */
  channels = $state<string[]>([]);
  /** The channel shown: "main" shows the conversation's context; a sub-agent's shows its next window. */
  channel = $state(MAIN_CHANNEL);

  #deps: ContextDeps;
  #seq = 0;

  constructor(deps: ContextDeps) {
    this.#deps = deps;
  }

  /**
   * Loads what the model saw for a reply of a session (replyId), or with '' for the session's
   * last turn; an empty session id clears the report.
   */
  async load(sessionId: string, replyId = ''): Promise<void> {
    const seq = ++this.#seq;
    if (sessionId !== this.sessionId) {
      this.channel = MAIN_CHANNEL;
      this.channels = [];
    } else if (replyId && replyId !== this.replyId) {
      // A reply's context is the conversation's.
      this.channel = MAIN_CHANNEL;
    }
    if (sessionId !== this.sessionId || replyId !== this.replyId) this.report = null;
    this.sessionId = sessionId;
    this.replyId = sessionId ? replyId : '';
    this.error = '';
    if (!sessionId) {
      this.report = null;
      this.loading = false;
      return;
    }
    this.loading = true;
    void this.loadChannels(sessionId);
    const channel = this.channel;
    const api = this.#deps.api;
    try {
      const r =
        channel !== MAIN_CHANNEL && api.ChannelContext
          ? await api.ChannelContext(sessionId, channel)
          : replyId
            ? await api.ReplyContext(sessionId, replyId)
            : await api.LastContext(sessionId);
      if (seq !== this.#seq) return;
      this.report = r ? { ...r, items: r.items ?? [] } : null;
    } catch (e) {
      if (seq !== this.#seq) return;
      this.error = errorMessage(e);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  /** Reads which channels the session has (none when the backend cannot tell). */
  async loadChannels(sessionId: string): Promise<void> {
    const list = this.#deps.api.SessionChannels;
    if (!list || !sessionId) return;
    try {
      const got = await list(sessionId);
      if (sessionId !== this.sessionId) return;
      const names = got.filter((c) => typeof c === 'string' && c !== '');
      // The channel shown stays in the list even when the backend left it out.
      if (!names.includes(MAIN_CHANNEL)) names.unshift(MAIN_CHANNEL);
      if (!names.includes(this.channel)) names.push(this.channel);
      this.channels = names;
    } catch {
      // Without the list there is no switch; the conversation's context still shows.
    }
  }

  /** Shows another channel's context. */
  async setChannel(channel: string): Promise<void> {
    const c = channel || MAIN_CHANNEL;
    if (c === this.channel) return;
    this.channel = c;
    this.report = null;
    await this.load(this.sessionId, this.replyId);
  }

  /** True when the report describes a turn (the backend keeps one per session for this run). */
  get hasTurn(): boolean {
    return (this.report?.items?.length ?? 0) > 0;
  }
}

/** The groups the context panel lists the prompt in, in the order the model reads most of them. */
export const CONTEXT_GROUPS = ['instructions', 'tools', 'memories', 'documents', 'conversation'] as const;
export type ContextGroup = (typeof CONTEXT_GROUPS)[number];

/** Which group an item's reason belongs to (an unknown reason goes with the conversation). */
export function groupOf(reason: string): ContextGroup {
  switch (reason) {
    case 'system':
      return 'instructions';
    case 'tool_schema':
      return 'tools';
    case 'memory':
      return 'memories';
    case 'document':
    case 'knowledge':
      return 'documents';
    default:
      return 'conversation';
  }
}

export interface GroupedItems {
  group: ContextGroup;
  /** The items with their index in the report (the model's order). */
  items: { item: ContextItem; index: number }[];
  tokens: number;
}

/** The report's items by group (empty groups left out), each keeping the model's order. */
export function groupItems(items: ContextItem[] | null | undefined): GroupedItems[] {
  const by = new Map<ContextGroup, GroupedItems>();
  (items ?? []).forEach((item, index) => {
    const g = groupOf(item.reason);
    let e = by.get(g);
    if (!e) by.set(g, (e = { group: g, items: [], tokens: 0 }));
    e.items.push({ item, index });
    e.tokens += n(item.tokens);
  });
  return CONTEXT_GROUPS.flatMap((g) => (by.has(g) ? [by.get(g)!] : []));
}
