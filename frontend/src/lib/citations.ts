// Citations in a reply: the [n] markers a reply writes for the knowledge-base passages it was
// offered (Message.sources), made into chips that open the passage, and the passage viewer's text
// cut around the cited passage. Pure, apart from linkCitations, which edits the drawn reply's DOM.
import type { AgentSource, KBPassage } from './backend';

/** One number of a citation group; bad: it points at no passage the reply was offered. */
export interface CiteRef {
  n: number;
  bad: boolean;
}

/** A run of a text: plain text, or one citation group ("[1]", "[1, 2]", "【3】"). */
export type CitePiece = { text: string } | { raw: string; refs: CiteRef[] };

// A group: up to three digits each, separated by commas (ASCII or Chinese), semicolons or "、",
// inside [] or the full-width 【】 or ［］. "[2024]" is a group too; it is a citation only when
// each of its numbers is one (see splitCitations).
const GROUP = /(?:\[|【|［)\s*(\d{1,3}(?:\s*[,，、;；]\s*\d{1,3})*)\s*(?:\]|】|］)/g;

/**
 * Cuts text into plain runs and citation groups. A group counts when every number in it is a
 * source the reply was offered (known) or one the backend flagged (bad); any other bracketed
 * number stays text ("[2024]", a list index). A group right after "](" or before "(" is not
 * cut either: Markdown links are drawn by the renderer, and linkCitations never sees them.
 */
export function splitCitations(text: string, known: ReadonlySet<number>, bad: ReadonlySet<number>): CitePiece[] {
  const out: CitePiece[] = [];
  let last = 0;
  for (const m of text.matchAll(GROUP)) {
    const nums = m[1].split(/[,，、;；]/).map((x) => Number(x.trim()));
    if (!nums.every((n) => known.has(n) || bad.has(n))) continue;
    const at = m.index ?? 0;
    if (at > last) out.push({ text: text.slice(last, at) });
    out.push({ raw: m[0], refs: nums.map((n) => ({ n, bad: !known.has(n) || bad.has(n) })) });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/** The numbers a text cites (in the order first cited), of those known or flagged. */
export function citedNumbers(text: string, known: ReadonlySet<number>, bad: ReadonlySet<number>): number[] {
  const seen: number[] = [];
  for (const p of splitCitations(text, known, bad)) {
    if ('refs' in p) for (const r of p.refs) if (!seen.includes(r.n)) seen.push(r.n);
  }
  return seen;
}

type T = (key: 'cite.page', params: Record<string, string | number>) => string;

/** A source as one line: "pump.md · p. 3 · Faults". */
export function sourceTitle(s: Pick<AgentSource, 'file' | 'page' | 'heading'>, t: T): string {
  const parts = [s.file];
  if (s.page && s.page > 0) parts.push(t('cite.page', { n: s.page }));
  if (s.heading) parts.push(s.heading);
  return parts.join(' · ');
}

/** Sources by their number, and the flagged numbers, from a message (anything malformed left out). */
export function citationIndex(sources: AgentSource[] | null | undefined, bad: number[] | null | undefined) {
  const byN = new Map<number, AgentSource>();
  for (const s of sources ?? []) if (Number.isInteger(s.n) && s.n > 0 && !byN.has(s.n)) byN.set(s.n, s);
  const flagged = new Set<number>((bad ?? []).filter((n) => Number.isInteger(n) && n > 0 && !byN.has(n)));
  return { byN, flagged };
}

/** Elements whose text is never cut into chips: code, links, and chips already made. */
const SKIP = 'code, pre, a, .cite, .cites';

export interface CiteLabels {
  /** The chip's accessible name and tooltip for a source. */
  source: (s: AgentSource) => string;
  /** The tooltip of a flagged number. */
  bad: (n: number) => string;
}

/**
 * Makes the [n] markers in a drawn reply (sanitised Markdown nodes) into chips: a button per
 * known number (data-cite=n; the click is the caller's) and a struck mark per flagged one (its
 * tooltip, and words for screen readers, say why). Text
 * inside code, pre and links is left alone. Returns how many chips it made.
 */
export function linkCitations(root: HTMLElement, sources: AgentSource[] | null | undefined, bad: number[] | null | undefined, labels: CiteLabels): number {
  const { byN, flagged } = citationIndex(sources, bad);
  if (byN.size === 0 && flagged.size === 0) return 0;
  const known = new Set(byN.keys());
  const doc = root.ownerDocument;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = (n as Text).parentElement;
    if (!parent || parent.closest(SKIP)) continue;
    if (/[[【［]/.test((n as Text).data)) texts.push(n as Text);
  }
  let made = 0;
  for (const node of texts) {
    const pieces = splitCitations(node.data, known, flagged);
    if (!pieces.some((p) => 'refs' in p)) continue;
    const frag = doc.createDocumentFragment();
    for (const p of pieces) {
      if ('text' in p) {
        frag.append(p.text);
        continue;
      }
      const group = doc.createElement('span');
      group.className = 'cites';
      for (const r of p.refs) {
        const s = byN.get(r.n);
        if (s && !r.bad) {
          const b = doc.createElement('button');
          b.type = 'button';
          b.className = 'cite';
          b.dataset.cite = String(r.n);
          b.dataset.testid = 'citation';
          b.textContent = String(r.n);
          const label = labels.source(s);
          b.title = label;
          b.setAttribute('aria-label', label);
          group.append(b);
        } else {
          const x = doc.createElement('s');
          x.className = 'cite bad';
          x.dataset.cite = String(r.n);
          x.dataset.testid = 'citation-bad';
          x.textContent = String(r.n);
          const label = labels.bad(r.n);
          x.title = label;
          // <s> may not carry a name of its own: screen readers hear the words after the number.
          const words = doc.createElement('span');
          words.className = 'visually-hidden';
          words.textContent = ` (${label})`;
          x.append(words);
          group.append(x);
        }
        made++;
      }
      frag.append(group);
    }
    node.replaceWith(frag);
  }
  return made;
}

/** The viewer's text: before the passage, the passage, after it (cut by code points, not UTF-16 units). */
export function passageParts(p: Pick<KBPassage, 'text' | 'start' | 'end'>): { before: string; passage: string; after: string } {
  const runes = Array.from(p.text ?? '');
  const start = Math.max(0, Math.min(runes.length, Math.floor(p.start) || 0));
  const end = Math.max(start, Math.min(runes.length, Math.floor(p.end) || 0));
  return { before: runes.slice(0, start).join(''), passage: runes.slice(start, end).join(''), after: runes.slice(end).join('') };
}
