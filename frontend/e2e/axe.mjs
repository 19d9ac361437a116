// Runs axe-core (the npm devDependency, injected from node_modules, nothing fetched) in a page and
// returns its serious and critical violations. Not a test file itself.
//
// The page's CSP (script-src 'self') blocks page.addScriptTag's inline script, so the source is
// evaluated through the DevTools protocol (page.evaluate of a string), which CSP does not govern.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const axePath = require.resolve('axe-core/axe.min.js');
let source = '';
const axeSource = () => (source ||= readFileSync(axePath, 'utf8'));

/**
 * The serious and critical axe violations of the page (or of the element matching include).
 * Each entry: { id, impact, help, nodes: [{ target, summary }] }.
 */
export async function axeViolations(page, { include } = {}) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.evaluate(`${axeSource()}\n;void 0`);
  }
  const violations = await page.evaluate(async (sel) => {
    const ctx = sel ? { include: [[sel]] } : document;
    const res = await window.axe.run(ctx, { resultTypes: ['violations'] });
    return res.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
    }));
  }, include ?? null);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A readable one-line-per-node list of violations, for assertion messages. */
export function formatViolations(list) {
  return list
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n` + v.nodes.map((n) => `    ${n.target}: ${n.summary?.replace(/\s+/g, ' ')}`).join('\n'))
    .join('\n');
}
