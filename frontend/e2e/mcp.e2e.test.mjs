// Browser end-to-end test of the MCP panel: add the real server-everything through the form,
// approve its exact command, see it become ready with its tools, switch a tool off and see that
// the model is no longer offered it, restart / disable / enable, mcp.json problems, a prompt
// template put into the message box, the form's URL kind (a remote server's address, headers
// and approval), and the resources browser (preview a resource, attach it, send it). Runs `hermes serve` against the fake Ollama in its
// `--script tools --which-tools` mode: a message containing "which tools" is answered with the
// names of the tools offered in the request.
//
//   npm run build && (cd .. && build the Go binaries into build/bin) && npm run e2e
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM); EVERYTHING_SERVER
// overrides the path of server-everything's dist/index.js.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  approvalCodes,
  cleanup,
  closeApp,
  ensureArtifacts,
  lastAssistant,
  launch,
  menuItem,
  openApp,
  sendAndWait,
  shot,
  startFake,
  startHermes,
  tempDir,
  typeCode,
  useFakeModel,
} from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const EVERYTHING = resolve(
  process.env.EVERYTHING_SERVER ||
    join(here, '..', '..', 'backend', 'mcp', 'testdata', 'npm', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'),
);

const logs = {};
const server = (name) => `[data-testid="mcp-server"][data-name="${name}"]`;

/** Waits until the server's card shows state. */
async function waitState(page, name, state, timeout = 30_000) {
  await page.waitForSelector(`${server(name)}[data-state="${state}"] [data-testid="mcp-state"][data-state="${state}"]`, { timeout });
}

/** The names of the tools the fake model says it was offered, from its reply "Tools: a, b". */
async function offeredTools(page) {
  const reply = await sendAndWait(page, 'which tools can you use for this task?');
  assert.equal(reply.status, 'ok', `the question failed: ${reply.text}`);
  const m = /Tools:\s*(.*)$/s.exec(reply.text);
  assert.ok(m, `unexpected reply: ${reply.text}`);
  return m[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

async function openPanel(page) {
  if ((await page.getByTestId('mcp-toggle').getAttribute('aria-pressed')) !== 'true') await page.getByTestId('mcp-toggle').click();
  await page.getByTestId('mcp-panel').waitFor();
}

describe('MCP servers in the web UI', { timeout: 300_000 }, () => {
  let dataDir;
  let profileDir;
  let context;
  let page;
  const problems = [];

  before(async () => {
    assert.ok(existsSync(EVERYTHING), `${EVERYTHING} not found: install the MCP test servers (backend/mcp/testdata/npm)`);
    ({ dataDir, profileDir, context, page } = await openApp(logs, problems, { prefix: 'mcp', tokenDelay: '5ms', fakeArgs: ['--script', 'tools', '--which-tools'] }));
  });

  after(() => closeApp(logs, { page, context, dataDir, profileDir }, 'mcp-final.png', 'mcp-'));

  it('adds server-everything through the form, shows the exact command for approval, and starts it', async () => {
    await openPanel(page);
    await page.getByTestId('mcp-empty').waitFor();
    // The panel takes the focus.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'mcp-add');
    await page.getByTestId('mcp-add').click();
    await page.getByTestId('mcp-form').waitFor();

    // Mistakes are shown next to their fields, and nothing is sent.
    await page.getByTestId('mcp-field-timeout').fill('soon');
    await page.getByTestId('mcp-form-submit').click();
    await page.getByTestId('mcp-error-name').waitFor();
    assert.match(await page.getByTestId('mcp-error-command').textContent(), /Name the program/);
    assert.match(await page.getByTestId('mcp-error-timeout').textContent(), /soon/);
    await shot(page, 'mcp-1-form-errors.png');

    await page.getByTestId('mcp-field-name').fill('everything');
    await page.getByTestId('mcp-field-command').fill('node');
    await page.getByTestId('mcp-field-args').fill(`${EVERYTHING}\nstdio`);
    await page.getByTestId('mcp-field-env').fill('HERMES_E2E=yes');
    await page.getByTestId('mcp-field-timeout').fill('20s');
    await page.getByTestId('mcp-form-submit').click();

    const approve = page.getByTestId('mcp-approve');
    await approve.waitFor({ timeout: 10_000 });
    assert.equal(await page.getByTestId('mcp-approve-command').textContent(), `env HERMES_E2E=yes node ${EVERYTHING} stdio`);
    assert.deepEqual(await page.getByTestId('mcp-approve-env-name').allTextContents(), ['HERMES_E2E']);
    // Cancel has the focus; the server waits, not started.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'mcp-approve-cancel');
    await waitState(page, 'everything', 'awaiting approval', 5_000);
    await shot(page, 'mcp-2-approval.png');

    // Web mode: the page cannot approve a program on its own; the code is on serve's terminal.
    assert.match(await page.getByTestId('mcp-approve-code-hint').textContent(), /hermes serve/);
    const seen = approvalCodes(logs).length;
    await page.getByTestId('mcp-approve-ok').click();
    await page.getByTestId('mcp-approve-code').waitFor({ timeout: 10_000 });
    assert.match(logs.hermes, /to start the MCP server "everything": env HERMES_E2E=yes node /);
    await waitState(page, 'everything', 'awaiting approval', 5_000);
    await typeCode(page, logs, seen, 'mcp-approve-code');
    await approve.waitFor({ state: 'detached', timeout: 10_000 });
    await waitState(page, 'everything', 'ready');
    const card = page.locator(server('everything'));
    await card.locator('[data-testid="mcp-tool"][data-tool="echo"]').waitFor({ timeout: 10_000 });
    const tools = await card.locator('[data-testid="mcp-tool"]').evaluateAll((els) => els.map((e) => e.dataset.tool));
    assert.ok(tools.includes('echo') && tools.includes('get-sum'), `tools: ${tools}`);
    assert.equal(await card.locator('[data-testid="mcp-tool"][data-tool="echo"]').getAttribute('data-name'), 'everything__echo');
    assert.equal(await card.locator('[data-testid="mcp-tool"][data-tool="echo"]').getAttribute('data-enabled'), 'true');
    assert.match(await card.getByTestId('mcp-command').textContent(), /server-everything\/dist\/index\.js stdio$/);
    // The stderr tail opens as text.
    await card.getByTestId('mcp-stderr').locator('summary').click();
    assert.match(await card.getByTestId('mcp-stderr-text').textContent(), /STDIO/);
    await shot(page, 'mcp-3-ready.png');
  });

  it('shows no rug-pull banner for a server whose tools did not change', async () => {
    const card = page.locator(server('everything'));
    assert.equal(await card.getByTestId('mcp-rugpull').count(), 0);
    assert.equal(await card.locator('[data-testid="mcp-tool"][data-changed="true"]').count(), 0);
  });

  it('stops offering a tool to the model once it is switched off', async () => {
    const offered = await offeredTools(page);
    assert.ok(offered.includes('everything__echo'), `before: ${offered}`);
    assert.ok(offered.includes('everything__get-sum'), `before: ${offered}`);

    const echo = page.locator(`${server('everything')} [data-testid="mcp-tool"][data-tool="echo"]`);
    await echo.getByTestId('mcp-tool-toggle').click();
    await page.waitForSelector(`${server('everything')} [data-testid="mcp-tool"][data-tool="echo"][data-enabled="false"]`);
    assert.equal(await echo.getByTestId('mcp-tool-toggle').isChecked(), false);
    await shot(page, 'mcp-4-echo-off.png');

    const after = await offeredTools(page);
    assert.ok(!after.includes('everything__echo'), `after: ${after}`);
    assert.ok(after.includes('everything__get-sum'), `after: ${after}`);

    // The tools section of the settings agrees.
    await menuItem(page, 'settings-button');
    const row = page.locator('[data-testid="tool-setting"][data-tool="everything__echo"]');
    await row.waitFor({ timeout: 10_000 });
    assert.equal(await row.getAttribute('data-enabled'), 'false');
    assert.equal(await page.locator('[data-testid="tool-setting"][data-tool="everything__get-sum"]').getAttribute('data-enabled'), 'true');
    await page.getByTestId('settings-close').click();

    // Switched on again, it is offered again.
    await openPanel(page);
    await echo.getByTestId('mcp-tool-toggle').click();
    await page.waitForSelector(`${server('everything')} [data-testid="mcp-tool"][data-tool="echo"][data-enabled="true"]`);
    assert.ok((await offeredTools(page)).includes('everything__echo'));
  });

  it('restarts, disables and enables the server; the badge follows', async () => {
    await openPanel(page);
    const card = page.locator(server('everything'));
    // Record every state the badge shows.
    await page.evaluate((sel) => {
      const el = document.querySelector(sel);
      window.__mcpStates = [el.dataset.state];
      new MutationObserver(() => window.__mcpStates.push(el.dataset.state)).observe(el, { attributes: true, attributeFilter: ['data-state'] });
    }, server('everything'));
    const pid = await card.getByTestId('mcp-meta').textContent();

    await card.getByTestId('mcp-restart').click();
    await page.waitForFunction(() => window.__mcpStates.includes('starting'), null, { timeout: 15_000 });
    await waitState(page, 'everything', 'ready');
    assert.notEqual(await card.getByTestId('mcp-meta').textContent(), pid, 'a new process');

    await card.getByTestId('mcp-disable').click();
    await waitState(page, 'everything', 'disabled');
    await card.getByTestId('mcp-enable').waitFor();
    assert.equal(await card.getByTestId('mcp-restart').isDisabled(), true);
    await shot(page, 'mcp-5-disabled.png');
    assert.ok(!(await offeredTools(page)).some((n) => n.startsWith('everything__')), 'a disabled server offers no tools');

    await openPanel(page);
    await card.getByTestId('mcp-enable').click();
    await waitState(page, 'everything', 'ready');
    await card.getByTestId('mcp-disable').waitFor();
    const seen = await page.evaluate(() => window.__mcpStates);
    for (const s of ['ready', 'starting', 'disabled']) assert.ok(seen.includes(s), `states seen: ${seen}`);
    assert.equal(await card.getByTestId('mcp-rugpull').count(), 0);
  });

  it('puts a prompt template into the message box without sending it', async () => {
    const before = (await lastAssistant(page)).count;
    await page.getByTestId('templates-button').click();
    await page.getByTestId('templates-menu').waitFor();
    await page.locator('[data-testid="template-item"][data-name="args-prompt"]').click();
    await page.getByTestId('template-dialog').waitFor();
    assert.equal(await page.getByTestId('template-insert').isDisabled(), true);
    await page.locator('[data-testid="template-arg"][data-arg="city"]').fill('Paris');
    await shot(page, 'mcp-6-template.png');
    await page.keyboard.press('Enter');
    await page.getByTestId('template-dialog').waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(await page.getByTestId('composer').inputValue(), "What's weather in Paris?");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'composer');
    assert.equal((await lastAssistant(page)).count, before, 'nothing was sent');
    await page.getByTestId('composer').fill('');
  });

  it('adds a remote server with the URL kind: address, headers, and an approval that shows them', async () => {
    await openPanel(page);
    await page.getByTestId('mcp-add').click();
    await page.getByTestId('mcp-form').waitFor();
    // The kind switch is a radio group: the arrow keys move between the kinds.
    await page.getByTestId('mcp-kind-command').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getByTestId('mcp-kind-url').isChecked(), true);
    assert.equal(await page.getByTestId('mcp-field-command').count(), 0);
    assert.equal(await page.getByTestId('mcp-field-transport').inputValue(), 'http');

    // An internet host needs "Allow internet hosts"; nothing is sent before.
    await page.getByTestId('mcp-field-name').fill('remote');
    await page.getByTestId('mcp-field-url').fill('https://mcp.example.com/mcp');
    await page.getByTestId('mcp-form-submit').click();
    assert.match(await page.getByTestId('mcp-error-url').textContent(), /mcp\.example\.com is on the internet/);

    // A loopback address (nothing listens there: it is only added and shown, never approved).
    await page.getByTestId('mcp-field-url').fill('http://127.0.0.1:9/mcp');
    await page.getByTestId('mcp-header-add').click();
    await page.getByTestId('mcp-header-name').fill('Authorization');
    await page.getByTestId('mcp-header-value').fill('Bearer ${HERMES_E2E_TOKEN}');
    await shot(page, 'mcp-9-form-url.png');
    await page.getByTestId('mcp-form-submit').click();

    const approve = page.getByTestId('mcp-approve');
    await approve.waitFor({ timeout: 10_000 });
    assert.equal(await page.getByTestId('mcp-approve-url').textContent(), 'http://127.0.0.1:9/mcp');
    assert.deepEqual(await page.getByTestId('mcp-approve-header-name').allTextContents(), ['Authorization']);
    assert.ok(!(await approve.textContent()).includes('HERMES_E2E_TOKEN'), 'a header value is never shown');
    assert.equal(await page.getByTestId('mcp-approve-internet').count(), 0);
    const card = page.locator(server('remote'));
    await waitState(page, 'remote', 'awaiting approval', 5_000);
    assert.equal(await card.getByTestId('mcp-transport').textContent(), 'HTTP');
    assert.equal(await card.getByTestId('mcp-url').textContent(), 'http://127.0.0.1:9/mcp');
    const entry = JSON.parse(readFileSync(join(dataDir, 'mcp.json'), 'utf8')).mcpServers.remote;
    assert.deepEqual(entry, { url: 'http://127.0.0.1:9/mcp', type: 'http', headers: { Authorization: 'Bearer ${HERMES_E2E_TOKEN}' } });
    await shot(page, 'mcp-10-approve-url.png');

    // Cancel takes the new entry back.
    await page.getByTestId('mcp-approve-cancel').click();
    await approve.waitFor({ state: 'detached', timeout: 10_000 });
    await card.waitFor({ state: 'detached', timeout: 10_000 });
    assert.ok(!JSON.parse(readFileSync(join(dataDir, 'mcp.json'), 'utf8')).mcpServers.remote, 'the entry is gone from mcp.json');
  });

  it('previews a resource of server-everything and attaches it to the next message', async () => {
    await openPanel(page);
    const card = page.locator(server('everything'));
    await card.getByTestId('mcp-resources-toggle').click();
    const doc = card.locator('[data-testid="mcp-resource"][data-uri="demo://resource/static/document/architecture.md"]');
    await doc.waitFor({ timeout: 10_000 });
    assert.equal(await doc.getByTestId('mcp-resource-mime').textContent(), 'text/markdown');
    await doc.click();
    await card.getByTestId('mcp-resource-text').waitFor({ timeout: 10_000 });
    assert.match(await card.getByTestId('mcp-resource-text').textContent(), /# Everything Server/);
    await card.getByTestId('mcp-resource-attach').click();
    await card.getByTestId('mcp-resource-attached').waitFor();
    await shot(page, 'mcp-11-resource.png');

    // The chip in the composer; removing it takes it off the message.
    const chip = page.locator('[data-testid="attachment-chip"][data-uri="demo://resource/static/document/architecture.md"]');
    await chip.waitFor();
    await chip.getByTestId('attachment-remove').click();
    await chip.waitFor({ state: 'detached' });
    assert.equal(await card.getByTestId('mcp-resource-attach').count(), 1);
    await card.getByTestId('mcp-resource-attach').click();
    await chip.waitFor();

    // Sent: the model gets the resource's text in a <resource> block (the fake echoes it), and
    // the stored message shows the resource folded above the typed text.
    const reply = await sendAndWait(page, 'What are the main parts?');
    assert.equal(reply.status, 'ok', reply.text);
    assert.match(reply.text, /<resource server="everything" uri="demo:\/\/resource\/static\/document\/architecture\.md"/);
    assert.match(reply.text, /# Everything Server/);
    assert.equal(await page.getByTestId('attachment-chip').count(), 0, 'the chip goes with the message');
    const user = page.locator('[data-testid="message"][data-role="user"]').last();
    await user.getByTestId('message-resource').waitFor();
    assert.equal(await user.getByTestId('message-resource').getAttribute('data-uri'), 'demo://resource/static/document/architecture.md');
    assert.equal((await user.getByTestId('message-body').textContent()).trim(), 'What are the main parts?');
    await card.getByTestId('mcp-resource-close').click();
  });

  it('lists mistakes in mcp.json with line and column, and removes a server after confirmation', async () => {
    await openPanel(page);
    const file = join(dataDir, 'mcp.json');
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    cfg.mcpServers.broken = { command: 'node', timeout: 'soon' };
    const text = JSON.stringify(cfg, null, 2);
    writeFileSync(file, `${text}\n`);
    const line = text.split('\n').findIndex((l) => l.includes('"soon"')) + 1;

    // The file is watched: the entry appears as invalid and its problem is listed.
    await waitState(page, 'broken', 'invalid', 15_000);
    const problem = page.locator('[data-testid="mcp-problem"][data-server="broken"]');
    await problem.waitFor({ timeout: 10_000 });
    assert.equal(await problem.getAttribute('data-field'), 'timeout');
    assert.equal(await problem.getAttribute('data-line'), String(line));
    assert.match(await problem.textContent(), new RegExp(`mcp\\.json:${line}:\\d+`));
    assert.match(await problem.textContent(), /not a duration/);
    // The other server keeps running.
    await waitState(page, 'everything', 'ready', 5_000);
    await page.getByTestId('mcp-problems').scrollIntoViewIfNeeded();
    await shot(page, 'mcp-7-problems.png');

    const broken = page.locator(server('broken'));
    await broken.getByTestId('mcp-remove').click();
    await page.getByTestId('mcp-confirm-remove').waitFor();
    await page.getByTestId('mcp-remove-ok').click();
    await broken.waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByTestId('mcp-problems').waitFor({ state: 'detached', timeout: 10_000 });
    assert.ok(!JSON.parse(readFileSync(file, 'utf8')).mcpServers.broken, 'the entry is gone from mcp.json');
  });

  it('edits a server in the same form', async () => {
    const card = page.locator(server('everything'));
    await card.getByTestId('mcp-edit').click();
    await page.getByTestId('mcp-form').waitFor();
    assert.equal(await page.getByTestId('mcp-field-name').inputValue(), 'everything');
    assert.equal(await page.getByTestId('mcp-field-args').inputValue(), `${EVERYTHING}\nstdio`);
    assert.equal(await page.getByTestId('mcp-field-env').inputValue(), 'HERMES_E2E=yes');
    // A changed command needs a new approval; cancelling restores the entry as it was.
    await page.getByTestId('mcp-field-env').fill('HERMES_E2E=changed');
    await page.getByTestId('mcp-form-submit').click();
    await page.getByTestId('mcp-approve').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByTestId('mcp-approve-command').textContent(), `env HERMES_E2E=changed node ${EVERYTHING} stdio`);
    await page.getByTestId('mcp-approve-cancel').click();
    await page.getByTestId('mcp-approve').waitFor({ state: 'detached', timeout: 10_000 });
    await waitState(page, 'everything', 'ready');
    assert.match(await card.getByTestId('mcp-command').textContent(), /HERMES_E2E=yes/);
  });

  it('shows the panel in dark theme and in Chinese', async () => {
    await page.getByTestId('theme-toggle').click();
    await menuItem(page, 'language-toggle');
    const card = page.locator(server('everything'));
    assert.equal((await card.getByTestId('mcp-state').textContent()).trim(), '● 就绪');
    assert.equal((await card.getByTestId('mcp-restart').textContent()).trim(), '↻ 重启');
    await shot(page, 'mcp-8-dark-zh.png');
    await menuItem(page, 'language-toggle');
    await page.getByTestId('theme-toggle').click();
  });

  it('closes the panel with Esc', async () => {
    await page.getByTestId('mcp-add').focus();
    await page.keyboard.press('Escape');
    await page.getByTestId('mcp-panel').waitFor({ state: 'detached', timeout: 5_000 });
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
