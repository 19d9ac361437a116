// Browser end-to-end test of maths in replies (issue #35): a reply with TeX ($…$ inline, $$…$$ as a
// block) is drawn as MathML by KaTeX, loaded only then, with no CSP violation; prices stay text.
// Screenshots in English and Chinese, light and dark, at 800, 1100 and 1440 px into math/.
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, closeApp, openApp, sendAndWait, setLanguage, themedShots } from './harness.mjs';

const logs = {};
const shotsDir = join(artifacts, 'math');

describe('maths in replies', { timeout: 240_000 }, () => {
  let app = {};
  const problems = [];
  before(async () => {
    app = await openApp(logs, problems, { prefix: 'math' });
  });
  after(() => closeApp(logs, app, 'math-e2e-final.png', 'math-'));

  it('draws TeX as MathML and leaves prices as text', async () => {
    const { page } = app;
    const katexLoaded = () => page.evaluate(() => performance.getEntriesByType('resource').some((e) => /katex/i.test(e.name)));
    await sendAndWait(page, 'It costs $5 or $10.');
    assert.equal(await page.locator('[data-testid="message"][data-role="assistant"] math').count(), 0);
    assert.equal(await katexLoaded(), false, 'a reply without maths does not load KaTeX');
    const last = await sendAndWait(page, 'Euler: $e^{i\\pi}+1=0$ and $$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$ 欧拉公式');
    assert.equal(last.status, 'ok');
    const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
    await reply.locator('math[display="block"] mfrac').waitFor({ timeout: 10_000 });
    assert.equal(await reply.locator('math').count(), 2);
    assert.ok(await katexLoaded(), 'KaTeX is loaded once a reply holds maths');
    // The formula is drawn by the page's engine: it has a size, and no raw TeX is left showing.
    const box = await reply.locator('math[display="block"]').boundingBox();
    assert.ok(box && box.width > 40 && box.height > 15, `block formula box ${JSON.stringify(box)}`);
    const shown = await reply.evaluate((el) => el.innerText);
    assert.doesNotMatch(shown, /\\frac|\\int/);
    for (const l of ['zh', 'en']) {
      await setLanguage(page, l);
      await themedShots(page, shotsDir, 'math-reply', l, { settle: 300 });
    }
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
