// The Network tab of the activity panel: every connection Hermes made, refused or failed to make
// (app/network.go), the latest first, and whether the setting offline_only is on.
import { errorMessage, type Api, type NetworkEntry } from './backend';
import { isKey, locale, t, type MessageKey } from './i18n.svelte';

export type NetworkApi = Pick<Api, 'NetworkActivity'>;

export const OUTCOMES = ['made', 'refused', 'failed'] as const;

/** Which part of Hermes a connection belongs to: "mcp:notes" is the MCP server notes. */
export function partOf(part: string): { kind: 'ollama' | 'mcp' | 'tool' | 'other'; name: string } {
  if (part === 'ollama') return { kind: 'ollama', name: '' };
  const [kind, ...rest] = part.split(':');
  const name = rest.join(':');
  if ((kind === 'mcp' || kind === 'tool') && name) return { kind, name };
  return { kind: 'other', name: part };
}

/** The part in words: "Ollama", "MCP notes", "Tool lookup". */
export function partText(part: string): string {
  const p = partOf(part);
  if (p.kind === 'other') return p.name;
  return t(`network.part.${p.kind}` as MessageKey, { name: p.name });
}

/** The outcome in words, with its reason when the UI has words for it. */
export function outcomeText(e: Pick<NetworkEntry, 'outcome' | 'reason'>): { outcome: string; reason: string } {
  const key = `network.${e.outcome}`;
  const outcome = isKey(key) ? t(key) : e.outcome;
  if (!e.reason) return { outcome, reason: '' };
  const rkey = `network.reason.${e.reason}`;
  return { outcome, reason: isKey(rkey) ? t(rkey) : e.reason };
}

/** Where: host:port ([v6]:port for an IPv6 address). */
export function hostPort(e: Pick<NetworkEntry, 'host' | 'port'>): string {
  const host = e.host.includes(':') ? `[${e.host}]` : e.host;
  return e.port ? `${host}:${e.port}` : host;
}

/** A time of the list: the clock today, else the day and the clock (24-hour, short), in the UI's language. */
export function whenText(iso: string, now = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const lang = locale.lang === 'zh' ? 'zh-CN' : 'en';
  return d.toDateString() === now.toDateString()
    ? d.toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })
    : d.toLocaleString(lang, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
}

/** The summary line: how many connections, how many of them refused. */
export function summaryText(entries: Pick<NetworkEntry, 'outcome' | 'count'>[]): string {
  const n = entries.reduce((s, e) => s + e.count, 0);
  const refused = entries.filter((e) => e.outcome === 'refused').reduce((s, e) => s + e.count, 0);
  const count = t(n === 1 ? 'network.countOne' : 'network.count', { n });
  return refused > 0 ? `${count} · ${t('network.refusedCount', { n: refused })}` : count;
}

export class NetworkStore {
  entries = $state<NetworkEntry[]>([]);
  offlineOnly = $state(false);
  loaded = $state(false);
  loading = $state(false);
  error = $state('');

  #api: NetworkApi;
  #seq = 0;

  constructor(api: NetworkApi) {
    this.#api = api;
  }

  async load(): Promise<void> {
    const seq = ++this.#seq;
    this.loading = true;
    try {
      const a = await this.#api.NetworkActivity();
      if (seq !== this.#seq) return;
      this.entries = a.entries ?? [];
      this.offlineOnly = a.offlineOnly;
      this.error = '';
      this.loaded = true;
    } catch (e) {
      if (seq === this.#seq) this.error = errorMessage(e);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }
}
