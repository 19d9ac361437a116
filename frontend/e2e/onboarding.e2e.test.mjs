// Browser end-to-end test of the first run and the models panel against `hermes serve`:
//   - with nothing answering at ollama_host, the main area shows the install (or start) step and
//     Send is off with the reason;
//   - with the fake Ollama and no chat model installed, the pull step shows the recommendations;
//     a GGUF file the test writes itself is imported by path (web mode has no file dialog), with
//     progress, and chat becomes ready: a message gets its reply;
//   - with an ollama program found (a stand-in that runs the fake), Hermes starts it and a GGUF
//     import goes straight into its models folder ($OLLAMA_MODELS/blobs), not uploaded;
//   - a model pulled from the first-run screen streams its progress (bytes, percent, rate, time
//     left) and chat becomes ready; a second pull is cancelled from the models panel.
// Screenshots of each step go to the artifacts folder.
//
// The fake is started with --models (what is installed) and --pullable (what /api/pull can pull,
// with --pull-steps progress lines --pull-delay apart).
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import {
  binDir,
  cleanup,
  artifacts,
  ensureArtifacts,
  launch,
  sendAndWait,
  setLanguage,
  shot,
  startFake,
  startHermes,
  stop,
  tempDir,
  themedShots,
} from './harness.mjs';

const logs = {};

/** A loopback port nothing listens on. */
async function closedPort() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

/**
 * A tiny valid GGUF file (version 3): two metadata strings and one 8-float tensor, aligned to
 * 32 bytes. Ollama takes such a file as a model; the fake checks its digest.
 */
function tinyGGUF() {
  const u32 = (n) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const u64 = (n) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    return b;
  };
  const str = (s) => Buffer.concat([u64(Buffer.byteLength(s)), Buffer.from(s)]);
  const STRING = 8;
  const F32 = 0;
  const head = Buffer.concat([
    Buffer.from('GGUF'),
    u32(3),
    u64(1), // tensors
    u64(2), // metadata entries
    str('general.architecture'),
    u32(STRING),
    str('llama'),
    str('general.name'),
    u32(STRING),
    str('tiny'),
    str('token_embd.weight'),
    u32(1),
    u64(8),
    u32(F32),
    u64(0),
  ]);
  const pad = Buffer.alloc((32 - (head.length % 32)) % 32);
  const data = Buffer.alloc(8 * 4);
  for (let i = 0; i < 8; i++) data.writeFloatLE(i / 8, i * 4);
  return Buffer.concat([head, pad, data]);
}

async function step(page) {
  await page.getByTestId('onboarding').waitFor({ timeout: 15_000 });
  return page.getByTestId('onboarding').getAttribute('data-step');
}

async function sendBlocked(page) {
  const send = page.getByTestId('send');
  return {
    disabled: await send.isDisabled(),
    title: (await send.getAttribute('title')) ?? '',
    note: (await page.getByTestId('send-blocked').textContent().catch(() => '')) ?? '',
  };
}

async function openModels(page) {
  if ((await page.getByTestId('models-toggle').getAttribute('aria-pressed')) !== 'true') {
    await page.getByTestId('models-toggle').click();
  }
  await page.getByTestId('models-panel').waitFor();
}

async function closeModels(page) {
  if ((await page.getByTestId('models-toggle').getAttribute('aria-pressed')) === 'true') {
    await page.getByTestId('models-close').click();
  }
}

/** Deletes an installed model through the models panel (its confirmation names it). */
async function deleteModel(page, name) {
  await openModels(page);
  const card = page.locator(`[data-testid="model-card"][data-name="${name}"]`);
  await card.waitFor({ timeout: 10_000 });
  await card.getByTestId('model-delete').click();
  const dlg = page.getByTestId('models-delete-dialog');
  assert.match(await dlg.textContent(), new RegExp(`Delete ${name.replace(/[.:]/g, '\\$&')}\\?`));
  await page.getByTestId('models-delete-ok').click();
  await card.waitFor({ state: 'detached', timeout: 10_000 });
}

/**
 * Submits the import form in Chinese and then English, expects the refusal to read `want` in
 * each, and takes its screenshots (light/dark × three widths) under onboarding-NAME/ (the shot
 * folder drops "-refused"); the page is left light at 1200 × 800 with the refusal dismissed.
 */
