// Browser end-to-end test of the Memory v2 user-facing parts (issue #17) against `hermes serve`
// and the fake Ollama started with --extract: an edit offers Undo edit, which puts the text back;
// Confirm moves a fact to the profile layer; the Inbox says why a pending item waits and
// approving it works; a turn's Undo is offered only while it can work (a profile switch takes it
// away, with the reason, and switching back brings it back); profiles are created, renamed,
// switched and deleted (only when not active, after asking how many memories go, with a receipt)
// with the status bar naming the active one; the context inspector lists the memories a recall
// considered but did not use, with the reason and scores; the Decay tab sets a category's
// half-life. Then screenshots of the Memory panel in English and Chinese, light and dark, at 800,
// 1100 and 1440 px (MEMORY2_SHOTS=0 skips them) into the artifacts folder's memory2/.
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, binDir, closeApp, openApp, sendAndWait, setLanguage, SHOT_SIZES, sleep, themedShots } from './harness.mjs';
import { manageOpen, openBrowser, waitActive } from './memorypanel.mjs';

const logs = {};
const shotsDir = join(artifacts, 'memory2');
const wantShots = process.env.MEMORY2_SHOTS !== '0';
const PENDING = 'My email is ana.lima@example.com';



/** Screenshots of the page as it is in both languages and themes, then the harness's viewport and theme back. */
async function bothLanguages(page, name) {
  if (!wantShots) return;
  for (const l of ['zh', 'en']) {
    await setLanguage(page, l);
    await themedShots(page, shotsDir, name, l, { settle: 200 });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1200, height: 800 }); // the tests after it expect it
}

async function switchTo(page, name) {
  await openBrowser(page);
  await page.getByTestId('memory-profile-select').selectOption(name);
  await waitActive(page, name);
}



