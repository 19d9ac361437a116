// Shared helpers of the browser end-to-end tests: start the Go binaries, drive Chromium, take
// screenshots. Not a test file itself (the runner picks up *.test.mjs only).
//
// Environment:
//   HERMES_BIN_DIR   folder with the `hermes` and `fake-ollama` binaries (default ../build/bin)
//   E2E_ARTIFACTS    where screenshots and process logs go (default /tmp/hermes-e2e)
//   CHROMIUM         browser binary (default /usr/bin/chromium); never downloaded
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const binDir = resolve(process.env.HERMES_BIN_DIR || join(here, '..', '..', 'build', 'bin'));
export const artifacts = resolve(process.env.E2E_ARTIFACTS || '/tmp/hermes-e2e');
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
export const MODEL = 'llama3.2';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every process started through start(), so the suite can end them all. */
const children = [];

// Last resort if the runner itself is interrupted.
process.on('exit', () => {
  for (const c of children) if (alive(c)) c.kill('SIGKILL');
});

export function alive(child) {
  return child.exitCode === null && child.signalCode === null;
}

/**
 * Starts a process and resolves with the first match of pattern in its output.
 * Output is kept in logs[name] for the artifacts folder.
 */
export function start(logs, name, file, args, env, pattern, timeoutMs = 30_000) {
  return new Promise((resolvePromise, reject) => {
    if (!existsSync(file)) {
      reject(new Error(`${file} not found: build the Go binaries first (or set HERMES_BIN_DIR)`));
      return;
    }
    const fullEnv = { ...process.env };
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete fullEnv[k];
      else fullEnv[k] = v;
    }
    const child = spawn(file, args, { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    logs[name] = '';
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      reject(new Error(`${name} did not print ${pattern} within ${timeoutMs} ms; output:\n${logs[name]}`));
    }, timeoutMs);
    const onData = (chunk) => {
      logs[name] += chunk.toString();
      const m = logs[name].match(pattern);
      if (m && !done) {
        done = true;
        clearTimeout(timer);
        resolvePromise({ child, match: m });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c) => (logs[name] += c.toString()));
    child.on('error', (err) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      logs[name] += `\n[exited code=${code} signal=${signal}]\n`;
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(new Error(`${name} exited (code ${code}, signal ${signal}) before it was ready:\n${logs[name]}`));
    });
  });
}

export async function stop(child) {
  if (!child || !alive(child)) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const graceful = await Promise.race([exited.then(() => true), sleep(3000).then(() => false)]);
  if (!graceful && alive(child)) {
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(2000)]);
  }
}

/** Starts the fake Ollama server (extra: more flags, e.g. ['--script', 'tools']); resolves with { child, url }. */
export async function startFake(logs, name, tokenDelay, extra = []) {
  const f = await start(
    logs,
    name,
    join(binDir, 'fake-ollama'),
    ['--addr', '127.0.0.1:0', '--token-delay', tokenDelay, ...extra],
    {},
    /FAKE_OLLAMA_URL=(\S+)/,
  );
  return { child: f.child, url: f.match[1] };
}

