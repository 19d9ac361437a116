// Browser end-to-end test of the tools UI: the approval dialog, tool cards, the activity view,
// the loop-stopped card with "continue once", the unverified-claim warning and the tools section
// of the settings. Runs `hermes serve` with a tools.yaml declaring a `shout` command tool, against
// the fake Ollama in its `--script tools` mode.
//
//   npm run build && (cd .. && build the Go binaries into build/bin) && npm run e2e
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approvalCodes,
  cleanup,
  closeApp,
  ensureArtifacts,
  lastAssistant,
  launch,
  menuItem,
  openApp,
  send,
  shot,
  sleep,
  startFake,
  startHermes,
  tempDir,
  typeCode,
  useFakeModel,
  waitForCode,
} from './harness.mjs';

const logs = {};

const TOOLS_YAML = `version: 1
tools:
  - name: shout
    description: Print a message on the console.
    parameters:
      type: object
      properties:
        text: {type: string}
      required: [text]
    command:
      argv: [/bin/echo, "{{text}}"]
`;

const assistants = '[data-testid="message"][data-role="assistant"]';

/** Waits until the newest assistant message (beyond `count` of them) has finished. */
async function waitReply(page, count, timeout = 30_000) {
  await page.waitForFunction(
    ({ sel, n }) => {
      const all = document.querySelectorAll(sel);
      const el = all[all.length - 1];
      return all.length > n && el && el.dataset.status !== 'streaming';
    },
    { sel: assistants, n: count },
    { timeout },
  );
  return lastAssistant(page);
}

/** The tool cards of the newest assistant message. */
async function lastCards(page) {
  return page.$$eval(assistants, (els) => {
    const el = els[els.length - 1];
    return [...(el?.querySelectorAll('[data-testid="tool-card"]') ?? [])].map((c) => ({
      tool: c.dataset.tool,
      status: c.dataset.status,
    }));
  });
}

/** The intent chip of the newest user message (a failing scenario is often a wrong intent). */
async function lastIntent(page) {
  return page.$$eval('[data-testid="message"][data-role="user"]', (els) => {
    const el = els[els.length - 1];
    return el?.querySelector('[data-testid="intent-chip"]')?.dataset.intent ?? '';
  });
}

async function openActivity(page) {
  if ((await page.getByTestId('activity-toggle').getAttribute('aria-pressed')) !== 'true') {
    await page.getByTestId('activity-toggle').click();
  }
  await page.getByTestId('activity-panel').waitFor();
}

/** Activity rows currently shown: [{tool, status}], newest first. */
async function activityRows(page) {
  return page.$$eval('[data-testid="activity-row"]', (els) => els.map((r) => ({ tool: r.dataset.tool, status: r.dataset.status })));
}

