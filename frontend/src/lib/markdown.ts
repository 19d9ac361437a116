// Model output -> sanitized HTML. Markdown is parsed by marked; raw HTML in the source is shown as
// text (never parsed), and the result still passes through DOMPurify with a tag allow-list.
import { Marked, type TokenizerAndRendererExtension, type Tokens } from 'marked';
import DOMPurify from 'dompurify';

function escapeHTML(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * Maths in a reply: $$…$$ and \[…\] displayed (a block of their own, or within a line), $…$ and
 * \(…\) inline. A dollar opens only before a non-space and closes only after one, not before a
 * digit ("$5 and $10" stays text). The TeX is kept as escaped text in a code element with class
 * "math" (readable as it is, and what a copy gives); lib/math draws it with KaTeX later, as MathML
 * (no fonts, styles or scripts of its own).
 */
const MATH_BLOCK = /^(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])[ \t]*(?:\n|$)/;
const MATH_INLINE = /^(?:\$\$([^$]+?)\$\$|\$(?=\S)((?:\\\$|[^$\n])+?)(?<=\S)\$(?!\d)|\\\((.+?)\\\))/;

function mathToken(kind: 'mathBlock' | 'mathInline', src: string, re: RegExp) {
  const m = re.exec(src);
  if (!m) return undefined;
  const tex = (m[1] ?? m[2] ?? m[3] ?? '').trim();
  if (!tex) return undefined;
  // $$…$$ is a displayed formula even inside a line of text.
  return { type: kind, raw: m[0], text: tex, display: kind === 'mathBlock' || m[1] !== undefined };
}

const mathExtensions: TokenizerAndRendererExtension[] = [
  {
    name: 'mathBlock',
    level: 'block',
    start: (src) => src.match(/\$\$|\\\[/)?.index,
    tokenizer: (src) => mathToken('mathBlock', src, MATH_BLOCK),
    renderer: (t) => `<div class="math-block"><code class="math display">${escapeHTML(t.text)}</code></div>\n`,
  },
  {
    name: 'mathInline',
    level: 'inline',
    start: (src) => src.match(/\$|\\\(/)?.index,
    tokenizer: (src) => mathToken('mathInline', src, MATH_INLINE),
    renderer: (t) => `<code class="math${t.display ? ' display' : ''}">${escapeHTML(t.text)}</code>`,
  },
];

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    // Raw HTML blocks and inline tags are displayed literally.
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHTML(token.text);
    },
    // Code blocks get a wrapper so the view can add a copy button without touching <pre>.
    code(token: Tokens.Code): string {
      const lang = (token.lang ?? '').match(/^\S*/)?.[0] ?? '';
      const body = escapeHTML(token.text.replace(/\n$/, '') + '\n');
      const cls = lang ? ` class="language-${escapeHTML(lang)}"` : '';
      return `<div class="code-wrap"><pre><code${cls}>${body}</code></pre></div>\n`;
    },
    // No remote images: an offline assistant must not fetch URLs chosen by model output.
    image(token: Tokens.Image): string {
      const label = token.text || token.title || token.href;
      return `<span class="md-image">${escapeHTML(`[${label}]`)}</span>`;
    },
  },
  extensions: mathExtensions,
});

const ALLOWED_TAGS = [
  'a', 'div', 'p', 'br', 'hr', 'strong', 'em', 'del', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'input',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'align', 'start', 'type', 'checked', 'disabled'];
// http(s) and mailto only; everything else (javascript:, data:, vbscript:, file:) loses its href.
const SAFE_URL = /^(?:https?:|mailto:)/i;

type Config = Parameters<ReturnType<typeof DOMPurify>['sanitize']>[1];

