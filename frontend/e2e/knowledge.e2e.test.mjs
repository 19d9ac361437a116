// Browser end-to-end test of the knowledge base against `hermes serve` and the fake Ollama started
// with --cite (a request carrying passages of the user's documents is answered "According to [1], "
// and passage 1's first sentence; "[9]" added when the message says "cite nine"):
//   - a folder of Markdown files (and a PDF that is not one) is added in the Knowledge panel by
//     typing its path; the reading's progress reaches done; the files are listed, the broken one
//     with its reason; a bigger folder shows the progress with Cancel, then Resume;
//   - a question gets a reply citing [1]: the chip opens the passage viewer with the passage marked;
//     a citation of no offered passage is struck and flagged;
//   - a file edited on disk is read again within seconds, and the next reply quotes the new text;
//   - removing the collection shows its receipt, and the canary word is then in no file of the
//     data dir.
// Screenshots (E2E_ARTIFACTS/knowledge): the panel with a failed file, the progress, the reply with
// citations and the viewer, in English and Chinese, light and dark, at 800, 1100 and 1440 px.
//
//   (cd .. && go tool task build) && node --test e2e/knowledge.e2e.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { axeViolations, formatViolations } from './axe.mjs';
import { artifacts, closeApp, lastAssistant, menuItem, openApp, sendAndWait, setLanguage, sleep, tempDir, themedShots } from './harness.mjs';

const logs = {};
const PREFIX = 'knowledge-';
const dir = join(artifacts, 'knowledge');
/** A word that is in the manual and nowhere else: after Remove it must be in no file of the data dir. */
const CANARY = 'quillibrant';

// Two sections: the faults are one passage (its first sentence is what --cite quotes), the
// service another; the canary is never in a first sentence, so no reply carries it.
const PUMP_V1 = `## Faults

The pump stops when the water level falls below the float switch. Code E1 blinks twice; the ${CANARY} relay then cuts the motor until the tank is refilled.

## Service

Grease the bearings every six months. Replace the filter each spring.
`;

const PUMP_V2 = `## Faults

The pump now restarts by itself after ninety seconds. Code E1 blinks twice; the ${CANARY} relay waits for the float switch.

## Service

Grease the bearings every six months. Replace the filter each spring.
`;

const BOILER = `# Boiler notes

The boiler is serviced every March by the heating company. Its pressure should read between one and two bar.
`;

