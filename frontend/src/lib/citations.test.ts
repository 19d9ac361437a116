import { describe, expect, it } from 'vitest';
import { citationIndex, citedNumbers, linkCitations, passageParts, sourceTitle, splitCitations } from './citations';
import { renderMarkdownFragment } from './markdown';
import { toBadCitations, toSources } from './chat.svelte';
import { t } from './i18n.svelte';
import type { AgentSource } from './backend';

const known = new Set([1, 2, 3]);
const none = new Set<number>();

function src(n: number, over: Partial<AgentSource> = {}): AgentSource {
  return { n, chunk: String(100 + n), collection: 'manuals', file: `f${n}.md`, ...over };
}

const labels = {
  source: (s: AgentSource) => `Source ${s.n}: ${sourceTitle(s, t)}`,
  bad: (n: number) => `[${n}] cites no source that was offered`,
};

/** Draws Markdown as a finished reply is drawn, then links its citations. */
function drawn(md: string, sources: AgentSource[], bad: number[] = []) {
  const div = document.createElement('div');
  div.append(renderMarkdownFragment(md));
  const made = linkCitations(div, sources, bad, labels);
  return { div, made };
}

describe('splitCitations', () => {
  it('cuts single, adjacent and grouped markers', () => {
    expect(splitCitations('See [1].', known, none)).toEqual([{ text: 'See ' }, { raw: '[1]', refs: [{ n: 1, bad: false }] }, { text: '.' }]);
    const adjacent = splitCitations('a [1][2] b', known, none);
    expect(adjacent.filter((p) => 'refs' in p).map((p) => ('refs' in p ? p.refs.map((r) => r.n) : []))).toEqual([[1], [2]]);
    const grouped = splitCitations('a [1, 3] b [2,3] c [1，2] 【3】', known, none);
    expect(grouped.filter((p) => 'refs' in p).map((p) => ('refs' in p ? p.refs.map((r) => r.n) : []))).toEqual([[1, 3], [2, 3], [1, 2], [3]]);
  });

  it('leaves bracketed numbers that are no citation as text', () => {
    expect(splitCitations('In [2024] and [7] and [1, 7]', known, none)).toEqual([{ text: 'In [2024] and [7] and [1, 7]' }]);
  });

  it('marks the numbers the backend flagged', () => {
    const pieces = splitCitations('True [1], invented [9].', known, new Set([9]));
    expect(pieces.filter((p) => 'refs' in p)).toEqual([
      { raw: '[1]', refs: [{ n: 1, bad: false }] },
      { raw: '[9]', refs: [{ n: 9, bad: true }] },
    ]);
  });

  it('lists the numbers cited, in first-cited order', () => {
    expect(citedNumbers('[3] then [1][3] and [1, 2] and [8]', known, none)).toEqual([3, 1, 2]);
  });
});

describe('sourceTitle and the message DTO', () => {
  it('words a source as file · page · heading', () => {
    expect(sourceTitle({ file: 'pump.md', page: 3, heading: 'Faults' }, t)).toBe('pump.md · p. 3 · Faults');
    expect(sourceTitle({ file: 'notes/a.md' }, t)).toBe('notes/a.md');
  });

  it('reads sources and bad citations defensively (chunk as text, sorted, malformed left out)', () => {
    expect(
      toSources([
        { n: 2, chunk: 42, collection: 'c', file: 'b.md', page: 0 },
        { n: 1, chunk: '7', collection: 'c', file: 'a.md', page: 3, heading: 'H' },
        { n: 0, chunk: '1' },
        { n: 3 },
        null,
      ]),
    ).toEqual([
      { n: 1, chunk: '7', collection: 'c', file: 'a.md', page: 3, heading: 'H' },
      { n: 2, chunk: '42', collection: 'c', file: 'b.md' },
    ]);
    expect(toSources([])).toBeUndefined();
    expect(toSources(null)).toBeUndefined();
    expect(toBadCitations([9, 'x', 0, 12])).toEqual([9, 12]);
    expect(toBadCitations(undefined)).toBeUndefined();
  });

  it('never counts a flagged number that is also a source as bad', () => {
    const { byN, flagged } = citationIndex([src(1)], [1, 9]);
    expect([...byN.keys()]).toEqual([1]);
    expect([...flagged]).toEqual([9]);
  });
});

