// Browser end-to-end test of the web UI against `hermes serve` and the fake Ollama server.
//
//   npm run build && (cd .. && build the Go binaries into build/bin) && npm run e2e
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  cleanup,
  ensureArtifacts,
  lastAssistant,
  launch,
  send,
  shot,
  sleep,
  startFake,
  startHermes,
  stop,
  tempDir,
  useFakeModel,
} from './harness.mjs';

const logs = {};

async function assistantCount(page) {
  return (await lastAssistant(page)).count;
}

describe('hermes web UI', { timeout: 180_000 }, () => {
  let fake;
  let hermes;
  let url;
  let dataDir;
  let profileDir;
  let context;
  let page;
  const problems = [];
  let fullReplyWords = 0;

  before(async () => {
    ensureArtifacts();
    dataDir = tempDir('hermes-e2e-data-');
    profileDir = tempDir('hermes-e2e-chromium-');

    const f = await startFake(logs, 'fake-ollama', '60ms');
    fake = f.child;
    const h = await startHermes(logs, dataDir, f.url);
    hermes = h.child;
    url = h.url;

    ({ context, page } = await launch(profileDir, problems));
    await page.goto(url);
    await page.getByTestId('status-bar').waitFor();
  });

  after(async () => {
    if (page) await shot(page, 'hermes-e2e-final.png');
    if (context) await context.close().catch(() => {});
    await cleanup(logs, [dataDir, profileDir]);
  });

  it('uses the fake model and shows a ready status', async () => {
    await useFakeModel(page);
    assert.equal(await page.getByTestId('model-picker').inputValue(), 'llama3.2');
  });

  it('streams a reply and ends with status ok', async () => {
    const before = await assistantCount(page);
    await send(page, 'hello there');
    const lengths = new Set();
    const deadline = Date.now() + 30_000;
    let last;
    while (Date.now() < deadline) {
      last = await lastAssistant(page);
      if (last.count > before) {
        if (last.status === 'streaming' && last.text.length > 0) lengths.add(last.text.length);
        if (last.status !== 'streaming') break;
      }
      await sleep(20);
    }
    assert.equal(last.status, 'ok', `reply ended as ${last.status}: ${last.text}`);
    assert.ok(lengths.size >= 2, `expected to see the reply grow, saw lengths ${[...lengths]}`);
    assert.match(last.text, /^Echo: hello there/);
    fullReplyWords = last.text.split(/\s+/).length;
    assert.ok(fullReplyWords > 10, `reply too short: ${last.text}`);
    // The composer keeps the focus for the next message.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'composer');
    await shot(page, 'hermes-e2e-1-streamed.png');
  });

  it('stops a reply with Esc and keeps the partial text', async () => {
    const before = await assistantCount(page);
    await send(page, 'second message');
    await page.waitForFunction(
      (n) => {
        const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
        const el = all[all.length - 1];
        const text = el?.querySelector('[data-testid="message-body"]')?.textContent ?? '';
        return all.length > n && el.dataset.status === 'streaming' && text.trim().split(/\s+/).length >= 3;
      },
      before,
      { timeout: 15_000, polling: 20 },
    );
    await page.getByTestId('stop').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForFunction(
      (n) => {
        const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
        return all.length > n && all[all.length - 1].dataset.status === 'cancelled';
      },
      before,
      { timeout: 10_000 },
    );
    const last = await lastAssistant(page);
    assert.match(last.text, /^Echo: second/);
    const words = last.text.split(/\s+/).length;
    assert.ok(words < fullReplyWords, `stopped reply has ${words} words, a full one ${fullReplyWords}`);
    const marker = await page
      .locator('[data-testid="message"][data-role="assistant"]')
      .last()
      .getByTestId('message-marker')
      .textContent();
    assert.ok(marker && marker.trim().length > 0);
    await page.getByTestId('send').waitFor();
    await shot(page, 'hermes-e2e-2-stopped.png');
  });

  it('shows both turns after a reload', async () => {
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length >= 4, null, {
      timeout: 15_000,
    });
    const msgs = await page.$$eval('[data-testid="message"]', (els) =>
      els.map((el) => ({
        role: el.dataset.role,
        status: el.dataset.status,
        text: (el.querySelector('[data-testid="message-body"]')?.textContent ?? '').trim(),
      })),
    );
    assert.deepEqual(
      msgs.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.equal(msgs[0].text, 'hello there');
    assert.match(msgs[1].text, /^Echo: hello there/);
    assert.equal(msgs[1].status, 'ok');
    assert.equal(msgs[2].text, 'second message');
    assert.match(msgs[3].text, /^Echo: second/);
    assert.equal(msgs[3].status, 'cancelled');
    const items = await page.getByTestId('session-item').count();
    assert.ok(items >= 1, 'the session is listed in the sidebar');
    await shot(page, 'hermes-e2e-3-reloaded.png');
  });

  it('tells the user what to do when Ollama goes away', async () => {
    await stop(fake);
    await page.waitForSelector('[data-testid="status-bar"][data-state="unreachable"]', { timeout: 10_000 });
    const text = await page.getByTestId('status-bar').textContent();
    // It answered before: it stopped responding (start it again), not "install Ollama".
    assert.match(text ?? '', /Ollama stopped responding at http:\/\/127\.0\.0\.1:\d+/);
    await shot(page, 'hermes-e2e-4-unreachable.png');
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
