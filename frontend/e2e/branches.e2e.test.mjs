// Browser end-to-end test of the chat's branches against `hermes serve` and the fake Ollama
// (default echo script: "Echo: <text> …"): Regenerate streams a second version of a reply and
// the switcher goes 2/2 → 1/2 (the first reply again, also after a reload); Edit resends a user
// message as a new version with its own reply while the old branch stays reachable; the figures
// line (model, tokens, speed, first token) is under a finished reply; Delete turn asks first and
// the turn stays gone after a reload. Screenshots of the message actions and the switchers in
// English and Chinese, light and dark, at 800, 1100 and 1440 px.
//
//   npm run build && (cd .. && go tool task build) && node --test e2e/branches.e2e.test.mjs
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeApp, openApp, sendAndWait, setLanguage, shot, SHOT_SIZES, sleep } from './harness.mjs';

const logs = {};

const replies = (page) => page.locator('[data-testid="message"][data-role="assistant"]');
const users = (page) => page.locator('[data-testid="message"][data-role="user"]');

/** Every shown message: role, id, status, text and its switcher's place ("2/3"), in order. */
async function conversation(page) {
  return page.$$eval('[data-testid="message"]', (els) =>
    els.map((el) => {
      const sw = el.querySelector('[data-testid="version-switcher"]');
      return {
        role: el.dataset.role,
        id: el.dataset.messageId,
        status: el.dataset.status,
        text: (el.querySelector('[data-testid="message-body"]')?.textContent ?? '').trim(),
        version: sw ? `${Number(sw.dataset.index) + 1}/${sw.dataset.count}` : '',
      };
    }),
  );
}

/** Waits until the shown conversation satisfies test (a function of conversation()'s result). */
async function waitConversation(page, test, timeout = 30_000) {
  const end = Date.now() + timeout;
  let last = [];
  while (Date.now() < end) {
    last = await conversation(page);
    if (test(last)) return last;
    await sleep(40);
  }
  throw new Error(`the conversation did not get there within ${timeout} ms: ${test}\n${JSON.stringify(last, null, 1)}`);
}


/**
 * The header stays one row, and in every message the actions row neither wraps nor overlaps:
 * its controls sit side by side on one line, inside the message, below the text.
 */
async function assertTidy(page, where) {
  const g = await page.evaluate(() => {
    const header = document.querySelector('[data-testid="header"]');
    const items = [...header.children].filter((e) => e.getBoundingClientRect().height > 0).map((e) => e.getBoundingClientRect());
    const problems = [];
    for (const msg of document.querySelectorAll('[data-testid="message"]')) {
      const row = msg.querySelector('[data-testid="message-actions"]');
      if (!row) continue;
      const box = row.getBoundingClientRect();
      const kids = [...row.children].filter((c) => c.getClientRects().length > 0 && !c.classList.contains('note')).map((c) => c.getBoundingClientRect());
      for (let i = 1; i < kids.length; i++) {
        if (kids[i].left < kids[i - 1].right - 0.5) problems.push(`${msg.dataset.messageId}: controls overlap`);
        if (kids[i].top >= kids[i - 1].bottom) problems.push(`${msg.dataset.messageId}: actions wrap`);
      }
      if (row.scrollWidth > row.clientWidth + 1) problems.push(`${msg.dataset.messageId}: actions cut off`);
      const mb = msg.getBoundingClientRect();
      if (box.right > mb.right + 1) problems.push(`${msg.dataset.messageId}: actions stick out`);
      const body = msg.querySelector('[data-testid="message-body"]')?.getBoundingClientRect();
      if (body && box.top < body.bottom - 0.5) problems.push(`${msg.dataset.messageId}: actions over the text`);
      const fig = msg.querySelector('[data-testid="message-figures"]');
      if (fig && fig.scrollWidth > fig.clientWidth + 1) problems.push(`${msg.dataset.messageId}: figures cut off`);
    }
    return {
      oneRow: Math.max(...items.map((r) => r.top)) < Math.min(...items.map((r) => r.bottom)),
      overflow: header.scrollWidth - header.clientWidth,
      problems,
    };
  });
  const msg = `${where}: ${JSON.stringify(g)}`;
  assert.ok(g.oneRow, `header on more than one row: ${msg}`);
  assert.ok(g.overflow <= 0, `header overflows: ${msg}`);
  assert.deepEqual(g.problems, [], msg);
}

