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
export class StreamDraw {
  /** The start of the reply already drawn as settled blocks, and the nodes of `#el` that draw it. */
  #settled = '';
  #nodes = 0;
  #el: Node | null = null;

  constructor(
    private render: (src: string) => DocumentFragment,
    private settledLength: (src: string) => number,
  ) {}

  /** How many characters of the reply are drawn as settled blocks. */
  get settled(): number {
    return this.#settled.length;
  }

  draw(el: Node, text: string): void {
    if (el !== this.#el || !text.startsWith(this.#settled) || el.childNodes.length < this.#nodes) {
      this.#el = el;
      this.#settled = '';
      this.#nodes = 0;
    }
    const rest = text.slice(this.#settled.length);
    const cut = this.settledLength(rest);
    const out = cut > 0 ? this.render(rest.slice(0, cut)) : (el.ownerDocument ?? document).createDocumentFragment();
    const settledNodes = out.childNodes.length;
    out.append(this.render(rest.slice(cut)));
    morphChildren(el, out, this.#nodes);
    this.#settled += rest.slice(0, cut);
    this.#nodes += settledNodes;
  }
}
