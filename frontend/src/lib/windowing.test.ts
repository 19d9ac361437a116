import { describe, expect, it } from 'vitest';
import { Heights, anchorAt, centreOn, indexAt, offsetsOf, scrollFor, slots, steadySlots, visibleRange } from './windowing';

describe('offsetsOf and indexAt', () => {
  it('sums heights into row tops and finds the row at a height', () => {
    const o = offsetsOf([10, 20, 30]);
    expect(o).toEqual([0, 10, 30, 60]);
    expect(indexAt(o, -5)).toBe(0);
    expect(indexAt(o, 0)).toBe(0);
    expect(indexAt(o, 9.9)).toBe(0);
    expect(indexAt(o, 10)).toBe(1);
    expect(indexAt(o, 59)).toBe(2);
    expect(indexAt(o, 1000)).toBe(2);
    expect(indexAt(offsetsOf([]), 5)).toBe(-1);
  });

  it('treats a missing or negative height as none', () => {
    expect(offsetsOf([10, NaN, -4, 5])).toEqual([0, 10, 10, 10, 15]);
  });
});

describe('visibleRange', () => {
  const o = offsetsOf(new Array(2000).fill(100)); // 200 000 px

  it('draws the viewport and the overscan on either side, not more', () => {
    const r = visibleRange(o, 50_000, 800, 400);
    // rows meeting [49 600, 51 200): 496..511
    expect(r).toEqual({ start: 496, end: 512 });
  });

  it('stays inside the list at either end', () => {
    expect(visibleRange(o, 0, 800, 400)).toEqual({ start: 0, end: 12 });
    const end = visibleRange(o, 200_000 - 800, 800, 400);
    expect(end.end).toBe(2000);
    expect(end.start).toBe(1988); // 199 200 - 400 px of overscan
  });

  it('draws at least one row, and none of an empty list', () => {
    expect(visibleRange(offsetsOf([5000]), 100, 800, 0)).toEqual({ start: 0, end: 1 });
    expect(visibleRange(offsetsOf([]), 0, 800, 400)).toEqual({ start: 0, end: 0 });
  });

  it('follows variable heights', () => {
    const v = offsetsOf([1000, 10, 10, 10, 1000]);
    expect(visibleRange(v, 1005, 20, 0)).toEqual({ start: 1, end: 4 }); // [1005, 1025): rows 1, 2 and 3
  });
});

describe('slots', () => {
  const o = offsetsOf([10, 20, 30, 40, 50, 60]);

  it('stands gaps as tall as the rows left out around the drawn range', () => {
    expect(slots(o, { start: 2, end: 4 })).toEqual([
      { kind: 'gap', from: 0, to: 2, height: 30 },
      { kind: 'row', index: 2 },
      { kind: 'row', index: 3 },
      { kind: 'gap', from: 4, to: 6, height: 110 },
    ]);
  });

  it('keeps pinned rows in order with gaps between, and ignores pins outside the list', () => {
    const s = slots(o, { start: 1, end: 2 }, [5, 1, 99, -1]);
    expect(s).toEqual([
      { kind: 'gap', from: 0, to: 1, height: 10 },
      { kind: 'row', index: 1 },
      { kind: 'gap', from: 2, to: 5, height: 120 },
      { kind: 'row', index: 5 },
    ]);
    // The heights of everything add up to the list's height.
    const total = s.reduce((sum, x) => sum + (x.kind === 'gap' ? x.height : o[x.index + 1] - o[x.index]), 0);
    expect(total).toBe(o[6]);
  });
});

describe('anchoring', () => {
  it('keeps the row being read in place when a row above it changes height', () => {
    const before = offsetsOf([100, 100, 100, 100]);
    const a = anchorAt(before, 250)!; // 50 px into row 2
    expect(a).toEqual({ index: 2, within: 50 });
    const after = offsetsOf([100, 340, 100, 100]); // row 1 was measured taller
    expect(scrollFor(after, a)).toBe(490);
    // A row below it changing moves nothing.
    expect(scrollFor(offsetsOf([100, 100, 100, 900]), a)).toBe(250);
  });

  it('has no anchor in an empty list and clamps a stale one', () => {
    expect(anchorAt(offsetsOf([]), 10)).toBeNull();
    expect(scrollFor(offsetsOf([100]), { index: 5, within: 3 })).toBe(3);
    // Above the list (the scroller's own padding): kept as it was, not moved into the list.
    expect(scrollFor(offsetsOf([100, 100]), anchorAt(offsetsOf([80, 100]), -12)!)).toBe(-12);
  });

  it('centres a row in the viewport, clamped to the list', () => {
    const o = offsetsOf(new Array(100).fill(100));
    expect(centreOn(o, 50, 600)).toBe(5050 - 300);
    expect(centreOn(o, 0, 600)).toBe(0);
    expect(centreOn(o, 99, 600)).toBe(10_000 - 600);
  });
});

describe('Heights', () => {
  it('estimates unmeasured rows as the mean of the measured ones', () => {
    const h = new Heights(120);
    expect(h.of(['a', 'b'])).toEqual([120, 120]);
    expect(h.set('a', 100)).toBe(true);
    expect(h.set('a', 100.2)).toBe(false); // sub-pixel noise is no change
    expect(h.set('c', 300)).toBe(true);
    expect(h.estimate).toBe(200);
    expect(h.of(['a', 'b', 'c'])).toEqual([100, 200, 300]);
  });

  it('forgets rows that left the list', () => {
    const h = new Heights();
    h.set('a', 100);
    h.set('b', 300);
    h.keep(['b']);
    expect(h.has('a')).toBe(false);
    expect(h.estimate).toBe(300);
  });

  it('keeps the estimate while a measured row changes height (a streaming reply growing)', () => {
    const h = new Heights();
    h.set('a', 100);
    h.set('b', 300);
    expect(h.estimate).toBe(200);
    expect(h.set('b', 900)).toBe(true);
    expect(h.set('b', 1300)).toBe(true);
    expect(h.estimate).toBe(200);
    expect(h.of(['a', 'b', 'x'])).toEqual([100, 1300, 200]);
    // the next row measured for the first time brings the mean up to date
    h.set('c', 100);
    expect(h.estimate).toBe(500);
  });
});

describe('steadySlots', () => {
  const o = offsetsOf(new Array(100).fill(10));

  it('keeps the slot objects that stand for the same rows and gaps, and the array when nothing changed', () => {
    const a = steadySlots([], slots(o, { start: 10, end: 20 }, [99]));
    const same = steadySlots(a, slots(o, { start: 10, end: 20 }, [99]));
    expect(same).toBe(a);
    const moved = steadySlots(a, slots(o, { start: 11, end: 21 }, [99]));
    expect(moved).not.toBe(a);
    // row 15 is the same object in both; the leading gap (now 0..11) is a new one
    const row = (xs: typeof a, i: number) => xs.find((s) => s.kind === 'row' && s.index === i);
    expect(row(moved, 15)).toBe(row(a, 15));
    expect(moved[0]).not.toBe(a[0]);
    expect(moved[0]).toEqual({ kind: 'gap', from: 0, to: 11, height: 110 });
    expect(moved.filter((s) => s.kind === 'row').map((s) => (s as { index: number }).index)).toEqual([
      11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 99,
    ]);
  });
});