describe('linkCitations', () => {
  it('makes chips of the markers and keeps the Markdown around them', () => {
    const { div, made } = drawn('According to **[1]**, the pump *stops* [2][3].\n\n- item [1, 2]', [src(1), src(2, { page: 3, heading: 'Faults' }), src(3)]);
    expect(made).toBe(5);
    expect(div.querySelector('strong button.cite')?.textContent).toBe('1');
    expect(div.querySelector('em')?.textContent).toBe('stops');
    const chips = [...div.querySelectorAll<HTMLButtonElement>('button.cite')];
    expect(chips.map((c) => c.dataset.cite)).toEqual(['1', '2', '3', '1', '2']);
    expect(chips[1].getAttribute('aria-label')).toBe('Source 2: f2.md · p. 3 · Faults');
    expect(chips[1].title).toBe('Source 2: f2.md · p. 3 · Faults');
    expect(chips[1].type).toBe('button');
    expect(div.querySelector('li')!.textContent).toBe('item 12');
    // The text reads the same, less the brackets.
    expect(div.querySelector('p')!.textContent).toBe('According to 1, the pump stops 23.');
  });

  it('leaves code, code blocks and links alone', () => {
    const { div, made } = drawn('Use `a[1]` and [1](https://example.invalid/x)\n\n```\nx = y[1]\n```\n\nBut [1].', [src(1)]);
    expect(made).toBe(1);
    expect(div.querySelector('code')!.textContent).toBe('a[1]');
    expect(div.querySelector('pre code')!.textContent).toBe('x = y[1]\n');
    expect(div.querySelector('a')!.textContent).toBe('1');
    expect(div.querySelectorAll('button.cite').length).toBe(1);
  });

  it('strikes a number that points at no offered source, with a tooltip', () => {
    const { div } = drawn('Fine [1], invented [9].', [src(1)], [9]);
    const bad = div.querySelector<HTMLElement>('.cite.bad')!;
    expect(bad.tagName).toBe('S');
    expect(bad.firstChild!.textContent).toBe('9');
    expect(bad.title).toBe('[9] cites no source that was offered');
    expect(bad.querySelector('.visually-hidden')!.textContent).toBe(' ([9] cites no source that was offered)');
    expect(bad.dataset.testid).toBe('citation-bad');
    expect(div.querySelectorAll('button.cite').length).toBe(1);
  });

  it('does nothing without sources, and leaves unknown numbers as text', () => {
    expect(drawn('See [1].', []).made).toBe(0);
    const { div, made } = drawn('See [4] and [2024].', [src(1)]);
    expect(made).toBe(0);
    expect(div.textContent!.trim()).toBe('See [4] and [2024].');
  });

  it('never lets a chip carry markup from the text', () => {
    const { div } = drawn('<img src=x onerror=alert(1)> [1]', [src(1, { file: '<b>x</b>.md' })]);
    expect(div.querySelector('img, b')).toBeNull();
    expect(div.querySelector('button.cite')!.getAttribute('aria-label')).toBe('Source 1: <b>x</b>.md');
  });
});

describe('passageParts', () => {
  it('cuts by code points, so a passage after an emoji or a CJK character lands right', () => {
    const text = '😀 前言。Pump faults: E1 means low water. End.';
    const start = Array.from(text).indexOf('E');
    const end = start + 'E1 means low water.'.length;
    expect(passageParts({ text, start, end })).toEqual({ before: '😀 前言。Pump faults: ', passage: 'E1 means low water.', after: ' End.' });
  });

  it('clamps offsets outside the text', () => {
    expect(passageParts({ text: 'abc', start: -4, end: 99 })).toEqual({ before: '', passage: 'abc', after: '' });
    expect(passageParts({ text: 'abc', start: 2, end: 1 })).toEqual({ before: 'ab', passage: '', after: 'c' });
  });
});