describe('tools in the web UI', { timeout: 240_000 }, () => {
  let dataDir;
  let profileDir;
  let context;
  let page;
  const problems = [];

  before(async () => {
    ({ dataDir, profileDir, context, page } = await openApp(logs, problems, { prefix: 'tools', tokenDelay: '25ms', fakeArgs: ['--script', 'tools'], prepare: (dir) => writeFileSync(join(dir, 'tools.yaml'), TOOLS_YAML) }));
  });

  after(() => closeApp(logs, { page, context, dataDir, profileDir }, 'tools-final.png', 'tools-'));

  it('asks before running a command tool, shows the full arguments, and runs it once allowed', async () => {
    const before = (await lastAssistant(page)).count;
    const text = 'please run the shout tool: hello';
    await send(page, text);
    const dialog = page.getByTestId('approval-dialog');
    await dialog.waitFor({ timeout: 20_000 });
    assert.equal((await page.getByTestId('approval-tool').textContent()).trim(), 'shout');
    assert.equal((await page.getByTestId('approval-description').textContent()).trim(), 'Print a message on the console.');
    assert.match(await page.getByTestId('approval-why').textContent(), /runs a program/);
    const args = JSON.parse(await page.getByTestId('approval-args').textContent());
    assert.deepEqual(args, { text });
    // Deny has the focus by default.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'approval-deny');
    // While it waits, the reply is still streaming.
    assert.equal((await lastAssistant(page)).status, 'streaming');
    await shot(page, 'tools-1-approval.png');

    // Web mode: allowing a program needs the code printed on serve's terminal.
    assert.match(await page.getByTestId('approval-code-hint').textContent(), /hermes serve/);
    const seen = approvalCodes(logs).length;
    await page.getByTestId('approval-once').click();
    await page.getByTestId('approval-code').waitFor({ timeout: 10_000 });
    assert.equal(await dialog.count(), 1, 'the dialog stays open until the code is typed');
    assert.match(logs.hermes, /to let the tool "shout" run its program with /);
    await typeCode(page, logs, seen, 'approval-code');
    const reply = await waitReply(page, before);
    // The chip arrives with the stored message; a scenario fails when the intent is not task.
    assert.equal(await lastIntent(page), 'task', 'the message should be classified as a task');
    assert.equal(await dialog.count(), 0, 'the dialog closes');
    assert.equal(reply.status, 'ok');
    assert.match(reply.text, /^Done: /);
    assert.match(reply.text, /please run the shout tool: hello/);
    assert.deepEqual(await lastCards(page), [{ tool: 'shout', status: 'ok' }]);

    // The card opens to show the arguments and the result as text.
    const card = page.locator(assistants).last().getByTestId('tool-card');
    await card.getByTestId('tool-card-toggle').click();
    assert.deepEqual(JSON.parse(await card.getByTestId('tool-card-args').textContent()), { text });
    assert.match(await card.getByTestId('tool-card-result').textContent(), /please run the shout tool: hello/);
    await shot(page, 'tools-2-allowed.png');

    await openActivity(page);
    await page.waitForFunction(() => document.querySelector('[data-testid="activity-row"][data-tool="shout"]'), null, {
      timeout: 10_000,
    });
    const rows = await activityRows(page);
    assert.deepEqual(rows[0], { tool: 'shout', status: 'ok' });
    await page.locator('[data-testid="activity-row"][data-tool="shout"]').first().getByTestId('activity-expand').click();
    assert.deepEqual(JSON.parse(await page.getByTestId('activity-args').first().textContent()), { text });
    await shot(page, 'tools-3-activity.png');
  });

  it('returns a denial to the model; the card and the activity row say denied', async () => {
    const before = (await lastAssistant(page)).count;
    const rowsBefore = (await activityRows(page)).length;
    await send(page, 'please run the shout tool: goodbye');
    await page.getByTestId('approval-dialog').waitFor({ timeout: 20_000 });
    // Esc denies (the focus is on Deny).
    await page.keyboard.press('Escape');
    const reply = await waitReply(page, before);
    assert.equal(await page.getByTestId('approval-dialog').count(), 0);
    assert.equal(reply.status, 'ok', 'a denial is a result, not a failed turn');
    assert.deepEqual(await lastCards(page), [{ tool: 'shout', status: 'denied' }]);
    // The activity panel, still open, refreshes after the turn.
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="activity-row"]').length > n, rowsBefore, {
      timeout: 10_000,
    });
    assert.deepEqual((await activityRows(page))[0], { tool: 'shout', status: 'denied' });
    // The status filter narrows the list.
    await page.getByTestId('activity-filter-status').selectOption('denied');
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-testid="activity-row"]')];
      return rows.length > 0 && rows.every((r) => r.dataset.status === 'denied');
    });
    await page.getByTestId('activity-filter-status').selectOption('');
    await shot(page, 'tools-4-denied.png');
  });

  it('shows the loop-stopped card and continues once with a new streamed reply', async () => {
    // Esc inside the panel closes it.
    await page.getByTestId('activity-filter-tool').focus();
    await page.keyboard.press('Escape');
    await page.getByTestId('activity-panel').waitFor({ state: 'detached', timeout: 5_000 });
    const before = (await lastAssistant(page)).count;
    await send(page, 'please calculate in a loop');
    await page.locator(assistants).nth(before).getByTestId('loop-stopped').waitFor({ timeout: 30_000 });
    const first = await waitReply(page, before);
    assert.equal(first.status, 'ok');
    const cards = await lastCards(page);
    assert.ok(cards.length >= 3, `expected the repeated calls as cards, got ${JSON.stringify(cards)}`);
    assert.deepEqual(
      cards.slice(0, 3).map((c) => c.status),
      ['ok', 'ok', 'ok'],
    );
    assert.ok(cards.some((c) => c.status === 'blocked'), 'the repeated call is blocked');
    const stopped = page.locator(assistants).last().getByTestId('loop-stopped');
    assert.match(await stopped.textContent(), /tool/i);
    await shot(page, 'tools-5-loop-stopped.png');

    await stopped.getByTestId('continue-once').click();
    // A new reply appears and streams.
    let sawStreaming = false;
    const deadline = Date.now() + 30_000;
    let last;
    while (Date.now() < deadline) {
      last = await lastAssistant(page);
      if (last.count > before + 1) {
        if (last.status === 'streaming' && last.text.length > 0) sawStreaming = true;
        if (last.status !== 'streaming') break;
      }
      await sleep(15);
    }
    assert.ok(last.count > before + 1, 'a new reply was added');
    assert.ok(sawStreaming, 'the continued reply streamed');
    assert.equal(last.status, 'ok');
    assert.match(last.text, /Calculating/);
    assert.ok((await lastCards(page)).length >= 1, 'the continued reply made a tool call');
    // The older card has no button any more; the newest one (stopped again) does.
    assert.equal(await page.locator(assistants).nth(before).getByTestId('continue-once').count(), 0);
    await shot(page, 'tools-6-continued.png');
  });

  it('warns when a reply claims an action no tool performed', async () => {
    const before = (await lastAssistant(page)).count;
    await send(page, 'I have saved the report');
    await waitReply(page, before);
    const warn = page.locator(assistants).last().getByTestId('unverified-warning');
    await warn.waitFor({ timeout: 5_000 });
    assert.match(await warn.textContent(), /no tool ran/);
  });

  it('shows the same cards, arguments, loop stop and warning after a reload', async () => {
    const live = (await lastAssistant(page)).count;
    await page.reload();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="message"][data-role="assistant"]').length === n, live, {
      timeout: 10_000,
    });
    const ok = page.locator('[data-testid="tool-card"][data-tool="shout"][data-status="ok"]').first();
    await ok.getByTestId('tool-card-toggle').click();
    assert.deepEqual(JSON.parse(await ok.getByTestId('tool-card-args').textContent()), { text: 'please run the shout tool: hello' });
    assert.match(await ok.getByTestId('tool-card-result').textContent(), /please run the shout tool: hello/);
    assert.equal(await page.locator('[data-testid="tool-card"][data-tool="shout"][data-status="denied"]').count(), 1);
    assert.ok((await page.locator('[data-testid="tool-card"][data-status="blocked"]').count()) >= 1, 'the blocked repeat keeps its status');
    assert.ok((await page.getByTestId('loop-stopped').count()) >= 1, 'the loop-stopped card is back');
    await page.locator(assistants).last().getByTestId('unverified-warning').waitFor({ timeout: 5_000 });
    await shot(page, 'tools-7-reloaded.png');
  });

  it('lists the tools in the settings with their approval need and breaker state', async () => {
    await menuItem(page, 'settings-button');
    const shout = page.locator('[data-testid="tool-setting"][data-tool="shout"]');
    await shout.waitFor({ timeout: 10_000 });
    assert.match(await shout.getByTestId('tool-approval').textContent(), /runs a program/);
    assert.equal(await shout.getAttribute('data-breaker'), 'closed');
    const calc = page.locator('[data-testid="tool-setting"][data-tool="calculator"]');
    assert.match(await calc.getByTestId('tool-approval').textContent(), /without asking/);
    // Switch calculator off and on again.
    const sw = calc.getByTestId('tool-enabled');
    await sw.click();
    await page.waitForSelector('[data-testid="tool-setting"][data-tool="calculator"][data-enabled="false"]');
    await sw.click();
    await page.waitForSelector('[data-testid="tool-setting"][data-tool="calculator"][data-enabled="true"]');
    await page.getByTestId('settings-tools').scrollIntoViewIfNeeded();
    await shot(page, 'tools-7-settings.png');
    // tools.yaml is watched: a tool added while Hermes runs is listed within seconds, no restart.
    writeFileSync(join(dataDir, 'tools.yaml'), TOOLS_YAML + `  - name: whisper
    description: Print a message quietly.
    parameters: {type: object, properties: {text: {type: string}}, required: [text]}
    command:
      argv: [/bin/echo, "{{text}}"]
`);
    await page.locator('[data-testid="tool-setting"][data-tool="whisper"]').waitFor({ timeout: 10_000 });
    writeFileSync(join(dataDir, 'tools.yaml'), TOOLS_YAML);
    await page.locator('[data-testid="tool-setting"][data-tool="whisper"]').waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByTestId('settings-close').click();
  });

  it('shows the approval dialog in dark theme and in Chinese', async () => {
    await page.getByTestId('theme-toggle').click();
    await menuItem(page, 'language-toggle');
    const before = (await lastAssistant(page)).count;
    await send(page, 'please run the shout tool: 你好 <b>not bold</b>');
    await page.getByTestId('approval-dialog').waitFor({ timeout: 20_000 });
    assert.equal((await page.getByTestId('approval-deny').textContent()).trim(), '拒绝');
    assert.equal(await page.locator('[data-testid="approval-args"] b').count(), 0);
    await shot(page, 'tools-8-approval-dark-zh.png');
    // Tab moves from Deny to "Allow once"; Enter presses it.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'approval-once');
    const seen = approvalCodes(logs).length;
    await page.keyboard.press('Enter');
    // The code field takes the focus; a wrong code is refused and says so, in Chinese.
    await page.getByTestId('approval-code').waitFor({ timeout: 10_000 });
    const code = await waitForCode(logs, seen);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'approval-code');
    await page.getByTestId('approval-code').fill(code === '000000' ? '111111' : '000000');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="approval-code-field"][data-reason="wrong"]', { timeout: 10_000 });
    assert.match(await page.getByTestId('approval-code-message').textContent(), /验证码不对/);
    await shot(page, 'tools-9-approval-code-dark-zh.png');
    await page.getByTestId('approval-code').fill(code);
    await page.keyboard.press('Enter');
    const reply = await waitReply(page, before);
    assert.match(reply.text, /^Done: /);
    assert.deepEqual(await lastCards(page), [{ tool: 'shout', status: 'ok' }]);
    await menuItem(page, 'language-toggle');
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
