// Browser end-to-end test of sessions, search, intent chips and the context inspector, against
// `hermes serve` and the fake Ollama server (no token delay, for speed).
//
//   npm run build && (cd .. && build the Go binaries into build/bin) && npm run e2e
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  binDir,
  cleanup,
  closeApp,
  ensureArtifacts,
  launch,
  menuItem,
  openApp,
  sendAndWait,
  setLanguage,
  shot,
  start,
  startFake,
  startHermes,
  tempDir,
  useFakeModel,
} from './harness.mjs';

const logs = {};

/** Text, role, id and intent of every message shown. */
async function messages(page) {
  return page.$$eval('[data-testid="message"]', (els) =>
    els.map((el) => ({
      id: el.dataset.messageId,
      role: el.dataset.role,
      status: el.dataset.status,
      text: (el.querySelector('[data-testid="message-body"]')?.textContent ?? '').trim(),
      intent: el.querySelector('[data-testid="intent-chip"]')?.dataset.intent ?? '',
      intentTitle: el.querySelector('[data-testid="intent-chip"]')?.getAttribute('title') ?? '',
      pinned: el.dataset.pinned === 'true',
      highlighted: el.dataset.highlighted === 'true',
    })),
  );
}

async function currentSessionId(page) {
  return page.evaluate(() => document.querySelector('[data-testid="messages"]')?.dataset.sessionId ?? '');
}

async function newChat(page) {
  await page.getByTestId('new-session').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length === 0);
}

/** Opens a session row's action menu (shown on hover) and picks an action. */
async function sessionAction(page, sessionId, action) {
  const row = page.locator(`[data-testid="session-row"][data-session-id="${sessionId}"]`);
  await row.hover();
  await row.getByTestId('session-menu').click();
  await page.getByTestId('session-menu-list').locator(`[data-action="${action}"]`).click();
}

