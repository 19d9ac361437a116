// Browser end-to-end test of the memory UI against `hermes serve` and the fake Ollama server
// started with --extract (it scripts the memory extraction): state a fact in chat, see the
// "memory updated" notice, find the fact in the memory browser, edit it, forget it and read the
// receipt; undo a turn's memory from the notice; and incognito chat remembers nothing.
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  cleanup,
  closeApp,
  openApp,
  ensureArtifacts,
  launch,
  sendAndWait,
  shot,
  sleep,
  startFake,
  startHermes,
  tempDir,
  useFakeModel,
} from './harness.mjs';

const logs = {};

/** The texts of the rows the memory browser lists. */
async function rowTexts(page) {
  return page.$$eval('[data-testid="memory-row"] [data-testid="memory-open"]', (els) => els.map((e) => e.textContent.trim()));
}

async function openBrowser(page) {
  if ((await page.getByTestId('memory-toggle').getAttribute('aria-pressed')) !== 'true') {
    await page.getByTestId('memory-toggle').click();
  }
  await page.getByTestId('memory-panel').waitFor();
  if ((await page.getByTestId('memory-tab-all').getAttribute('aria-selected')) !== 'true') {
    await page.getByTestId('memory-tab-all').click();
  }
  if (await page.getByTestId('memory-back').isVisible().catch(() => false)) await page.getByTestId('memory-back').click();
}

describe('hermes memory UI', { timeout: 240_000 }, () => {
  let url;
  let dataDir;
  let profileDir;
  let context;
  let page;
  const problems = [];

  before(async () => {
    ({ dataDir, profileDir, context, page, url } = await openApp(logs, problems, { prefix: 'mem', tokenDelay: '5ms', fakeArgs: ['--extract'] }));
  });

  after(() => closeApp(logs, { page, context, dataDir, profileDir }, 'memory-e2e-final.png', 'memory-'));

  it('shows a "memory updated" notice after a turn states a fact', async () => {
    const reply = await sendAndWait(page, "Please remember that I'm allergic to peanuts.");
    assert.equal(reply.status, 'ok');
    await page.getByTestId('memory-notice').waitFor({ timeout: 20_000 });
    assert.match(await page.getByTestId('memory-notice').textContent(), /Memory updated/);
    await shot(page, 'memory-e2e-notice.png');
  });

  it('lists the fact in the memory browser with its source', async () => {
    await page.getByTestId('memory-notice-view').click();
    await page.getByTestId('memory-panel').waitFor();
    await page.getByTestId('memory-detail').waitFor();
    assert.equal((await page.getByTestId('memory-detail-text').textContent()).trim(), 'I am allergic to peanuts');
    assert.equal(await page.getByTestId('memory-source').count(), 1);
    await page.getByTestId('memory-back').click();
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="memory-open"]')].some((e) => e.textContent.trim() === 'I am allergic to peanuts'),
      null,
      { timeout: 10_000 },
    );
    const bar = await page.locator('[data-testid="memory-row"] [data-testid="decay-bar"]').first().getAttribute('data-width');
    assert.ok(Number(bar) > 50, `strength bar ${bar}`);
    await shot(page, 'memory-e2e-browser.png');
    // The search box finds it too.
    await page.getByTestId('memory-search').fill('peanuts');
    await page.getByTestId('memory-search').press('Enter');
    await sleep(400);
    assert.deepEqual(await rowTexts(page), ['I am allergic to peanuts']);
    await page.getByTestId('memory-search').fill('');
    await page.getByTestId('memory-search').press('Enter');
  });

  it('edits the fact and keeps its history', async () => {
    await page.locator('[data-testid="memory-open"]', { hasText: 'I am allergic to peanuts' }).click();
    await page.getByTestId('memory-edit').click();
    await page.getByTestId('memory-edit-input').fill('I am allergic to peanuts and cashews');
    await page.getByTestId('memory-edit-save').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="memory-detail-text"]')?.textContent.trim() === 'I am allergic to peanuts and cashews',
      null,
      { timeout: 10_000 },
    );
    await page.getByTestId('memory-history').waitFor();
    assert.match(await page.getByTestId('memory-history').textContent(), /I am allergic to peanuts/);
    await shot(page, 'memory-e2e-edited.png');
  });

  it('forgets it after confirmation and shows a receipt with 0 matches', async () => {
    await page.getByTestId('memory-forget').click();
    await page.getByTestId('memory-confirm-dialog').waitFor();
    await shot(page, 'memory-e2e-confirm.png');
    await page.getByTestId('memory-confirm-forget').click();
    await page.getByTestId('memory-receipt').waitFor({ timeout: 10_000 });
    const text = await page.getByTestId('memory-receipt').textContent();
    assert.match(text, /Forgot \d+ memor(y|ies)\. A new search finds 0 lexical and 0 vector matches\./);
    await page.getByTestId('memory-list').or(page.getByTestId('memory-empty')).first().waitFor();
    await sleep(300);
    assert.ok(!(await rowTexts(page)).some((t) => /peanuts/.test(t)), 'the fact is gone from the list');
    await shot(page, 'memory-e2e-receipt.png');
  });

  it('undoes what a turn wrote from the notice', async () => {
    await page.getByTestId('memory-close').click();
    if (await page.getByTestId('memory-notice').isVisible().catch(() => false)) await page.getByTestId('memory-notice-dismiss').click();
    await sendAndWait(page, 'Please remember that my favourite colour is green.');
    await page.getByTestId('memory-notice-undo').waitFor({ timeout: 20_000 });
    await page.getByTestId('memory-notice-undo').click();
    await page.getByTestId('memory-notice').waitFor({ state: 'detached', timeout: 10_000 });
    await openBrowser(page);
    await sleep(500);
    assert.ok(!(await rowTexts(page)).some((t) => /green/.test(t)), 'undo erased the fact');
  });

  it('remembers nothing in incognito', async () => {
    await page.getByTestId('incognito-toggle').click();
    await page.getByTestId('incognito-note').waitFor();
    assert.equal(await page.getByTestId('incognito-toggle').getAttribute('aria-pressed'), 'true');
    assert.match(await page.getByTestId('incognito-note').textContent(), /Incognito: nothing is remembered/);
    await sendAndWait(page, 'Please remember that my favourite colour is blue.');
    await sleep(3000);
    assert.equal(await page.getByTestId('memory-notice').count(), 0);
    await page.getByTestId('memory-refresh').click();
    await sleep(500);
    assert.ok(!(await rowTexts(page)).some((t) => /blue/.test(t)), 'incognito wrote nothing');
    await shot(page, 'memory-e2e-incognito.png');
    await page.getByTestId('incognito-toggle').click();
    await page.getByTestId('incognito-note').waitFor({ state: 'detached' });
  });

  it('had no CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
