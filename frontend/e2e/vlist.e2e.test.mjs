// Browser end-to-end test of the virtualised message list against `hermes serve` and the fake
// Ollama, on a conversation of 2,000 messages imported through `hermes session import`: opening it
// shows its last messages with only a bounded number of message nodes in the DOM; Home reaches the
// first message and End the last, PageUp moves up; a search hit far up is scrolled to and
// flashed; a reply streams at the bottom (followed) and Regenerate keeps both versions in the long
// chat. Screenshots of the long chat in English and Chinese, light and dark, at 800, 1100 and
// 1440 px under $E2E_ARTIFACTS/vlist/.
//
//   go tool task build && (cd frontend && node --test e2e/vlist.e2e.test.mjs)
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, binDir, closeApp, openApp, send, setLanguage, sleep } from './harness.mjs';

const logs = {};
const TOTAL = 2000;
/** The most message nodes the list may keep for a 700–900 px tall window. */
const MAX_NODES = 40;
const shotsDir = join(artifacts, 'vlist');

function content(i) {
  if (i === 0) return 'Long story: the first message of two thousand';
  if (i === TOTAL - 1) return `The very last message (number ${TOTAL}).`;
  if (i === 300) return 'Did you ever see a zebrafish glow in the dark?';
  if (i % 2 === 0) return `Question ${i}: what happens next in part ${i}?`;
  const para = `Answer ${i}. Hermes keeps everything on this computer and answers from a local model. `;
  return para.repeat(1 + (i % 4)) + (i % 9 === 1 ? '\n\n```js\nconsole.log("part ' + i + '");\n```' : '');
}

/** Imports the long conversation through the CLI (the app's own import path). */
function seed(dataDir) {
  const start = Date.parse('2026-02-01T08:00:00Z');
  const lines = Array.from({ length: TOTAL }, (_, i) =>
    JSON.stringify({
      session: 'long',
      id: `m${i}`,
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: content(i),
      created_at: new Date(start + i * 60_000).toISOString(),
    }),
  );
  const file = join(dataDir, 'long.jsonl');
  writeFileSync(file, lines.join('\n') + '\n');
  const out = execFileSync(join(binDir, 'hermes'), ['--data-dir', dataDir, 'session', 'import', '--jsonl', file], {
    env: { ...process.env, OLLAMA_HOST: 'http://127.0.0.1:9' },
    encoding: 'utf8',
  });
  assert.match(out, /imported 2000 messages in 1 new sessions/);
}

/** What the list shows: message nodes in the DOM, the first and last of them, and the scroller. */
async function shown(page) {
  return page.evaluate(() => {
    const sc = document.querySelector('[data-testid="messages"]');
    const box = sc.getBoundingClientRect();
    const all = [...document.querySelectorAll('[data-testid="message"]')];
    const visible = all.filter((m) => {
      const r = m.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom;
    });
    const text = (m) => m?.querySelector('[data-testid="message-body"]')?.textContent.trim() ?? '';
    return {
      nodes: all.length,
      rows: Number(document.querySelector('[data-testid="message-list"]')?.dataset.rows ?? 0),
      visible: visible.map(text),
      scrollTop: sc.scrollTop,
      atBottom: sc.scrollHeight - sc.scrollTop - sc.clientHeight < 2,
      streaming: !!document.querySelector('[data-testid="message"][data-status="streaming"]'),
    };
  });
}

async function openLong(page) {
  await page.locator('[data-testid="session-item"]', { hasText: 'Long story' }).first().click();
  await page.waitForFunction(
    (n) => Number(document.querySelector('[data-testid="message-list"]')?.dataset.rows) >= n,
    TOTAL,
  );
  await page.waitForFunction(() => {
    const v = [...document.querySelectorAll('[data-testid="message-body"]')].map((b) => b.textContent);
    return v.some((t) => t.includes('very last message'));
  });
  // The conversation is already shown when the app opened it at start; the click loads it again
  // and, once loaded, puts the focus in the message box: wait for that, or a key pressed next
  // would go to wherever the focus lands.
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'composer');
}

/** Waits until the visible messages satisfy test. */
async function waitShown(page, test, what, timeout = 15_000) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    last = await shown(page);
    if (test(last)) return last;
    await sleep(50);
  }
  throw new Error(`${what}: ${JSON.stringify(last)}`);
}


