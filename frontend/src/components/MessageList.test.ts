// MessageList: which rows are in the DOM of a long conversation, and where it scrolls. jsdom has
// no layout, so the scroller's size and the rows' measured heights are given by the test (a
// ResizeObserver the test drives).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import { createRawSnippet, tick } from 'svelte';
import MessageList from './MessageList.svelte';

type Item = { id: string };

/** Observers created by the component; measure() reports heights to them as a browser would. */
let observers: FakeObserver[] = [];
class FakeObserver {
  targets = new Set<Element>();
  constructor(private cb: ResizeObserverCallback) {
    observers.push(this);
  }
  observe(el: Element) {
    this.targets.add(el);
  }
  unobserve(el: Element) {
    this.targets.delete(el);
  }
  disconnect() {
    this.targets.clear();
  }
  fire(heights: Map<Element, number>) {
    const entries = [...heights]
      .filter(([el]) => this.targets.has(el))
      .map(([el, h]) => ({ target: el, borderBoxSize: [{ blockSize: h, inlineSize: 600 }] }) as unknown as ResizeObserverEntry);
    if (entries.length) this.cb(entries, this as unknown as ResizeObserver);
  }
}

/** Reports a height for every drawn row (by its id; others get `fallback`). */
async function measure(container: HTMLElement, height: (id: string) => number) {
  const map = new Map<Element, number>();
  for (const el of container.querySelectorAll<HTMLElement>('.vrow')) map.set(el, height(el.dataset.key!));
  for (const o of [...observers]) o.fire(map);
  await tick();
  await tick();
}

/** A scroller of a fixed size whose scrollTop is kept (jsdom's is always 0). */
function scroller(clientHeight = 600, scrollHeight = 1_000_000): HTMLElement {
  const el = document.createElement('div');
  let top = 0;
  Object.defineProperty(el, 'clientHeight', { get: () => clientHeight });
  Object.defineProperty(el, 'scrollHeight', { get: () => scrollHeight });
  Object.defineProperty(el, 'scrollTop', { get: () => top, set: (v: number) => (top = Math.max(0, v)) });
  document.body.appendChild(el);
  return el;
}

const row = createRawSnippet((m: () => Item, i: () => number) => ({
  render: () => `<p class="item" data-id="${m().id}">message ${i()}</p>`,
}));

function items(n: number): Item[] {
  return Array.from({ length: n }, (_, i) => ({ id: `m${i}` }));
}

function drawnIds(container: HTMLElement): string[] {
  return [...container.querySelectorAll<HTMLElement>('.item')].map((e) => e.dataset.id!);
}

beforeEach(() => {
  observers = [];
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver = FakeObserver;
});

afterEach(() => {
  delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
  document.body.innerHTML = '';
});