const MARKDOWN_CONFIG = {
  ALLOWED_TAGS,
  ALLOWED_ATTR: [...ALLOWED_ATTR, 'rel', 'target'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

/** What each purifier returns; each has its configuration set once (see purifier). */
const CONFIGS = {
  fragment: { ...MARKDOWN_CONFIG, RETURN_DOM_FRAGMENT: true },
  highlighted: { ALLOWED_TAGS: ['span'], ALLOWED_ATTR: ['class'], ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false, RETURN_TRUSTED_TYPE: false },
  // KaTeX's MathML: the MathML profile, its wrapping span and the TeX kept as an annotation (the
  // page's engine does not draw it); an href other than http(s)/mailto goes (see purifier).
  math: { USE_PROFILES: { mathMl: true }, ADD_TAGS: ['span', 'semantics', 'annotation'], ADD_ATTR: ['class'], ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false, RETURN_DOM_FRAGMENT: true },
} satisfies Record<string, Config>;

const purifiers = new Map<keyof typeof CONFIGS, ReturnType<typeof DOMPurify>>();

/**
 * A DOMPurify instance with the link and checkbox rules and this configuration set once: a
 * configuration passed to sanitize() is parsed again on every call (a tenth of its time for a
 * message of a few paragraphs, paid for every message a long conversation scrolls into view).
 */
function purifier(kind: keyof typeof CONFIGS): ReturnType<typeof DOMPurify> {
  let p = purifiers.get(kind);
  if (p) return p;
  p = DOMPurify(window);
  p.addHook('uponSanitizeAttribute', (node, data) => {
    if (data.attrName === 'href') {
      const v = data.attrValue.trim();
      if (!SAFE_URL.test(v) && !v.startsWith('#')) data.keepAttr = false;
    }
    if (data.attrName === 'type' && node.nodeName !== 'INPUT') data.keepAttr = false;
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      if (node.hasAttribute('href')) {
        node.setAttribute('rel', 'noopener noreferrer');
        node.setAttribute('target', '_blank');
      }
    }
    if (node.nodeName === 'INPUT') {
      if (node.getAttribute('type') !== 'checkbox') {
        node.remove();
        return;
      }
      node.setAttribute('disabled', '');
    }
  });
  p.setConfig(CONFIGS[kind]);
  purifiers.set(kind, p);
  return p;
}

/**
 * Renders untrusted Markdown to sanitized nodes: what the page draws (a finished reply, and a
 * streaming one through lib/morph), without serialising them and parsing them again.
 */
export function renderMarkdownFragment(src: string): DocumentFragment {
  const raw = marked.parse(src ?? '') as string;
  return purifier('fragment').sanitize(raw) as unknown as DocumentFragment;
}

/** The same as an HTML string: the fragment serialised (one sanitizing path for both). */
export function renderMarkdown(src: string): string {
  const div = document.createElement('div');
  div.append(renderMarkdownFragment(src));
  return div.innerHTML;
}

/**
 * How much of a streaming reply's start is settled: whole blocks, each followed by a blank line,
 * with two more blocks after the last of them (a block the next text could still change, such as
 * a list whose next item is on its way, stays out). Rendered alone, this start gives what it
 * gives inside the whole reply, but for link reference definitions (lib/morph draws a reply that
 * holds one whole). 0 when nothing is, or when the blocks do not tile the text.
 */
export function settledLength(src: string): number {
  if (!src || src.indexOf('\n\n') < 0) return 0; // one block, still growing: no need to parse
  const tokens = marked.lexer(src);
  const ends: number[] = [];
  let pos = 0;
  for (const t of tokens) {
    if (!src.startsWith(t.raw, pos)) return 0;
    pos += t.raw.length;
    ends.push(pos);
  }
  const blocks = tokens.flatMap((t, i) => (t.type === 'space' ? [] : [i]));
  for (let b = blocks.length - 3; b >= 0; b--) {
    const next = tokens[blocks[b] + 1];
    if (next?.type === 'space' && next.raw.includes('\n\n')) return ends[blocks[b] + 1];
  }
  return 0;
}

/** KaTeX's MathML output made safe to put in the page (lib/math). */
export function sanitizeMath(html: string): DocumentFragment {
  return purifier('math').sanitize(html) as unknown as DocumentFragment;
}

/** Highlighter output (spans with hljs-* classes around escaped text) made safe for innerHTML. */
export function sanitizeHighlighted(html: string): string {
  return purifier('highlighted').sanitize(html) as string;
}
