import { describe, expect, it } from 'vitest';
import { StreamDraw, morphChildren } from './morph';
import { renderMarkdown, renderMarkdownFragment, settledLength } from './markdown';

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

describe('settledLength', () => {
  it('settles whole blocks followed by a blank line, with two blocks after the last', () => {
    expect(settledLength('one paragraph growing')).toBe(0);
    expect(settledLength('a\n\nb')).toBe(0);
    expect(settledLength('a\n\nb\n\nc')).toBe('a\n\n'.length);
    expect(settledLength('a\n\n- x\n\n- y\n\nc\n\nd')).toBe('a\n\n- x\n\n- y\n\n'.length);
    // a list is not settled while the text after it could still be its next item
    expect(settledLength('- x\n\n- y\n\nc')).toBe(0);
    // blocks not parted by a blank line stay together
    expect(settledLength('a\nb\n\n# h\nc\n\nd')).toBe('a\nb\n\n'.length);
  });
});

describe('StreamDraw', () => {
  const reply = [
    'Intro with **bold** and `code`.',
    '- one\n- two',
    '```go\nfunc main() {\n\n\tfmt.Println(1)\n}\n```',
    '| a | b |\n|---|---|\n| 1 | 2 |',
    '1. first\n\n2. second',
    'Heading\n---',
    '> quoted\nlazy line',
    'The end <b>raw</b> [x](javascript:alert(1)).',
  ].join('\n\n');

  it('draws what the whole rendering draws at every step, rendering settled blocks once', () => {
    const body = document.createElement('div');
    const rendered: string[] = [];
    const d = new StreamDraw((src) => {
      rendered.push(src);
      return renderMarkdownFragment(src);
    }, settledLength);
    for (let n = 1; n <= reply.length; n += 2) {
      d.draw(body, reply.slice(0, n));
      expect(body.innerHTML).toBe(renderMarkdown(reply.slice(0, n)));
    }
    d.draw(body, reply);
    expect(body.innerHTML).toBe(renderMarkdown(reply));
    // by the end most of the reply was settled, and the last draw rendered only its tail
    expect(d.settled).toBeGreaterThan(reply.indexOf('1. first'));
    expect(rendered[rendered.length - 1].length).toBeLessThan(reply.length - reply.indexOf('Heading'));
    const first = body.firstElementChild;
    d.draw(body, reply + ' more');
    expect(body.firstElementChild).toBe(first);
  });

  // Compares about 1,200 steps with the whole rendering, each a full render: slower than the default limit.
  it('appends plain words to the line being written without rendering, drawing what the whole rendering draws', { timeout: 60_000 }, () => {
    const prose = [
      'Hermes keeps everything on this computer, and answers from a local model.',
      'Second paragraph: 3 items, "quoted", it\'s fine - really!',
      '# A heading that grows word by word',
      '- a list item that grows',
      '100. numbered; then **bold** and a [link](https://example.com) and www.example.org too',
      '> a quote, then `code` and 中文的句子也一样。',
      '    indented code block text',
      'Tricky: &amp then; an &amp; sign, www then .example.org, wwwx, x\\. y, a_b_c and _this_, 1) one, ok 😀 done',
      '2024. was a year; 3) three',
      'Table | like | text',
      '| a | b |\n|---|---|\n| one two | three four |',
      '1. tight item\n2. another tight item',
      'Steps:\n\n> Do this first\n> 1. Install the app\n> --- and > > 2. nested',
      'Read the docs\n\n[docs]: docs and more "Example Site" here',
      'See [the guide][1].\n\n[1]: https://example.com "Example Site"',
      'Ends with trailing spaces   ',
    ].join('\n\n');
    const body = document.createElement('div');
    let renders = 0;
    const d = new StreamDraw((src) => {
      renders++;
      return renderMarkdownFragment(src);
    }, settledLength);
    // Word by word with the space after each, as a model streams.
    const steps = prose.split(/(?<=\s)/);
    let text = '';
    for (const w of steps) {
      text += w;
      d.draw(body, text);
      expect(body.innerHTML, JSON.stringify(text)).toBe(renderMarkdown(text));
    }
    // Most words were appended without rendering (each long-path draw renders once or twice).
    expect(renders).toBeLessThan(steps.length);
    // A paragraph of prose is rendered for its first two words only.
    let n = 0;
    const p = new StreamDraw((src) => {
      n++;
      return renderMarkdownFragment(src);
    }, settledLength);
    const para = document.createElement('div');
    let so = '';
    for (const w of 'Hermes keeps everything on this computer, and answers from a local model. '.split(/(?<=\s)/)) {
      so += w;
      p.draw(para, so);
    }
    expect(n).toBe(2);
    expect(para.innerHTML).toBe(renderMarkdown(so));
    // Character by character, too.
    const body2 = document.createElement('div');
    const d2 = new StreamDraw(renderMarkdownFragment, settledLength);
    for (let n = 1; n <= prose.length; n++) {
      d2.draw(body2, prose.slice(0, n));
      expect(body2.innerHTML, JSON.stringify(prose.slice(0, n))).toBe(renderMarkdown(prose.slice(0, n)));
    }
  });

  it('starts again when the text is not a continuation or the element changed', () => {
    const d = new StreamDraw(renderMarkdownFragment, settledLength);
    const a = document.createElement('div');
    d.draw(a, 'p1\n\np2\n\np3\n\np4');
    expect(d.settled).toBeGreaterThan(0);
    d.draw(a, 'other\n\ntext');
    expect(a.innerHTML).toBe(renderMarkdown('other\n\ntext'));
    const b = document.createElement('div');
    d.draw(b, 'p1\n\np2\n\np3\n\np4');
    expect(b.innerHTML).toBe(renderMarkdown('p1\n\np2\n\np3\n\np4'));
  });
});
