// Browser end-to-end test of sub-agents: a message that asks for research is delegated by the
// (fake) main model to the built-in researcher, whose own loop calls session_search and answers;
// the reply shows the delegation as a thread (the researcher, its task, its session_search step,
// its answer) and then "Done: …". The thread comes back from the stored conversation after a
// reload; the context inspector switches to the researcher's channel; the Agents tab lists the
// built-ins, switches one off and keeps a refused form's text. Screenshots of the thread and of
// the Agents tab in English and Chinese, light and dark, at 800, 1100 and 1440 px.
//
//   npm run build && (cd .. && go tool task build) && node --test e2e/agents.e2e.test.mjs
//
// The fake model runs with --script tools (see backend/llm/llmtest/cmd/fake-ollama).
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeApp, lastAssistant, openApp, send, setLanguage, shot, sleep } from './harness.mjs';

const logs = {};

/** Clicks a header button, through the header's overflow menu when it is folded there. */
async function headerButton(page, testid) {
  const btn = page.getByTestId(testid);
  if (!(await btn.isVisible().catch(() => false))) {
    const menu = page.getByTestId('header-menu');
    if (await menu.isVisible().catch(() => false)) await menu.click();
  }
  await btn.click();
}

async function closePanel(page, testid, toggle) {
  if ((await page.getByTestId(testid).count()) > 0) await headerButton(page, toggle);
  await page.getByTestId(testid).waitFor({ state: 'detached', timeout: 5_000 });
}

/** Opens the activity panel on its Agents tab. */
async function openAgentsTab(page) {
  if ((await page.getByTestId('activity-panel').count()) === 0) await headerButton(page, 'activity-toggle');
  await page.getByTestId('activity-panel').waitFor();
  await page.getByTestId('activity-tab-agents').click();
  await page.getByTestId('agents-panel').waitFor();
  await page.locator('[data-testid="agent-item"][data-name="researcher"]').waitFor({ timeout: 10_000 });
}


/** The delegation of the newest reply, opened. */
async function openThread(page) {
  const thread = page.locator('[data-testid="message"][data-role="assistant"]').last().getByTestId('delegation');
  const toggle = thread.getByTestId('delegation-toggle');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await thread.getByTestId('delegation-answer').waitFor();
  return thread;
}

/**
 * The header stays one row (items overlap vertically, nothing wraps or sticks out) and the
 * thread, the agent cards and the tabs are not cut off.
 */
async function assertTidy(page, where) {
  const g = await page.evaluate(() => {
    const header = document.querySelector('[data-testid="header"]');
    const items = [...header.children].filter((e) => e.getBoundingClientRect().height > 0).map((e) => e.getBoundingClientRect());
    const ref = header.querySelector('[data-testid="context-toggle"]')?.getBoundingClientRect().height ?? 0;
    const buttons = [...header.querySelectorAll('button')].filter((b) => b.getClientRects().length > 0);
    const cut = [];
    for (const sel of ['[data-testid="delegation"] .summary', '[data-testid="agent-item"] .ahead', '.tabs']) {
      for (const el of document.querySelectorAll(sel)) if (el.scrollWidth > el.clientWidth + 1) cut.push(sel);
    }
    return {
      oneRow: Math.max(...items.map((r) => r.top)) < Math.min(...items.map((r) => r.bottom)),
      overflow: header.scrollWidth - header.clientWidth,
      tall: buttons.filter((b) => ref > 0 && b.getBoundingClientRect().height > ref + 2).map((b) => b.dataset.testid || b.textContent),
      cut,
    };
  });
  const msg = `${where}: ${JSON.stringify(g)}`;
  assert.ok(g.oneRow, `header on more than one row: ${msg}`);
  assert.ok(g.overflow <= 0, `header overflows: ${msg}`);
  assert.deepEqual(g.tall, [], `wrapped header buttons: ${msg}`);
  assert.deepEqual(g.cut, [], `content cut off: ${msg}`);
}

