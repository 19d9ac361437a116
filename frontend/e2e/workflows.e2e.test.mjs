// Browser end-to-end test of the workflows UI: the Workflows tab of the activity panel (the
// workflows of workflows.yaml and a mistake in it by line, the Run form made from the inputs
// schema), a run started there with its command tools approved one by one (web mode: with the
// one-time code printed by `hermes serve`), its run card going from running to done, and a run
// that fails showing Resume. Runs `hermes serve` with a tools.yaml of two /bin programs (one
// prints, one sleeps a second) and a workflows.yaml that uses them.
//
//   npm run build && (cd .. && go tool task build) && node --test e2e/workflows.e2e.test.mjs
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
  launch,
  openApp,
  shot,
  startFake,
  startHermes,
  tempDir,
  typeCode,
  useFakeModel,
  waitForCode,
} from './harness.mjs';

const logs = {};

export const TOOLS_YAML = `version: 1
tools:
  - name: say
    description: Print a text.
    parameters:
      type: object
      properties:
        text: {type: string}
      required: [text]
    command:
      argv: [/bin/echo, "{{text}}"]
  - name: nap
    description: Wait a number of seconds.
    parameters:
      type: object
      properties:
        seconds: {type: string, pattern: "^[0-9]+$"}
      required: [seconds]
    timeout: 5m
    command:
      argv: [/bin/sleep, "{{seconds}}"]
  - name: fail
    description: Always fails.
    parameters: {type: object, properties: {}}
    command:
      argv: [/bin/false]
`;

export const WORKFLOWS_YAML = `version: 1
workflows:
  - name: greet
    description: Look a name up, wait a second, then say hello.
    inputs:
      type: object
      properties:
        name: {type: string, title: Name, description: Who to greet.}
        times: {type: integer, minimum: 1, maximum: 3}
        loud: {type: boolean}
      required: [name]
    phases:
      - name: lookup
        steps:
          - {id: find, tool: say, args: {text: '{"found": true, "name": "{{inputs.name}}"}'}}
      - name: pause
        steps:
          - {id: wait, tool: nap, args: {seconds: "1"}}
      - name: reply
        steps:
          - {id: hello, tool: say, args: {text: "hello {{steps.find.result.name}}"}}
  - name: doomed
    description: A check that fails.
    phases:
      - name: check
        steps:
          - {id: probe, tool: fail, args: {}}
      - name: after
        steps:
          - {id: never, tool: say, args: {text: "not reached"}}
  - name: slow
    description: Waits as long as asked.
    inputs: {type: object, properties: {seconds: {type: string}}, required: [seconds]}
    phases:
      - name: only
        steps:
          - {id: sleep, tool: nap, args: {seconds: "{{inputs.seconds}}"}}
  - name: broken
    description: Names a tool that does not exist.
    phases:
      - name: only
        steps:
          - {id: x, tool: no_such_tool, args: {}}
`;

/** Writes the two files into a data dir (the screenshot script uses it too). */
export function prepareWorkflows(dir, extraWorkflows = '') {
  writeFileSync(join(dir, 'tools.yaml'), TOOLS_YAML);
  writeFileSync(join(dir, 'workflows.yaml'), WORKFLOWS_YAML + extraWorkflows);
}

/** Clicks a header button, through the header's overflow menu when it is folded there. */
export async function headerButton(page, testid) {
  const btn = page.getByTestId(testid);
  if (!(await btn.isVisible().catch(() => false))) {
    const menu = page.getByTestId('header-menu');
    if (await menu.isVisible().catch(() => false)) await menu.click();
  }
  await btn.click();
}

/** Opens the activity panel on its Workflows tab. */
export async function openWorkflowsTab(page) {
  if ((await page.getByTestId('activity-panel').count()) === 0) await headerButton(page, 'activity-toggle');
  await page.getByTestId('activity-panel').waitFor();
  await page.getByTestId('activity-tab-workflows').click();
  await page.getByTestId('wf-panel').waitFor();
}

/**
 * Allows `count` command-tool prompts in turn, each with the one-time code `hermes serve`
 * prints (web mode).
 */
