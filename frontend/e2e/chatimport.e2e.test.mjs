// Browser end-to-end test of importing other assistants' conversations and exporting a chat as an
// HTML page, against `hermes serve` and the fake Ollama server.
//
//   npm run build && (cd .. && build the Go binaries into build/bin) && node --test e2e/chatimport.e2e.test.mjs
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM). Screenshots of the import
// dialog (preview and result) and the export dialog, EN and ZH, light and dark, at three widths,
// go to E2E_ARTIFACTS/chatimport/.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { artifacts, closeApp, menuItem, openApp, setLanguage, themedShots } from './harness.mjs';

const logs = {};
const here = dirname(fileURLToPath(import.meta.url));
const fixtures = resolve(here, '..', '..', 'backend', 'chatimport', 'testdata');
const shots = join(artifacts, 'chatimport');

/** Opens the import dialog from the ⋯ menu, picks the source and file, and checks the file. */
async function preview(page, source, file) {
  await menuItem(page, 'chat-import-button');
  await page.getByTestId('chat-import').waitFor();
  await page.getByTestId(`chat-import-source-${source}`).check();
  await page.getByTestId('chat-import-path').fill(join(fixtures, file));
  await page.getByTestId('chat-import-check').click();
  await page.getByTestId('chat-import-preview').waitFor();
}

/** Opens a conversation by its title, in the main list or among the archived ones. */
async function openByTitle(page, title) {
  const row = page.locator('[data-testid="session-row"]', { hasText: title }).first();
  if (!(await row.isVisible())) await page.getByTestId('archived-toggle').click();
  await row.click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length > 0);
}

describe('importing conversations and exporting a chat in the web UI', { timeout: 300_000 }, () => {
  let app;
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, { prefix: 'chatimport' });
  });

  after(() => closeApp(logs, app, 'chatimport-final.png', 'chatimport-'));

  it('previews a ChatGPT export, then imports it with its versions', async () => {
    const { page } = app;
    await preview(page, 'chatgpt', 'chatgpt.json');
    const text = (await page.getByTestId('chat-import-preview').textContent()).replace(/\s+/g, ' ');
    assert.match(text, /2 conversations · 7 messages/);
    assert.match(text, /2 other versions/);
    assert.match(text, /From 2024-01-01 to 2024-06-01/);
    assert.match(text, /1 image is not carried/);
    await themedShots(page, shots, 'import-preview', 'en');

    await page.getByTestId('chat-import-submit').click();
    await page.getByTestId('chat-import-result').waitFor();
    assert.match(await page.getByTestId('chat-import-result').textContent(), /Imported 7 messages in 2 conversations; 0 messages already there/);
    await themedShots(page, shots, 'import-done', 'en');
    await page.getByTestId('chat-import-close').click();

    await openByTitle(page, 'Sorting in Go');
    const bodies = await page.$$eval('[data-testid="message"] [data-testid="message-body"]', (els) => els.map((e) => e.textContent.trim()));
    assert.equal(bodies.length, 2, `shown: ${JSON.stringify(bodies)}`);
    assert.match(bodies[0], /Go 1\.21/);
    assert.match(bodies[1], /slices\.Sort\(names\)/);
    // The edited prompt and the regenerated reply are versions: 2 of 2 is shown for each.
    const labels = await page.$$eval('[data-testid="version-label"]', (els) => els.map((e) => e.textContent.trim().slice(0, 3)));
    assert.deepEqual(labels, ['2/2', '2/2']);
  });

  it('exports the open chat as a self-contained HTML page', async () => {
    const { page } = app;
    await menuItem(page, 'export-button');
    await page.getByTestId('export-choose').waitFor();
    await page.getByTestId('export-format-html').click();
    await themedShots(page, shots, 'export', 'en');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-save').click()]);
    assert.equal(download.suggestedFilename(), 'Sorting in Go.html');
    const html = readFileSync(await download.path(), 'utf8');
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, /<title>Sorting in Go<\/title>/);
    assert.match(html, /<code class="language-go">slices\.Sort\(names\)/);
    assert.doesNotMatch(html, /<script/i);

    await menuItem(page, 'export-button');
    await page.getByTestId('export-format-pdf').click();
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-save').click()]);
    assert.equal(pdf.suggestedFilename(), 'Sorting in Go.pdf');
    assert.match(readFileSync(await pdf.path()).subarray(0, 5).toString('latin1'), /^%PDF-/);
  });

  it('previews an Open WebUI export in Chinese, and re-importing the ChatGPT file adds nothing', async () => {
    const { page } = app;
    await setLanguage(page, 'zh');
    await preview(page, 'openwebui', 'openwebui.json');
    const text = (await page.getByTestId('chat-import-preview').textContent()).replace(/\s+/g, ' ');
    assert.match(text, /2 个对话 · 7 条消息/);
    assert.match(text, /从 2023-07-22 到 2024-07-03/);
    await themedShots(page, shots, 'import-preview', 'zh');
    await page.getByTestId('chat-import-cancel').click();

    await preview(page, 'chatgpt', 'chatgpt.json');
    await page.getByTestId('chat-import-submit').click();
    await page.getByTestId('chat-import-result').waitFor();
    assert.match(await page.getByTestId('chat-import-result').textContent(), /已导入 0 条消息（新建 0 个对话）；7 条消息已存在/);
    await themedShots(page, shots, 'import-done', 'zh');
    await page.getByTestId('chat-import-close').click();
    await menuItem(page, 'export-button');
    await page.getByTestId('export-choose').waitFor();
    await themedShots(page, shots, 'export', 'zh');
    await page.getByTestId('export-close').click();
    assert.deepEqual(problems, []);
  });
});