describe('sub-agents in the web UI', { timeout: 300_000 }, () => {
  let app = {};
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, { prefix: 'agents', tokenDelay: '20ms', fakeArgs: ['--script', 'tools'] });
  });

  after(() => closeApp(logs, app, 'agents-final.png', 'agents-'));

  it('delegates to the researcher: its thread shows live, then its step and answer; the reply uses it', async () => {
    const { page } = app;
    await send(page, 'research my invoices');
    const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
    const thread = reply.getByTestId('delegation');
    await thread.waitFor({ timeout: 20_000 });
    assert.equal(await thread.getAttribute('data-agent'), 'researcher');
    await page.waitForFunction(
      () => {
        const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
        return all[all.length - 1]?.dataset.status === 'ok';
      },
      null,
      { timeout: 30_000 },
    );
    const last = await lastAssistant(page);
    // "Done: " and the tool result: the researcher's answer (the fake repeats what it got).
    assert.match(last.text, /^Done: .*I found:/s);
    assert.equal(await thread.getAttribute('data-status'), 'done');
    // Folded once done, opened on demand (a button with aria-expanded).
    const toggle = thread.getByTestId('delegation-toggle');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.match(await toggle.getAttribute('aria-label'), /^Delegated to researcher: answered$/);
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(await thread.getByTestId('delegation-task').textContent(), 'research my invoices');
    const steps = thread.getByTestId('delegation-step');
    const tools = await thread.locator('[data-testid="delegation-step"] [data-testid="tool-card"]').evaluateAll((els) => els.map((e) => [e.dataset.tool, e.dataset.status]));
    assert.deepEqual(tools, [['session_search', 'ok']]);
    assert.ok((await steps.count()) >= 1);
    const answer = await thread.getByTestId('delegation-answer').textContent();
    assert.match(answer, /^I found:/);
    assert.match(answer, /"query"/, 'the answer quotes the session_search result');
    // The session_search card opens to show its query.
    await thread.getByTestId('tool-card-toggle').first().click();
    assert.deepEqual(JSON.parse(await thread.getByTestId('tool-card-args').textContent()), { query: 'invoice' });
    await thread.getByTestId('tool-card-toggle').first().click();
    await shot(page, 'agents-1-thread.png');
  });

  it('shows the thread again from the stored conversation', async () => {
    const { page } = app;
    await page.reload();
    await page.getByTestId('status-bar').waitFor();
    const thread = page.locator('[data-testid="message"][data-role="assistant"]').last().getByTestId('delegation');
    await thread.waitFor({ timeout: 10_000 });
    assert.equal(await thread.getAttribute('data-agent'), 'researcher');
    assert.equal(await thread.getAttribute('data-status'), 'done');
    await thread.getByTestId('delegation-toggle').click();
    const tools = await thread.locator('[data-testid="delegation-step"] [data-testid="tool-card"]').evaluateAll((els) => els.map((e) => e.dataset.tool));
    assert.deepEqual(tools, ['session_search']);
    assert.match(await thread.getByTestId('delegation-answer').textContent(), /^I found:/);
    // Only the conversation's own messages are shown.
    assert.equal(await page.locator('[data-testid="message"]').count(), 2);
  });

  it("switches the context inspector to the researcher's channel", async () => {
    const { page } = app;
    await headerButton(page, 'context-toggle');
    const select = page.getByTestId('context-channel');
    await select.waitFor({ timeout: 10_000 });
    const options = await select.locator('option').evaluateAll((els) => els.map((e) => e.value));
    assert.deepEqual(options, ['main', 'researcher']);
    await select.selectOption('researcher');
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="context-item"]')].some((e) => e.textContent.includes("Hermes' researcher")),
      null,
      { timeout: 10_000 },
    );
    assert.match(await page.getByTestId('context-channel-hint').textContent(), /researcher/);
    await select.selectOption('main');
    await page.waitForFunction(
      () => ![...document.querySelectorAll('[data-testid="context-item"]')].some((e) => e.textContent.includes("Hermes' researcher")),
      null,
      { timeout: 10_000 },
    );
    await closePanel(page, 'context-inspector', 'context-toggle');
  });

  it('lists the built-in agents in the Agents tab and switches the editor off', async () => {
    const { page } = app;
    await openAgentsTab(page);
    const names = await page.$$eval('[data-testid="agent-item"]', (els) => els.map((e) => e.dataset.name));
    assert.ok(names.includes('researcher') && names.includes('editor'), `agents: ${names}`);
    const researcher = page.locator('[data-testid="agent-item"][data-name="researcher"]');
    assert.equal(await researcher.getByTestId('agent-builtin').count(), 1);
    assert.match(await researcher.getByTestId('agent-tools').textContent(), /session_search/);
    assert.match(await page.getByTestId('agents-file').textContent(), /agents\.yaml/);
    const editor = page.locator('[data-testid="agent-item"][data-name="editor"]');
    assert.equal(await editor.getAttribute('data-disabled'), 'false');
    await editor.getByTestId('agent-switch').click();
    await page.locator('[data-testid="agent-item"][data-name="editor"][data-disabled="true"]').waitFor({ timeout: 10_000 });
    // It stays off when the list is read again from agents.yaml.
    await page.getByTestId('activity-refresh').click();
    await sleep(500);
    await page.locator('[data-testid="agent-item"][data-name="editor"][data-disabled="true"]').waitFor({ timeout: 10_000 });
    assert.equal(await editor.getByTestId('agent-switch').isChecked(), false);
    await shot(page, 'agents-2-tab.png');
  });

  it('keeps what was typed when a new agent is refused', async () => {
    const { page } = app;
    await page.getByTestId('agents-add').click();
    await page.getByTestId('agent-form-name').fill('Bad Name');
    await page.getByTestId('agent-form-description').fill('Checks facts.');
    await page.getByTestId('agent-form-system').fill('You check facts.\nCarefully.');
    await page.getByTestId('agent-form-tools').fill('session_search');
    await page.getByTestId('agent-form-save').click();
    const error = page.getByTestId('agent-form-error');
    await error.waitFor({ timeout: 10_000 });
    assert.match(await error.textContent(), /name/i);
    assert.equal(await page.getByTestId('agent-form-name').inputValue(), 'Bad Name');
    assert.equal(await page.getByTestId('agent-form-system').inputValue(), 'You check facts.\nCarefully.');
    await shot(page, 'agents-3-form-error.png');
    await page.getByTestId('agent-form-cancel').click();
    await page.getByTestId('agent-form').waitFor({ state: 'detached' });
  });

  it('takes screenshots of the thread and the Agents tab in both languages and themes at three sizes', async () => {
    const { page } = app;
    const sizes = [
      [800, 700],
      [1100, 760],
      [1440, 900],
    ];
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const l of ['en', 'zh']) {
        await page.setViewportSize({ width: 1100, height: 760 });
        await closePanel(page, 'activity-panel', 'activity-toggle');
        await setLanguage(page, l);
        for (const [w, h] of sizes) {
          const tag = `${l}-${scheme}-${w}`;
          await page.setViewportSize({ width: w, height: h });
          await closePanel(page, 'activity-panel', 'activity-toggle');
          const thread = await openThread(page);
          await thread.scrollIntoViewIfNeeded();
          await page.evaluate(() => document.activeElement?.blur());
          await sleep(200);
          await assertTidy(page, `thread ${tag}`);
          await shot(page, `agents-thread-${tag}.png`);
          await openAgentsTab(page);
          await page.evaluate(() => document.activeElement?.blur());
          await sleep(200);
          await assertTidy(page, `agents tab ${tag}`);
          await shot(page, `agents-tab-${tag}.png`);
        }
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1200, height: 800 });
    await setLanguage(page, 'en');
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
