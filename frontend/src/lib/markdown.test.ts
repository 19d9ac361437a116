import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

function dom(html: string): HTMLElement {
  const el = document.createElement('div');
  el.innerHTML = html;
  return el;
}

describe('renderMarkdown', () => {
  it('never produces an element with an event handler from raw HTML', () => {
    const el = dom(renderMarkdown('hi <img src=x onerror=alert(1)> there'));
    expect(el.querySelector('img')).toBeNull();
    expect(el.querySelector('[onerror]')).toBeNull();
    for (const n of el.querySelectorAll('*')) {
      for (const a of n.attributes) expect(a.name.startsWith('on')).toBe(false);
    }
    // The text is shown, not executed.
    expect(el.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('removes script elements', () => {
    const el = dom(renderMarkdown('before\n\n<script>alert(1)</script>\n\nafter'));
    expect(el.querySelector('script')).toBeNull();
    expect(el.textContent).toContain('after');
  });

  it('removes javascript: hrefs', () => {
    const el = dom(renderMarkdown('[x](javascript:alert(1)) and [y](JaVaScRiPt:alert(2))'));
    const links = [...el.querySelectorAll('a')];
    for (const a of links) {
      expect(a.getAttribute('href') ?? '').not.toMatch(/javascript/i);
    }
    expect(el.innerHTML).not.toMatch(/javascript:/i);
    expect(el.textContent).toContain('x');
  });

  it('drops data: and vbscript: links too', () => {
    const el = dom(renderMarkdown('[a](data:text/html;base64,PHNjcmlwdD4=) [b](vbscript:msgbox)'));
    for (const a of el.querySelectorAll('a')) expect(a.hasAttribute('href')).toBe(false);
  });

  it('keeps http links and makes them safe to open', () => {
    const el = dom(renderMarkdown('see [docs](https://example.org/a?b=1)'));
    const a = el.querySelector('a');
    expect(a).not.toBeNull();
    expect(a!.getAttribute('href')).toBe('https://example.org/a?b=1');
    expect(a!.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('renders fenced code as pre > code with the language class', () => {
    const el = dom(renderMarkdown('```go\nfmt.Println("<b>x</b>")\n```'));
    const code = el.querySelector('pre > code');
    expect(code).not.toBeNull();
    expect(code!.className).toBe('language-go');
    expect(code!.textContent).toBe('fmt.Println("<b>x</b>")\n');
    expect(el.querySelector('b')).toBeNull();
  });

  it('renders ordinary Markdown', () => {
    const el = dom(renderMarkdown('# Title\n\n**bold** and *it*\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |'));
    expect(el.querySelector('h1')?.textContent).toBe('Title');
    expect(el.querySelector('strong')?.textContent).toBe('bold');
    expect(el.querySelectorAll('li')).toHaveLength(2);
    expect(el.querySelector('table td')?.textContent).toBe('1');
  });

  it('does not load remote images', () => {
    const el = dom(renderMarkdown('![tracker](https://example.org/p.png)'));
    expect(el.querySelector('img')).toBeNull();
    expect(el.textContent).toContain('tracker');
  });

  it('strips dangerous markup hidden in attributes and SVG', () => {
    const el = dom(
      renderMarkdown('<svg><a xlink:href="javascript:alert(1)">x</a></svg> <iframe src="x"></iframe> <a href="javascript:1">z</a>'),
    );
    expect(el.querySelector('svg, iframe')).toBeNull();
    for (const n of el.querySelectorAll('*')) {
      for (const a of n.attributes) expect(a.value).not.toMatch(/javascript/i);
    }
  });
});

describe('sanitizeHighlighted', () => {
  it('keeps spans with classes and drops everything else', async () => {
    const { sanitizeHighlighted } = await import('./markdown');
    const el = dom(
      sanitizeHighlighted(
        '<span class="hljs-keyword" style="color:red" onclick="x()">const</span> <img src=x onerror=alert(1)><a href="javascript:1">a</a><script>1</script>',
      ),
    );
    expect(el.querySelector('img, a, script, [style], [onclick]')).toBeNull();
    expect(el.querySelector('span.hljs-keyword')!.textContent).toBe('const');
    expect(el.textContent).toContain('a');
  });
});
