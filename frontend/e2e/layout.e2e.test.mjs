// Browser end-to-end test of the window's layout against `hermes serve` and the fake Ollama:
//   - the header is one row (its height against one button's) at 800, 1100 and 1280 px, in
//     English and Chinese, with and without each side panel open, and nothing in it is clipped;
//   - the sidebar collapses with its button and Ctrl+B, and stays so after a reload; below 700 px
//     it is a drawer over the chat (backdrop, Esc, Ctrl+B);
//   - the chat list is grouped by date (conversations imported with older dates), pinned first;
//   - starter prompts on the empty chat send a message; "?" opens the shortcut sheet (not while
//     typing); the ⋯ menu works from the keyboard;
//   - screenshots of the empty chat, a chat with history, a panel, the ⋯ menu and the drawer, in
//     English and Chinese, light and dark, at 800×600, 1100×700 and 1440×900 (LAYOUT_SHOTS=0
//     skips them), into the artifacts folder's layout/ (or LAYOUT_SHOTS_DIR).
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, binDir, closeApp, openApp, setLanguage, SHOT_SIZES, sleep } from './harness.mjs';

const logs = {};
const shotsDir = process.env.LAYOUT_SHOTS_DIR || join(artifacts, 'layout');
const wantShots = process.env.LAYOUT_SHOTS !== '0';

/** Noon, `days` calendar days ago (local time), as the import wants it. */
function daysAgo(days, hour = 12) {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - days, hour).toISOString();
}

/** Older conversations, imported before Hermes starts, so that the list has every date group. */
const HISTORY = [
  { ref: 'kyoto', days: 1, user: 'Kyoto trip ideas', reply: 'Day 1: Fushimi Inari early, before the crowds. Day 2: Arashiyama.' },
  { ref: 'menu', days: 3, user: '周末做饭的菜单', reply: '周六：番茄炒蛋、清炒时蔬。周日：红烧肉 🍲。' },
  { ref: 'flaky', days: 5, user: 'Fix the flaky test 🧪', reply: 'Run it with -count=100 and -race first.' },
  { ref: 'report', days: 20, user: 'Quarterly report outline', reply: '1. Summary 2. Numbers 3. Next steps' },
  { ref: 'rust', days: 45, user: '学习 Rust 的计划', reply: '第一周：所有权与借用。' },
  { ref: 'garden', days: 120, user: 'Garden watering schedule', reply: 'Water early in the morning, twice a week.' },
];