describe('memory v2 UI', { timeout: 400_000 }, () => {
  let app = {};
  let page;
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, {
      prefix: 'mem2',
      tokenDelay: '2ms',
      fakeArgs: ['--extract'],
      // A memory holding personal data waits in the Inbox (added by the command line first).
      prepare: (dataDir) => {
        const r = spawnSync(join(binDir, 'hermes'), ['memory', 'add', PENDING], {
          env: { ...process.env, HERMES_DATA_DIR: dataDir, OLLAMA_HOST: 'http://127.0.0.1:9' },
          encoding: 'utf8',
        });
        assert.equal(r.status, 0, `memory add: ${r.stderr}`);
        assert.match(r.stdout, /\tpending\t/);
      },
    });
    page = app.page;
  });

  after(() => closeApp(logs, app, 'memory2-e2e-final.png', 'memory2-'));

  it('Confirm moves a stated fact into the profile layer', async () => {
    assert.equal((await sendAndWait(page, "Please remember that I'm allergic to peanuts.")).status, 'ok');
    await page.getByTestId('memory-notice').waitFor({ timeout: 20_000 });
    await openBrowser(page);
    await page.locator('[data-testid="memory-open"]', { hasText: 'I am allergic to peanuts' }).click();
    await page.getByTestId('memory-detail').waitFor();
    assert.equal(await page.locator('[data-testid="memory-detail"] [data-testid="memory-layer"]').getAttribute('data-layer'), 'fact');
    // An edit can be undone while the memory is as the edit left it.
    assert.equal(await page.getByTestId('memory-edit-undo').count(), 0);
    await page.getByTestId('memory-edit').click();
    await page.getByTestId('memory-edit-input').fill('I am allergic to peanuts and cashews');
    await page.getByTestId('memory-edit-save').click();
    await page.getByTestId('memory-edit-undo').waitFor({ timeout: 10_000 });
    await page.getByTestId('memory-edit-undo').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="memory-detail-text"]')?.textContent.trim() === 'I am allergic to peanuts', null, { timeout: 10_000 });
    await page.getByTestId('memory-edit-undo').waitFor({ state: 'detached' });
    await page.getByTestId('memory-confirm').click();
    await page.waitForSelector('[data-testid="memory-detail"] [data-testid="memory-layer"][data-layer="profile"]', { timeout: 10_000 });
    assert.equal(await page.getByTestId('memory-confirm').count(), 0, 'a profile memory is not offered Confirm again');
    await page.getByTestId('memory-back').click();
  });

  it('adds a memory from the panel and edits its key and value with its text', async () => {
    await openBrowser(page, 'all');
    await page.getByTestId('memory-add-input').fill('I live in Lisbon');
    await bothLanguages(page, 'memory2-add');
    await page.getByTestId('memory-add').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="memory-detail-text"]')?.textContent.trim() === 'I live in Lisbon', null, { timeout: 10_000 });
    await page.getByTestId('memory-edit').click();
    await page.getByTestId('memory-edit-input').fill('I live in Porto');
    await page.getByTestId('memory-edit-key').fill('home city');
    await page.getByTestId('memory-edit-value').fill('Porto');
    await bothLanguages(page, 'memory2-edit-fields');
    await page.getByTestId('memory-edit-save').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="memory-detail-text"]')?.textContent.trim() === 'I live in Porto', null, { timeout: 10_000 });
    const detail = await page.getByTestId('memory-detail').textContent();
    assert.match(detail, /home_city/, 'the key is stored as a key');
    assert.match(detail, /Porto/);
    // The same path as `hermes memory add`: the command line sees it with its key and value.
    const r = spawnSync(join(binDir, 'hermes'), ['--json', 'memory', 'list'], { env: { ...process.env, HERMES_DATA_DIR: app.dataDir }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const row = JSON.parse(r.stdout).find((m) => m.text === 'I live in Porto');
    assert.ok(row, r.stdout);
    assert.equal(row.key, 'home_city');
    assert.equal(row.value, 'Porto');
    assert.equal(row.origin, 'manual');
    await page.getByTestId('memory-back').click();
  });

  it('the Inbox says why an item waits, and approving it makes it active', async () => {
    await openBrowser(page, 'pending');
    // The address itself is masked; the item still waits for approval.
    const row = page.locator('[data-testid="memory-pending-row"]', { hasText: 'My email is' });
    await row.waitFor({ timeout: 10_000 });
    const why = row.getByTestId('memory-pending-why');
    assert.equal(await why.getAttribute('data-reason'), 'sensitive');
    assert.match(await why.textContent(), /It holds personal data/);
    await row.getByTestId('memory-pending-approve').click();
    await page.getByTestId('memory-pending-empty').waitFor({ timeout: 10_000 });
    await openBrowser(page, 'all');
    await page.waitForSelector('[data-testid="memory-row"][data-status="active"] >> text=My email is', { timeout: 10_000 });
  });

  it("offers a turn's Undo only while it can work, and says why when it cannot", async () => {
    await page.getByTestId('memory-close').click();
    if (await page.getByTestId('memory-notice').isVisible().catch(() => false)) await page.getByTestId('memory-notice-dismiss').click();
    await sendAndWait(page, 'Please remember that my favourite colour is green.');
    await page.getByTestId('memory-notice-undo').waitFor({ timeout: 20_000 });
    // Another profile becomes active: Undo would take the memory back from a profile not in use.
    await openBrowser(page);
    await page.getByTestId('memory-profile-new').click();
    await page.getByTestId('memory-profile-new-input').fill('work');
    await page.getByTestId('memory-profile-new-input').press('Enter');
    await waitActive(page, 'work');
    await page.getByTestId('memory-notice-undo-gone').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByTestId('memory-notice-undo').count(), 0);
    assert.equal(await page.getByTestId('memory-notice-undo-gone').getAttribute('data-code'), 'profile');
    assert.match(await page.getByTestId('memory-notice-undo-gone').textContent(), /Undo is no longer possible: it wrote into profile personal; switch back to undo\./);
    if (wantShots) {
      mkdirSync(shotsDir, { recursive: true });
      await page.screenshot({ path: join(shotsDir, 'memory2-undo-gone-en-light-1200x800.png') });
    }
    await switchTo(page, 'personal');
    await page.getByTestId('memory-notice-undo').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByTestId('memory-notice-undo-gone').count(), 0);
    await page.getByTestId('memory-notice-undo').click();
    await page.getByTestId('memory-notice').waitFor({ state: 'detached', timeout: 10_000 });
    await sleep(500);
    assert.equal(await page.locator('[data-testid="memory-open"]', { hasText: 'green' }).count(), 0, 'undo erased the fact');
  });

  it('renames, switches and deletes profiles; the status bar names the active one', async () => {
    await switchTo(page, 'work');
    await page.getByTestId('profile-chip').waitFor();
    await page.getByTestId('memory-profile-rename').click();
    await page.getByTestId('memory-profile-new-input').fill('job');
    await page.getByTestId('memory-profile-new-input').press('Enter');
    await waitActive(page, 'job');
    await page.waitForFunction(() => document.querySelector('[data-testid="profile-chip"]')?.textContent.trim() === 'Profile: job');
    // The active profile cannot be deleted: its row says why, and offers no delete.
    await manageOpen(page, true);
    const jobRow = page.locator('[data-testid="memory-profile-row"][data-name="job"]');
    assert.match(await jobRow.textContent(), /In use: switch to another profile to delete it/);
    assert.equal(await jobRow.getByTestId('memory-profile-delete').count(), 0);
    assert.match(await page.locator('[data-testid="memory-profile-row"][data-name="personal"]').textContent(), /The default profile can be emptied, not deleted/);
    await page.getByTestId('memory-profile-select').selectOption('personal');
    await waitActive(page, 'personal');
    await page.getByTestId('profile-chip').waitFor({ state: 'detached' });
    if (await page.getByTestId('memory-receipt').isVisible().catch(() => false)) await page.getByTestId('memory-receipt-dismiss').click();
    await jobRow.getByTestId('memory-profile-delete').click();
    await page.getByTestId('memory-profile-delete-dialog').waitFor();
    assert.match(await page.getByTestId('memory-profile-delete-body').textContent(), /Its 0 memories are erased for good/);
    await page.getByTestId('memory-profile-delete-confirm').click();
    await page.getByTestId('memory-receipt').waitFor();
    assert.match(await page.getByTestId('memory-receipt').textContent(), /Forgot 0 memories\. A new search finds 0 lexical and 0 vector matches\./);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="memory-profile-row"]').length === 1);
    await waitActive(page, 'personal');
    await page.getByTestId('memory-receipt-dismiss').click();
    await manageOpen(page, false);
  });

  it('the context inspector shows the memories considered but not used, with why and scores', async () => {
    await page.getByTestId('memory-close').click();
    assert.equal((await sendAndWait(page, 'What am I allergic to, and what is my email?')).status, 'ok');
    await page.getByTestId('context-toggle').click();
    // How memories were chosen is behind Details (the panel says why in words first).
    await page.getByTestId('context-details').locator('summary').click();
    await page.getByTestId('recall-log').waitFor({ timeout: 15_000 });
    await page.getByTestId('recall-kept').waitFor();
    const kept = await page.$$eval('[data-testid="recall-kept"] [data-testid="recall-candidate"]', (els) => els.map((e) => e.textContent));
    assert.ok(kept.some((t) => /allergic to peanuts/.test(t) && /Confirmed profile memory: always offered/.test(t)), kept.join(' | '));
    await page.getByTestId('recall-dropped').waitFor({ timeout: 5_000 });
    const dropped = await page.$$eval('[data-testid="recall-dropped"] [data-testid="recall-candidate"]', (els) =>
      els.map((e) => ({ why: e.querySelector('[data-testid="recall-why"]').textContent, scores: e.querySelector('[data-testid="recall-scores"]').textContent })),
    );
    assert.ok(dropped.length > 0);
    for (const d of dropped) {
      assert.ok(d.why.trim().length > 0, 'a dropped candidate says why');
      assert.match(d.scores, /rerank \d\.\d\d · fused \d\.\d{3} · lexical #(\d+|—) · vector #(\d+|—) · similarity -?\d\.\d\d/);
    }
    if (wantShots) {
      mkdirSync(shotsDir, { recursive: true });
      await page.getByTestId('recall-log').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(shotsDir, 'memory2-recall-dropped-en-light-1200x800.png') });
    }
    await page.getByTestId('context-toggle').click();
  });

  it('the Decay tab sets a half-life for a category', async () => {
    await openBrowser(page, 'decay');
    const row = page.locator('[data-testid="memory-decay-row"][data-category="health"]');
    await row.waitFor();
    // The default keeps a health fact for months: archived after about 285 days if never restated.
    assert.equal(await row.getByTestId('memory-decay-input').inputValue(), '180d');
    assert.equal(await row.getByTestId('memory-decay-archived').textContent(), 'kept ≈ 285 days');
    await row.getByTestId('memory-decay-input').fill('soon');
    await row.getByTestId('memory-decay-save').click();
    await page.getByTestId('memory-decay-error').waitFor();
    assert.match(await page.getByTestId('memory-decay-error').textContent(), /not a half-life/);
    // Refused in the user's language (bad_setting, by its reason); shot in both languages.
    for (const l of ['zh', 'en']) {
      await setLanguage(page, l);
      await openBrowser(page, 'decay');
      await row.getByTestId('memory-decay-input').fill(l === 'zh' ? '三个月' : '3 months');
      await row.getByTestId('memory-decay-save').click();
      const err = page.getByTestId('memory-decay-error');
      await page.waitForFunction((v) => document.querySelector('[data-testid="memory-decay-error"]')?.textContent?.includes(v), l === 'zh' ? '三个月' : '3 months');
      // Named by the row's category, not by the setting it is stored in.
      const said = (await err.textContent()) ?? '';
      assert.match(said, l === 'zh' ? /操作失败：健康：“三个月”不是半衰期；请写成 30d、2w 或 36h 这样的形式。/ : /health: “3 months” is not a half-life; write it like 30d, 2w or 36h\./);
      assert.doesNotMatch(said, /memory_half_lives/);
      if (!wantShots) continue;
      await themedShots(page, shotsDir, 'memory2-decay-refused', l, { settle: 200 });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1100, height: 700 });
    }
    await row.getByTestId('memory-decay-input').fill('90d');
    await row.getByTestId('memory-decay-input').press('Enter');
    await page.getByTestId('memory-decay-saved').waitFor();
    assert.equal(await row.getAttribute('data-custom'), 'true');
    assert.equal(await page.getByTestId('memory-decay-error').count(), 0);
  });

  it('takes screenshots of the Memory panel in both languages and themes at three sizes', { skip: !wantShots }, async () => {
    mkdirSync(shotsDir, { recursive: true });
    await page.getByTestId('memory-close').click();
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const l of ['en', 'zh']) {
        await page.setViewportSize({ width: 1100, height: 700 });
        await setLanguage(page, l);
        await openBrowser(page, 'all');
        await manageOpen(page, true);
        for (const [w, h] of SHOT_SIZES) {
          await page.setViewportSize({ width: w, height: h });
          await sleep(300);
          const fit = await page.evaluate(() => {
            const row = document.querySelector('[data-testid="memory-profiles"]');
            const tabs = document.querySelector('[role="tablist"]');
            return { overflow: row.scrollWidth - row.clientWidth, rowHeight: row.getBoundingClientRect().height, tabs: tabs.scrollWidth - tabs.clientWidth, tabsHeight: tabs.getBoundingClientRect().height };
          });
          assert.ok(fit.overflow <= 1, `${l} ${scheme} ${w}: the profile row overflows by ${fit.overflow}px`);
          assert.ok(fit.rowHeight < 48, `${l} ${scheme} ${w}: the profile row is ${fit.rowHeight}px high`);
          assert.ok(fit.tabs <= 1 && fit.tabsHeight < 44, `${l} ${scheme} ${w}: the tabs overflow (${fit.tabs}px, ${fit.tabsHeight}px high)`);
          await page.screenshot({ path: join(shotsDir, `memory2-panel-${l}-${scheme}-${w}x${h}.png`) });
        }
        await manageOpen(page, false);
        for (const [tab, name] of [
          ['decay', 'decay'],
          ['pending', 'inbox'],
        ]) {
          await openBrowser(page, tab);
          for (const [w, h] of SHOT_SIZES) {
            await page.setViewportSize({ width: w, height: h });
            await sleep(250);
            await page.screenshot({ path: join(shotsDir, `memory2-${name}-${l}-${scheme}-${w}x${h}.png`) });
          }
        }
        await openBrowser(page, 'all');
        // The context inspector's "Memories considered" (kept and dropped, with why).
        await page.getByTestId('memory-close').click();
        await page.getByTestId('context-toggle').click();
        await page.getByTestId('context-details').locator('summary').click();
        await page.getByTestId('recall-log').waitFor({ timeout: 15_000 });
        for (const [w, h] of SHOT_SIZES) {
          await page.setViewportSize({ width: w, height: h });
          await sleep(250);
          await page.getByTestId('recall-log').scrollIntoViewIfNeeded();
          await page.screenshot({ path: join(shotsDir, `memory2-recall-${l}-${scheme}-${w}x${h}.png`) });
        }
        await page.getByTestId('context-toggle').click();
        await page.setViewportSize({ width: 1100, height: 700 });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await setLanguage(page, 'en');
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
