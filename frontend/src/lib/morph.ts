// Updates a streaming reply's drawn Markdown in place: the new rendering is compared with the DOM
// already there, node by node, and only what differs is changed (the growing last text node gets
// its new text, a new block is appended). Replacing the whole body on every redraw made the page
// parse, style, lay out and paint every block of the reply again, ten times a second; in place,
// the finished blocks are left alone and the browser reshapes only the text that grew.

function sameAttributes(a: Element, b: Element): boolean {
  if (a.attributes.length !== b.attributes.length) return false;
  for (const attr of b.attributes) if (a.getAttribute(attr.name) !== attr.value) return false;
  return true;
}

/** Whether a can be kept and updated into b: the same kind of node (same tag and attributes). */
function compatible(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  return a.nodeType !== Node.ELEMENT_NODE || sameAttributes(a as Element, b as Element);
}

/** Text that grew is appended to (the browser then reshapes only the new end), other text replaced. */
function setText(node: CharacterData, text: string): void {
  const old = node.data;
  if (old === text) return;
  if (text.length > old.length && text.startsWith(old)) node.appendData(text.slice(old.length));
  else node.data = text;
}

/**
 * Makes target's children from index `from` on equal to source's (source is consumed: its nodes
 * may move into target). Text is updated in place; an element is kept when tag and attributes
 * match and its children are morphed in turn; anything else is replaced.
 */
export function morphChildren(target: Node, source: Node, from = 0): void {
  let t: ChildNode | null = from > 0 ? (target.childNodes[from] ?? null) : target.firstChild;
  let s = source.firstChild;
  while (s) {
    const nextS: ChildNode | null = s.nextSibling;
    if (!t) {
      target.appendChild(s);
    } else if (compatible(t, s)) {
      if (t.nodeType === Node.ELEMENT_NODE) {
        if (!t.isEqualNode(s)) morphChildren(t, s);
      } else {
        setText(t as CharacterData, s.nodeValue ?? '');
      }
      t = t.nextSibling;
    } else {
      const nextT: ChildNode | null = t.nextSibling;
      target.replaceChild(s, t);
      t = nextT;
    }
    s = nextS;
  }
  while (t) {
    const next: ChildNode | null = t.nextSibling;
    target.removeChild(t);
    t = next;
  }
}

/**
 * Draws a streaming reply's Markdown into an element, again at each call with the text so far:
 * the settled blocks (lib/markdown settledLength) are rendered once and then left alone, only the
 * rest is rendered and morphed in. Without it, each redraw parsed and sanitised the whole reply,
 * a cost that grew with every paragraph.
 */
/**
 * Text that cannot start, end or change any Markdown construct when it is added in the middle of a
 * line after a word of the same kind: letters, digits, spaces and plain punctuation. No newline,
 * no `*_~\`[]()<>&#|\\/@=+`, so no emphasis, code, link, HTML, entity, escape, table or block
 * marker can form or close (the www. autolink is checked apart).
 */
const PLAIN = /^[\p{L}\p{M}\p{N} ,.;:!?'"-]*$/u;

/** A link reference definition's start: "[label]:" at the start of a line (after a quote's marks). */
const LINK_DEFINITION = /^(?: {0,3}>)* {0,3}\[[^\]\n]+\]:/m;

/** Whether n is a text node of white space only (the line break the renderer puts after a block). */
function blank(n: Node | null): boolean {
  return !!n && n.nodeType === Node.TEXT_NODE && (n as Text).data.trim() === '';
}

/**
 * The last text node inside node, following last children down past the line breaks between
 * blocks; null when it ends in an element.
 */
function lastText(node: Node): Text | null {
  let n = lastBesidesBreaks(node);
  while (n && n.nodeType === Node.ELEMENT_NODE) n = lastBesidesBreaks(n);
  return n && n.nodeType === Node.TEXT_NODE ? (n as Text) : null;
}

/** node's last child, or the element before the line breaks that end it. */
function lastBesidesBreaks(node: Node): Node | null {
  let n: Node | null = node.lastChild;
  while (blank(n) && n?.previousSibling && n.previousSibling.nodeType === Node.ELEMENT_NODE) n = n.previousSibling;
  return n;
}

