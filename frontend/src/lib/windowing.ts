// The arithmetic of the virtualised message list (components/MessageList.svelte): which rows are
// near the viewport, how tall the space is that stands in for the others, and where to scroll so
// that what the user reads stays put when rows above it change height. Pure functions over a list
// of row heights (measured, or estimated until a row has been in the DOM once).

/** Prefix sums of the heights: offsets[i] is the top of row i, offsets[n] the total height. */
export function offsetsOf(heights: readonly number[]): number[] {
  const out = new Array<number>(heights.length + 1);
  out[0] = 0;
  for (let i = 0; i < heights.length; i++) out[i + 1] = out[i] + Math.max(0, heights[i] || 0);
  return out;
}

/** The row at height y (0 for y above the list, the last row for y below it; -1 when empty). */
export function indexAt(offsets: readonly number[], y: number): number {
  const n = offsets.length - 1;
  if (n <= 0) return -1;
  if (y <= 0) return 0;
  if (y >= offsets[n]) return n - 1;
  // The last i with offsets[i] <= y.
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface Range {
  /** First row drawn. */
  start: number;
  /** One past the last row drawn. */
  end: number;
}

/**
 * The rows that meet [top - overscan, top + height + overscan): what the user sees plus a margin
 * on either side so that scrolling does not show blank space before the next frame.
 */
export function visibleRange(offsets: readonly number[], top: number, height: number, overscan: number): Range {
  const n = offsets.length - 1;
  if (n <= 0) return { start: 0, end: 0 };
  const from = Math.max(0, top - overscan);
  const to = Math.min(offsets[n], top + Math.max(0, height) + overscan);
  const start = indexAt(offsets, from);
  let end = indexAt(offsets, to) + 1;
  // A row that starts exactly at `to` is not needed (unless it is the only one).
  if (end - 1 > start && offsets[end - 1] >= to) end--;
  return { start, end: Math.min(n, Math.max(end, start + 1)) };
}

/** One thing the list draws: a row, or an empty block as tall as the rows it stands in for. */
export type Slot = { kind: 'row'; index: number } | { kind: 'gap'; from: number; to: number; height: number };

/**
 * The range's rows plus the pinned ones (rows that must stay in the DOM wherever the user
 * scrolled: the streaming reply, the message being edited or holding the focus), in order, with a
 * gap for every run of rows left out.
 */
export function slots(offsets: readonly number[], range: Range, pinned: Iterable<number> = []): Slot[] {
  const n = offsets.length - 1;
  const drawn = new Set<number>();
  for (let i = Math.max(0, range.start); i < Math.min(n, range.end); i++) drawn.add(i);
  for (const p of pinned) if (p >= 0 && p < n) drawn.add(p);
  const order = [...drawn].sort((a, b) => a - b);
  const out: Slot[] = [];
  let next = 0;
  for (const i of order) {
    if (i > next) out.push({ kind: 'gap', from: next, to: i, height: offsets[i] - offsets[next] });
    out.push({ kind: 'row', index: i });
    next = i + 1;
  }
  if (next < n) out.push({ kind: 'gap', from: next, to: n, height: offsets[n] - offsets[next] });
  return out;
}

/**
 * next, with every slot equal to one of prev replaced by prev's object, and prev itself when
 * nothing changed. The list's keyed rows see a new slot object as a change: without this, every
 * height measured or scroll position read would draw every message on screen again (their
 * Markdown rendered anew), not only the one that changed.
 */
export function steadySlots(prev: readonly Slot[], next: Slot[]): Slot[] {
  const rows = new Map<number, Slot>();
  const gaps = new Map<string, Slot>();
  for (const s of prev) {
    if (s.kind === 'row') rows.set(s.index, s);
    else gaps.set(`${s.from}:${s.to}:${s.height}`, s);
  }
  let same = prev.length === next.length;
  const out = next.map((s, i) => {
    const old = s.kind === 'row' ? rows.get(s.index) : gaps.get(`${s.from}:${s.to}:${s.height}`);
    const kept = old ?? s;
    if (kept !== prev[i]) same = false;
    return kept;
  });
  return same ? (prev as Slot[]) : out;
}

/** What the user is reading: a row and how far into it the top of the viewport is. */
export interface Anchor {
  index: number;
  within: number;
}

export function anchorAt(offsets: readonly number[], top: number): Anchor | null {
  const index = indexAt(offsets, top);
  if (index < 0) return null;
  return { index, within: top - offsets[index] };
}

/**
 * The position in the list (from its top) that puts the anchor where it was after heights
 * changed; negative when the viewport starts above the list (the scroller's padding).
 */
export function scrollFor(offsets: readonly number[], anchor: Anchor): number {
  const n = offsets.length - 1;
  if (n <= 0) return 0;
  const i = Math.min(anchor.index, n - 1);
  return offsets[i] + anchor.within;
}

/** The scroll position that centres row index in a viewport of this height. */
export function centreOn(offsets: readonly number[], index: number, viewport: number): number {
  const n = offsets.length - 1;
  if (n <= 0 || index < 0) return 0;
  const i = Math.min(index, n - 1);
  const mid = (offsets[i] + offsets[i + 1]) / 2;
  return Math.max(0, Math.min(offsets[n] - viewport, mid - viewport / 2));
}

/**
 * Row heights by key: measured ones as they were, the others estimated as the mean of those
 * measured so far (or `fallback` before any). The estimate is taken again after a row was measured
 * for the first time or forgotten, not after a measured row only changed height: a reply growing line by line
 * as it streams would otherwise change the estimated height of every row not yet drawn (some
 * thousands in a long conversation), and with it the space standing in for them, the list's
 * height and the position of every drawn row, at each new line.
 */
export class Heights {
  #known = new Map<string, number>();
  #sum = 0;
  #estimate: number;
  /** A row was measured for the first time or forgotten: the estimate is taken again when read. */
  #stale = false;
  readonly fallback: number;

  constructor(fallback = 120) {
    this.fallback = fallback;
    this.#estimate = fallback;
  }

  /** Records a measured height; true when it changed. */
  set(key: string, height: number): boolean {
    if (!(height >= 0)) return false;
    const old = this.#known.get(key);
    if (old !== undefined && Math.abs(old - height) < 0.5) return false;
    this.#sum += height - (old ?? 0);
    this.#known.set(key, height);
    if (old === undefined) this.#stale = true;
    return true;
  }

  has(key: string): boolean {
    return this.#known.has(key);
  }

  get estimate(): number {
    if (this.#stale) {
      this.#stale = false;
      this.#estimate = this.#known.size > 0 ? this.#sum / this.#known.size : this.fallback;
    }
    return this.#estimate;
  }

  /** The heights of the rows with these keys, in order. */
  of(keys: readonly string[]): number[] {
    const est = this.estimate;
    return keys.map((k) => this.#known.get(k) ?? est);
  }

  /** Forgets rows no longer in the list. */
  keep(keys: Iterable<string>): void {
    const want = new Set(keys);
    for (const [k, h] of this.#known) {
      if (!want.has(k)) {
        this.#known.delete(k);
        this.#sum -= h;
        this.#stale = true;
      }
    }
  }
}
