import { describe, expect, it } from 'vitest';
import { morphChildren } from './morph';
import { renderMarkdown, renderMarkdownFragment } from './markdown';

function fragment(html: string): DocumentFragment {
  const t = document.createElement('template');
  t.innerHTML = html;
  return t.content;
}

describe('morphChildren', () => {
  it('appends to the growing text node and leaves finished blocks as they are', () => {
    const body = document.createElement('div');
    morphChildren(body, fragment('<p>First block.</p><p>Second bl</p>'));
    const [first, second] = [...body.children];
    const text = second.firstChild as Text;
    morphChildren(body, fragment('<p>First block.</p><p>Second block grows.</p><ul><li>a</li></ul>'));
    expect(body.innerHTML).toBe('<p>First block.</p><p>Second block grows.</p><ul><li>a</li></ul>');
    expect(body.children[0]).toBe(first);
    expect(body.children[1]).toBe(second);
    expect(second.firstChild).toBe(text); // the same node, its text appended to
  });

  it('replaces what changed kind and removes what is gone', () => {
    const body = document.createElement('div');
    morphChildren(body, fragment('<p>a <em>b</em></p><p>setext?</p><p>tail</p>'));
    const p = body.firstElementChild;
    morphChildren(body, fragment('<p>a <strong>b</strong></p><h2>setext?</h2>'));
    expect(body.innerHTML).toBe('<p>a <strong>b</strong></p><h2>setext?</h2>');
    expect(body.firstElementChild).toBe(p);
  });

  it('updates an element whose attributes changed by replacing it', () => {
    const body = document.createElement('div');
    morphChildren(body, fragment('<pre><code class="language-go">x</code></pre>'));
    morphChildren(body, fragment('<pre><code class="language-rust">x</code></pre>'));
    expect(body.innerHTML).toBe('<pre><code class="language-rust">x</code></pre>');
  });

  it('draws streamed Markdown exactly as the whole rendering, at every step', () => {
    const reply =
      'Intro with **bold** and `code`.\n\n- one\n- two\n\n```go\nfunc main() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nThe end <b>raw</b>.';
    const body = document.createElement('div');
    for (let n = 1; n <= reply.length; n += 3) {
      morphChildren(body, renderMarkdownFragment(reply.slice(0, n)));
      expect(body.innerHTML).toBe(renderMarkdown(reply.slice(0, n)));
    }
    morphChildren(body, renderMarkdownFragment(reply));
    expect(body.innerHTML).toBe(renderMarkdown(reply));
  });

  it('keeps the fragment sanitized like the string', () => {
    const body = document.createElement('div');
    morphChildren(body, renderMarkdownFragment('[x](javascript:alert(1)) <img src=x onerror=alert(1)>'));
    expect(body.innerHTML).toBe(renderMarkdown('[x](javascript:alert(1)) <img src=x onerror=alert(1)>'));
    expect(body.querySelector('[href^="javascript"]')).toBeNull();
    expect(body.querySelector('img')).toBeNull();
  });
});