describe('the virtualised message list of a 2,000-message conversation', { timeout: 360_000 }, () => {
  let app = {};
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, { prefix: 'vlist', tokenDelay: '15ms', prepare: seed });
    await app.page.setViewportSize({ width: 1100, height: 800 });
  });

  after(() => closeApp(logs, app, 'vlist-final.png', 'vlist-'));

  it('opens at the last messages with a bounded number of message nodes', async () => {
    const { page } = app;
    await openLong(page);
    const s = await waitShown(page, (x) => x.atBottom && x.visible.some((t) => t.includes('very last message')), 'not at the bottom');
    assert.equal(s.rows, TOTAL);
    assert.ok(s.nodes <= MAX_NODES, `${s.nodes} message nodes in the DOM`);
    assert.ok(s.nodes >= 3, `${s.nodes} message nodes in the DOM`);
    assert.ok(!s.visible.some((t) => t.startsWith('Long story')));
  });

  it('reaches the first message with Home, goes up with PageUp and back to the last with End', async () => {
    const { page } = app;
    await page.getByTestId('messages').focus();
    await page.keyboard.press('Home');
    let s = await waitShown(page, (x) => x.visible.some((t) => t.startsWith('Long story')), 'Home did not reach the first message');
    assert.ok(s.nodes <= MAX_NODES, `${s.nodes} message nodes after Home`);
    assert.equal(s.scrollTop, 0);
    // The first messages stay where they are once measured (no jump while the user reads).
    await sleep(300);
    s = await shown(page);
    assert.equal(s.scrollTop, 0);
    assert.ok(s.visible[0].startsWith('Long story'));

    await page.keyboard.press('End');
    s = await waitShown(page, (x) => x.atBottom && x.visible.some((t) => t.includes('very last message')), 'End did not reach the last');
    const bottom = s.scrollTop;
    await page.keyboard.press('PageUp');
    s = await waitShown(page, (x) => x.scrollTop < bottom - 200, 'PageUp did not move up');
    // PageUp scrolls smoothly: let it come to rest.
    let prev = -1;
    while (s.scrollTop !== prev) {
      prev = s.scrollTop;
      await sleep(150);
      s = await shown(page);
    }
    assert.ok(bottom - s.scrollTop > 300, `PageUp moved ${bottom - s.scrollTop} px`);
    await page.keyboard.press('End');
    await waitShown(page, (x) => x.atBottom, 'End again');
  });

  it('scrolls to the top by dragging the scroll position and draws the first message', async () => {
    const { page } = app;
    // As a scroll bar drag does: jump, then the rows there are drawn and measured.
    await page.evaluate(() => (document.querySelector('[data-testid="messages"]').scrollTop = 0));
    const s = await waitShown(page, (x) => x.visible.some((t) => t.startsWith('Long story')), 'the top shows no first message');
    assert.ok(s.nodes <= MAX_NODES);
  });

  it('jumps to a search hit far up and flashes it', async () => {
    const { page } = app;
    await page.getByTestId('session-search').fill('zebrafish');
    const hit = page.getByTestId('search-hit').first();
    await hit.waitFor({ timeout: 15_000 });
    await hit.click();
    const s = await waitShown(page, (x) => x.visible.some((t) => t.includes('zebrafish')), 'the hit is not shown');
    assert.ok(s.nodes <= MAX_NODES);
    await page.waitForSelector('[data-testid="message"][data-highlighted="true"]');
    const text = await page.locator('[data-testid="message"][data-highlighted="true"] [data-testid="message-body"]').textContent();
    assert.match(text, /zebrafish/);
    await page.getByTestId('search-clear').click().catch(() => {});
  });

  it('streams a reply at the bottom and regenerates it: both versions kept in the long chat', async () => {
    const { page } = app;
    await page.getByTestId('messages').focus();
    await page.keyboard.press('End');
    await send(page, 'tell me about the long list');
    // It is followed while it streams: the list reaches the bottom while the reply still grows
    // (a row's new height is measured a frame after its text arrives, so one sample taken at a
    // fixed time can fall between the two on a loaded machine; CI once did).
    await page.waitForSelector('[data-testid="message"][data-status="streaming"]');
    await sleep(300);
    let s = await waitShown(page, (x) => x.atBottom && x.streaming, 'not following the streaming reply', 5_000);
    await page.waitForFunction(() => !document.querySelector('[data-testid="message"][data-status="streaming"]'), null, { timeout: 30_000 });
    const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
    await page.waitForFunction(() => {
      const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
      const el = all[all.length - 1];
      return el && el.dataset.status === 'ok' && !el.dataset.messageId.startsWith('local-');
    });
    const firstText = (await reply.getByTestId('message-body').textContent()).trim();
    assert.match(firstText, /^Echo: tell me about the long list/);
    const firstId = await reply.getAttribute('data-message-id');
    s = await shown(page);
    assert.equal(s.rows, TOTAL + 2);
    assert.ok(s.nodes <= MAX_NODES);

    await reply.hover();
    await reply.getByTestId('message-regenerate').click();
    await page.waitForFunction(
      (id) => {
        const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
        const el = all[all.length - 1];
        const sw = el?.querySelector('[data-testid="version-switcher"]');
        return el && el.dataset.status === 'ok' && el.dataset.messageId !== id && !el.dataset.messageId.startsWith('local-') && sw?.dataset.count === '2';
      },
      firstId,
      { timeout: 30_000 },
    );
    const last = page.locator('[data-testid="message"][data-role="assistant"]').last();
    await last.getByTestId('version-prev').click();
    await page.waitForFunction(
      (id) => {
        const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
        return all[all.length - 1]?.dataset.messageId === id;
      },
      firstId,
    );
    s = await shown(page);
    assert.equal(s.rows, TOTAL + 2, 'regenerate stored no extra message in the shown branch');
    assert.ok(s.visible.some((t) => t === firstText));
  });

  it('takes screenshots of the long chat in both languages and themes at three sizes', async () => {
    const { page } = app;
    mkdirSync(shotsDir, { recursive: true });
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const l of ['en', 'zh']) {
        await page.setViewportSize({ width: 1100, height: 700 });
        await setLanguage(page, l);
        for (const [w, h] of [
          [800, 600],
          [1100, 700],
          [1440, 900],
        ]) {
          await page.setViewportSize({ width: w, height: h });
          await page.getByTestId('messages').focus();
          await page.keyboard.press('End');
          await sleep(300);
          const s = await shown(page);
          assert.ok(s.atBottom && s.nodes <= MAX_NODES, `${l} ${scheme} ${w}: ${JSON.stringify(s)}`);
          await page.evaluate(() => document.activeElement?.blur());
          await page.screenshot({ path: join(shotsDir, `long-${l}-${scheme}-${w}x${h}.png`) });
        }
      }
    }
    await setLanguage(page, 'en');
    assert.deepEqual(problems, []);
  });
});