export async function approveSteps(page, logs, count, tools = []) {
  for (let i = 0; i < count; i++) {
    const dialog = page.getByTestId('approval-dialog');
    await dialog.waitFor({ timeout: 20_000 });
    const tool = (await page.getByTestId('approval-tool').textContent()).trim();
    tools.push(tool);
    const seen = approvalCodes(logs).length;
    await page.getByTestId('approval-once').click();
    await typeCode(page, logs, seen, 'approval-code');
    await page.waitForFunction(
      (t) => {
        const d = document.querySelector('[data-testid="approval-dialog"]');
        return !d || d.querySelector('[data-testid="approval-tool"]')?.textContent?.trim() !== t || !d.querySelector('[data-testid="approval-code"]');
      },
      tool,
      { timeout: 10_000 },
    );
    await page.getByTestId('approval-dialog').waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
  }
  return tools;
}

/** Runs a workflow from its form in the Workflows tab; fill maps field names to values. */
export async function runFromForm(page, name, fill = {}) {
  const item = page.locator(`[data-testid="wf-item"][data-name="${name}"]`);
  if ((await item.getByTestId('wf-form').count()) === 0) await item.getByTestId('wf-open-form').click();
  const form = item.getByTestId('wf-form');
  for (const [field, value] of Object.entries(fill)) {
    const el = form.locator(`[data-field="${field}"]`);
    if (typeof value === 'boolean') await el.setChecked(value);
    else await el.fill(value);
  }
  await form.getByTestId('wf-form-run').click();
}