async function refusedInBothLanguages(page, name, want) {
  for (const lang of ['zh', 'en']) {
    await setLanguage(page, lang);
    await page.getByTestId('setup-import-submit').click();
    const refused = page.locator('[data-testid="model-job"][data-state="failed"]');
    await refused.waitFor({ timeout: 15_000 });
    assert.ok(((await refused.textContent()) ?? '').includes(want[lang]), await refused.textContent());
    await themedShots(page, join(artifacts, `onboarding-${name.replace(/-refused$/, '')}`), name, lang);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1200, height: 800 });
    await refused.getByTestId('model-job-dismiss').click();
  }
}

describe('first run and models', { timeout: 240_000 }, () => {
  const problems = [];
  const dirs = [];
  let context;
  let page;

  before(async () => {
    ensureArtifacts();
    const profile = tempDir('hermes-e2e-onb-chromium-');
    dirs.push(profile);
    ({ context, page } = await launch(profile, problems));
  });

  after(async () => {
    if (page) await shot(page, 'onboarding-e2e-final.png');
    if (context) await context.close().catch(() => {});
    await cleanup(logs, dirs, 'onboarding-');
  });

  it('shows how to get Ollama when nothing answers, with Send off and the reason', async () => {
    const dataDir = tempDir('hermes-e2e-onb-none-');
    dirs.push(dataDir);
    // Never start an ollama this machine may have: the step must come from what is installed.
    execFileSync(join(binDir, 'hermes'), ['--data-dir', dataDir, 'settings', 'set', 'manage_ollama', 'never'], { stdio: 'ignore' });
    const h = await startHermes(logs, dataDir, `http://127.0.0.1:${await closedPort()}`, 'hermes-none');
    await page.goto(h.url);
    const s = await step(page);
    assert.ok(s === 'install' || s === 'start', `step ${s}`);
    if (s === 'install') {
      const cmd = (await page.getByTestId('setup-install-command').textContent()).trim();
      assert.ok(cmd.length > 0 && !cmd.includes('('), `a command to copy: ${cmd}`);
    } else {
      await page.getByTestId('setup-start').waitFor();
    }
    await page.getByTestId('composer').fill('hello');
    const b = await sendBlocked(page);
    assert.equal(b.disabled, true);
    assert.match(b.note, /^Send is off/);
    assert.equal(b.title, b.note);
    await shot(page, `onboarding-1-${s}.png`);
    // In Chinese, what the backend says (the status bar's problem and fix, the guide's note and
    // detail) is in Chinese too: it comes with a code the page words (lib/notices.ts).
    await setLanguage(page, 'zh');
    try {
      const bar = page.locator('[data-testid="status-bar"][data-state="unreachable"]');
      await bar.waitFor({ timeout: 10_000 });
      const english = /\b(the|is|not|your|which|it|Or|Install|Start|reachable|running)\b/;
      // Commands, paths and addresses stay as they are; every word around them is Chinese.
      const words = (text) => text.replace(/\S*(curl|ollama|https?:|\/)\S*/g, '');
      const barText = await bar.textContent();
      assert.match(barText, /[\u4e00-\u9fff]/, `status bar: ${barText}`);
      assert.doesNotMatch(words(barText), english, `status bar: ${barText}`);
      const guide = await page.getByTestId('onboarding').textContent();
      assert.doesNotMatch(words(guide), english, `setup guide: ${guide}`);
      await shot(page, `onboarding-1-${s}-zh.png`);
    } finally {
      await setLanguage(page, 'en');
    }
    await stop(h.child);
  });

  it('says in the user language why an Ollama it started stopped at once, naming its log', async () => {
    const dataDir = tempDir('hermes-e2e-onb-exit-');
    dirs.push(dataDir);
    const standIn = join(dataDir, 'ollama-stand-in');
    writeFileSync(standIn, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    execFileSync(join(binDir, 'hermes'), ['--data-dir', dataDir, 'settings', 'set', 'ollama_path', standIn], { stdio: 'ignore' });
    const h = await startHermes(logs, dataDir, `http://127.0.0.1:${await closedPort()}`, 'hermes-exit');
    const dir = join(artifacts, 'onboarding-start-failed');
    try {
      await page.goto(h.url);
      assert.equal(await step(page), 'start');
      for (const [lang, want] of [
        ['zh', /无法启动 Ollama：.*ollama-stand-in serve 刚启动就退出了。原因请看它的日志：.*ollama\.log/],
        ['en', /Could not start Ollama: .*ollama-stand-in serve stopped as soon as it started\. Its log says why: .*ollama\.log/],
      ]) {
        await setLanguage(page, lang);
        await page.getByTestId('setup-start').click();
        const err = page.getByTestId('setup-start-error');
        await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('[data-testid="setup-start-error"]')?.textContent ?? ''), want.source, { timeout: 30_000 });
        assert.doesNotMatch((await err.textContent()) ?? '', lang === 'zh' ? /exited|see / : /退出/);
        await themedShots(page, dir, 'start-failed', lang);
      }
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1200, height: 800 });
      await setLanguage(page, 'en');
      await stop(h.child);
    }
  });

  it('starts the Ollama it finds, and an imported GGUF file goes straight into its models folder', async () => {
    const dataDir = tempDir('hermes-e2e-onb-managed-');
    const models = tempDir('hermes-e2e-onb-models-');
    const ggufDir = tempDir('hermes-e2e-onb-managed-gguf-');
    dirs.push(dataDir, models, ggufDir);
    // A stand-in for ollama: `serve` runs the fake on $OLLAMA_HOST, which keeps its blobs in
    // $OLLAMA_MODELS as Ollama does (it has Hermes's environment, as a started Ollama has).
    const standIn = join(dataDir, 'ollama');
    writeFileSync(standIn, `#!/bin/sh\n[ "$1" = serve ] || exit 2\nexec ${join(binDir, 'fake-ollama')} --addr "$OLLAMA_HOST" --models nomic-embed-text\n`, { mode: 0o755 });
    execFileSync(join(binDir, 'hermes'), ['--data-dir', dataDir, 'settings', 'set', 'ollama_path', standIn], { stdio: 'ignore' });
    const h = await startHermes(logs, dataDir, `http://127.0.0.1:${await closedPort()}`, 'hermes-managed', { OLLAMA_MODELS: models });
    try {
      await page.goto(h.url);
      if ((await step(page)) === 'start') await page.getByTestId('setup-start').click();
      await page.waitForSelector('[data-testid="onboarding"][data-step="pull"]', { timeout: 30_000 });
      const file = join(ggufDir, 'Managed-Q4.gguf');
      writeFileSync(file, tinyGGUF());
      await page.getByTestId('setup-import-toggle').click();
      await page.getByTestId('setup-import-path').fill(file);
      await page.getByTestId('setup-import-submit').click();
      await page.getByTestId('onboarding').waitFor({ state: 'detached', timeout: 20_000 });
      // The picker follows the models list, which the import's end refreshes: wait for it (a
      // loaded machine showed the list from before for a moment).
      await page.waitForFunction(() => document.querySelector('[data-testid="model-picker"]')?.value === 'managed-q4', null, { timeout: 15_000 }).catch(() => {});
      assert.equal(await page.getByTestId('model-picker').inputValue(), 'managed-q4');
      // The picker gives its size as setup and the Models panel do: a tiny file is KB, not "0 MB".
      const label = await page.locator('[data-testid="model-picker"] option[value="managed-q4"]').textContent();
      assert.match(label, /^managed-q4( · [\d.]+B)? · [\d.]+ (B|KB)$/, label);
      for (const lang of ['en', 'zh']) {
        await setLanguage(page, lang);
        await themedShots(page, join(artifacts, 'onboarding'), 'picker-size', lang);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await setLanguage(page, 'en');
      const blobs = readdirSync(join(models, 'blobs'));
      assert.equal(blobs.length, 1, `blobs: ${blobs}`);
      assert.match(blobs[0], /^sha256-[0-9a-f]{64}$/);
      assert.ok(readFileSync(join(models, 'blobs', blobs[0])).equals(readFileSync(file)), 'the blob is the file');
      assert.doesNotMatch(logs['hermes-managed'] ?? '', /panic/);
    } finally {
      await stop(h.child);
    }
  });

  it('says in words why a pull failed: a name the library does not have, with the installed ones close to it', async () => {
    const dataDir = tempDir('hermes-e2e-onb-unknown-');
    dirs.push(dataDir);
    const f = await startFake(logs, 'fake-ollama-unknown', '0s', ['--models', 'llama3.2,nomic-embed-text', '--pullable', 'qwen3:8b']);
    const h = await startHermes(logs, dataDir, f.url, 'hermes-unknown');
    try {
      await page.goto(h.url);
      await page.getByTestId('status-bar').waitFor();
      await openModels(page);
      await page.getByTestId('models-pull').click();
      await page.getByTestId('models-pull-name').fill('llama3.3');
      await page.getByTestId('models-pull-submit').click();
      const job = page.locator('[data-testid="model-job"][data-name="llama3.3"][data-state="failed"]');
      await job.waitFor({ timeout: 15_000 });
      const text = await job.textContent();
      assert.match(text, /has no model named llama3\.3\. Installed here, with a name close to it: llama3\.2\./, text);
      assert.doesNotMatch(text, /file does not exist|may have been deleted/, text);
      for (const lang of ['en', 'zh']) {
        await setLanguage(page, lang);
        await themedShots(page, join(artifacts, 'onboarding'), 'pull-unknown', lang);
      }
      assert.match(await job.textContent(), /模型库里没有名为 llama3\.3 的模型。本机已安装、名称相近的有：llama3\.2/);
      await page.emulateMedia({ colorScheme: 'light' });
      await setLanguage(page, 'en');
    } finally {
      await stop(h.child);
      await stop(f.child);
    }
  });

  describe('with the fake Ollama', () => {
    let fake;
    let hermes;

    before(async () => {
      const dataDir = tempDir('hermes-e2e-onb-data-');
      dirs.push(dataDir);
      const extra = ['--models', 'nomic-embed-text', '--pullable', '*', '--pull-steps', '40', '--pull-delay', '100ms'];
      fake = await startFake(logs, 'fake-ollama', '5ms', extra);
      hermes = await startHermes(logs, dataDir, fake.url);
      await page.goto(hermes.url);
      await page.getByTestId('status-bar').waitFor();
    });

    after(async () => {
      await stop(hermes?.child);
      await stop(fake?.child);
    });

    it('shows the pull step when no chat model is installed', async () => {
      assert.equal(await step(page), 'pull');
      const options = page.getByTestId('setup-pull-option');
      assert.ok((await options.count()) >= 2, 'recommendations and "another model"');
      assert.equal(await options.first().locator('input').isChecked(), true, 'the best fit is preselected');
      assert.match(await options.first().textContent(), /GB/);
      // The step's own words say no chat model is installed; no detail line repeats it.
      assert.match(await page.getByTestId('onboarding').textContent(), /no chat model is installed/);
      assert.equal(await page.getByTestId('setup-problem').count(), 0);
      await page.getByTestId('composer').fill('hello');
      const b = await sendBlocked(page);
      assert.equal(b.disabled, true);
      assert.match(b.note, /pull or import one/);
      // The embedding model is never offered for chat.
      assert.equal(await page.locator('[data-testid="model-picker"] option[value^="nomic-embed-text"]').count(), 0);
      await shot(page, 'onboarding-2-pull.png');
    });

    it('imports a GGUF file by path and chat becomes ready', async () => {
      const dir = tempDir('hermes-e2e-onb-gguf-');
      dirs.push(dir);
      const file = join(dir, 'Tiny-Chat-Q8_0.gguf');
      writeFileSync(file, tinyGGUF());
      const notGGUF = join(dir, 'notes.gguf');
      writeFileSync(notGGUF, 'these are notes, not a model');

      await page.getByTestId('setup-import-toggle').click();
      await page.getByTestId('setup-import-nopicker').waitFor();
      assert.equal(await page.getByTestId('setup-import-pick').count(), 0, 'web mode has no file dialog');

      // A file that is not GGUF is refused with a clear error.
      await page.getByTestId('setup-import-path').fill(notGGUF);
      assert.equal(await page.getByTestId('setup-import-name').inputValue(), 'notes');
      await page.getByTestId('setup-import-submit').click();
      const failed = page.locator('[data-testid="model-job"][data-state="failed"]');
      await failed.waitFor({ timeout: 15_000 });
      assert.match(await failed.textContent(), /not a GGUF model file/);
      await shot(page, 'onboarding-3-import-refused.png');
      await failed.getByTestId('model-job-dismiss').click();

      // A Modelfile line an import cannot set is refused before anything is uploaded, by its
      // line and word, in the page's language.
      await page.getByTestId('setup-import-path').fill(file);
      await page.getByTestId('setup-import-modelfile').fill('PARAMETER temperature 0.2\nADAPTER ./lora.gguf');
      await refusedInBothLanguages(page, 'modelfile-refused', {
        zh: 'Modelfile 第 2 行：导入时不能设置 ADAPTER（可以设置的有 FROM、TEMPLATE、SYSTEM、PARAMETER、LICENSE、MESSAGE、RENDERER、PARSER 和 REQUIRES）。',
        en: 'Modelfile line 2: an import cannot set ADAPTER (it can set FROM, TEMPLATE, SYSTEM, PARAMETER, LICENSE, MESSAGE, RENDERER, PARSER and REQUIRES).',
      });
      await page.getByTestId('setup-import-modelfile').fill('');

      // A GGUF file of a version Hermes does not read says which version, in the page's language.
      const future = join(dir, 'future.gguf');
      writeFileSync(future, Buffer.concat([Buffer.from('GGUF'), Buffer.from([9, 0, 0, 0]), Buffer.from(' the rest')]));
      await page.getByTestId('setup-import-path').fill(future);
      await refusedInBothLanguages(page, 'gguf-version-refused', {
        zh: 'future.gguf 是第 9 版 GGUF 文件，Hermes 读不了这一版（可读第 2、3 版）。请更新 Hermes，或改用第 3 版的 .gguf 文件。',
        en: 'future.gguf is a GGUF file of version 9, which Hermes does not read (it reads versions 2 and 3). Update Hermes, or use a .gguf file of version 3.',
      });

      // The form stays open with what was typed: only the path changes.
      await page.getByTestId('setup-import-path').fill(file);
      assert.equal(await page.getByTestId('setup-import-name').inputValue(), 'tiny-chat-q8_0');
      await page.getByTestId('setup-import-submit').click();
      // The imported model becomes the chat model: the setup gives way to the empty chat.
      await page.getByTestId('onboarding').waitFor({ state: 'detached', timeout: 20_000 });
      await page.locator('[data-testid="status-bar"][data-state="ok"]').waitFor({ timeout: 15_000 });
      assert.equal(await page.getByTestId('model-picker').inputValue(), 'tiny-chat-q8_0');
      assert.equal(await page.getByTestId('send-blocked').count(), 0);
      await shot(page, 'onboarding-4-ready.png');
      const reply = await sendAndWait(page, 'hello from the first run');
      assert.equal(reply.status, 'ok');
      assert.match(reply.text, /hello from the first run/);
    });

    it('pulls a recommended model with progress; another pull is cancelled from the panel', async () => {
      await deleteModel(page, 'tiny-chat-q8_0');
      await closeModels(page);
      await page.getByTestId('send').waitFor();
      assert.equal(await step(page), 'pull');
      const chosen = await page.locator('[data-testid="setup-pull-option"]:has(input:checked)').getAttribute('data-name');
      await page.getByTestId('setup-pull-submit').click();
      const job = page.locator(`[data-testid="model-job"][data-name="${chosen}"]`);
      await job.waitFor();
      // Progress: bytes, percent, rate and the time left, while it runs.
      await page.waitForFunction(
        () => /of .* · \d+(\.\d)?% · .+\/s · .+ left/.test(document.querySelector('[data-testid="model-job-numbers"]')?.textContent ?? ''),
        null,
        { timeout: 15_000 },
      );
      assert.equal(await job.getByTestId('model-job-status').textContent(), 'Downloading');
      await shot(page, 'onboarding-5-pulling.png');
      await page.getByTestId('onboarding').waitFor({ state: 'detached', timeout: 30_000 });
      await page.locator('[data-testid="status-bar"][data-state="ok"]').waitFor({ timeout: 15_000 });
      assert.match(await page.getByTestId('model-picker').inputValue(), new RegExp(`^${chosen.replace(/[.:]/g, '\\$&')}`));

      // A second pull from the panel, cancelled while it runs: nothing is installed.
      await openModels(page);
      await page.getByTestId('models-pull').click();
      await page.getByTestId('models-pull-name').fill('qwen3:8b');
      await page.getByTestId('models-pull-submit').click();
      const second = page.locator('[data-testid="model-job"][data-name="qwen3:8b"]');
      await page.waitForFunction(
        () => /%/.test(document.querySelector('[data-testid="model-job"][data-name="qwen3:8b"] [data-testid="model-job-numbers"]')?.textContent ?? ''),
        null,
        { timeout: 15_000 },
      );
      await shot(page, 'onboarding-6-panel-pulling.png');
      await second.getByTestId('model-job-cancel').click();
      await page.locator('[data-testid="model-job"][data-name="qwen3:8b"][data-state="cancelled"]').waitFor({ timeout: 10_000 });
      assert.equal(await page.locator('[data-testid="model-card"][data-name^="qwen3:8b"]').count(), 0);
    });

    it('had no page errors or CSP violations', () => {
      assert.deepEqual(problems, []);
    });
  });
});
