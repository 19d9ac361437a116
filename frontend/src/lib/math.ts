// Maths drawn with KaTeX, loaded on first use (a separate chunk): a chat without maths never loads
// it. The TeX lies as text in <code class="math"> (lib/markdown); KaTeX turns it into MathML, which
// the page's engine draws itself (no KaTeX fonts or styles), with \href, \url, \includegraphics
// and the like refused (trust: false) and the result sanitized again (MathML and spans only).
import { sanitizeMath } from './markdown';

type KaTeX = typeof import('katex').default;
let loading: Promise<KaTeX> | null = null;

function load(): Promise<KaTeX> {
  loading ??= import('katex').then(
    (m) => m.default,
    (e) => {
      loading = null; // try again next time
      throw e;
    },
  );
  return loading;
}

/** The most TeX one formula may hold: more stays as text (a model can write anything). */
export const MAX_TEX = 4000;

/** Draws the formulas under root not drawn yet; returns how many it drew. */
export async function renderMath(root: HTMLElement): Promise<number> {
  const todo = [...root.querySelectorAll('code.math')].filter((el): el is HTMLElement => el instanceof HTMLElement && !el.dataset.tex);
  if (todo.length === 0) return 0;
  let katex: KaTeX;
  try {
    katex = await load();
  } catch {
    return 0; // the TeX stays readable as text
  }
  let n = 0;
  for (const el of todo) {
    if (!el.isConnected || el.dataset.tex) continue;
    const tex = el.textContent ?? '';
    el.dataset.tex = 'plain';
    if (tex.length > MAX_TEX) continue;
    let html: string;
    try {
      html = katex.renderToString(tex, {
        displayMode: el.classList.contains('display'),
        output: 'mathml',
        throwOnError: true,
        trust: false,
        strict: 'ignore',
        maxSize: 20,
        maxExpand: 200,
      });
    } catch {
      el.title = 'TeX'; // not valid TeX: stays as the model wrote it
      continue;
    }
    const frag = sanitizeMath(html);
    if (!frag.querySelector('math')) continue;
    el.dataset.tex = 'done';
    el.replaceChildren(frag);
    n++;
  }
  return n;
}