describe('workflows in the web UI', { timeout: 240_000 }, () => {
  let app = {};
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, { prefix: 'workflows', prepare: (dir) => prepareWorkflows(dir) });
  });

  after(() => closeApp(logs, app, 'workflows-final.png', 'workflows-'));

  it('lists the workflows and the mistake in workflows.yaml by line', async () => {
    const { page } = app;
    await openWorkflowsTab(page);
    await page.locator('[data-testid="wf-item"][data-name="greet"]').waitFor({ timeout: 10_000 });
    const names = await page.$$eval('[data-testid="wf-item"]', (els) => els.map((e) => e.dataset.name));
    assert.deepEqual(names, ['doomed', 'greet', 'slow'], 'the broken workflow is left out');
    const problem = page.getByTestId('wf-problem');
    assert.equal(await problem.count(), 1);
    // The line of the step that names the unknown tool.
    const line = WORKFLOWS_YAML.split('\n').findIndex((l) => l.includes('no_such_tool')) + 1;
    assert.equal(await problem.getAttribute('data-line'), String(line));
    assert.match(await problem.textContent(), new RegExp(`workflows\\.yaml, line ${line}\\b`));
    assert.match(await problem.textContent(), /no_such_tool/);
    assert.equal(await page.getByTestId('wf-runs-none').count(), 1);
    await shot(page, 'workflows-0-problems.png');
  });

  it('makes the Run form from the inputs schema and checks it before running', async () => {
    const { page } = app;
    const item = page.locator('[data-testid="wf-item"][data-name="greet"]');
    await item.getByTestId('wf-open-form').click();
    const fields = await item.locator('[data-testid="wf-field"]').evaluateAll((els) => els.map((e) => [e.dataset.name, e.dataset.kind]));
    // Required fields first.
    assert.deepEqual(fields, [
      ['name', 'string'],
      ['loud', 'boolean'],
      ['times', 'integer'],
    ]);
    await item.getByTestId('wf-form-run').click();
    assert.equal(await item.getByTestId('wf-field-problem').textContent(), 'Fill this in.');
    await item.locator('[data-field="times"]').fill('9');
    await item.locator('[data-field="name"]').fill('Ada');
    assert.equal(await item.getByTestId('wf-field-problem').textContent(), 'At most 3.');
    await item.locator('[data-field="times"]').fill('2');
    assert.equal(await item.getByTestId('wf-field-problem').count(), 0);
    await shot(page, 'workflows-1-form.png');
  });

  it('runs the workflow: each program asks first, the card follows it to done', async () => {
    const { page } = app;
    await page.locator('[data-testid="wf-item"][data-name="greet"]').getByTestId('wf-form-run').click();
    // The run opens as its card as soon as it exists; its first step waits for the approval.
    const card = page.getByTestId('wf-run-card');
    await card.waitFor({ timeout: 20_000 });
    assert.equal(await card.getAttribute('data-status'), 'running');
    await page.getByTestId('approval-dialog').waitFor({ timeout: 20_000 });
    assert.equal((await page.getByTestId('approval-tool').textContent()).trim(), 'say');
    const tools = await approveSteps(page, logs, 1);
    // The second step sleeps a second once allowed: the card shows it running.
    await page.getByTestId('approval-dialog').waitFor({ timeout: 20_000 });
    await approveSteps(page, logs, 1, tools);
    await page.locator('[data-testid="wf-step"][data-step="wait"][data-status="running"]').waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('[data-testid="wf-step"][data-step="find"]').getAttribute('data-status'), 'done');
    assert.equal(await page.getByTestId('wf-progress-text').textContent(), '1 of 3 steps done');
    assert.equal(await page.getByTestId('wf-cancel').count(), 1, 'a running run can be cancelled');
    await shot(page, 'workflows-2-running.png');
    await approveSteps(page, logs, 1, tools);
    assert.deepEqual(tools, ['say', 'nap', 'say']);

    await page.locator('[data-testid="wf-run-card"][data-status="done"]').waitFor({ timeout: 20_000 });
    assert.equal(await page.getByTestId('wf-progress-text').textContent(), '3 of 3 steps done');
    assert.equal(await page.getByTestId('wf-progress').getAttribute('data-percent'), '100.0');
    const steps = await page.$$eval('[data-testid="wf-step"]', (els) => els.map((e) => [e.dataset.step, e.dataset.status]));
    assert.deepEqual(steps, [
      ['find', 'done'],
      ['wait', 'done'],
      ['hello', 'done'],
    ]);
    assert.match(await page.getByTestId('wf-run-elapsed').textContent(), /\d s$/);
    // A step opens to show its arguments and its result, as text.
    await page.locator('[data-testid="wf-step"][data-step="hello"]').getByTestId('wf-step-toggle').click();
    assert.match(await page.getByTestId('wf-step-result').textContent(), /hello Ada/);
    assert.deepEqual(JSON.parse(await page.getByTestId('wf-step-args').textContent()), { text: 'hello Ada' });
    await shot(page, 'workflows-3-done.png');

    // Back in the list, the run is the newest.
    await page.getByTestId('wf-back').click();
    const row = page.getByTestId('wf-run-row').first();
    assert.equal(await row.getAttribute('data-status'), 'done');
    assert.match(await row.textContent(), /greet/);
  });

  it('shows a failed run with its error and Resume, which runs the failed step again', async () => {
    const { page } = app;
    await runFromForm(page, 'doomed');
    await page.getByTestId('wf-run-card').waitFor({ timeout: 20_000 });
    await approveSteps(page, logs, 1);
    const card = page.locator('[data-testid="wf-run-card"][data-status="failed"]');
    await card.waitFor({ timeout: 20_000 });
    const steps = await page.$$eval('[data-testid="wf-step"]', (els) => els.map((e) => [e.dataset.step, e.dataset.status]));
    assert.deepEqual(steps, [
      ['probe', 'failed'],
      ['never', 'skipped'],
    ]);
    assert.match(await page.getByTestId('wf-run-error').textContent(), /probe/);
    await page.locator('[data-testid="wf-step"][data-step="probe"]').getByTestId('wf-step-toggle').click();
    assert.notEqual((await page.getByTestId('wf-step-error').textContent()).trim(), '');
    await shot(page, 'workflows-4-failed.png');

    // Resume: the step that failed runs again (and asks again), then fails again.
    await page.getByTestId('wf-resume').click();
    await approveSteps(page, logs, 1);
    await page.waitForFunction(
      () => {
        const c = document.querySelector('[data-testid="wf-run-card"]');
        const s = c?.querySelector('[data-testid="wf-step"][data-step="probe"] [data-testid="wf-step-status"]');
        return c?.dataset.status === 'failed' && /attempt 2/.test(s?.textContent ?? '');
      },
      null,
      { timeout: 20_000 },
    );
    assert.equal(await page.getByTestId('wf-resume').count(), 1);
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});