describe('sessions, search, intent and context in the web UI', { timeout: 240_000 }, () => {
  let url;
  let dataDir;
  let profileDir;
  let context;
  let page;
  const problems = [];
  let zebraSession = '';
  let timeSession = '';

  before(async () => {
    ({ dataDir, profileDir, context, page, url } = await openApp(logs, problems, { prefix: 'sessions' }));
  });

  after(() => closeApp(logs, { page, context, dataDir, profileDir }, 'sessions-final.png', 'sessions-'));

  it('shows the intent of each user message as a chip', async () => {
    const r = await sendAndWait(page, 'my zebra is named Kiwi');
    assert.equal(r.status, 'ok', r.text);
    zebraSession = await currentSessionId(page);
    assert.ok(zebraSession, 'the new session is selected in the sidebar');

    await newChat(page);
    const r2 = await sendAndWait(page, 'what time is it');
    assert.equal(r2.status, 'ok', r2.text);
    timeSession = await currentSessionId(page);
    assert.notEqual(timeSession, zebraSession);
    const user = (await messages(page)).find((m) => m.role === 'user');
    assert.equal(user.intent, 'task', `intent chip: ${JSON.stringify(user)}`);
    assert.match(user.intentTitle, /\d+%/, 'the confidence is given as a percentage on hover');
    const chip = page.getByTestId('intent-chip').first();
    assert.equal((await chip.textContent()).trim(), 'task');
    await chip.hover();
    await shot(page, 'sessions-1-intent-chip.png');
  });

  it('finds a message of an older session and opens it highlighted', async () => {
    // Ctrl+K focuses the search box from anywhere.
    await page.getByTestId('composer').click();
    await page.keyboard.press('Control+k');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'session-search');
    await page.keyboard.type('zebra');
    const hit = page.getByTestId('search-hit').first();
    await hit.waitFor({ timeout: 10_000 });
    assert.equal(await hit.getAttribute('data-session-id'), zebraSession);
    assert.equal((await hit.locator('mark').first().textContent()).toLowerCase(), 'zebra');
    await shot(page, 'sessions-2-search.png');

    const messageId = await hit.getAttribute('data-message-id');
    await hit.click();
    await page.waitForFunction((id) => document.getElementById(`msg-${id}`)?.dataset.highlighted === 'true', messageId, {
      timeout: 10_000,
    });
    assert.equal(await currentSessionId(page), zebraSession);
    const target = page.locator(`#msg-${messageId}`);
    assert.match(await target.textContent(), /my zebra is named Kiwi/);
    // The message is inside the visible part of the conversation.
    const inView = await page.evaluate((id) => {
      const el = document.getElementById(`msg-${id}`);
      const box = document.querySelector('[data-testid="messages"]');
      if (!el || !box) return false;
      const a = el.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      return a.bottom > b.top && a.top < b.bottom;
    }, messageId);
    assert.ok(inView, 'the found message is scrolled into view');
    await shot(page, 'sessions-3-search-opened.png');

    // Esc in the search box clears it and brings the session list back.
    await page.getByTestId('session-search').press('Escape');
    await page.getByTestId('session-list').waitFor();
    assert.equal(await page.getByTestId('session-search').inputValue(), '');
  });

  it('lists the anchor turn of a long conversation in the context inspector', async () => {
    await newChat(page);
    await sendAndWait(page, 'I bought wireless earphones yesterday for 199 dollars');
    for (const filler of ['tell me a joke', 'nice one', 'what is the capital of France', 'thanks', 'how are you', 'ok cool']) {
      await sendAndWait(page, filler);
    }
    await sendAndWait(page, 'do those earphones support noise cancelling?');

    await page.getByTestId('context-toggle').click();
    const inspector = page.getByTestId('context-inspector');
    await inspector.waitFor();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="context-item"]')].some(
          (el) =>
            ['relevant', 'anchor'].includes(el.dataset.reason) &&
            (el.querySelector('[data-testid="context-preview"]')?.textContent ?? '').includes('earphones yesterday'),
        ),
      null,
      { timeout: 10_000 },
    );
    const items = await page.$$eval('[data-testid="context-item"]', (els) =>
      els.map((el) => ({
        reason: el.dataset.reason,
        preview: (el.querySelector('[data-testid="context-preview"]')?.textContent ?? '').trim(),
      })),
    );
    const anchor = items.find((i) => i.preview.includes('earphones yesterday'));
    assert.ok(['relevant', 'anchor'].includes(anchor.reason), JSON.stringify(items, null, 1));
    assert.ok(items.some((i) => i.reason === 'query' || i.preview.includes('noise cancelling')), 'the question is listed');

    const budget = page.getByTestId('context-budget');
    const used = Number(await budget.getAttribute('data-used'));
    const total = Number(await budget.getAttribute('data-budget'));
    assert.ok(used > 0 && total > 0 && used <= total, `budget ${used}/${total}`);
    assert.ok((await page.getByTestId('context-bar').locator('.seg').count()) >= 2, 'the bar has a segment per reason');
    assert.match(await page.getByTestId('context-dropped').textContent(), /\d|No older/);
    await shot(page, 'sessions-4-inspector.png');

    // It refreshes after the next turn.
    const before = items.length;
    await sendAndWait(page, 'and the battery life of those earphones?');
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="context-preview"]')].some((el) =>
          (el.textContent ?? '').includes('battery life'),
        ),
      null,
      { timeout: 10_000 },
    );
    assert.ok((await page.getByTestId('context-item').count()) >= before - 2);

    // Dark theme, and Chinese.
    await page.getByTestId('theme-toggle').click();
    await shot(page, 'sessions-5-inspector-dark.png');
    await page.getByTestId('theme-toggle').click();
    await menuItem(page, 'language-toggle');
    await page.waitForFunction(() => /上下文/.test(document.querySelector('[data-testid="context-inspector"]')?.textContent ?? ''));
    await shot(page, 'sessions-5b-inspector-zh.png');
    await menuItem(page, 'language-toggle');
  });

  it("shows an earlier reply's own context from its Context button, then the last turn's again", async () => {
    // With the inspector closed: the button opens it on that reply.
    if ((await page.getByTestId('context-toggle').getAttribute('aria-pressed')) === 'true') {
      await page.getByTestId('context-toggle').click();
      await page.getByTestId('context-inspector').waitFor({ state: 'detached' });
    }
    const firstReply = page.locator('[data-testid="message"][data-role="assistant"]').first();
    await firstReply.hover();
    await firstReply.getByTestId('message-context').click();
    await page.getByTestId('context-inspector').waitFor();
    const previews = () => page.$$eval('[data-testid="context-preview"]', (els) => els.map((e) => e.textContent ?? ''));
    await page.waitForFunction(
      () =>
        /Context of this reply/.test(document.querySelector('[data-testid="context-inspector"]')?.textContent ?? '') &&
        [...document.querySelectorAll('[data-testid="context-preview"]')].some((el) => (el.textContent ?? '').includes('earphones yesterday')),
      null,
      { timeout: 10_000 },
    );
    // The first reply saw its own question and nothing said after it.
    assert.ok(!(await previews()).some((p) => p.includes('battery life')), JSON.stringify(await previews()));
    await shot(page, 'sessions-5c-reply-context.png');
    await page.getByTestId('context-show-last').click();
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="context-preview"]')].some((el) => (el.textContent ?? '').includes('battery life')),
      null,
      { timeout: 10_000 },
    );
    assert.equal(await page.getByTestId('context-show-last').count(), 0);
    // The newest reply's button is the last turn itself.
    const newest = page.locator('[data-testid="message"][data-role="assistant"]').last();
    await newest.hover();
    await newest.getByTestId('message-context').click();
    await page.waitForFunction(() => /Context of the last turn/.test(document.querySelector('[data-testid="context-inspector"]')?.textContent ?? ''));
  });

  it('shows the routing decision of the last turn in the settings', async () => {
    await menuItem(page, 'settings-button');
    const routing = page.getByTestId('routing');
    await routing.waitFor({ timeout: 10_000 });
    const intent = await page.getByTestId('routing-intent').getAttribute('data-intent');
    assert.ok(intent, 'an intent is shown');
    assert.ok(await page.getByTestId('routing-tools').getAttribute('data-group'));
    await page.getByTestId('settings-routing').scrollIntoViewIfNeeded();
    await shot(page, 'sessions-6-settings-routing.png');
    await page.getByTestId('settings-close').click();
  });

  it('says why a setting was refused in the UI language, and keeps the value typed', async () => {
    await setLanguage(page, 'zh');
    try {
      await menuItem(page, 'settings-button');
      const row = page.locator('[data-testid="form-setting"][data-key="first_token_timeout"]');
      await row.getByTestId('form-input').fill('120');
      await row.getByTestId('form-save').click();
      const err = row.getByTestId('form-error');
      await err.waitFor({ timeout: 10_000 });
      assert.equal(await err.textContent(), 'first_token_timeout：“120”不是时长；请写成 30s 或 2m 这样的形式。');
      assert.equal(await row.getByTestId('form-input').inputValue(), '120');
      await page.getByTestId('settings-close').click();
    } finally {
      await setLanguage(page, 'en');
    }
  });

  it('pins a message, and the pin survives a reload', async () => {
    const first = page.locator('[data-testid="message"][data-role="user"]').first();
    await first.hover();
    await first.getByTestId('message-pin').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="message"][data-role="user"]')?.dataset.pinned === 'true',
    );
    const sid = await currentSessionId(page);
    await page.reload();
    await page.locator(`[data-testid="session-item"][data-session-id="${sid}"]`).click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="message"][data-role="user"]')?.dataset.pinned === 'true',
      null,
      { timeout: 10_000 },
    );
  });

  it('renames, pins, exports, archives and deletes sessions', async () => {
    // Rename inline: Enter saves.
    await sessionAction(page, zebraSession, 'rename');
    const input = page.getByTestId('session-rename-input');
    await input.fill('Pets and names');
    await input.press('Enter');
    const zebraItem = page.locator(`[data-testid="session-item"][data-session-id="${zebraSession}"]`);
    await page.waitForFunction(
      (id) => document.querySelector(`[data-testid="session-item"][data-session-id="${id}"]`)?.textContent?.includes('Pets and names'),
      zebraSession,
    );

    // Pin: it moves to the top with a pin icon.
    await sessionAction(page, zebraSession, 'pin');
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid="session-list"] [data-testid="session-item"]')?.dataset.sessionId === id,
      zebraSession,
    );
    assert.equal(await zebraItem.getAttribute('data-pinned'), 'true');
    assert.equal(await zebraItem.getByTestId('session-pinned').count(), 1);

    // Export as Markdown: a file download with the conversation.
    const [download] = await Promise.all([page.waitForEvent('download'), sessionAction(page, zebraSession, 'export-md')]);
    assert.match(download.suggestedFilename(), /^Pets and names\.md$/);
    const md = readFileSync(await download.path(), 'utf8');
    assert.match(md, /my zebra is named Kiwi/);

    // Archive: it moves to the collapsible Archived section and stays searchable.
    await sessionAction(page, timeSession, 'archive');
    const toggle = page.getByTestId('archived-toggle');
    await toggle.waitFor();
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await page.getByTestId('archived-list').locator(`[data-session-id="${timeSession}"]`).first().waitFor();
    await page.getByTestId('session-search').fill('time');
    const archivedHit = page.locator(`[data-testid="search-hit"][data-session-id="${timeSession}"]`).first();
    await archivedHit.waitFor({ timeout: 10_000 });
    assert.equal(await archivedHit.getByTestId('search-hit-archived').count(), 1);
    await shot(page, 'sessions-7-archived-hit.png');
    await page.getByTestId('session-search').press('Escape');

    // Delete: asks first, naming the session; Cancel keeps it.
    await sessionAction(page, zebraSession, 'delete');
    const dialog = page.getByTestId('confirm-delete');
    await dialog.waitFor();
    assert.match(await dialog.textContent(), /Pets and names/);
    await shot(page, 'sessions-8-confirm-delete.png');
    await page.getByTestId('confirm-cancel').click();
    assert.equal(await zebraItem.count(), 1);
    await sessionAction(page, zebraSession, 'delete');
    await page.getByTestId('confirm-ok').click();
    await zebraItem.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('session-list').waitFor();
    assert.equal(await page.locator(`[data-testid="session-item"][data-session-id="${zebraSession}"]`).count(), 0);
    await page.getByTestId('session-search').fill('zebra');
    await page.waitForFunction(() => /No messages match/.test(document.querySelector('[data-testid="search-results"]')?.textContent ?? ''), null, {
      timeout: 10_000,
    });
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});