export class StreamDraw {
  /** The start of the reply already drawn as settled blocks, and the nodes of `#el` that draw it. */
  #settled = '';
  #nodes = 0;
  #el: Node | null = null;
  /** The rest of the reply, drawn after the settled blocks. */
  #tail = '';

  constructor(
    private render: (src: string) => DocumentFragment,
    private settledLength: (src: string) => number,
  ) {}

  /** How many characters of the reply are drawn as settled blocks. */
  get settled(): number {
    return this.#settled.length;
  }

  draw(el: Node, text: string): void {
    // A link reference definition anywhere changes how blocks before and after it draw, so a
    // reply holding one (rare from a model) is drawn whole each time.
    const whole = LINK_DEFINITION.test(text);
    if (whole || el !== this.#el || !text.startsWith(this.#settled) || el.childNodes.length < this.#nodes) {
      this.#el = el;
      this.#settled = '';
      this.#nodes = 0;
      this.#tail = '';
    } else if (this.#appendPlain(el, text)) {
      return;
    }
    const rest = text.slice(this.#settled.length);
    const cut = whole ? 0 : this.settledLength(rest);
    const out = cut > 0 ? this.render(rest.slice(0, cut)) : (el.ownerDocument ?? document).createDocumentFragment();
    const settledNodes = out.childNodes.length;
    out.append(this.render(rest.slice(cut)));
    morphChildren(el, out, this.#nodes);
    this.#settled += rest.slice(0, cut);
    this.#nodes += settledNodes;
    this.#tail = rest.slice(cut);
  }

  /**
   * The common case of a streaming reply, words added to the line being written: when what was
   * added is plain text (PLAIN) after a plain word, in the middle of a line, the whole rendering
   * would differ from what is drawn only by that text at the end of the last text node, so it is
   * appended there and nothing is parsed or sanitised (a text node holds no markup). Reports
   * whether it did; anything else is drawn the long way. (The tests compare every step with the
   * whole rendering.)
   */
  #appendPlain(el: Node, text: string): boolean {
    const drawn = this.#settled + this.#tail;
    if (this.#tail === '' || text.length <= drawn.length || !text.startsWith(drawn)) return false;
    const add = text.slice(drawn.length);
    if (!PLAIN.test(add)) return false;
    const line = this.#tail.slice(this.#tail.lastIndexOf('\n') + 1);
    const trimmed = line.trimEnd();
    // A block marker (list, heading, rule) is a line's first word after any quote markers: only
    // once a second word has begun is the line's kind settled. A link reference definition
    // ("[x]: url \"title\"") can be completed or undone by plain text: never appended to.
    if (!/^\S+\s+\S/.test(trimmed.replace(/^(?:\s*>)+/, '').trimStart()) || this.#tail.includes(']:')) return false;
    const word = trimmed.slice(trimmed.search(/\S+$/));
    if (!PLAIN.test(word)) return false;
    // The one link plain text can make: GFM's www. autolink.
    if (/www\./i.test(word + line.slice(trimmed.length) + add)) return false;
    const node = lastText(el);
    // In a paragraph or a heading, not in a link or code (whose text is not plain prose); other
    // blocks (a tight list's item, a table cell) draw their trailing spaces their own way.
    const block = node?.parentElement?.closest('p, h1, h2, h3, h4, h5, h6, li, td, th, pre, a, code');
    if (!node || !block || !/^(P|H[1-6])$/.test(block.tagName)) return false;
    const spaces = line.slice(trimmed.length);
    if (block.tagName === 'P') {
      if (!node.data.endsWith(word + spaces)) return false;
      node.appendData(add); // a paragraph draws its text as written, spaces and all
    } else {
      // A heading's trailing spaces are not drawn, only those a word follows.
      if (!node.data.endsWith(word)) return false;
      const visible = add.trimEnd();
      if (visible !== '') node.appendData(spaces + visible);
    }
    this.#tail += add;
    return true;
  }
}