function prepare(dataDir) {
  const env = { ...process.env, OLLAMA_HOST: 'http://127.0.0.1:9' };
  delete env.HERMES_DATA_DIR;
  const hermes = join(binDir, 'hermes');
  // Old conversations stay in the list (the default archives them after a week idle).
  execFileSync(hermes, ['--data-dir', dataDir, 'settings', 'set', 'archive_after', '8760h'], { env, stdio: 'pipe' });
  const lines = [];
  for (const h of HISTORY) {
    lines.push({ session: h.ref, id: `${h.ref}-1`, role: 'user', content: h.user, created_at: daysAgo(h.days) });
    lines.push({ session: h.ref, id: `${h.ref}-2`, role: 'assistant', content: h.reply, created_at: daysAgo(h.days, 13) });
  }
  const file = join(dataDir, 'history.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  execFileSync(hermes, ['--data-dir', dataDir, 'session', 'import', '--jsonl', file], { env, stdio: 'pipe' });
}

const PANELS = [
  { toggle: 'context-toggle', panel: '#context-inspector' },
  { toggle: 'activity-toggle', panel: '#activity-panel' },
  { toggle: 'mcp-toggle', panel: '#mcp-panel' },
  { toggle: 'memory-toggle', panel: '#memory-panel' },
  { toggle: 'models-toggle', panel: '#models-panel' },
  { toggle: 'knowledge-toggle', panel: '#knowledge-panel' },
];

/** The header's geometry: one row means every item sits on the first row's line. */
async function headerGeometry(page) {
  return page.evaluate(() => {
    const header = document.querySelector('[data-testid="header"]');
    const button = header.querySelector('[data-testid="context-toggle"]').getBoundingClientRect();
    // The spacer has no height; every other item is on screen.
    const items = [...header.children].filter((e) => e.getBoundingClientRect().height > 0);
    const rects = items.map((e) => e.getBoundingClientRect());
    const buttons = [...header.querySelectorAll('button')].filter((b) => b.getClientRects().length > 0);
    return {
      height: header.getBoundingClientRect().height,
      width: header.getBoundingClientRect().width,
      button: button.height,
      // Items on one row overlap vertically: the lowest top is above the highest bottom.
      rows: Math.max(...rects.map((r) => r.top)) < Math.min(...rects.map((r) => r.bottom)) ? 1 : 2,
      overflow: header.scrollWidth - header.clientWidth,
      // A button taller than the icon buttons has wrapped its text.
      tall: buttons.filter((b) => b.getBoundingClientRect().height > button.height + 2).map((b) => b.dataset.testid || b.textContent),
      // A button that ends outside the header is clipped.
      outside: buttons
        .filter((b) => b.getBoundingClientRect().right > header.getBoundingClientRect().right + 0.5)
        .map((b) => b.dataset.testid),
      select: header.querySelector('select')?.getBoundingClientRect().width ?? 0,
    };
  });
}

async function assertOneRow(page, what) {
  const g = await headerGeometry(page);
  const msg = `${what}: ${JSON.stringify(g)}`;
  assert.ok(g.height < 2 * g.button, `header taller than one row: ${msg}`);
  assert.equal(g.rows, 1, `header items on different rows: ${msg}`);
  assert.ok(g.overflow <= 0, `header overflows: ${msg}`);
  assert.deepEqual(g.tall, [], `wrapped buttons: ${msg}`);
  assert.deepEqual(g.outside, [], `clipped buttons: ${msg}`);
  assert.ok(g.select >= 80, `the model picker is squeezed: ${msg}`);
  return g;
}

/** Every header button's accessible name and tooltip. */
async function headerNames(page) {
  return page.$$eval('[data-testid="header"] button', (els) =>
    els
      .filter((b) => b.getClientRects().length > 0)
      .map((b) => ({ id: b.dataset.testid, name: b.getAttribute('aria-label') ?? '', tip: b.getAttribute('title') ?? '', text: b.textContent.trim(), svg: !!b.querySelector('svg') })),
  );
}

async function sidebarState(page) {
  return page.getByTestId('app').getAttribute('data-sidebar');
}

async function navVisible(page) {
  return page.evaluate(() => {
    const nav = document.querySelector('[data-testid="sidebar"]');
    if (!nav || nav.getClientRects().length === 0) return false;
    const r = nav.getBoundingClientRect();
    return getComputedStyle(nav).visibility === 'visible' && r.right > 0 && r.left < innerWidth;
  });
}

async function waitSidebar(page, state) {
  await page.waitForFunction((s) => document.querySelector('[data-testid="app"]')?.dataset.sidebar === s, state, { timeout: 5_000 });
  // The drawer slides in or out (0.2 s).
  await sleep(300);
}

async function openPanel(page, toggle, panel) {
  if ((await page.getByTestId(toggle).getAttribute('aria-pressed')) !== 'true') await page.getByTestId(toggle).click();
  await page.locator(panel).waitFor();
  await sleep(150);
}

async function closePanels(page) {
  const close = page.locator('.insp .side-panel > header [data-testid$="-close"]');
  while ((await close.count()) > 0) {
    await close.first().click();
    await sleep(50);
  }
}

async function groups(page) {
  return page.$$eval('[data-testid="session-group"]', (els) =>
    els.map((g) => ({
      key: g.dataset.group,
      title: g.querySelector('h3')?.textContent ?? '',
      titles: [...g.querySelectorAll('[data-testid="session-item"] .text')].map((e) => e.textContent),
    })),
  );
}

async function blurAll(page) {
  await page.evaluate(() => {
    (document.activeElement instanceof HTMLElement ? document.activeElement : null)?.blur();
  });
}

describe('layout: header, sidebar, drawer, starters, shortcuts', { timeout: 600_000 }, () => {
  let app = {};
  let page;
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, { prefix: 'layout', prepare });
    page = app.page;
  });

  after(() => closeApp(logs, app, 'layout-final.png', 'layout-'));

  it('groups the chat list by date', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('session-list').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-item"]').length >= 6, null, {
      timeout: 10_000,
    });
    const g = await groups(page);
    const keys = g.map((x) => x.key);
    assert.equal(keys[0], 'yesterday', JSON.stringify(g));
    assert.equal(keys[1], 'week', JSON.stringify(g));
    assert.deepEqual(g[0].titles, ['Kyoto trip ideas']);
    assert.deepEqual(g[1].titles, ['周末做饭的菜单', 'Fix the flaky test 🧪']);
    assert.equal(g[0].title, 'Yesterday');
    assert.equal(g[1].title, 'Previous 7 days');
    // Then one group a month, newest first.
    const months = g.slice(2);
    assert.ok(months.length >= 2, JSON.stringify(g));
    assert.ok(months.every((m) => m.key.startsWith('month:')), JSON.stringify(g));
    assert.deepEqual(
      months.map((m) => m.key),
      [...months.map((m) => m.key)].sort().reverse(),
    );
    assert.deepEqual(months.at(-1).titles, ['Garden watering schedule']);
  });

  it('offers starter prompts on the empty chat; one sends its message and the chat is Today', async () => {
    await page.getByTestId('new-session').click();
    await page.getByTestId('empty-chat').waitFor();
    const starters = page.getByTestId('starter');
    assert.equal(await starters.count(), 4);
    await starters.first().click();
    await page.waitForFunction(
      () => {
        const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
        return all.length === 1 && all[0].dataset.status !== 'streaming';
      },
      null,
      { timeout: 30_000 },
    );
    const user = await page.locator('[data-testid="message"][data-role="user"] [data-testid="message-body"]').textContent();
    assert.match(user, /large language model/);
    await page.waitForFunction(() => document.querySelector('[data-testid="session-group"]')?.dataset.group === 'today');
  });

  it('keeps pinned chats first, in their own group', async () => {
    const row = page.locator('[data-testid="session-row"]', { hasText: 'Garden watering schedule' });
    await row.hover();
    await row.getByTestId('session-menu').click();
    await page.getByTestId('session-menu-list').locator('[data-action="pin"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="session-group"]')?.dataset.group === 'pinned');
    const g = await groups(page);
    assert.deepEqual(g[0], { key: 'pinned', title: 'Pinned', titles: ['Garden watering schedule'] });
    assert.equal(g[1].key, 'today');
    await setLanguage(page, 'zh');
    const zh = await groups(page);
    assert.deepEqual(
      zh.slice(0, 4).map((x) => x.title),
      ['已置顶', '今天', '昨天', '过去 7 天'],
    );
    await setLanguage(page, 'en');
  });

  it('names every header button and gives it a tooltip, in English and Chinese; icons are SVG', async () => {
    const want = {
      en: { 'context-toggle': 'Context', 'memory-toggle': 'Memory', 'models-toggle': 'Models', 'knowledge-toggle': 'Knowledge', 'incognito-toggle': 'Incognito', 'header-menu': 'More' },
      zh: { 'context-toggle': '上下文', 'memory-toggle': '记忆', 'models-toggle': '模型', 'knowledge-toggle': '知识库', 'incognito-toggle': '无痕', 'header-menu': '更多' },
    };
    for (const l of ['en', 'zh']) {
      await setLanguage(page, l);
      const names = await headerNames(page);
      assert.ok(names.length >= 9, JSON.stringify(names));
      for (const n of names) {
        assert.ok(n.name && n.tip, `${l}: ${JSON.stringify(n)}`);
        // An icon, not a glyph or a word.
        assert.ok(n.svg && /^\d*$/.test(n.text), `${l}: ${JSON.stringify(n)}`);
      }
      const byId = Object.fromEntries(names.map((n) => [n.id, n.name]));
      for (const [id, name] of Object.entries(want[l])) assert.equal(byId[id], name, `${l} ${id}`);
    }
    await setLanguage(page, 'en');
  });

  it('fits the header in one row at 800, 1100 and 1280 px, in English and Chinese, with and without a panel', async () => {
    for (const l of ['en', 'zh']) {
      await setLanguage(page, l);
      for (const width of [800, 1100, 1280]) {
        await page.setViewportSize({ width, height: 700 });
        await sleep(100);
        await assertOneRow(page, `${l} ${width}px`);
        for (const p of PANELS) {
          await openPanel(page, p.toggle, p.panel);
          const g = await assertOneRow(page, `${l} ${width}px ${p.toggle}`);
          // The chat column is never squeezed: the panel floats over it when there is no room.
          assert.ok(g.width >= 460, `${l} ${width}px ${p.toggle}: header ${g.width} px wide`);
          // The header stays usable: its button closes the panel again.
          await page.getByTestId(p.toggle).click();
          await page.locator(p.panel).waitFor({ state: 'detached' });
        }
      }
    }
    await setLanguage(page, 'en');
  });

  it('collapses the sidebar with its button and Ctrl+B, and remembers it', async () => {
    await page.setViewportSize({ width: 1100, height: 700 });
    await waitSidebar(page, 'shown');
    assert.equal(await navVisible(page), true);
    const toggle = page.getByTestId('sidebar-toggle');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(await toggle.getAttribute('aria-label'), 'Hide the chat list (Ctrl+B)');
    await toggle.click();
    await waitSidebar(page, 'collapsed');
    assert.equal(await navVisible(page), false);
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    // The header offers New chat while the list is hidden.
    await page.getByTestId('header-new-chat').waitFor();
    await assertOneRow(page, 'collapsed');
    await page.reload();
    await page.getByTestId('status-bar').waitFor();
    await waitSidebar(page, 'collapsed');
    await page.keyboard.press('Control+b');
    await waitSidebar(page, 'shown');
    assert.equal(await navVisible(page), true);
    await page.keyboard.press('Control+b');
    await waitSidebar(page, 'collapsed');
    // Ctrl+K shows the list to reach its search box.
    await page.keyboard.press('Control+k');
    await waitSidebar(page, 'shown');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'session-search');
    await page.keyboard.press('Escape');
  });

  it('is a drawer over the chat below 700 px: button, backdrop, Esc and Ctrl+B', async () => {
    await page.setViewportSize({ width: 650, height: 700 });
    await waitSidebar(page, 'drawer-closed');
    assert.equal(await navVisible(page), false);
    await assertOneRow(page, '650px');
    const toggle = page.getByTestId('sidebar-toggle');
    assert.equal(await toggle.getAttribute('aria-label'), 'Open the chat list (Ctrl+B)');
    await toggle.click();
    await waitSidebar(page, 'drawer-open');
    assert.equal(await navVisible(page), true);
    await page.getByTestId('drawer-backdrop').waitFor();
    // Over the chat, not beside it: the chat keeps the whole width.
    const mainWidth = await page.evaluate(() => document.querySelector('main').getBoundingClientRect().width);
    assert.ok(mainWidth >= 640, `main is ${mainWidth} px`);
    // The drawer took the focus.
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'new-session');
    await page.keyboard.press('Escape');
    await waitSidebar(page, 'drawer-closed');
    assert.equal(await navVisible(page), false);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'sidebar-toggle');
    await page.keyboard.press('Control+b');
    await waitSidebar(page, 'drawer-open');
    await page.getByTestId('drawer-backdrop').click({ position: { x: 620, y: 300 } });
    await waitSidebar(page, 'drawer-closed');
    await page.keyboard.press('Control+b');
    await waitSidebar(page, 'drawer-open');
    await page.keyboard.press('Control+b');
    await waitSidebar(page, 'drawer-closed');
    // Choosing a chat closes the drawer.
    await toggle.click();
    await waitSidebar(page, 'drawer-open');
    await page.locator('[data-testid="session-item"]', { hasText: 'Kyoto trip ideas' }).click();
    await waitSidebar(page, 'drawer-closed');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length === 2);
  });

  it('opens the shortcut sheet with "?" outside a text field and from the ⋯ menu by keyboard', async () => {
    await page.setViewportSize({ width: 1100, height: 700 });
    // In the message box "?" is just a character.
    await page.getByTestId('composer').click();
    await page.keyboard.type('why?');
    assert.equal(await page.getByTestId('shortcut-sheet').count(), 0);
    assert.equal(await page.getByTestId('composer').inputValue(), 'why?');
    await page.getByTestId('composer').fill('');
    await blurAll(page);
    await page.keyboard.press('?');
    await page.getByTestId('shortcut-sheet').waitFor();
    assert.ok((await page.getByTestId('shortcut-row').count()) >= 8);
    await page.keyboard.press('Escape');
    await page.getByTestId('shortcut-sheet').waitFor({ state: 'detached' });

    // The ⋯ menu: ↓ opens it on the first item, arrows move, Enter chooses, Esc closes.
    await page.getByTestId('header-menu').focus();
    await page.keyboard.press('ArrowDown');
    await page.getByTestId('header-menu-list').waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.dataset.testid);
    assert.equal(await focused(), 'language-toggle');
    await page.keyboard.press('ArrowUp');
    assert.equal(await focused(), 'shortcuts-button');
    await page.keyboard.press('Escape');
    await page.getByTestId('header-menu-list').waitFor({ state: 'detached' });
    assert.equal(await focused(), 'header-menu');
    await page.keyboard.press('Enter');
    await page.getByTestId('header-menu-list').waitFor();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.getByTestId('shortcut-sheet').waitFor();
    await page.getByTestId('shortcut-sheet-close').click();
    await page.getByTestId('shortcut-sheet').waitFor({ state: 'detached' });
  });

  it('takes screenshots of each state in both languages and themes at three sizes', { skip: !wantShots }, async () => {
    mkdirSync(shotsDir, { recursive: true });
    await page.setViewportSize({ width: 1100, height: 700 });
    if ((await sidebarState(page)) === 'collapsed') await page.keyboard.press('Control+b');
    await waitSidebar(page, 'shown');
    const sizes = SHOT_SIZES;
    const snap = (name) => page.screenshot({ path: join(shotsDir, `${name}.png`) });
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const l of ['en', 'zh']) {
        await page.setViewportSize({ width: 1100, height: 700 });
        await setLanguage(page, l);
        for (const [w, h] of sizes) {
          const tag = `${l}-${scheme}-${w}x${h}`;
          await page.setViewportSize({ width: w, height: h });
          await closePanels(page);
          // Empty chat (an empty one already made is opened again rather than a new one made).
          const untitled = page.locator('[data-testid="session-item"]', { hasText: /Untitled chat|未命名对话/ });
          if ((await untitled.count()) > 0) await untitled.first().click();
          else await page.getByTestId('new-session').click();
          await page.getByTestId('empty-chat').waitFor();
          await blurAll(page);
          await sleep(250);
          await snap(`empty-${tag}`);
          // A chat with history, in the grouped list.
          await page.locator('[data-testid="session-item"]', { hasText: 'Kyoto trip ideas' }).click();
          await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length === 2);
          await blurAll(page);
          await sleep(250);
          await snap(`history-${tag}`);
          // A side panel.
          await openPanel(page, 'context-toggle', '#context-inspector');
          await sleep(400);
          await assertOneRow(page, `shot ${tag} panel`);
          await snap(`panel-${tag}`);
          await closePanels(page);
          // The ⋯ menu.
          await page.getByTestId('header-menu').click();
          await page.getByTestId('header-menu-list').waitFor();
          await sleep(150);
          await snap(`menu-${tag}`);
          await page.keyboard.press('Escape');
        }
        // The drawer at 650 px.
        await page.setViewportSize({ width: 650, height: 700 });
        await waitSidebar(page, 'drawer-closed');
        await page.getByTestId('sidebar-toggle').click();
        await waitSidebar(page, 'drawer-open');
        await snap(`drawer-${l}-${scheme}-650x700`);
        await page.keyboard.press('Escape');
        await waitSidebar(page, 'drawer-closed');
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1100, height: 700 });
    await setLanguage(page, 'en');
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