describe('MessageList', () => {
  it('draws only the rows at the bottom of a 2,000-message conversation, with gaps for the rest', async () => {
    const sc = scroller();
    const { container } = render(MessageList<Item>, { target: sc, props: { scroller: sc, items: items(2000), row, estimate: 100 } });
    await tick();
    const ids = drawnIds(container);
    // 600 px viewport + 800 px overscan above, 100 px rows: 14 rows and the newest.
    expect(ids.length).toBeGreaterThan(5);
    expect(ids.length).toBeLessThanOrEqual(20);
    expect(ids[ids.length - 1]).toBe('m1999');
    expect(ids).not.toContain('m0');
    const gap = container.querySelector<HTMLElement>('[data-testid="message-gap"]')!;
    expect(parseFloat(gap.style.height)).toBe((2000 - ids.length) * 100);
    expect(container.querySelector('[data-testid="message-list"]')!.getAttribute('data-rows')).toBe('2000');
  });

  it('draws a short conversation whole', async () => {
    const sc = scroller();
    const { container } = render(MessageList<Item>, { target: sc, props: { scroller: sc, items: items(12), row } });
    await tick();
    expect(drawnIds(container)).toHaveLength(12);
    expect(container.querySelector('[data-testid="message-gap"]')).toBeNull();
  });

  it('draws the rows where the user scrolled, and keeps the newest and pinned ones', async () => {
    const sc = scroller();
    const { container } = render(MessageList<Item>, {
      target: sc,
      props: { scroller: sc, items: items(2000), row, estimate: 100, pinned: ['m3'] },
    });
    await tick();
    sc.scrollTop = 100_000; // row 1000
    await fireEvent.scroll(sc);
    await tick();
    const ids = drawnIds(container);
    expect(ids).toContain('m1000');
    expect(ids).toContain('m3'); // pinned
    expect(ids).toContain('m1999'); // the newest (a streaming reply is never unmounted)
    expect(ids).not.toContain('m1500');
    expect(ids.length).toBeLessThanOrEqual(25);
  });

  it('keeps what the user reads in place when rows above it are measured taller', async () => {
    const sc = scroller();
    const { container } = render(MessageList<Item>, { target: sc, props: { scroller: sc, items: items(2000), row, estimate: 100 } });
    await tick();
    sc.scrollTop = 50_000; // 0 px into row 500
    await fireEvent.scroll(sc);
    await tick();
    // Every drawn row is measured at 100 px except those above row 500, which are 150 px: the
    // rows above the viewport grew by 50 px each, so the view moves down by as much.
    const above = drawnIds(container).filter((id) => Number(id.slice(1)) < 500 && Number(id.slice(1)) > 10).length;
    expect(above).toBeGreaterThan(0);
    await measure(container, (id) => (Number(id.slice(1)) < 500 ? 150 : 100));
    // The estimate for unmeasured rows is the mean of the measured ones; row 500's top moved by
    // the growth of the rows above it whatever it is, and the view followed it.
    const list = container.querySelector('[data-testid="message-list"]')!;
    const rowTop = [...list.children].reduce(
      (acc, el) => {
        if (acc.done) return acc;
        const e = el as HTMLElement;
        if (e.dataset.key === 'm500') return { y: acc.y, done: true };
        const h = e.classList.contains('vgap') ? parseFloat(e.style.height) : Number(e.dataset.key!.slice(1)) < 500 ? 150 : 100;
        return { y: acc.y + h, done: false };
      },
      { y: 0, done: false },
    );
    expect(rowTop.done).toBe(true);
    expect(sc.scrollTop).toBeCloseTo(rowTop.y, 0);
    expect(sc.scrollTop).toBeGreaterThan(50_000);
  });

  it('draws no row of another place while measured heights move every row (no mounts thrown away)', async () => {
    const sc = scroller();
    const { container } = render(MessageList<Item>, { target: sc, props: { scroller: sc, items: items(2000), row, estimate: 100 } });
    await tick();
    sc.scrollTop = 50_000; // row 500
    await fireEvent.scroll(sc);
    await tick();
    const list = container.querySelector('[data-testid="message-list"]')!;
    const mounted: number[] = [];
    const mo = new MutationObserver((recs) => {
      for (const r of recs) for (const n of r.addedNodes) if ((n as HTMLElement).classList?.contains('vrow')) mounted.push(Number((n as HTMLElement).dataset.key!.slice(1)));
    });
    mo.observe(list, { childList: true });
    // The drawn rows are measured three times as tall as estimated: the estimate for the ~1,990
    // rows not drawn triples, and row 500 moves from 50,000 px to about 150,000 px.
    await measure(container, () => 300);
    await tick();
    mo.takeRecords();
    mo.disconnect();
    expect(sc.scrollTop).toBeGreaterThan(140_000);
    expect(drawnIds(container)).toContain('m500');
    // Only rows next to row 500 came into the DOM (the old position over the new heights would
    // have drawn rows near 50,000 / 300 ≈ row 166, to remove them again at once).
    for (const i of mounted) expect(Math.abs(i - 500) < 20 || i === 1999, `row ${i} mounted`).toBe(true);
  });

  it('reveals a row far up (a search hit) and Home / End reach the first and the last message', async () => {
    const sc = scroller();
    const { container, component } = render(MessageList<Item>, {
      target: sc,
      props: { scroller: sc, items: items(2000), row, estimate: 100 },
    });
    await tick();
    const el = await component.reveal('m42');
    expect(el?.dataset.key).toBe('m42');
    expect(drawnIds(container)).toContain('m42');
    expect(component.following()).toBe(false);
    expect(await component.reveal('nope')).toBeNull();

    await fireEvent.keyDown(sc, { key: 'Home' });
    await tick();
    expect(sc.scrollTop).toBe(0);
    expect(drawnIds(container)[0]).toBe('m0');

    await fireEvent.keyDown(sc, { key: 'End' });
    await tick();
    await tick();
    expect(component.following()).toBe(true);
    expect(drawnIds(container)).toContain('m1998');
    expect(drawnIds(container)).not.toContain('m42');
  });

  it('follows a growing last row at the bottom, but not once the user scrolled up', async () => {
    let height = 300_000;
    const sc = document.createElement('div');
    let top = 0;
    Object.defineProperty(sc, 'clientHeight', { get: () => 600 });
    Object.defineProperty(sc, 'scrollHeight', { get: () => height });
    Object.defineProperty(sc, 'scrollTop', { get: () => top, set: (v: number) => (top = Math.max(0, Math.min(v, height - 600))) });
    document.body.appendChild(sc);
    const { container } = render(MessageList<Item>, { target: sc, props: { scroller: sc, items: items(2000), row, estimate: 150 } });
    await tick();
    await tick();
    expect(sc.scrollTop).toBe(height - 600); // at the bottom
    // The streaming reply (the last row) grows: still at the bottom.
    height += 400;
    await measure(container, (id) => (id === 'm1999' ? 550 : 150));
    expect(sc.scrollTop).toBe(height - 600);
    // Growing further, it does not change the estimated height of the rows not drawn: the space
    // standing in for them grows only by the measured rows that left the window at its top.
    const gap = () => parseFloat(container.querySelector<HTMLElement>('[data-testid="message-gap"]')!.style.height);
    const before = { gap: gap(), drawn: drawnIds(container) };
    height += 200;
    await measure(container, (id) => (id === 'm1999' ? 750 : 150));
    expect(sc.scrollTop).toBe(height - 600);
    const left = before.drawn.filter((id) => !drawnIds(container).includes(id));
    expect(gap() - before.gap).toBeCloseTo(150 * left.length, 3);
    // The user scrolls up to read; the reply grows again: the view stays where the user put it.
    sc.scrollTop = 120_000;
    await fireEvent.scroll(sc);
    height += 400;
    await measure(container, (id) => (id === 'm1999' ? 950 : 150));
    // Not pulled to the bottom; it moves only by what the rows above it changed (the rows drawn
    // there were estimated taller than the 150 px they measured).
    expect(sc.scrollTop).toBeLessThan(120_000);
    expect(sc.scrollTop).toBeGreaterThan(110_000);
    expect(height - 600 - sc.scrollTop).toBeGreaterThan(100_000);
  });

  it('leaves Home and End to a text field', async () => {
    const sc = scroller();
    const { component } = render(MessageList<Item>, { target: sc, props: { scroller: sc, items: items(100), row } });
    await tick();
    const input = document.createElement('textarea');
    sc.appendChild(input);
    await fireEvent.keyDown(input, { key: 'Home' });
    expect(component.following()).toBe(true);
  });
});
