// Browser end-to-end test of the web UI against `hermes serve` and the fake Ollama server.
//
//   npm run build && (cd .. && build the Go binaries into build/bin) && npm run e2e
//
// Environment:
//   HERMES_BIN_DIR   folder with the `hermes` and `fake-ollama` binaries (default ../build/bin)
//   E2E_ARTIFACTS    where screenshots and process logs go (default /tmp/hermes-e2e)
//   CHROMIUM         browser binary (default /usr/bin/chromium); never downloaded
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const binDir = resolve(process.env.HERMES_BIN_DIR || join(here, '..', '..', 'build', 'bin'));
const artifacts = resolve(process.env.E2E_ARTIFACTS || '/tmp/hermes-e2e');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const MODEL = 'llama3.2';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every process this file starts, so the after hook can end them all. */
const children = [];
const logs = {};

/**
 * Starts a process and resolves with the first match of pattern in its output.
 * Output is kept for the artifacts folder.
 */
function start(name, file, args, env, pattern, timeoutMs = 30_000) {
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

function alive(child) {
  return child.exitCode === null && child.signalCode === null;
}

async function stop(child) {
  if (!alive(child)) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const graceful = await Promise.race([exited.then(() => true), sleep(3000).then(() => false)]);
  if (!graceful && alive(child)) {
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(2000)]);
  }
}

// Last resort if the runner itself is interrupted.
process.on('exit', () => {
  for (const c of children) if (alive(c)) c.kill('SIGKILL');
});

/** State of the newest assistant message. */
async function lastAssistant(page) {
  return page.evaluate(() => {
    const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
    const el = all[all.length - 1];
    if (!el) return { count: 0, status: 'none', text: '' };
    const body = el.querySelector('[data-testid="message-body"]');
    return { count: all.length, status: el.dataset.status, text: (body?.textContent ?? '').trim() };
  });
}

async function assistantCount(page) {
  return (await lastAssistant(page)).count;
}

async function send(page, text) {
  const composer = page.getByTestId('composer');
  await composer.click();
  await composer.fill(text);
  await composer.press('Enter');
}

async function shot(page, name) {
  try {
    await page.screenshot({ path: join(artifacts, name), fullPage: true });
  } catch (err) {
    console.error(`screenshot ${name} failed: ${err.message}`);
  }
}