describe('the intent banner when the classifier cannot load', { timeout: 120_000 }, () => {
  let dataDir;
  let profileDir;
  let context;
  let page;
  const problems = [];
  const bannerLogs = {};

  before(async () => {
    dataDir = tempDir('hermes-e2e-noort-data-');
    profileDir = tempDir('hermes-e2e-noort-chromium-');
    const f = await startFake(bannerLogs, 'fake-ollama-noort', '0s');
    const h = await start(
      bannerLogs,
      'hermes-noort',
      join(binDir, 'hermes'),
      ['--data-dir', dataDir, 'serve', '--addr', '127.0.0.1:0'],
      { OLLAMA_HOST: f.url, HERMES_DATA_DIR: undefined, HERMES_ORT_LIB: '/nonexistent/libonnxruntime.so.1' },
      /(http:\/\/127\.0\.0\.1:\d+\/\?token=[^\s"'<>]+)/,
    );
    ({ context, page } = await launch(profileDir, problems));
    await page.goto(h.match[1]);
    await useFakeModel(page);
  });

  after(async () => {
    if (context) await context.close().catch(() => {});
    await cleanup(bannerLogs, [dataDir, profileDir], 'sessions-');
  });

  it('says what is wrong and how to fix it; chat still works with intent unknown', async () => {
    const banner = page.getByTestId('intent-banner');
    await banner.waitFor({ timeout: 15_000 });
    assert.match(await page.getByTestId('intent-problem').textContent(), /ONNX Runtime|intent/i);
    assert.ok(((await page.getByTestId('intent-fix').textContent()) ?? '').trim().length > 0);
    await shot(page, 'sessions-9-intent-banner.png');

    const r = await sendAndWait(page, 'what time is it');
    assert.equal(r.status, 'ok');
    const chip = page.getByTestId('intent-chip').first();
    assert.equal(await chip.getAttribute('data-intent'), 'unknown');

    await page.getByTestId('intent-banner-dismiss').click();
    await banner.waitFor({ state: 'detached' });
    // It stays hidden for the run, across status polls.
    await page.waitForTimeout(3500);
    assert.equal(await page.getByTestId('intent-banner').count(), 0);
    assert.deepEqual(problems, []);
  });
});