/** Starts `hermes serve` on a fresh data dir; resolves with { child, url }. */
export async function startHermes(logs, dataDir, ollamaURL, name = 'hermes', env = {}) {
  const h = await start(
    logs,
    name,
    join(binDir, 'hermes'),
    ['--data-dir', dataDir, 'serve', '--addr', '127.0.0.1:0'],
    { OLLAMA_HOST: ollamaURL, HERMES_DATA_DIR: undefined, ...env },
    /(http:\/\/127\.0\.0\.1:\d+\/\?token=[^\s"'<>]+)/,
  );
  return { child: h.child, url: h.match[1] };
}

const CODE_LINE = /approval code (\d{3}) (\d{3}) /g;

/** The one-time approval codes a process printed so far (oldest first). */
export function approvalCodes(logs, name = 'hermes') {
  return [...(logs[name] ?? '').matchAll(CODE_LINE)].map((m) => m[1] + m[2]);
}

/**
 * Waits until `hermes serve` printed more than `seen` approval codes on its terminal and returns
 * the newest: what a user reads there before typing it into the page.
 */
export async function waitForCode(logs, seen, name = 'hermes', timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const codes = approvalCodes(logs, name);
    if (codes.length > seen) return codes[codes.length - 1];
    await sleep(50);
  }
  throw new Error(`${name} printed no new approval code within ${timeoutMs} ms:\n${logs[name]}`);
}

/**
 * Answers the code step of an approval dialog (web mode): after a click that asked the server,
 * reads the code from the terminal, types it into the field with testid and presses Enter.
 */
export async function typeCode(page, logs, seen, testid) {
  const code = await waitForCode(logs, seen);
  const field = page.getByTestId(testid);
  await field.waitFor({ timeout: 10_000 });
  await field.fill(`${code.slice(0, 3)} ${code.slice(3)}`);
  await field.press('Enter');
  return code;
}

export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Launches headless Chromium with a throwaway profile; problems collects CSP violations and page errors. */
export async function launch(profileDir, problems) {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath,
    headless: true,
    acceptDownloads: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1200, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (msg) => {
    const text = msg.text();
    // A meta-delivered CSP cannot use frame-ancestors; the browser says so, which is expected.
    if (/Content Security Policy/i.test(text) && !/frame-ancestors/i.test(text)) problems.push(`CSP: ${text}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return { context, page };
}

export function ensureArtifacts() {
  mkdirSync(artifacts, { recursive: true });
}

export async function shot(page, name) {
  try {
    await page.screenshot({ path: join(artifacts, name), fullPage: true });
  } catch (err) {
    console.error(`screenshot ${name} failed: ${err.message}`);
  }
}

/** The three window sizes every UI change is looked at in. */
export const SHOT_SIZES = [
  [800, 600],
  [1100, 700],
  [1440, 900],
];

/**
 * Screenshots of the page as it stands, light and dark at the three sizes, as
 * DIR/NAME-LANG-SCHEME-WxH.png (LANG names the page's language; set it first). each(page)
 * runs before each one (a check of the layout); settle is the wait after a resize, in ms.
 * The page is left dark at the largest size: the caller puts it back as it needs.
 */
export async function themedShots(page, dir, name, lang, { settle = 150, each = async () => {} } = {}) {
  mkdirSync(dir, { recursive: true });
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of SHOT_SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await sleep(settle);
      await each(page);
      await page.screenshot({ path: join(dir, `${name}-${lang}-${scheme}-${w}x${h}.png`) });
    }
  }
}

/** Ends every process this file started, writes their logs and removes the temp dirs. */
export async function cleanup(logs, dirs, prefix = '') {
  for (const c of children) await stop(c);
  for (const [name, text] of Object.entries(logs)) {
    try {
      writeFileSync(join(artifacts, `${prefix}${name}.log`), text);
    } catch {
      // artifacts are best effort
    }
  }
  for (const d of dirs) if (d) rmSync(d, { recursive: true, force: true });
}

export async function send(page, text) {
  const composer = page.getByTestId('composer');
  await composer.click();
  await composer.fill(text);
  await composer.press('Enter');
}

/** State of the newest assistant message. */
export async function lastAssistant(page) {
  return page.evaluate(() => {
    const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
    const el = all[all.length - 1];
    if (!el) return { count: 0, status: 'none', text: '' };
    const body = el.querySelector('[data-testid="message-body"]');
    return { count: all.length, status: el.dataset.status, text: (body?.textContent ?? '').trim() };
  });
}

/** Sends text and waits until its reply has finished (any final status). */
export async function sendAndWait(page, text, timeoutMs = 30_000) {
  const before = (await lastAssistant(page)).count;
  await send(page, text);
  await page.waitForFunction(
    (n) => {
      const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
      const el = all[all.length - 1];
      return all.length > n && el && el.dataset.status !== 'streaming';
    },
    before,
    { timeout: timeoutMs },
  );
  return lastAssistant(page);
}

/** Makes sure the fake model is the chat model and the status bar says ready. */
export async function useFakeModel(page) {
  await page.waitForFunction(
    (model) => [...document.querySelectorAll('[data-testid="model-picker"] option')].some((o) => o.value === model),
    MODEL,
    { timeout: 15_000 },
  );
  const picker = page.getByTestId('model-picker');
  if ((await picker.inputValue()) !== MODEL) await picker.selectOption(MODEL);
  await page.waitForSelector('[data-testid="status-bar"][data-state="ok"]', { timeout: 15_000 });
}

/**
 * Starts the fake Ollama and `hermes serve` on fresh data and profile dirs, opens the page
 * and selects the fake's model. prepare(dataDir) runs before Hermes starts (e.g. to write
 * tools.yaml). The result is what closeApp takes back.
 */
export async function openApp(logs, problems, { prefix, tokenDelay = '0s', fakeArgs = [], prepare } = {}) {
  ensureArtifacts();
  const dataDir = tempDir(`hermes-e2e-${prefix}-data-`);
  const profileDir = tempDir(`hermes-e2e-${prefix}-chromium-`);
  if (prepare) prepare(dataDir);
  const f = await startFake(logs, 'fake-ollama', tokenDelay, fakeArgs);
  const h = await startHermes(logs, dataDir, f.url);
  const { context, page } = await launch(profileDir, problems);
  await page.goto(h.url);
  await page.getByTestId('status-bar').waitFor();
  await useFakeModel(page);
  return { dataDir, profileDir, context, page, url: h.url, fake: f.child, hermes: h.child };
}

/** Takes the final screenshot, closes the browser and stops the processes openApp started. */
export async function closeApp(logs, app, finalShot, prefix) {
  if (app.page) await shot(app.page, finalShot);
  if (app.context) await app.context.close().catch(() => {});
  await cleanup(logs, [app.dataDir, app.profileDir].filter(Boolean), prefix);
}

/** The UI's language now: 'zh' or 'en'. */
export async function uiLanguage(page) {
  return (await page.evaluate(() => document.documentElement.lang)).startsWith('zh') ? 'zh' : 'en';
}

/** Switches the UI to want ('en' or 'zh') from the ⋯ menu, and closes the menu if it stays open. */
export async function setLanguage(page, want) {
  if ((await uiLanguage(page)) === want) return;
  await menuItem(page, 'language-toggle');
  await page.waitForFunction((w) => document.documentElement.lang.startsWith(w), want);
  if (await page.getByTestId('language-toggle').isVisible()) await page.keyboard.press('Escape');
}

/**
 * Clicks an item of the header's ⋯ menu (language-toggle, settings-button, shortcuts-button),
 * opening the menu first.
 */
export async function menuItem(page, testid) {
  const item = page.getByTestId(testid);
  if (!(await item.isVisible())) await page.getByTestId('header-menu').click();
  await item.click();
}
