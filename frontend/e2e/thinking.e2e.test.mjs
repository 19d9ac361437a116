// Browser end-to-end test of a thinking model (issue 30, point 1), in `hermes serve` with the fake
// Ollama's thinking model qwen3 (--thinking: every reply streams reasoning words first, 60 ms
// apart) that must load first (--load-delay). The reply says "Loading qwen3…" until the first
// token; the Thinking block is then open and live, and it grows for longer than
// first_token_timeout (set to 2s: the reasoning is progress, the reply does not time out); when
// the answer starts it folds to "Thought for N s", and the stored reply keeps it (the figures say
// how long it thought; the keyboard opens it; copy is offered). Think = Off in the chat's
// settings: the next reply has no reasoning. Screenshots of the live block and of the folded one,
// in English and Chinese, light and dark, at 800, 1100 and 1440 px, into thinking/.
//
//   npm run build && (cd .. && go tool task build) && node --test e2e/thinking.e2e.test.mjs
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { artifacts, binDir, closeApp, menuItem, openApp, send, setLanguage, themedShots } from './harness.mjs';

const logs = {};
const PREFIX = 'thinking';
const shotsDir = join(artifacts, 'thinking');

function setSetting(dataDir, key, value) {
  const r = spawnSync(join(binDir, 'hermes'), ['settings', 'set', key, value], {
    env: { ...process.env, HERMES_DATA_DIR: dataDir, OLLAMA_HOST: 'http://127.0.0.1:9' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 0, `settings set ${key}: ${r.stderr}`);
}

/** The newest reply's thinking block as the page shows it. */
async function block(page) {
  return page.evaluate(() => {
    const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
    const el = all[all.length - 1];
    const b = el?.querySelector('[data-testid="thinking-block"]');
    return {
      status: el?.dataset.status ?? 'none',
      present: !!b,
      open: !!b?.open,
      live: b?.dataset.live === 'true',
      summary: b?.querySelector('summary')?.textContent.trim() ?? '',
      text: b?.querySelector('[data-testid="thinking-text"]')?.textContent ?? '',
      answer: el?.querySelector('[data-testid="message-body"]')?.textContent.trim() ?? '',
      figures: el?.querySelector('[data-testid="message-figures"]')?.textContent ?? '',
    };
  });
}

async function liveAndShot(page, lang) {
  const started = Date.now();
  await page.getByTestId('message-loading').waitFor({ timeout: 10_000 });
  assert.match(await page.getByTestId('message-loading').textContent(), lang === 'zh' ? /正在加载 qwen3…/ : /Loading qwen3…/);
  await page.waitForFunction(() => document.querySelector('[data-testid="thinking-block"][data-live="true"]'), null, { timeout: 15_000 });
  let b = await block(page);
  assert.ok(b.open && b.live && b.answer === '', `live block: ${JSON.stringify(b)}`);
  assert.equal(b.summary, lang === 'zh' ? '思考中…' : 'Thinking…');
  await themedShots(page, shotsDir, 'live', lang, { settle: 60 });
  b = await block(page);
  assert.equal(b.answer, '', 'the answer began before the screenshots were taken: raise --thinking');
  await page.waitForFunction(() => {
    const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
    return all[all.length - 1]?.dataset.status === 'ok';
  }, null, { timeout: 60_000 });
  return Date.now() - started;
}

describe('thinking model', { timeout: 300_000 }, () => {
  let app;
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, {
      prefix: PREFIX,
      fakeArgs: ['--thinking', '150', '--think-delay', '60ms', '--extra-words', '4', '--load-delay', '1200ms'],
      prepare: (dataDir) => setSetting(dataDir, 'first_token_timeout', '2s'),
    });
    await app.page.getByTestId('model-picker').selectOption('qwen3');
  });

  after(async () => {
    if (app) await closeApp(logs, app, `${PREFIX}-final.png`, `${PREFIX}-`);
  });

  it('streams the reasoning live, folds it when the answer starts, and keeps it', async () => {
    const { page } = app;
    await setLanguage(page, 'en');
    await send(page, 'tea or coffee?');
    const took = await liveAndShot(page, 'en');
    assert.ok(took > 5_000, `the thought lasted ${took} ms: longer than first_token_timeout (2s) many times over`);
    const b = await block(page);
    assert.ok(b.present && !b.open && !b.live, `folded: ${JSON.stringify(b)}`);
    assert.match(b.summary, /^Thought for \d+(\.\d)? s$/);
    assert.match(b.text, /^The user asks something simple\./);
    assert.match(b.answer, /^Echo: tea or coffee\?/);
    assert.doesNotMatch(b.answer, /weigh what they said/, 'the reasoning leaked into the answer');
    assert.match(b.figures, /thought \d/);
    // The keyboard opens it; its copy button is there.
    await page.locator('[data-testid="message"][data-role="assistant"] [data-testid="thinking-summary"]').last().focus();
    await page.keyboard.press('Enter');
    assert.equal((await block(page)).open, true);
    await page.locator('[data-testid="thinking-copy"]').last().waitFor();
    await themedShots(page, shotsDir, 'folded-open', 'en', { settle: 60 });
    // Reloaded from the store, it is still there, folded.
    await page.reload();
    await page.locator('[data-testid="thinking-block"]').last().waitFor();
    const stored = await block(page);
    assert.ok(stored.present && !stored.open && stored.text.startsWith('The user asks'), `after reload: ${JSON.stringify(stored)}`);
  });

  it('in Chinese too', async () => {
    const { page } = app;
    await setLanguage(page, 'zh');
    await page.getByTestId('new-session').click();
    // The model is loaded now: this reply goes straight to its reasoning.
    await send(page, '茶还是咖啡？');
    await page.waitForFunction(() => document.querySelector('[data-testid="thinking-block"][data-live="true"]'), null, { timeout: 15_000 });
    const b = await block(page);
    assert.equal(b.summary, '思考中…');
    await themedShots(page, shotsDir, 'live', 'zh', { settle: 60 });
    await page.waitForFunction(() => {
      const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
      return all[all.length - 1]?.dataset.status === 'ok';
    }, null, { timeout: 60_000 });
    const done = await block(page);
    assert.match(done.summary, /^已思考 \d+(\.\d)? 秒$/);
    await themedShots(page, shotsDir, 'folded', 'zh', { settle: 60 });
  });

  it('Think = Off in the chat settings: no reasoning', async () => {
    const { page } = app;
    for (const lang of ['zh', 'en']) { // the dialog in Chinese (then cancelled), and in English
      await setLanguage(page, lang);
      await menuItem(page, 'chat-settings-button');
      await page.getByTestId('chat-settings').waitFor();
      await page.getByTestId('chat-settings-think').selectOption('off');
      await themedShots(page, shotsDir, 'settings', lang, { settle: 60 });
      if (lang === 'zh') {
        await page.getByTestId('chat-settings-cancel').click();
        await page.getByTestId('chat-settings').waitFor({ state: 'detached' });
      }
    }
    await page.getByTestId('chat-settings-apply').click();
    await page.getByTestId('chat-settings').waitFor({ state: 'detached' });
    const before = await page.locator('[data-testid="message"][data-role="assistant"]').count();
    await send(page, 'quick one');
    await page.waitForFunction((n) => {
      const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
      return all.length > n && all[all.length - 1].dataset.status === 'ok';
    }, before, { timeout: 30_000 });
    const b = await block(page);
    assert.equal(b.present, false, 'a reply with Think off still shows reasoning');
    assert.match(b.answer, /^Echo: quick one/);
    assert.deepEqual(problems, []);
  });
});
