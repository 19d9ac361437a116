// Browser end-to-end test of projects (issue #35) against `hermes serve` and the fake Ollama
// (--echo-system answers "what is your system prompt" with the one it was given): a project is
// made in the sidebar with its own system prompt, a chat started in it runs with that prompt, a
// chat moves in from its menu, and deleting the project keeps its chats (the command line agrees).
// Screenshots in English and Chinese, light and dark, at 800, 1100 and 1440 px into projects/.
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, binDir, closeApp, openApp, sendAndWait, setLanguage, themedShots } from './harness.mjs';

const logs = {};
const shotsDir = join(artifacts, 'projects');

function hermes(dataDir, args) {
  return spawnSync(join(binDir, 'hermes'), ['--data-dir', dataDir, ...args], { encoding: 'utf8', env: { ...process.env, OLLAMA_HOST: 'http://127.0.0.1:9' } });
}

describe('projects', { timeout: 300_000 }, () => {
  let app = {};
  const problems = [];
  before(async () => {
    app = await openApp(logs, problems, {
      prefix: 'projects',
      fakeArgs: ['--echo-system'],
      // A second memory profile and a knowledge collection, so a project's dialog offers both.
      prepare: (dataDir) => {
        const docs = join(dataDir, 'manuals');
        mkdirSync(docs);
        writeFileSync(join(docs, 'pump.md'), '# Pump\n\nThe north field pumps need new seals every spring.\n');
        for (const args of [['memory', 'profile', 'create', 'work'], ['kb', 'add', docs, '--name', 'manuals']]) {
          const r = hermes(dataDir, args);
          assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
        }
      },
    });
  });
  after(() => closeApp(logs, app, 'projects-e2e-final.png', 'projects-'));

  it('makes a project whose chats run with its system prompt', async () => {
    const { page } = app;
    await sendAndWait(page, 'a chat outside any project');
    for (const l of ['zh', 'en']) { // a dialog is modal: the language is switched before it opens
      await setLanguage(page, l);
      await page.getByTestId('project-new').click();
      await page.getByTestId('project-name').fill(l === 'zh' ? '野外考察' : 'Field trip');
      await page.getByTestId('project-knowledge').selectOption('some');
      await page.getByTestId('project-memory-profile').selectOption('work');
      await themedShots(page, shotsDir, 'project-dialog', l, { settle: 200 });
      await page.keyboard.press('Escape');
      await page.getByTestId('project-dialog').waitFor({ state: 'detached' });
    }
    await page.getByTestId('project-new').click();
    await page.getByTestId('project-name').fill('Field trip');
    await page.getByTestId('project-system').fill('Answer as a field guide for the north region.');
    await page.getByTestId('project-save').click();
    await page.getByTestId('project-dialog').waitFor({ state: 'detached' });
    await page.getByTestId('project-new-chat').click();
    const last = await sendAndWait(page, 'what is your system prompt');
    assert.match(last.text, /Answer as a field guide for the north region/);
    const project = page.getByTestId('project');
    await project.getByTestId('session-row').first().waitFor();
    assert.equal(await project.getByTestId('project-toggle').getAttribute('aria-expanded'), 'true');
    // The chat outside moves in from its menu.
    const openMove = async () => {
      const outside = page.getByTestId('session-list').getByTestId('session-row').first();
      await outside.getByTestId('session-menu').click();
      await page.locator('[data-action="move"]').click();
      await page.getByTestId('project-move-select').selectOption({ label: 'Field trip' });
    };
    for (const l of ['zh', 'en']) { // a dialog is modal: the language is switched before it opens
      await setLanguage(page, l);
      await openMove();
      await themedShots(page, shotsDir, 'move-dialog', l, { settle: 200 });
      await page.keyboard.press('Escape');
      await page.getByTestId('project-move-dialog').waitFor({ state: 'detached' });
    }
    await openMove();
    await page.getByTestId('project-move-ok').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="project"] [data-testid="session-row"]').length === 2);
    for (const l of ['zh', 'en']) {
      await setLanguage(page, l);
      await themedShots(page, shotsDir, 'sidebar', l, { settle: 200 });
    }
    const shown = hermes(app.dataDir, ['project', 'show', 'Field trip']);
    assert.equal(shown.status, 0, shown.stderr);
    assert.match(shown.stdout, /chats: 2/);
  });

  it('deletes the project, keeping its chats as asked', async () => {
    const { page } = app;
    const dialog = page.getByTestId('project-delete-dialog');
    for (const l of ['zh', 'en']) {
      await setLanguage(page, l);
      await page.getByTestId('project-delete').click();
      await dialog.waitFor();
      await themedShots(page, shotsDir, 'delete-dialog', l, { settle: 200 });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
    await page.getByTestId('project-delete').click();
    assert.match(await dialog.textContent(), /It holds 2 chats/);
    await page.getByTestId('project-delete-ok').click();
    await page.getByTestId('project').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-list"] [data-testid="session-row"]').length === 2);
    const list = hermes(app.dataDir, ['--json', 'session', 'list']);
    assert.equal(JSON.parse(list.stdout).length, 2, list.stdout);
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