describe('a workflow run cut off by a crash', { timeout: 180_000 }, () => {
  const crashLogs = {};
  const problems = [];
  let dataDir;
  let profileDir;
  let context;
  let page;
  let fake;

  before(async () => {
    ensureArtifacts();
    dataDir = tempDir('hermes-e2e-wfcrash-data-');
    profileDir = tempDir('hermes-e2e-wfcrash-chromium-');
    prepareWorkflows(dataDir);
    fake = await startFake(crashLogs, 'fake-ollama', '0s');
    ({ context, page } = await launch(profileDir, problems));
  });

  after(async () => {
    if (page) await shot(page, 'workflows-crash-final.png');
    if (context) await context.close().catch(() => {});
    await cleanup(crashLogs, [dataDir, profileDir], 'workflows-crash-');
  });

  /** Allows the next command-tool prompt with the code the named `hermes serve` printed. */
  async function allow(name) {
    await page.getByTestId('approval-dialog').waitFor({ timeout: 20_000 });
    const seen = approvalCodes(crashLogs, name).length;
    await page.getByTestId('approval-once').click();
    const code = await waitForCode(crashLogs, seen, name);
    const field = page.getByTestId('approval-code');
    await field.waitFor({ timeout: 10_000 });
    await field.fill(code);
    await field.press('Enter');
    await page.getByTestId('approval-dialog').waitFor({ state: 'detached', timeout: 10_000 });
  }

  it('marks the run interrupted; Resume asks before running the stopped step again, then runs it', async () => {
    const first = await startHermes(crashLogs, dataDir, fake.url, 'hermes');
    await page.goto(first.url);
    await page.getByTestId('status-bar').waitFor();
    await useFakeModel(page);
    await openWorkflowsTab(page);
    await runFromForm(page, 'slow', { seconds: '600' });
    await allow('hermes');
    await page.locator('[data-testid="wf-step"][data-step="sleep"][data-status="running"]').waitFor({ timeout: 10_000 });
    const id = await page.getByTestId('wf-run-card').getAttribute('data-run-id');

    // kill -9 in the middle of the step, then a new Hermes on the same data.
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const second = await startHermes(crashLogs, dataDir, fake.url, 'hermes2');
    await page.goto(second.url);
    await page.getByTestId('status-bar').waitFor();
    await openWorkflowsTab(page);
    const row = page.locator(`[data-testid="wf-run-row"][data-run-id="${id}"]`);
    await row.waitFor({ timeout: 10_000 });
    assert.equal(await row.getAttribute('data-status'), 'interrupted');
    await row.click();
    const card = page.locator(`[data-testid="wf-run-card"][data-run-id="${id}"]`);
    assert.equal(await card.getAttribute('data-status'), 'interrupted');
    assert.equal(await page.locator('[data-testid="wf-step"][data-step="sleep"]').getAttribute('data-status'), 'interrupted');

    // The step may have acted: Resume asks first, naming it; "Not now" leaves the run alone.
    await page.getByTestId('wf-resume').click();
    await page.getByTestId('wf-confirm').waitFor({ timeout: 10_000 });
    assert.match(await page.getByTestId('wf-confirm-text').textContent(), /Step sleep was stopped while it ran/);
    await shot(page, 'workflows-5-confirm.png');
    await page.getByTestId('wf-confirm-no').click();
    await page.getByTestId('wf-confirm').waitFor({ state: 'detached' });
    assert.equal(await card.getAttribute('data-status'), 'interrupted');

    // Confirmed, the step runs again (and asks for approval again); Cancel then ends the run.
    await page.getByTestId('wf-resume').click();
    await page.getByTestId('wf-confirm-yes').click();
    await allow('hermes2');
    await page.locator(`[data-testid="wf-run-card"][data-run-id="${id}"][data-status="running"]`).waitFor({ timeout: 10_000 });
    await page.locator('[data-testid="wf-step"][data-step="sleep"][data-status="running"]').waitFor({ timeout: 10_000 });
    await page.getByTestId('wf-cancel').click();
    await page.locator(`[data-testid="wf-run-card"][data-run-id="${id}"][data-status="cancelled"]`).waitFor({ timeout: 20_000 });
    assert.equal(await page.getByTestId('wf-resume').count(), 0, 'a cancelled run is final');
    assert.deepEqual(problems, []);
  });
});