describe('hermes web UI', { timeout: 180_000 }, () => {
  let fake;
  let hermes;
  let url;
  let dataDir;
  let profileDir;
  let context;
  let page;
  const problems = [];
  let fullReplyWords = 0;

  before(async () => {
    mkdirSync(artifacts, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'hermes-e2e-data-'));
    profileDir = mkdtempSync(join(tmpdir(), 'hermes-e2e-chromium-'));

    const f = await start(
      'fake-ollama',
      join(binDir, 'fake-ollama'),
      ['--addr', '127.0.0.1:0', '--token-delay', '60ms'],
      {},
      /FAKE_OLLAMA_URL=(\S+)/,
    );
    fake = f.child;
    const fakeURL = f.match[1];

    const h = await start(
      'hermes',
      join(binDir, 'hermes'),
      ['--data-dir', dataDir, 'serve', '--addr', '127.0.0.1:0'],
      { OLLAMA_HOST: fakeURL, HERMES_DATA_DIR: undefined },
      /(http:\/\/127\.0\.0\.1:\d+\/\?token=[^\s"'<>]+)/,
    );
    hermes = h.child;
    url = h.match[1];

    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: chromiumPath,
      headless: true,
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
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (msg) => {
      const text = msg.text();
      // A meta-delivered CSP cannot use frame-ancestors; the browser says so, which is expected.
      if (/Content Security Policy/i.test(text) && !/frame-ancestors/i.test(text)) problems.push(`CSP: ${text}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));

    await page.goto(url);
    await page.getByTestId('status-bar').waitFor();
  });

  after(async () => {
    if (page) await shot(page, 'hermes-e2e-final.png');
    if (context) await context.close().catch(() => {});
    for (const c of children) await stop(c);
    for (const [name, text] of Object.entries(logs)) {
      try {
        writeFileSync(join(artifacts, `${name}.log`), text);
      } catch {
        // artifacts are best effort
      }
    }
    for (const d of [dataDir, profileDir]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('uses the fake model and shows a ready status', async () => {
    await page.waitForFunction(
      (model) => [...document.querySelectorAll('[data-testid="model-picker"] option')].some((o) => o.value === model),
      MODEL,
      { timeout: 15_000 },
    );
    const picker = page.getByTestId('model-picker');
    if ((await picker.inputValue()) !== MODEL) await picker.selectOption(MODEL);
    await page.waitForSelector('[data-testid="status-bar"][data-state="ok"]', { timeout: 15_000 });
    assert.equal(await picker.inputValue(), MODEL);
  });

  it('streams a reply and ends with status ok', async () => {
    const before = await assistantCount(page);
    await send(page, 'hello there');
    const lengths = new Set();
    const deadline = Date.now() + 30_000;
    let last;
    while (Date.now() < deadline) {
      last = await lastAssistant(page);
      if (last.count > before) {
        if (last.status === 'streaming' && last.text.length > 0) lengths.add(last.text.length);
        if (last.status !== 'streaming') break;
      }
      await sleep(20);
    }
    assert.equal(last.status, 'ok', `reply ended as ${last.status}: ${last.text}`);
    assert.ok(lengths.size >= 2, `expected to see the reply grow, saw lengths ${[...lengths]}`);
    assert.match(last.text, /^Echo: hello there/);
    fullReplyWords = last.text.split(/\s+/).length;
    assert.ok(fullReplyWords > 10, `reply too short: ${last.text}`);
    // The composer keeps the focus for the next message.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'composer');
    await shot(page, 'hermes-e2e-1-streamed.png');
  });

  it('stops a reply with Esc and keeps the partial text', async () => {
    const before = await assistantCount(page);
    await send(page, 'second message');
    await page.waitForFunction(
      (n) => {
        const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
        const el = all[all.length - 1];
        const text = el?.querySelector('[data-testid="message-body"]')?.textContent ?? '';
        return all.length > n && el.dataset.status === 'streaming' && text.trim().split(/\s+/).length >= 3;
      },
      before,
      { timeout: 15_000, polling: 20 },
    );
    await page.getByTestId('stop').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForFunction(
      (n) => {
        const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
        return all.length > n && all[all.length - 1].dataset.status === 'cancelled';
      },
      before,
      { timeout: 10_000 },
    );
    const last = await lastAssistant(page);
    assert.match(last.text, /^Echo: second/);
    const words = last.text.split(/\s+/).length;
    assert.ok(words < fullReplyWords, `stopped reply has ${words} words, a full one ${fullReplyWords}`);
    const marker = await page
      .locator('[data-testid="message"][data-role="assistant"]')
      .last()
      .getByTestId('message-marker')
      .textContent();
    assert.ok(marker && marker.trim().length > 0);
    await page.getByTestId('send').waitFor();
    await shot(page, 'hermes-e2e-2-stopped.png');
  });

  it('shows both turns after a reload', async () => {
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length >= 4, null, {
      timeout: 15_000,
    });
    const msgs = await page.$$eval('[data-testid="message"]', (els) =>
      els.map((el) => ({
        role: el.dataset.role,
        status: el.dataset.status,
        text: (el.querySelector('[data-testid="message-body"]')?.textContent ?? '').trim(),
      })),
    );
    assert.deepEqual(
      msgs.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.equal(msgs[0].text, 'hello there');
    assert.match(msgs[1].text, /^Echo: hello there/);
    assert.equal(msgs[1].status, 'ok');
    assert.equal(msgs[2].text, 'second message');
    assert.match(msgs[3].text, /^Echo: second/);
    assert.equal(msgs[3].status, 'cancelled');
    const items = await page.getByTestId('session-item').count();
    assert.ok(items >= 1, 'the session is listed in the sidebar');
    await shot(page, 'hermes-e2e-3-reloaded.png');
  });

  it('tells the user what to do when Ollama goes away', async () => {
    await stop(fake);
    await page.waitForSelector('[data-testid="status-bar"][data-state="unreachable"]', { timeout: 10_000 });
    const text = await page.getByTestId('status-bar').textContent();
    assert.match(text ?? '', /not reachable|ollama serve/i);
    await shot(page, 'hermes-e2e-4-unreachable.png');
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
