// Browser end-to-end test of images (issue 30, point 2), in `hermes serve` with the fake Ollama's
// vision model gemma3 (--vision: a request carrying images is answered with each image's size,
// format and length as received). A 2000×1500 photo (PNG, written here) is picked with the
// paperclip: its chip shows a thumbnail, 1024×768 and its tokens; with the chat model llama3.2,
// which cannot see, the composer says so before sending and names gemma3, and Send stays off.
// A second image pasted from the clipboard is attached too. With gemma3 chosen, the message goes:
// the fake says it received two 1024-pixel JPEGs (downscaled in Go); the conversation shows the
// images; the context inspector shows them with their tokens; the reply survives a reload.
// Deleting the turn leaves none of the image's bytes in any file of the data dir. Screenshots of
// the composer and of the conversation in English and Chinese, light and dark, at 800, 1100 and
// 1440 px, into images/.
//
//   npm run build && (cd .. && go tool task build) && node --test e2e/images.e2e.test.mjs
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, closeApp, openApp, send, setLanguage, sleep, tempDir, themedShots } from './harness.mjs';

const logs = {};
const PREFIX = 'images';
const shotsDir = join(artifacts, 'images');
const files = tempDir('hermes-e2e-images-files-');

/** A w×h RGB PNG with smooth colour and a few dark bars (something a model could look at). */
function photoPNG(w, h) {
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    for (let x = 0; x < w; x++) {
      const bar = Math.floor(x / 160) % 4 === 0 && y > h / 3 && y < (2 * h) / 3;
      const i = row + 1 + x * 3;
      raw[i] = bar ? 30 : Math.floor((255 * x) / w);
      raw[i + 1] = bar ? 30 : Math.floor((255 * y) / h);
      raw[i + 2] = bar ? 40 : 160;
    }
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** Pieces of bytes, raw and as base64, to look for in the data dir's files. */
function traces(bytes) {
  const out = [];
  const b64 = bytes.toString('base64');
  for (let i = 0; i < 10; i++) {
    const at = 600 + Math.floor((i * (bytes.length - 800)) / 10);
    out.push(bytes.subarray(at, at + 24));
    const bat = Math.floor(at / 3) * 4;
    out.push(Buffer.from(b64.slice(bat, bat + 32)));
  }
  return out;
}

function found(dir, pieces) {
  let n = 0;
  for (const f of readdirSync(dir, { recursive: true })) {
    let data;
    try {
      data = readFileSync(join(dir, String(f)));
    } catch {
      continue; // a folder
    }
    for (const p of pieces) if (data.includes(p)) n++;
  }
  return n;
}

async function lastReply(page) {
  await page.waitForFunction(() => {
    const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
    const el = all[all.length - 1];
    return el && el.dataset.status !== 'streaming';
  }, null, { timeout: 30_000 });
  return page.evaluate(() => {
    const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]');
    return all[all.length - 1].querySelector('[data-testid="message-body"]').textContent.trim();
  });
}

/** Pastes a PNG file into the composer as the clipboard would. */
async function pasteImage(page, bytes) {
  await page.evaluate((b64) => {
    const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bin], 'image.png', { type: 'image/png' }));
    const ev = new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true });
    document.querySelector('[data-testid="composer"]').dispatchEvent(ev);
  }, bytes.toString('base64'));
}

describe('images', { timeout: 300_000 }, () => {
  let app;
  const problems = [];

  before(async () => {
    writeFileSync(join(files, 'pump.png'), photoPNG(2000, 1500));
    app = await openApp(logs, problems, { prefix: PREFIX, fakeArgs: ['--vision', '--extra-words', '3'] });
  });

  after(async () => {
    if (app) await closeApp(logs, app, `${PREFIX}-final.png`, `${PREFIX}-`);
  });

  it('attaches, refuses before sending to a model that cannot see, and sends to one that can', async () => {
    const { page } = app;
    await setLanguage(page, 'en');
    await page.getByTestId('document-input').setInputFiles(join(files, 'pump.png'));
    const chip = page.locator('[data-testid="document-chip"][data-kind="image"]');
    await chip.waitFor({ timeout: 20_000 });
    assert.match(await chip.textContent(), /pump\.png.*1024×768/);
    assert.ok(await page.getByTestId('document-thumb').evaluate((img) => img.complete && img.naturalWidth > 0 && img.naturalWidth <= 160));
    await pasteImage(page, photoPNG(640, 480));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="document-chip"][data-kind="image"]').length === 2, null, { timeout: 20_000 });
    assert.match(await page.locator('[data-testid="document-chip"]').nth(1).textContent(), /pasted-.*\.png.*640×480/);
    await page.getByTestId('composer').fill('what is broken here?');
    const blocked = page.getByTestId('send-blocked');
    await blocked.waitFor();
    assert.match(await blocked.textContent(), /^llama3\.2 cannot see images\. Models here that can: gemma3\./);
    assert.equal(await page.getByTestId('send').isDisabled(), true);
    await themedShots(page, shotsDir, 'composer-blind', 'en');
    await setLanguage(page, 'zh');
    await page.waitForFunction(() => /看不了图片/.test(document.querySelector('[data-testid="send-blocked"]')?.textContent ?? ''));
    await themedShots(page, shotsDir, 'composer-blind', 'zh');
    await setLanguage(page, 'en');

    await page.getByTestId('model-picker').selectOption('gemma3');
    await blocked.waitFor({ state: 'detached' });
    await page.getByTestId('send').click();
    const reply = await lastReply(page);
    assert.match(reply, /^Image 1: 1024x768 jpeg, \d+ bytes\. Image 2: 640x480 jpeg, \d+ bytes\./);
    const shown = page.locator('[data-testid="message"][data-role="user"] [data-testid="message-image"] img');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="message-image"] img').length === 2);
    assert.ok(await shown.first().evaluate((img) => img.complete && img.naturalWidth === 1024));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator('[data-testid="message-context"]').last().click();
    await page.locator('[data-testid="context-image"] img').first().waitFor();
    const items = await page.$$eval('[data-testid="context-item"]', (els) =>
      els.filter((e) => e.querySelector('[data-testid="context-image"]')).map((e) => e.textContent.replace(/\s+/g, ' ')),
    );
    assert.equal(items.length, 2, JSON.stringify(items));
    assert.match(items[0], /\d+ tokens/);
    await themedShots(page, shotsDir, 'conversation', 'en');
    await setLanguage(page, 'zh');
    await themedShots(page, shotsDir, 'conversation', 'zh');
    await setLanguage(page, 'en');
    await page.keyboard.press('Escape');
  });

  it('deleting the turn leaves no byte of the image in the data dir', async () => {
    const { page, dataDir } = app;
    const stored = Buffer.from(
      (await page.locator('[data-testid="message-image"] img').first().getAttribute('src')).replace(/^data:image\/\w+;base64,/, ''),
      'base64',
    );
    const pieces = traces(stored);
    assert.ok(found(dataDir, pieces) > 0, 'the stored image is not in the data dir before the delete: the check would prove nothing');
    const user = page.locator('[data-testid="message"][data-role="user"]').last();
    await user.hover();
    await user.getByTestId('message-delete').click();
    await page.getByTestId('turn-delete-ok').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="message-image"]').length === 0);
    await sleep(500);
    assert.equal(found(dataDir, pieces), 0, 'pieces of the deleted image are still in the data dir');
    assert.deepEqual(problems, []);
  });
});
