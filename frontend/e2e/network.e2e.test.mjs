// Browser end-to-end test of network egress (issue 36, point 8): `hermes serve` with the fake
// Ollama (--script tools) and a tools.yaml whose HTTP tool `shout` points at a LAN address. A chat
// connects to the fake (made); offline_only is turned on in Settings, in the running window; the
// model's call of `shout` is then refused at the dialer before any packet; two command-line chats
// on the same data dir (other processes) are refused (an Ollama on the LAN) and fail (nothing
// listens on a loopback port). The Activity panel's Network tab, reached by the keyboard, lists
// all four with the host, the part, the outcome and why, the count and the time, with no serious
// axe violation in the panel, light or dark; then screenshots
// in English and Chinese, light and dark, at 800, 1100 and 1440 px into the artifacts folder's
// network/, each checked for a wrapped header, a clipped panel and a table wider than its list.
//
//   npm run build && (cd .. && go tool task build) && node --test e2e/network.e2e.test.mjs
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, binDir, closeApp, menuItem, openApp, sendAndWait, setLanguage, themedShots } from './harness.mjs';
import { axeViolations, formatViolations } from './axe.mjs';

const logs = {};
const LAN = '10.255.255.1';
const TOOLS_YAML = `version: 1
tools:
  - name: shout
    description: Sends a message to the loudspeaker on the LAN.
    parameters:
      type: object
      properties:
        text: {type: string}
      required: [text]
    auto_approve: true
    http: {method: GET, url: "http://${LAN}:9/say?text={{text}}"}
`;