/** A valid one-page PDF (Helvetica, ASCII) with these lines, as documenttest.MinimalPDF. */
function minimalPDF(lines) {
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let c = 'BT /F1 12 Tf 72 720 Td 14 TL\n';
  for (const l of lines) c += `(${l.replace(/[\\()]/g, (m) => '\\' + m)}) Tj T*\n`;
  c += 'ET';
  objs.push(
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    `<< /Length ${c.length} >>\nstream\n${c}\nendstream`,
  );
  let out = '%PDF-1.4\n';
  const offs = [];
  objs.forEach((o, i) => {
    offs.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const x = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const o of offs) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${x}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Every file under root, recursively. */
function allFiles(root) {
  const out = [];
  for (const name of readdirSync(root)) {
    const p = join(root, name);
    const st = statSync(p);
    if (st.isDirectory()) out.push(...allFiles(p));
    else if (st.isFile()) out.push(p);
  }
  return out;
}

/** Calls a bound method as the page does (web mode), with the page's token. */
async function call(page, method, ...args) {
  return page.evaluate(
    async ({ method, args }) => {
      const r = await fetch(`/api/call/${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Hermes-Token': sessionStorage.getItem('hermes.token') ?? '' },
        body: JSON.stringify(args),
      });
      return r.json();
    },
    { method, args },
  );
}

async function openPanel(page) {
  if ((await page.getByTestId('knowledge-toggle').getAttribute('aria-pressed')) !== 'true') await page.getByTestId('knowledge-toggle').click();
  await page.getByTestId('knowledge-panel').waitFor();
}

async function closePanel(page) {
  if ((await page.getByTestId('knowledge-toggle').getAttribute('aria-pressed')) === 'true') await page.getByTestId('knowledge-toggle').click();
  await page.getByTestId('knowledge-panel').waitFor({ state: 'detached' });
}

/** Adds a folder from the panel's form, typing its path and name. */
async function addFolder(page, path, name) {
  await page.getByTestId('kb-add').click();
  await page.getByTestId('kb-path').fill(path);
  await page.getByTestId('kb-name').fill(name);
  await page.getByTestId('kb-add-ok').click();
  await page.locator(`[data-testid="kb-collection"][data-name="${name}"]`).waitFor({ timeout: 15_000 });
}

/** Waits until no file of the collection waits to be read. */
async function waitRead(page, name, timeout = 60_000) {
  await page.waitForFunction(
    (n) => document.querySelector(`[data-testid="kb-collection"][data-name="${n}"]`)?.dataset.pending === '0',
    name,
    { timeout },
  );
}

/** Expands a collection's files (if it is not) and waits for count of them. */
async function showFiles(page, name, count) {
  const c = page.locator(`[data-testid="kb-collection"][data-name="${name}"]`);
  if ((await c.getByTestId('kb-expand').getAttribute('aria-expanded')) !== 'true') await c.getByTestId('kb-expand').click();
  await page.waitForFunction(
    ({ n, k }) => document.querySelectorAll(`[data-testid="kb-collection"][data-name="${n}"] [data-testid="kb-file"]`).length === k,
    { n: name, k: count },
    { timeout: 15_000 },
  );
}

/** No clipped or wrapped header, no horizontal overflow of the panel. */
async function checkLayout(page) {
  const g = await page.evaluate(() => {
    const header = document.querySelector('[data-testid="header"]');
    const btn = header.querySelector('[data-testid="context-toggle"]').getBoundingClientRect();
    const tops = new Set([...header.querySelectorAll('button')].filter((b) => b.getClientRects().length > 0).map((b) => Math.round(b.getBoundingClientRect().top)));
    const panel = document.querySelector('[data-testid="knowledge-panel"] .list');
    return {
      header: header.getBoundingClientRect().height,
      button: btn.height,
      rows: tops.size,
      overflow: header.scrollWidth - header.clientWidth,
      panelOverflow: panel ? panel.scrollWidth - panel.clientWidth : 0,
    };
  });
  const at = `${await page.evaluate(() => innerWidth)} px`;
  assert.ok(g.header < 2 * g.button + 20, `header taller than one row at ${at}: ${JSON.stringify(g)}`);
  assert.equal(g.rows, 1, `header buttons on different rows at ${at}`);
  assert.ok(g.overflow <= 0, `header overflows at ${at}`);
  assert.ok(g.panelOverflow <= 1, `the Knowledge panel scrolls sideways at ${at}: ${g.panelOverflow}`);
}

/** No serious or critical axe violation on the page, light and dark. */
async function checkAxe(page, view) {
  const found = [];
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await sleep(100);
    const v = await axeViolations(page);
    if (v.length) found.push(`[${view} ${scheme}]\n${formatViolations(v)}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(found, [], `axe found:\n${found.join('\n')}`);
}

describe('knowledge base', { timeout: 600_000 }, () => {
  let app;
  let docs;
  let big;
  const problems = [];

  before(async () => {
    docs = tempDir('hermes-e2e-kb-docs-');
    writeFileSync(join(docs, 'pump.md'), PUMP_V1);
    writeFileSync(join(docs, 'boiler.md'), BOILER);
    // A PDF that is not one: listed with the reason it could not be read.
    writeFileSync(join(docs, 'scan-2019.pdf'), 'this was never a PDF\n');
    // Enough PDFs (each read in the parser cage) for the reading to last a few seconds.
    big = tempDir('hermes-e2e-kb-big-');
    for (let i = 0; i < 240; i++) {
      writeFileSync(join(big, `ledger-${String(i).padStart(3, '0')}.pdf`), minimalPDF([`Ledger sheet ${i} of the quarterly archive.`, 'Routine entries only.']));
    }
    mkdirSync(dir, { recursive: true });
    app = await openApp(logs, problems, { prefix: 'knowledge', tokenDelay: '2ms', fakeArgs: ['--cite'] });
  });

  after(async () => {
    if (app) await closeApp(logs, app, 'knowledge-final.png', PREFIX);
    for (const d of [docs, big]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it('explains the knowledge base before there is one', async () => {
    const { page } = app;
    await openPanel(page);
    const empty = page.getByTestId('kb-empty');
    await empty.waitFor();
    assert.match(await empty.textContent(), /Nothing is copied or sent anywhere/);
    await page.screenshot({ path: join(dir, 'empty-en-light-1100.png') });
  });

  it('adds a folder by its typed path, reads it, and lists its files with the reason one failed', async () => {
    const { page } = app;
    await addFolder(page, docs, 'manuals');
    // The reading reaches done (its box stays a few seconds once finished).
    await page.waitForSelector('[data-testid="kb-progress"][data-state="finished"]', { timeout: 30_000 });
    assert.match(await page.getByTestId('kb-progress-line').textContent(), /^3 files read · 1 could not be read$/);
    await waitRead(page, 'manuals');
    const c = page.locator('[data-testid="kb-collection"][data-name="manuals"]');
    assert.equal(await c.getByTestId('kb-root').textContent(), docs);
    assert.match(await c.getByTestId('kb-facts').textContent(), /^3 files · 2 read · 1 could not be read · \d+ passages? · /);
    await showFiles(page, 'manuals', 3);
    const failed = page.locator('[data-testid="kb-file"][data-state="failed"]');
    assert.equal(await failed.getAttribute('data-path'), 'scan-2019.pdf');
    assert.equal(await failed.getByTestId('kb-file-reason').textContent(), 'Not a readable PDF');
    assert.equal(await page.locator('[data-testid="kb-file"][data-state="indexed"]').count(), 2);
    // A path that is not there is refused in words.
    await page.getByTestId('kb-add').click();
    await page.getByTestId('kb-path').fill(join(docs, 'nope'));
    await page.getByTestId('kb-path').press('Enter');
    await page.getByTestId('kb-add-error').waitFor();
    assert.match(await page.getByTestId('kb-add-error').textContent(), /^There is no such folder or file/);
    await page.getByTestId('kb-add-cancel').click();
    await page.getByTestId('kb-progress-dismiss').click().catch(() => {});
    await checkAxe(page, 'panel');
    for (const lang of ['en', 'zh']) {
      await setLanguage(page, lang);
      await themedShots(page, dir, 'panel', lang, { each: checkLayout });
    }
    await setLanguage(page, 'en');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows the reading of a bigger folder with its rate, Cancel and Resume', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1100, height: 700 });
    await addFolder(page, big, 'ledgers');
    // Collapse the manuals: the progress is the subject here.
    await page.locator('[data-testid="kb-collection"][data-name="manuals"] [data-testid="kb-expand"]').click();
    await page.waitForSelector('[data-testid="kb-progress"][data-state="running"]', { timeout: 15_000 });
    await page.waitForFunction(() => /\d+ of 240 files · .+\/s/.test(document.querySelector('[data-testid="kb-progress-line"]')?.textContent ?? ''), null, {
      timeout: 15_000,
    });
    // While it reads, the header's button says how many files are left.
    assert.match(await page.getByTestId('knowledge-toggle').getAttribute('aria-label'), /^Knowledge \(\d+ files? to read\)$/);
    await page.getByTestId('kb-cancel').click();
    await page.waitForSelector('[data-testid="kb-progress"][data-state="stopped"]', { timeout: 15_000 });
    assert.match(await page.getByTestId('kb-progress-line').textContent(), /^\d+ files? waiting/);
    await page.screenshot({ path: join(dir, 'progress-stopped-en-light-1100.png') });
    await page.getByTestId('kb-resume').click();
    await page.waitForSelector('[data-testid="kb-progress"][data-state="running"]', { timeout: 15_000 });
    // Screenshots while it reads: read it all again whenever it finished in between.
    const reading = async (p) => {
      if (await p.locator('[data-testid="kb-progress"][data-state="running"]').count()) return;
      await p.locator('[data-testid="kb-collection"][data-name="ledgers"] [data-testid="kb-reindex"]').click();
      await p.waitForSelector('[data-testid="kb-progress"][data-state="running"]', { timeout: 15_000 });
      await p.waitForFunction(() => /\/s/.test(document.querySelector('[data-testid="kb-progress-line"]')?.textContent ?? ''), null, { timeout: 15_000 });
    };
    for (const lang of ['en', 'zh']) {
      await setLanguage(page, lang);
      await themedShots(page, dir, 'progress', lang, {
        each: async (p) => {
          await reading(p);
          await checkLayout(p);
        },
      });
    }
    await setLanguage(page, 'en');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1100, height: 700 });
    // The ledgers go again (their receipt is shown) so that they answer no question below.
    await waitRead(page, 'ledgers', 120_000);
    await page.locator('[data-testid="kb-collection"][data-name="ledgers"] [data-testid="kb-remove"]').click();
    const dlg = page.getByTestId('kb-remove-dialog');
    await dlg.waitFor();
    assert.match(await dlg.textContent(), /Its 240 files and 240 passages are erased from the index/);
    await page.getByTestId('kb-remove-ok').click();
    await page.getByTestId('kb-receipt').waitFor();
    assert.match(await page.getByTestId('kb-receipt').textContent(), /Removed ledgers: 240 files, 240 passages and \d+ vectors erased from the index\./);
    await page.getByTestId('kb-receipt-dismiss').click();
    await page.locator('[data-testid="kb-collection"][data-name="ledgers"]').waitFor({ state: 'detached' });
  });

  it('answers with a citation whose chip opens the passage, marked', async () => {
    const { page } = app;
    await closePanel(page);
    const reply = await sendAndWait(page, 'What does the pump manual say about faults?');
    assert.equal(reply.status, 'ok');
    assert.match(reply.text, /According to 1, The pump stops when the water level falls below the float switch\./);
    const last = page.locator('[data-testid="message"][data-role="assistant"]').last();
    const chip = last.getByTestId('citation').first();
    assert.match(await chip.getAttribute('aria-label'), /^Source 1: pump\.md\b/);
    const sources = last.getByTestId('source');
    assert.match(await sources.first().textContent(), /^\[1\] pump\.md/);
    await chip.click();
    const viewer = page.getByTestId('passage-viewer');
    await viewer.waitFor();
    await page.getByTestId('passage-mark').waitFor();
    assert.equal(await page.getByTestId('passage-file').textContent(), 'pump.md');
    assert.match(await page.getByTestId('passage-mark').textContent(), /The pump stops when the water level falls below the float switch\./);
    // Web mode: no Open file button, the file's path instead.
    assert.equal(await page.getByTestId('passage-open').count(), 0);
    assert.match(await page.getByTestId('passage-path-note').textContent(), new RegExp(`${join(docs, 'pump.md').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    // The mark is in view inside its box.
    const inView = await page.evaluate(() => {
      const box = document.querySelector('[data-testid="passage-text"]').getBoundingClientRect();
      const m = document.querySelector('[data-testid="passage-mark"]').getBoundingClientRect();
      return m.top >= box.top - 1 && m.top < box.bottom;
    });
    assert.ok(inView, 'the marked passage is scrolled into view');
    await checkAxe(page, 'viewer');
    // The ⋯ menu (the language) is under the modal: the viewer is closed to switch, then opened again.
    for (const lang of ['en', 'zh']) {
      if (lang !== 'en') {
        await page.getByTestId('passage-close').click();
        await viewer.waitFor({ state: 'detached' });
        await setLanguage(page, lang);
        await chip.click();
        await page.getByTestId('passage-mark').waitFor();
      }
      await themedShots(page, dir, 'viewer', lang);
    }
    await page.getByTestId('passage-close').click();
    await viewer.waitFor({ state: 'detached' });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('strikes and flags a citation of no offered passage', async () => {
    const { page } = app;
    await setLanguage(page, 'en');
    const reply = await sendAndWait(page, 'What does the pump manual say about faults? cite nine');
    assert.equal(reply.status, 'ok');
    const last = page.locator('[data-testid="message"][data-role="assistant"]').last();
    await last.getByTestId('citation-bad').waitFor();
    assert.match(await last.getByTestId('citation-bad').textContent(), /^9 \(/);
    assert.equal(await last.getByTestId('citation-bad').getAttribute('title'), '[9] cites no source that was offered');
    assert.match(await last.getByTestId('bad-citations').textContent(), /\[9\]: this citation points at no passage the assistant was given\./);
    await checkAxe(page, 'reply');
    for (const lang of ['en', 'zh']) {
      await setLanguage(page, lang);
      await themedShots(page, dir, 'reply', lang, {
        each: async (p) => {
          await p.locator('[data-testid="message"][data-role="assistant"]').last().scrollIntoViewIfNeeded();
          await checkLayout(p);
        },
      });
    }
    await setLanguage(page, 'en');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('limits a chat to some collections in its settings', async () => {
    const { page } = app;
    for (const lang of ['en', 'zh']) {
      await setLanguage(page, lang);
      await menuItem(page, 'chat-settings-button');
      await page.getByTestId('chat-settings').waitFor();
      const pick = page.getByTestId('chat-settings-knowledge');
      await pick.waitFor();
      await pick.selectOption('some');
      await page.getByTestId('chat-settings-collections').waitFor();
      await themedShots(page, dir, 'chatsettings-knowledge', lang);
      if (lang === 'en') {
        await page.getByTestId('chat-settings-apply').click();
        await page.getByTestId('chat-settings').waitFor({ state: 'detached' });
        const sid = await page.evaluate(() => document.querySelector('[data-testid="session-item"][aria-current="true"]')?.getAttribute('data-session-id') ?? '');
        assert.ok(sid, 'a chat is open');
        const cs = await call(page, 'SessionSettings', sid);
        assert.deepEqual(cs.knowledge, ['manuals']);
      } else {
        await page.keyboard.press('Escape');
        await page.getByTestId('chat-settings').waitFor({ state: 'detached' });
      }
    }
    await setLanguage(page, 'en');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('reads a file edited on disk again within seconds, and answers from the new text', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1100, height: 700 });
    writeFileSync(join(docs, 'pump.md'), PUMP_V2);
    // The watcher reads it again: search finds the new sentence.
    const end = Date.now() + 30_000;
    let found = false;
    while (Date.now() < end && !found) {
      await sleep(500);
      const hits = await call(page, 'KBSearch', 'restarts by itself after ninety seconds');
      found = Array.isArray(hits) && hits.some((h) => /restarts by itself/.test(h.text));
    }
    assert.ok(found, 'the edited file was read again within 30 s');
    const reply = await sendAndWait(page, 'What does the pump manual say about faults now?');
    assert.match(reply.text, /According to 1, The pump now restarts by itself after ninety seconds\./);
    // The first reply's citation: its passage was replaced; the viewer never shows the old text
    // as the file's (it says the passage is gone, or shows the file as it is now).
    await page.locator('[data-testid="message"][data-role="assistant"]').first().getByTestId('citation').first().click();
    await page.getByTestId('passage-viewer').waitFor();
    await page.waitForSelector('[data-testid="passage-error"], [data-testid="passage-mark"]', { timeout: 15_000 });
    const shown = await page.getByTestId('passage-viewer').textContent();
    assert.doesNotMatch(shown, /The pump stops when the water level falls/);
    await page.screenshot({ path: join(dir, 'viewer-after-edit-en-light-1100.png') });
    await page.getByTestId('passage-close').click();
    await page.getByTestId('passage-viewer').waitFor({ state: 'detached' });
    assert.match((await lastAssistant(page)).text, /restarts/);
  });

  it('removes the collection: the receipt, and the canary word in no file of the data dir', async () => {
    const { page, dataDir } = app;
    await openPanel(page);
    await page.locator('[data-testid="kb-collection"][data-name="manuals"] [data-testid="kb-remove"]').click();
    const dlg = page.getByTestId('kb-remove-dialog');
    await dlg.waitFor();
    assert.match(await dlg.textContent(), /Remove manuals\?/);
    assert.match(await dlg.textContent(), /Its 3 files and \d+ passages? are erased from the index/);
    await page.getByTestId('kb-remove-ok').click();
    const receipt = page.getByTestId('kb-receipt');
    await receipt.waitFor();
    assert.match(await receipt.textContent(), /Removed manuals: 3 files, \d+ passages? and \d+ vectors? erased from the index\./);
    await page.getByTestId('kb-empty').waitFor();
    await page.screenshot({ path: join(dir, 'removed-en-light-1100.png') });
    const hits = [];
    for (const f of allFiles(dataDir)) {
      if (readFileSync(f).includes(Buffer.from(CANARY))) hits.push(f);
    }
    assert.deepEqual(hits, [], `the canary word is still in ${hits.join(', ')}`);
    assert.deepEqual(problems, []);
  });
});
