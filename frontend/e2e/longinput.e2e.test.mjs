// Browser end-to-end test of long input (issue #35) against `hermes serve` and the fake Ollama: the
// composer's meter follows the draft; a paste longer than what the model reads is offered as a
// document before it lands in the message, and attached it is a document chip with its tokens that
// goes with the next message; a long draft is held back on Send with the same offer. Screenshots
// in English and Chinese, light and dark, at 800, 1100 and 1440 px into longinput/.
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { artifacts, closeApp, openApp, sendAndWait, setLanguage, themedShots } from './harness.mjs';

const logs = {};
const shotsDir = join(artifacts, 'longinput');
const LONG = 'Chapter 3. The north field pumps need new seals every spring; check the gaskets first. '.repeat(700); // ≈ 15,000 tokens

async function paste(page, text) {
  await page.getByTestId('composer').focus();
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    document.querySelector('[data-testid="composer"]').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

describe('long input', { timeout: 240_000 }, () => {
  let app = {};
  const problems = [];
  before(async () => {
    app = await openApp(logs, problems, { prefix: 'longinput' });
  });
  after(() => closeApp(logs, app, 'longinput-e2e-final.png', 'longinput-'));

  it('meters the draft and offers a long paste as a document', async () => {
    const { page } = app;
    const meter = page.getByTestId('context-meter');
    await meter.waitFor({ timeout: 10_000 });
    const before = Number(await meter.getAttribute('data-used'));
    const budget = Number(await meter.getAttribute('data-budget'));
    assert.ok(before > 0 && budget > before, `meter ${before}/${budget}`);
    await page.getByTestId('composer').fill('What do the pumps need every spring?');
    await page.waitForFunction((b) => Number(document.querySelector('[data-testid="context-meter"]').dataset.used) > b, before);
    await paste(page, LONG);
    const offer = page.getByTestId('long-input-offer');
    await offer.waitFor();
    assert.equal(await offer.getAttribute('data-kind'), 'paste');
    assert.equal(await page.getByTestId('composer').inputValue(), 'What do the pumps need every spring?', 'the paste is held back');
    for (const l of ['zh', 'en']) {
      await setLanguage(page, l);
      await themedShots(page, shotsDir, 'long-paste', l, { settle: 200 });
    }
    await page.getByTestId('long-input-attach').click();
    const chip = page.getByTestId('document-chip');
    await chip.waitFor({ timeout: 20_000 });
    assert.match(await chip.textContent(), /pasted-.*\.txt/);
    const last = await sendAndWait(page, 'What do the pumps need every spring?');
    assert.equal(last.status, 'ok');
  });

  it('holds a long draft back on Send with the same offer', async () => {
    const { page } = app;
    await page.getByTestId('composer').fill(LONG);
    await page.getByTestId('composer').press('Enter');
    const offer = page.getByTestId('long-input-offer');
    await offer.waitFor();
    assert.equal(await offer.getAttribute('data-kind'), 'draft');
    assert.equal(await page.getByTestId('context-meter').evaluate((e) => e.classList.contains('over')), true);
    await page.getByTestId('long-input-attach').click();
    await page.getByTestId('document-chip').waitFor({ timeout: 20_000 });
    assert.equal(await page.getByTestId('composer').inputValue(), '', 'the draft became the document');
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
