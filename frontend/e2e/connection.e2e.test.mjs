// Browser end-to-end test of the connection to Ollama against `hermes serve` and the stand-in:
//   - nothing answers at the address Hermes starts with; the setup screen takes the address of a
//     stand-in on another port, checks it (version, models) and uses it: chat works through it;
//     Settings → Connection shows it, and a LAN name that does not answer is "does not answer",
//     never "install";
//   - an Ollama Hermes started (a stand-in for the ollama program that runs the fake) is killed
//     in the middle of a reply: the conversation stays, a banner says Ollama stopped responding at
//     its address (with its log), not the install screen; Start again starts it and chat goes on.
// Screenshots (EN/ZH, light/dark, 800/1100/1440) go to $E2E_ARTIFACTS/connection/.
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import {
  approvalCodes,
  artifacts,
  binDir,
  cleanup,
  ensureArtifacts,
  launch,
  menuItem,
  send,
  sendAndWait,
  setLanguage,
  sleep,
  startFake,
  startHermes,
  tempDir,
  themedShots,
  useFakeModel,
  waitForCode,
} from './harness.mjs';
import { axeViolations, formatViolations } from './axe.mjs';

const logs = {};
const dirs = [];
const shots = join(artifacts, 'connection');
const contexts = [];
/** The part of the page axe checks in each set of screenshots. */
const AXE = {
  'setup-address-checked': '[data-testid="onboarding"]',
  'settings-connection': '[data-testid="settings"]',
  'settings-groups': '[data-testid="settings"]',
  'setup-remote-down': '[data-testid="onboarding"]',
  'stopped-responding': '[data-testid="ollama-lost"]',
};

/** A loopback port nothing listens on. */
async function freePort() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

/** Switches the language from the open Settings panel (the header menu is behind it). */
async function settingsLanguage(page, lang) {
  await page.getByTestId('language-select').selectOption(lang);
  await page.waitForFunction((w) => document.documentElement.lang.startsWith(w), lang);
}

/**
 * Screenshots in English and Chinese; prepare(page) brings the state back after the switch,
 * switch(page, lang) changes the language (the header menu's, unless given), and inView (a test
 * id) is scrolled into view before each shot. axe checks the part of the page named by
 * AXE[name] (light and dark, each language) for serious and critical violations.
 */
