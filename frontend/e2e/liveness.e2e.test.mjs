// Browser end-to-end test of truthful failure: a failed reply's reason in the user's language (by
// the error's code), and the status bar following the backend's liveness over the event stream.
//
//   go tool task build && (cd frontend && node --test e2e/liveness.e2e.test.mjs)
//
// `hermes serve` makes a new token on every start, so a page cannot outlive a restart; the
// recovery is tested by pausing the server (SIGSTOP: the heartbeat stops, the page says
// "Disconnected — reconnecting") and resuming it (SIGCONT: it recovers by itself). Killing the
// server shows the same state at once (the stream breaks).
// Screenshots of the disconnected status and of a model too big for the memory: EN/ZH,
// light/dark, 800/1100/1440, under $E2E_ARTIFACTS/liveness/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, closeApp, openApp, send, setLanguage, stop, themedShots } from './harness.mjs';

const logs = {};
const shotsDir = join(artifacts, 'liveness');


async function statusState(page) {
  return page.getByTestId('status-bar').getAttribute('data-state');
}

describe('truthful failure and liveness', { timeout: 240_000 }, () => {
  let app;
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, { prefix: 'liveness', fakeArgs: ['--out-of-memory'] });
  });

  after(async () => {
    if (app) await closeApp(logs, app, 'liveness-final.png', 'liveness-');
  });

  it('says a model is too big for the memory with the sizes only when Ollama gives them', async () => {
    const { page } = app;
    mkdirSync(shotsDir, { recursive: true });
    await setLanguage(page, 'zh');
    await send(page, 'this model is too big, with sizes');
    const err = page.getByTestId('send-error');
    await err.waitFor({ timeout: 30_000 });
    assert.match((await err.textContent()) ?? '', /模型 llama3\.2 需要的内存超过当前可用内存（需要 5\.6 GiB，可用 3\.1 GiB）/);
    await send(page, 'this model is too big');
    await page.waitForFunction(() => !/5\.6 GiB/.test(document.querySelector('[data-testid="send-error"]')?.textContent ?? ''), null, { timeout: 30_000 });
    const text = (await err.textContent()) ?? '';
    assert.match(text, /模型 llama3\.2 需要的内存超过当前可用内存。请关闭其他程序/, text);
    assert.doesNotMatch(text, /\?|？|needs/, text);
    for (const l of ['en', 'zh']) {
      await setLanguage(page, l);
      if (l === 'en') assert.match((await err.textContent()) ?? '', /Model llama3\.2 needs more memory than is free now\. Close other programs/);
      await themedShots(page, shotsDir, 'too-big', l);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1100, height: 700 });
  });

  it('says why a reply failed in Chinese, by the error code, and keeps the message', async () => {
    const { page } = app;
    await setLanguage(page, 'zh');
    await stop(app.fake); // Ollama goes away
    await send(page, '你好，还在吗？');
    const err = page.getByTestId('send-error');
    // The error of the test before (too much memory) may still be shown until this send's own arrives.
    await page.waitForFunction(() => /无法连接/.test(document.querySelector('[data-testid="send-error"]')?.textContent ?? ''), null, { timeout: 30_000 });
    const text = (await err.textContent()) ?? '';
    assert.match(text, /回复失败——您的消息已保存/);
    assert.match(text, /无法连接 http:\/\/127\.0\.0\.1:\d+ 上的 Ollama/, text);
    assert.doesNotMatch(text, /dial tcp|connection refused|not reachable/, text);
    assert.ok(await page.getByTestId('send-retry').isVisible());
    await page.screenshot({ path: join(artifacts, 'liveness-reply-failed-zh.png') });
  });

  it('says Disconnected when the heartbeat stops, and recovers by itself', async () => {
    const { page } = app;
    mkdirSync(shotsDir, { recursive: true });
    await setLanguage(page, 'en');
    const before = await page.getByTestId('session-item').count();
    app.hermes.kill('SIGSTOP');
    try {
      // No ": ping" for 45 s: the page gives the stream up and says so.
      await page.waitForSelector('[data-testid="status-bar"][data-state="disconnected"]', { timeout: 70_000 });
      assert.match((await page.getByTestId('status-bar').textContent()) ?? '', /Disconnected — reconnecting/);
      for (const l of ['en', 'zh']) {
        await page.setViewportSize({ width: 1100, height: 700 });
        await setLanguage(page, l);
        await themedShots(page, shotsDir, 'disconnected', l, { each: async (p) => assert.equal(await statusState(p), 'disconnected') });
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1100, height: 700 });
      assert.match((await page.getByTestId('status-bar').textContent()) ?? '', /已断开 — 正在重新连接/);
    } finally {
      app.hermes.kill('SIGCONT');
    }
    // Back: the stream opens again, the bar leaves "disconnected" and the chat list is there.
    await page.waitForFunction(
      () => document.querySelector('[data-testid="status-bar"]')?.getAttribute('data-state') !== 'disconnected',
      null,
      { timeout: 30_000 },
    );
    assert.notEqual(await statusState(page), 'disconnected');
    assert.ok((await page.getByTestId('session-item').count()) >= Math.max(before, 1));
    await page.screenshot({ path: join(shotsDir, 'recovered-zh.png') });
  });

  it('says Disconnected at once when hermes serve is killed', async () => {
    const { page } = app;
    await setLanguage(page, 'en');
    app.hermes.kill('SIGKILL');
    await page.waitForSelector('[data-testid="status-bar"][data-state="disconnected"]', { timeout: 15_000 });
    assert.match((await page.getByTestId('status-bar').textContent()) ?? '', /Disconnected — reconnecting/);
    await page.screenshot({ path: join(shotsDir, 'killed-en.png') });
    assert.deepEqual(problems, []);
  });
});
