// Syntax highlighting of finished code blocks. highlight.js is imported only when a block names a
// language, so a chat without code never loads it. Its output is sanitized again (spans with classes
// only) before it replaces the block's text; no inline styles, so the CSP needs nothing new.
import { sanitizeHighlighted } from './markdown';

type Highlighter = typeof import('./hljs');
let loading: Promise<Highlighter> | null = null;

function load(): Promise<Highlighter> {
  loading ??= import('./hljs').catch((e) => {
    loading = null; // try again next time
    throw e;
  });
  return loading;
}

/** The language a rendered block names (class="language-x"), lower case; '' when none. */
export function blockLanguage(code: Element): string {
  for (const c of code.classList) if (c.startsWith('language-')) return c.slice('language-'.length).toLowerCase();
  return '';
}

/** Highlights the code blocks under root that name a language and are not highlighted yet. */
export async function highlightCode(root: HTMLElement): Promise<number> {
  const blocks = [...root.querySelectorAll('pre > code')].filter(
    (el): el is HTMLElement => el instanceof HTMLElement && !el.dataset.hl && blockLanguage(el) !== '',
  );
  if (blocks.length === 0) return 0;
  let h: Highlighter;
  try {
    h = await load();
  } catch {
    return 0; // the blocks stay plain text
  }
  let n = 0;
  for (const el of blocks) {
    if (!el.isConnected || el.dataset.hl) continue;
    const text = el.textContent ?? '';
    const out = h.highlight(text, blockLanguage(el));
    el.dataset.hl = out === null ? 'none' : 'done';
    if (out === null) continue;
    el.innerHTML = sanitizeHighlighted(out);
    el.classList.add('hljs');
    n++;
  }
  return n;
}

/**
 * Runs work(root) when the page has nothing else to do (or within a second), if root is still in
 * the page then: highlighting a reply's code is not worth a dropped frame while a long
 * conversation scrolls and new messages come into view (the text is readable plain until then).
 */
export function whenIdle(root: HTMLElement, work: (root: HTMLElement) => unknown): void {
  const run = () => {
    if (root.isConnected) void work(root);
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 1000 });
  else setTimeout(run, 50);
}
