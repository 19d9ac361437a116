// Search across all sessions: debounced while typing, and a late answer never replaces a newer one.
import { errorMessage, type SessionFragment, type SearchHit } from './backend';

export interface SearchDeps {
  search: (query: string) => Promise<SearchHit[]>;
  delayMs?: number;
}

export class SearchStore {
  query = $state('');
  hits = $state<SearchHit[]>([]);
  error = $state('');
  /** True from the first keystroke until the answer for the latest query has arrived. */
  pending = $state(false);
  /** The query the current hits answer. */
  answered = $state('');

  #deps: SearchDeps;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #seq = 0;

  constructor(deps: SearchDeps) {
    this.#deps = deps;
  }

  get active(): boolean {
    return this.query.trim() !== '';
  }

  /** Sets the query; the search runs once typing pauses. */
  set(query: string): void {
    this.query = query;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const seq = ++this.#seq;
    if (query.trim() === '') {
      this.hits = [];
      this.error = '';
      this.pending = false;
      this.answered = '';
      return;
    }
    this.pending = true;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#run(seq, query);
    }, this.#deps.delayMs ?? 200);
  }

  /** Runs the current query now (e.g. after a session was deleted or renamed). */
  refresh(): Promise<void> {
    if (!this.active) return Promise.resolve();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    return this.#run(++this.#seq, this.query);
  }

  clear(): void {
    this.set('');
  }

  async #run(seq: number, query: string): Promise<void> {
    this.pending = true;
    try {
      const hits = await this.#deps.search(query.trim());
      if (seq !== this.#seq) return;
      this.hits = hits;
      this.error = '';
      this.answered = query;
    } catch (e) {
      if (seq !== this.#seq) return;
      this.hits = [];
      this.error = errorMessage(e);
    } finally {
      if (seq === this.#seq) this.pending = false;
    }
  }
}

/** Snippet fragments, never null; an empty snippet falls back to nothing. */
export function fragments(hit: Pick<SearchHit, 'snippet'>): SessionFragment[] {
  return (hit.snippet ?? []).filter((f) => f && typeof f.text === 'string' && f.text !== '');
}