describe('chat branches in the web UI', { timeout: 300_000 }, () => {
  let app = {};
  const problems = [];
  let firstReply = { id: '', text: '' };

  before(async () => {
    app = await openApp(logs, problems, { prefix: 'branches', tokenDelay: '20ms' });
  });

  after(() => closeApp(logs, app, 'branches-final.png', 'branches-'));

  it('regenerates a reply as a second version; the switcher goes back to the first', async () => {
    const { page } = app;
    const first = await sendAndWait(page, 'hello branches');
    assert.equal(first.status, 'ok', first.text);
    assert.match(first.text, /^Echo: hello branches/);
    const reply = replies(page).last();
    firstReply = { id: await reply.getAttribute('data-message-id'), text: first.text };
    assert.ok(firstReply.id && !firstReply.id.startsWith('local-'));

    await reply.hover();
    await reply.getByTestId('message-regenerate').click();
    // The new version streams in the reply's place, already counted as 2 of 2.
    const live = await waitConversation(page, (l) => l.length === 2 && l[1].status === 'streaming' && l[1].text.length > 0, 15_000);
    assert.equal(live[1].version, '2/2');
    const done = await waitConversation(page, (l) => l.length === 2 && l[1].status === 'ok' && !l[1].id.startsWith('local-'));
    assert.notEqual(done[1].id, firstReply.id);
    assert.equal(done[1].version, '2/2');
    assert.match(done[1].text, /^Echo: hello branches/);
    // The user message was not stored again.
    assert.deepEqual(done.map((m) => m.role), ['user', 'assistant']);
    assert.equal(done[0].version, '');
    const secondId = done[1].id;

    const sw = replies(page).last().getByTestId('version-switcher');
    assert.equal((await sw.getByTestId('version-label').textContent()).trim().slice(0, 3), '2/2');
    await sw.getByTestId('version-prev').click();
    const back = await waitConversation(page, (l) => l.length === 2 && l[1].version === '1/2');
    assert.equal(back[1].id, firstReply.id);
    assert.equal(back[1].text, firstReply.text);
    // The focus stays on the switcher (its other arrow, now that this end is reached): keyboard.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'version-next');
    await page.keyboard.press('Enter');
    const fwd = await waitConversation(page, (l) => l.length === 2 && l[1].version === '2/2');
    assert.equal(fwd[1].id, secondId);
    await page.keyboard.press('ArrowLeft');
    await waitConversation(page, (l) => l.length === 2 && l[1].version === '1/2');
    await shot(page, 'branches-1-regenerated.png');

    // The chosen version is the one shown after a reload.
    await page.reload();
    const reloaded = await waitConversation(page, (l) => l.length === 2, 15_000);
    assert.equal(reloaded[1].id, firstReply.id);
    assert.equal(reloaded[1].version, '1/2');
  });

  it('edits a user message: a new reply, a switcher on the message, the old branch reachable', async () => {
    const { page } = app;
    const user = users(page).last();
    const oldUserId = await user.getAttribute('data-message-id');
    await user.hover();
    await user.getByTestId('message-edit').click();
    const area = user.getByTestId('message-edit-text');
    assert.equal(await area.inputValue(), 'hello branches');
    // Esc cancels and changes nothing.
    await area.press('Escape');
    await user.getByTestId('message-editor').waitFor({ state: 'detached' });
    assert.equal((await conversation(page))[0].text, 'hello branches');

    await user.hover();
    await user.getByTestId('message-edit').click();
    await user.getByTestId('message-edit-text').fill('hello edited branch');
    await shot(page, 'branches-2-editor.png');
    await user.getByTestId('message-edit-text').press('Enter');
    const edited = await waitConversation(
      page,
      (l) => l.length === 2 && l[0].text === 'hello edited branch' && l[1].status === 'ok' && !l[1].id.startsWith('local-'),
    );
    assert.notEqual(edited[0].id, oldUserId);
    assert.equal(edited[0].version, '2/2');
    assert.match(edited[1].text, /^Echo: hello edited branch/);
    assert.equal(edited[1].version, '');
    await shot(page, 'branches-2-edited.png');

    // The old branch: the first message and the reply it had.
    await users(page).last().getByTestId('version-prev').click();
    const old = await waitConversation(page, (l) => l.length === 2 && l[0].version === '1/2');
    assert.equal(old[0].id, oldUserId);
    assert.equal(old[0].text, 'hello branches');
    assert.equal(old[1].id, firstReply.id);
    assert.equal(old[1].version, '1/2');
    await users(page).last().getByTestId('version-next').click();
    await waitConversation(page, (l) => l.length === 2 && l[0].version === '2/2' && l[0].text === 'hello edited branch');
  });

  it('shows the figures line under a finished reply', async () => {
    const { page } = app;
    const fig = replies(page).last().getByTestId('message-figures');
    await fig.waitFor();
    const text = (await fig.textContent()).trim();
    assert.match(text, /llama3\.2/);
    assert.match(text, /\d+ → \d+ tokens/);
    assert.ok(!/\b0 tok\/s|NaN|undefined/.test(text), text);
    assert.ok((await fig.getAttribute('title')).includes('Model: llama3.2'));
    const size = await fig.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    assert.ok(size <= 12.5, `figures font ${size}px`);
  });

  it('takes screenshots of the actions and switchers in both languages and themes at three sizes', async () => {
    const { page } = app;
    const sizes = SHOT_SIZES;
    // The edited message's reply regenerated too (both switchers show), and a second turn, so
    // the screenshots show actions between messages.
    const reply0 = replies(page).first();
    await reply0.hover();
    await reply0.getByTestId('message-regenerate').click();
    await waitConversation(page, (l) => l.length === 2 && l[1].version === '2/2' && l[1].status === 'ok' && !l[1].id.startsWith('local-'));
    const r = await sendAndWait(page, 'a second turn');
    assert.equal(r.status, 'ok');
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const l of ['en', 'zh']) {
        await setLanguage(page, l);
        for (const [w, h] of sizes) {
          const tag = `${l}-${scheme}-${w}`;
          await page.setViewportSize({ width: w, height: h });
          await page.evaluate(() => document.activeElement?.blur());
          await sleep(150);
          await assertTidy(page, tag);
          // The reply with versions, hovered: its actions show.
          const reply = replies(page).first();
          await reply.scrollIntoViewIfNeeded();
          await reply.hover();
          await sleep(200);
          await shot(page, `branches-reply-${tag}.png`);
          const user = users(page).first();
          await user.hover();
          await sleep(200);
          await shot(page, `branches-user-${tag}.png`);
        }
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1200, height: 800 });
    await setLanguage(page, 'en');
  });

  it('deletes a turn only after asking; it stays gone after a reload', async () => {
    const { page } = app;
    const before = await conversation(page);
    assert.equal(before.length, 4);
    const user = users(page).last();
    await user.hover();
    await user.getByTestId('message-delete').click();
    const dialog = page.getByTestId('turn-confirm-delete');
    await dialog.waitFor();
    await shot(page, 'branches-3-delete-dialog.png');
    await page.getByTestId('turn-delete-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await conversation(page)).length, 4);

    await user.hover();
    await user.getByTestId('message-delete').click();
    await page.getByTestId('turn-delete-ok').click();
    const after = await waitConversation(page, (l) => l.length === 2);
    assert.ok(!after.some((m) => m.text.includes('a second turn')), JSON.stringify(after));

    await page.reload();
    await waitConversation(page, (l) => l.length >= 2, 15_000);
    await sleep(300);
    const reloaded = await conversation(page);
    assert.equal(reloaded.length, 2, JSON.stringify(reloaded));
    assert.ok(!reloaded.some((m) => m.text.includes('a second turn')));
    assert.equal(reloaded[0].text, 'hello edited branch');
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
