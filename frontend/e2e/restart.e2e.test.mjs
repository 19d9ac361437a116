// Browser end-to-end test of a web tab across a `hermes serve` restart: the new run (same port,
// given with --addr, same data dir) makes a new token, so it refuses the open page. The page says
// so, in English and Chinese (status bar and a notice: open the new link `hermes serve` printed),
// and stops asking the server (no more /api/events requests). Screenshots EN/ZH, light/dark, at
// 800/1100/1440 under $E2E_ARTIFACTS/restart/.
//
//   go tool task build && (cd frontend && node --test e2e/restart.e2e.test.mjs)
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, binDir, closeApp, openApp, sendAndWait, setLanguage, sleep, start, stop } from './harness.mjs';

const logs = {};
const shotsDir = join(artifacts, 'restart');


describe('a web tab across a hermes serve restart', { timeout: 240_000 }, () => {
  let app = {};
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, { prefix: 'restart' });
  });

  after(() => closeApp(logs, app, 'restart-final.png', 'restart-'));

  it('says Hermes was restarted and the page must be opened from the new link, and stops retrying', async () => {
    const { page } = app;
    const reply = await sendAndWait(page, 'hello before the restart');
    assert.equal(reply.status, 'ok');
    const port = new URL(app.url).port;
    const oldToken = new URL(app.url).searchParams.get('token');

    // Restart: the same data dir and port, a new process with a new token.
    await stop(app.hermes);
    await page.waitForSelector('[data-testid="status-bar"][data-state="disconnected"]', { timeout: 15_000 });
    const fakeURL = logs['fake-ollama'].match(/FAKE_OLLAMA_URL=(\S+)/)[1];
    const h = await start(
      logs,
      'hermes-restarted',
      join(binDir, 'hermes'),
      ['--data-dir', app.dataDir, 'serve', '--addr', `127.0.0.1:${port}`],
      { OLLAMA_HOST: fakeURL, HERMES_DATA_DIR: undefined },
      /(http:\/\/127\.0\.0\.1:\d+\/\?token=[^\s"'<>]+)/,
    );
    app.hermes = h.child;
    const newURL = h.match[1];
    assert.notEqual(new URL(newURL).searchParams.get('token'), oldToken);

    // The page's next attempt is refused for its token: it says why, not "reconnecting".
    await page.waitForSelector('[data-testid="status-bar"][data-state="restarted"]', { timeout: 30_000 });
    const bar = (await page.getByTestId('status-bar').textContent()).trim();
    assert.match(bar, /Hermes was restarted/);
    assert.match(bar, /hermes serve/);
    assert.doesNotMatch(bar, /reconnecting/);
    const notice = page.getByTestId('restarted-notice');
    await notice.waitFor();
    assert.match(await notice.textContent(), /new token/);
    assert.equal(await notice.getAttribute('role'), 'alert');

    // No more pointless attempts.
    let asked = 0;
    const count = (req) => req.url().includes('/api/events') && asked++;
    page.on('request', count);
    await sleep(12_000); // longer than the retry back-off's cap (10 s)
    page.off('request', count);
    assert.equal(asked, 0, 'the page still asks the restarted server for events');

    // The same in Chinese.
    await setLanguage(page, 'zh');
    const zh = (await page.getByTestId('status-bar').textContent()).trim();
    assert.match(zh, /Hermes 已重新启动/);
    assert.match(await notice.textContent(), /hermes serve/);
    assert.match(await notice.textContent(), /令牌/);

    mkdirSync(shotsDir, { recursive: true });
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const l of ['en', 'zh']) {
        await setLanguage(page, l);
        for (const [w, hgt] of [
          [800, 600],
          [1100, 700],
          [1440, 900],
        ]) {
          await page.setViewportSize({ width: w, height: hgt });
          await sleep(150);
          await page.screenshot({ path: join(shotsDir, `restarted-${l}-${scheme}-${w}x${hgt}.png`) });
        }
      }
    }

    // The new link works: a fresh load of it is connected again.
    await page.goto(newURL);
    await page.waitForSelector('[data-testid="status-bar"][data-state="ok"]', { timeout: 20_000 });
    assert.equal(await page.getByTestId('restarted-notice').count(), 0);
  });
});
