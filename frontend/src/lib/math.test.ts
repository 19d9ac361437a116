import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';
import { MAX_TEX, renderMath } from './math';

function dom(md: string): HTMLElement {
  const el = document.createElement('div');
  el.innerHTML = renderMarkdown(md);
  document.body.append(el);
  return el;
}

describe('maths in Markdown', () => {
  it('keeps $…$, \\(…\\), $$…$$ and \\[…\\] as TeX in code.math', () => {
    const el = dom('Euler: $e^{i\\pi}+1=0$ and \\(a^2\\)\n\n$$\\int_0^1 x^2\\,dx = \\frac13$$\n\n\\[\\sum_{n=1}^\\infty \\frac1{n^2}\\]');
    const inline = [...el.querySelectorAll('code.math:not(.display)')].map((c) => c.textContent);
    const blocks = [...el.querySelectorAll('.math-block code.math.display')].map((c) => c.textContent);
    expect(inline).toEqual(['e^{i\\pi}+1=0', 'a^2']);
    expect(blocks).toEqual(['\\int_0^1 x^2\\,dx = \\frac13', '\\sum_{n=1}^\\infty \\frac1{n^2}']);
    // $$…$$ within a line is displayed too.
    const mid = dom('so $$x^2$$ it is');
    expect(mid.querySelector('p code.math.display')?.textContent).toBe('x^2');
  });

  it('leaves prices and code alone', () => {
    const el = dom('It costs $5 and $10, or $5-$10 a month.\n\n```sh\necho $HOME $PATH\n```\n\nand `$x$` stays code');
    expect(el.querySelectorAll('code.math')).toHaveLength(0);
    expect(el.textContent).toContain('$5 and $10, or $5-$10');
    expect(el.querySelector('pre code')?.textContent).toContain('echo $HOME $PATH');
  });

  it('escapes TeX that looks like HTML', () => {
    const el = dom('$<img src=x onerror=alert(1)>$');
    expect(el.querySelector('img')).toBeNull();
    expect(el.querySelector('code.math')?.textContent).toBe('<img src=x onerror=alert(1)>');
  });
});

describe('renderMath', () => {
  it('draws formulas as MathML, the TeX kept as an annotation', async () => {
    const el = dom('$\\frac{a}{b}$ and $$x^2$$');
    expect(await renderMath(el)).toBe(2);
    const maths = el.querySelectorAll('math');
    expect(maths).toHaveLength(2);
    expect(el.querySelector('math mfrac')).not.toBeNull();
    expect(maths[1].getAttribute('display')).toBe('block');
    expect(el.querySelector('annotation')?.textContent).toBe('\\frac{a}{b}');
    expect(await renderMath(el)).toBe(0); // drawn once
  });

  it('refuses links and leaves bad or huge TeX as the model wrote it', async () => {
    const el = dom('$\\href{javascript:alert(1)}{x}$ and $\\frac{a$ and $' + 'x'.repeat(MAX_TEX + 1) + '$');
    await renderMath(el);
    expect(el.querySelector('[href]')).toBeNull();
    for (const n of el.querySelectorAll('*')) for (const a of n.attributes) expect(a.value).not.toMatch(/javascript:/i);
    const codes = [...el.querySelectorAll('code.math')];
    expect(codes[1].textContent).toBe('\\frac{a');
    expect(codes[2].textContent).toHaveLength(MAX_TEX + 1);
    for (const n of el.querySelectorAll('*')) for (const a of n.attributes) expect(a.name.startsWith('on')).toBe(false);
  });
});