/** Runs the hermes command line on the data dir; returns { status, stdout, stderr }. */
function hermes(dataDir, args, env = {}) {
  return spawnSync(join(binDir, 'hermes'), args, {
    env: { ...process.env, HERMES_DATA_DIR: dataDir, OLLAMA_HOST: 'http://127.0.0.1:9', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

/** Opens the activity panel and moves to its Network tab with the arrow keys. */
async function openNetworkTab(page) {
  if ((await page.getByTestId('activity-panel').count()) === 0) {
    const toggle = page.getByTestId('activity-toggle');
    if (!(await toggle.isVisible().catch(() => false))) await page.getByTestId('header-menu').click();
    await toggle.click();
  }
  await page.getByTestId('activity-panel').waitFor();
  if ((await page.getByTestId('activity-tab-network').getAttribute('aria-selected')) !== 'true') {
    await page.getByTestId('activity-tab-calls').focus();
    await page.keyboard.press('ArrowLeft'); // wraps to the last tab: Network
  }
  await page.getByTestId('network-panel').waitFor();
}

/** The rows of the Network tab as the page shows them. */
async function rows(page) {
  return page.$$eval('[data-testid="network-row"]', (els) =>
    els.map((r) => ({ part: r.dataset.part, host: r.dataset.host, outcome: r.dataset.outcome, text: r.textContent.replace(/\s+/g, ' ').trim() })),
  );
}

/** No header cell or tab wraps, the panel is inside the window, the table fits its list. */
async function assertTidy(page, where) {
  const g = await page.evaluate(() => {
    const panel = document.querySelector('[data-testid="activity-panel"]').getBoundingClientRect();
    const list = document.querySelector('[data-testid="network-list"]');
    const table = document.querySelector('[data-testid="network-table"]');
    const lineOf = (el) => parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.4;
    const tall = [...document.querySelectorAll('[data-testid="network-table"] th, [role="tab"]')]
      .filter((el) => el.getBoundingClientRect().height > lineOf(el) * 1.6 + 12)
      .map((el) => el.textContent.trim());
    const cut = [...document.querySelectorAll('[data-testid="network-table"] th')].filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent.trim());
    return {
      inside: panel.left >= -1 && panel.right <= window.innerWidth + 1 && panel.top >= -1,
      fits: table.scrollWidth <= list.clientWidth + 1,
      tall,
      cut,
      width: window.innerWidth,
    };
  });
  assert.ok(g.inside, `${where}: the activity panel sticks out of the window`);
  assert.ok(g.fits, `${where}: the network table is wider than its list`);
  assert.deepEqual(g.tall, [], `${where}: wrapped header cells or tabs`);
  assert.deepEqual(g.cut, [], `${where}: clipped header cells`);
}

describe('network egress in the activity panel', { timeout: 300_000 }, () => {
  let app = {};
  let page;
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, {
      prefix: 'network',
      fakeArgs: ['--script', 'tools'],
      prepare: (dataDir) => {
        writeFileSync(join(dataDir, 'tools.yaml'), TOOLS_YAML);
        const r = hermes(dataDir, ['settings', 'set', 'manage_ollama', 'never']); // never start an ollama for the CLI chats below
        assert.equal(r.status, 0, `settings set: ${r.stderr}`);
      },
    });
    page = app.page;
  });

  after(() => closeApp(logs, app, 'network-e2e-final.png', 'network-'));

  it('lists connections made, refused by offline_only (turned on in the window) and failed', async () => {
    assert.equal((await sendAndWait(page, 'hello there')).status, 'ok');

    await menuItem(page, 'settings-button');
    // Settings → Privacy: a checkbox, saved as it changes.
    const setting = page.locator('[data-testid="form-setting"][data-key="offline_only"]');
    await setting.getByRole('checkbox', { name: 'Offline only' }).check();
    await setting.getByText('Saved').waitFor({ timeout: 10_000 });
    await page.getByTestId('settings-close').click();

    const started = Date.now();
    const reply = await sendAndWait(page, 'please shout hi to the office');
    assert.ok(Date.now() - started < 20_000, 'the refused tool call took long: it must be refused before any packet');
    assert.match(reply.text, /offline_only is on/, `the tool's refusal reaches the reply: ${reply.text}`);

    const lan = hermes(app.dataDir, ['chat', 'hi'], { OLLAMA_HOST: `http://${LAN}:11434` });
    assert.equal(lan.status, 1, `chat to a LAN Ollama: ${lan.stdout}${lan.stderr}`);
    assert.match(lan.stderr, /10\.255\.255\.1:11434 refused: offline_only is on, so Hermes connects only to this computer; turn it off in Settings → Privacy → Offline only, or run `hermes settings set offline_only false`/);
    const dead = hermes(app.dataDir, ['chat', 'hi'], { OLLAMA_HOST: 'http://127.0.0.1:9' });
    assert.equal(dead.status, 1, `chat to a closed port: ${dead.stdout}${dead.stderr}`);

    await openNetworkTab(page);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'activity-tab-network');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'network-list', 'Tab moves into the list');
    await page.getByTestId('activity-refresh').click(); // the CLI's records, written by other processes
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="network-row"]').length >= 4, null, { timeout: 10_000 });
    const list = await rows(page);
    const find = (part, host, outcome) => list.find((r) => r.part === part && r.host === host && r.outcome === outcome);
    assert.ok(find('ollama', '127.0.0.1', 'made'), `ollama made: ${JSON.stringify(list)}`);
    const tool = find('tool:shout', LAN, 'refused');
    assert.ok(tool && /Tool shout/.test(tool.text) && /offline only/.test(tool.text), `tool refused: ${JSON.stringify(list)}`);
    const lanRow = find('ollama', LAN, 'refused');
    assert.ok(lanRow && /offline only/.test(lanRow.text) && lanRow.text.includes(`${LAN}:11434`), `ollama refused: ${JSON.stringify(list)}`);
    const deadRow = find('ollama', '127.0.0.1', 'failed');
    assert.ok(deadRow && /nothing listening/.test(deadRow.text) && deadRow.text.includes('127.0.0.1:9'), `ollama failed: ${JSON.stringify(list)}`);
    assert.equal(await page.getByTestId('network-offline').getAttribute('data-on'), 'true');
    assert.match(await page.getByTestId('network-offline').textContent(), /Offline only is on/);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      const v = await axeViolations(page, { include: '[data-testid="activity-panel"]' });
      assert.deepEqual(v, [], `axe (${scheme}) found:\n${formatViolations(v)}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('takes screenshots in English and Chinese, light and dark, at three widths', async () => {
    const dir = join(artifacts, 'network');
    for (const lang of ['en', 'zh']) {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1100, height: 700 });
      await setLanguage(page, lang);
      await openNetworkTab(page);
      if (lang === 'zh') await page.getByText('已拒绝').first().waitFor();
      await themedShots(page, dir, 'network', lang, {
        settle: 250,
        each: async (p) => {
          await openNetworkTab(p);
          await p.evaluate(() => document.activeElement?.blur());
          await assertTidy(p, `${lang} ${await p.evaluate(() => window.innerWidth)}px`);
        },
      });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1200, height: 800 });
    await setLanguage(page, 'en');
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