async function bothLanguages(page, name, prepare = async () => {}, switchLang = setLanguage, inView = '') {
  for (const lang of ['en', 'zh']) {
    await switchLang(page, lang);
    await prepare(page);
    await themedShots(page, shots, name, lang, {
      each: async (p) => {
        if (inView) await p.getByTestId(inView).scrollIntoViewIfNeeded();
        if (AXE[name] && p.viewportSize()?.width === 1100) {
          const v = await axeViolations(p, { include: AXE[name] });
          assert.deepEqual(v, [], `${name} (${lang}):\n${formatViolations(v)}`);
        }
        // Nothing may run off the side at any size (a wrapped or cut header shows here too).
        const wide = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(wide <= 1, `${name}: the page is ${wide}px wider than the window`);
      },
    });
    await page.setViewportSize({ width: 1200, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await switchLang(page, 'en');
}

async function open(profile, url) {
  const problems = [];
  const { context, page } = await launch(profile, problems);
  contexts.push(context);
  await page.goto(url);
  await page.getByTestId('status-bar').waitFor();
  return { page, problems };
}

describe('the connection to Ollama in the web UI', { timeout: 300_000 }, () => {
  after(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await cleanup(logs, dirs, 'connection-');
  });

  it('takes an address on another port, checks it and uses it', async () => {
    ensureArtifacts();
    const dataDir = tempDir('hermes-e2e-conn-data-');
    const profile = tempDir('hermes-e2e-conn-chromium-');
    dirs.push(dataDir, profile);
    const fake = await startFake(logs, 'fake-elsewhere', '0s');
    const nothing = `http://127.0.0.1:${await freePort()}`;
    const h = await startHermes(logs, dataDir, nothing, 'hermes-elsewhere');
    const { page, problems } = await open(profile, h.url);

    const setup = page.getByTestId('onboarding');
    await setup.waitFor({ timeout: 15_000 });
    assert.match(await setup.getAttribute('data-step'), /^(install|start)$/);
    await page.getByTestId('setup-elsewhere').click();
    const url = page.getByLabel('Ollama address');
    assert.equal(await url.inputValue(), nothing);
    await url.fill(fake.url.replace('http://', '')); // host:port, as OLLAMA_HOST takes it
    await page.getByTestId('setup-conn-check').click();
    const found = page.getByTestId('setup-conn-result');
    await found.waitFor({ timeout: 10_000 });
    assert.match(await found.textContent(), new RegExp(`^\\s*Ollama \\S+ at ${fake.url.replace(/\./g, '\\.')} · 2 models\\s*$`));
    assert.equal(await found.getAttribute('data-ok'), 'true');
    await bothLanguages(
      page,
      'setup-address-checked',
      async (p) => {
        if (!(await p.getByTestId('setup-conn-result').isVisible())) await p.getByTestId('setup-conn-check').click();
        await p.getByTestId('setup-conn-result').waitFor();
      },
      setLanguage,
      'setup-conn-result',
    );

    await page.getByTestId('setup-conn-use').click();
    await setup.waitFor({ state: 'detached', timeout: 15_000 });
    await useFakeModel(page);
    assert.match(await page.getByTestId('status-bar').textContent(), new RegExp(fake.url.replace(/\./g, '\\.')));
    assert.equal((await sendAndWait(page, 'hello through another port')).status, 'ok');
    const saved = execFileSync(join(binDir, 'hermes'), ['--data-dir', dataDir, 'settings', 'get', 'ollama_host']).toString().trim();
    assert.equal(saved, fake.url);

    // Settings → Connection: the address in use, checked again; then a LAN name that does not answer.
    await menuItem(page, 'settings-button');
    const conn = page.getByTestId('settings-conn');
    await conn.waitFor();
    assert.equal(await conn.getByLabel('Ollama address').inputValue(), fake.url);
    await page.getByTestId('settings-conn-check').click();
    await page.getByTestId('settings-conn-result').waitFor({ timeout: 10_000 });
    assert.match(await page.getByTestId('settings-conn-result').textContent(), /· 2 models/);
    await bothLanguages(
      page,
      'settings-connection',
      async (p) => {
        if (!(await p.getByTestId('settings-conn-result').isVisible())) await p.getByTestId('settings-conn-check').click();
        await p.getByTestId('settings-conn-result').waitFor();
      },
      settingsLanguage,
    );
    await bothLanguages(page, 'settings-groups', async () => {}, settingsLanguage, 'settings-group-model');
    // Allowing an internet Ollama from the browser needs the code the terminal prints.
    const allow = page.locator('[data-testid="form-setting"][data-key="ollama_allow_internet"]');
    const seen = approvalCodes(logs, 'hermes-elsewhere').length;
    await allow.getByRole('checkbox', { name: 'Allow an Ollama on the internet' }).click();
    const codeField = allow.getByTestId('form-code');
    await codeField.waitFor({ timeout: 10_000 });
    const code = await waitForCode(logs, seen, 'hermes-elsewhere');
    await codeField.fill(`${code.slice(0, 3)} ${code.slice(3)}`);
    await codeField.press('Enter');
    await allow.getByText('Saved').waitFor({ timeout: 10_000 });
    assert.equal(execFileSync(join(binDir, 'hermes'), ['--data-dir', dataDir, 'settings', 'get', 'ollama_allow_internet']).toString().trim(), 'true');
    await allow.getByRole('checkbox').click(); // off again: no code needed
    const setting = () => execFileSync(join(binDir, 'hermes'), ['--data-dir', dataDir, 'settings', 'get', 'ollama_allow_internet']).toString().trim();
    for (let i = 0; i < 50 && setting() !== 'false'; i++) await sleep(100);
    assert.equal(setting(), 'false');
    assert.equal(await allow.getByTestId('form-code').count(), 0);

    await page.getByTestId('settings-advanced').locator('summary').click();
    // the raw keys are under Advanced (shown once the section has opened: no instant check under load)
    await page.locator('[data-testid="setting"][data-key="ollama_host"]').waitFor({ state: 'visible', timeout: 10_000 });

    await conn.getByLabel('Ollama address').fill('http://hermes-e2e-nas:11434');
    await page.getByTestId('settings-conn-use').click();
    await page.locator('[data-testid="settings-conn-result"][data-code="no_answer"]').waitFor({ timeout: 15_000 });
    await page.getByTestId('settings-conn-anyway').click();
    await page.getByTestId('settings-conn-saved').waitFor({ timeout: 15_000 });
    await page.getByTestId('settings-close').click();
    await page.locator('[data-testid="onboarding"][data-step="connect"]').waitFor({ timeout: 15_000 });
    assert.equal(await page.getByTestId('setup-install-command').count(), 0, 'an address elsewhere is never "install"');
    assert.equal(await page.getByTestId('setup-start').count(), 0);
    await bothLanguages(page, 'setup-remote-down');
    assert.deepEqual(problems, []);
  });

  it('shows "stopped responding" over the conversation when Ollama dies mid-reply, and Start again', async () => {
    ensureArtifacts();
    const dataDir = tempDir('hermes-e2e-lost-data-');
    const profile = tempDir('hermes-e2e-lost-chromium-');
    const bin = tempDir('hermes-e2e-lost-bin-');
    dirs.push(dataDir, profile, bin);
    // A stand-in for the ollama program: `serve` runs the fake on $OLLAMA_HOST and leaves its pid.
    const pidFile = join(bin, 'pid');
    const standIn = join(bin, 'ollama');
    writeFileSync(
      standIn,
      `#!/bin/sh\n[ "$1" = serve ] || exit 2\necho $$ > ${pidFile}\nexec ${join(binDir, 'fake-ollama')} --addr "$OLLAMA_HOST" --token-delay 200ms\n`,
      { mode: 0o755 },
    );
    execFileSync(join(binDir, 'hermes'), ['--data-dir', dataDir, 'settings', 'set', 'ollama_path', standIn], { stdio: 'ignore' });
    const host = `http://127.0.0.1:${await freePort()}`;
    const h = await startHermes(logs, dataDir, host, 'hermes-lost');
    const { page, problems } = await open(profile, h.url);
    await useFakeModel(page); // Hermes started the stand-in on first use
    assert.equal((await sendAndWait(page, 'first question')).status, 'ok');

    // Killed in the middle of the next reply.
    await send(page, 'tell me a long story please');
    await page.locator('[data-testid="message"][data-role="assistant"][data-status="streaming"]').waitFor({ timeout: 10_000 });
    await sleep(400);
    process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGKILL');

    const banner = page.getByTestId('ollama-lost');
    await banner.waitFor({ timeout: 20_000 });
    assert.equal(await banner.getByRole('alert').textContent(), `Ollama stopped responding at ${host}`);
    assert.equal(await page.getByTestId('onboarding').count(), 0, 'not the setup screen');
    assert.doesNotMatch(await page.locator('main, body').first().textContent(), /Install Ollama/);
    assert.ok((await page.locator('[data-testid="message"][data-role="user"]').count()) >= 2, 'the conversation stays');
    assert.match(await page.getByTestId('ollama-lost-exit').textContent(), /signal: killed/);
    await page.getByTestId('ollama-lost-log').locator('summary').click();
    assert.match(await page.getByTestId('ollama-lost-log').textContent(), /serve ended/);
    await page.waitForSelector('[data-testid="status-bar"][data-state="unreachable"]', { timeout: 10_000 });
    assert.match(await page.getByTestId('status-bar').textContent(), /stopped responding/);
    await bothLanguages(page, 'stopped-responding', async (p) => {
      await p.getByTestId('ollama-lost').waitFor();
    });

    const before = readFileSync(pidFile, 'utf8').trim();
    await page.getByTestId('ollama-start-again').click();
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    assert.notEqual(readFileSync(pidFile, 'utf8').trim(), before, 'Start again ran the program again');
    await page.waitForSelector('[data-testid="status-bar"][data-state="ok"]', { timeout: 15_000 });
    assert.equal((await sendAndWait(page, 'and now?')).status, 'ok');
    assert.deepEqual(problems, []);
  });
});
