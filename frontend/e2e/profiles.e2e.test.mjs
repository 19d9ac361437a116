// Browser end-to-end test of memory profiles in the memory browser against `hermes serve` and
// the fake Ollama started with --extract: a fact stated in the default profile; a new profile
// made from the switcher (Enter) is switched to, lists nothing and shows its chip in the status
// bar; a fact stated in a new conversation there lands in it; a duplicate name shows the
// backend's error inline and Escape cancels; switching back lists the first fact again; the
// active profile offers no delete (its row says to switch first); once another is active, deleting
// it asks (saying how many memories go) and shows the receipt. Then screenshots of the
// panel with the switcher in English and Chinese, light and dark, at 800, 1100 and 1440 px
// (PROFILE_SHOTS=0 skips them), into the artifacts folder's profiles/ (or PROFILE_SHOTS_DIR).
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, closeApp, openApp, sendAndWait, setLanguage, shot, sleep } from './harness.mjs';
import { manageOpen, openBrowser, waitActive } from './memorypanel.mjs';

const logs = {};
const shotsDir = process.env.PROFILE_SHOTS_DIR || join(artifacts, 'profiles');
const wantShots = process.env.PROFILE_SHOTS !== '0';

/** The texts of the rows the memory browser lists. */
async function rowTexts(page) {
  return page.$$eval('[data-testid="memory-row"] [data-testid="memory-open"]', (els) => els.map((e) => e.textContent.trim()));
}



async function waitRows(page, texts) {
  await page.waitForFunction(
    (want) => {
      const got = [...document.querySelectorAll('[data-testid="memory-row"] [data-testid="memory-open"]')].map((e) => e.textContent.trim());
      return JSON.stringify(got.sort()) === JSON.stringify([...want].sort());
    },
    texts,
    { timeout: 15_000 },
  );
}

/** Opens or closes the profile list (where a profile that is not active can be deleted). */


describe('memory profiles UI', { timeout: 300_000 }, () => {
  let app = {};
  let page;
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, { prefix: 'prof', tokenDelay: '2ms', fakeArgs: ['--extract'] });
    page = app.page;
  });

  after(() => closeApp(logs, app, 'profiles-e2e-final.png', 'profiles-'));

  it('starts in the default profile with its memory and no chip', async () => {
    const reply = await sendAndWait(page, "Please remember that I'm allergic to peanuts.");
    assert.equal(reply.status, 'ok');
    await page.getByTestId('memory-notice').waitFor({ timeout: 20_000 });
    await openBrowser(page);
    await waitActive(page, 'personal');
    await waitRows(page, ['I am allergic to peanuts']);
    assert.match(await page.getByTestId('memory-profile-select').textContent(), /personal \(1\)/);
    assert.equal(await page.getByTestId('memory-profile-delete').count(), 0, 'the default profile cannot be deleted');
    assert.equal(await page.getByTestId('profile-chip').count(), 0);
  });

  it('creates a profile with Enter, switches to it, lists nothing and shows the chip', async () => {
    await page.getByTestId('memory-profile-new').click();
    const box = page.getByTestId('memory-profile-new-input');
    await box.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'memory-profile-new-input');
    await page.keyboard.type('work');
    await page.keyboard.press('Enter');
    await waitActive(page, 'work');
    await page.getByTestId('memory-empty').waitFor();
    assert.deepEqual(await rowTexts(page), []);
    await page.getByTestId('profile-chip').waitFor();
    assert.equal((await page.getByTestId('profile-chip').textContent()).trim(), 'Profile: work');
    assert.match(await page.getByTestId('memory-profile-select').textContent(), /work \(0\)/);
    // The panel stayed open (Enter did not close anything) and the select has the focus back.
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'memory-profile-select');
  });

  it('remembers a new conversation into the active profile', async () => {
    await page.getByTestId('new-session').click();
    const reply = await sendAndWait(page, 'Please remember that my favourite colour is green.');
    assert.equal(reply.status, 'ok');
    await openBrowser(page);
    await waitRows(page, ['My favourite colour is green']);
    await page.waitForFunction(() => /work \(1\)/.test(document.querySelector('[data-testid="memory-profile-select"]')?.textContent ?? ''));
  });

  it("shows the backend's error inline for a duplicate name, and Escape cancels", async () => {
    await page.getByTestId('memory-profile-new').click();
    await page.getByTestId('memory-profile-new-input').fill('work');
    await page.getByTestId('memory-profile-new-input').press('Enter');
    await page.getByTestId('memory-profile-error').waitFor();
    assert.match(await page.getByTestId('memory-profile-error').textContent(), /exist/i);
    if (wantShots) {
      mkdirSync(shotsDir, { recursive: true });
      await page.screenshot({ path: join(shotsDir, 'memory-profile-new-error-en-light-1200x800.png') });
    }
    await page.getByTestId('memory-profile-new-input').press('Escape');
    await page.getByTestId('memory-profile-new-input').waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('memory-profile-error').count(), 0);
    assert.ok(await page.getByTestId('memory-panel').isVisible(), 'Escape in the name box does not close the panel');
    await waitActive(page, 'work');
  });

  it('switches back with the select: the first fact again, no chip', async () => {
    await page.getByTestId('memory-profile-select').selectOption('personal');
    await waitActive(page, 'personal');
    await waitRows(page, ['I am allergic to peanuts']);
    await page.getByTestId('profile-chip').waitFor({ state: 'detached' });
  });

  it('takes screenshots of the switcher in both languages and themes at three sizes', { skip: !wantShots }, async () => {
    mkdirSync(shotsDir, { recursive: true });
    await page.getByTestId('memory-profile-select').selectOption('work');
    await waitActive(page, 'work');
    await waitRows(page, ['My favourite colour is green']);
    const sizes = [
      [800, 600],
      [1100, 700],
      [1440, 900],
    ];
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const l of ['en', 'zh']) {
        await page.setViewportSize({ width: 1100, height: 700 });
        await setLanguage(page, l);
        await openBrowser(page);
        for (const [w, h] of sizes) {
          await page.setViewportSize({ width: w, height: h });
          await sleep(300);
          // The switcher is one row that fits the panel, and the status bar one line.
          const fit = await page.evaluate(() => {
            const row = document.querySelector('[data-testid="memory-profiles"]');
            const bar = document.querySelector('[data-testid="status-bar"]');
            const chip = document.querySelector('[data-testid="profile-chip"]');
            return {
              overflow: row.scrollWidth - row.clientWidth,
              rowHeight: row.getBoundingClientRect().height,
              barHeight: bar.getBoundingClientRect().height,
              chipVisible: !!chip && chip.getBoundingClientRect().width > 0,
            };
          });
          assert.ok(fit.overflow <= 1, `${l} ${scheme} ${w}: the switcher overflows by ${fit.overflow}px`);
          assert.ok(fit.rowHeight < 48, `${l} ${scheme} ${w}: the switcher is ${fit.rowHeight}px high`);
          assert.ok(fit.barHeight < 40, `${l} ${scheme} ${w}: the status bar is ${fit.barHeight}px high`);
          assert.ok(fit.chipVisible, `${l} ${scheme} ${w}: the profile chip is visible`);
          await page.screenshot({ path: join(shotsDir, `memory-profiles-${l}-${scheme}-${w}x${h}.png`) });
        }
        // The delete dialog, at the middle size (work can go once personal is active).
        await page.setViewportSize({ width: 1100, height: 700 });
        await page.getByTestId('memory-profile-select').selectOption('personal');
        await waitActive(page, 'personal');
        await manageOpen(page, true);
        await page.locator('[data-testid="memory-profile-row"][data-name="work"] [data-testid="memory-profile-delete"]').click();
        await page.getByTestId('memory-profile-delete-dialog').waitFor();
        await sleep(200);
        await page.screenshot({ path: join(shotsDir, `memory-profile-delete-${l}-${scheme}-1100x700.png`) });
        await page.getByTestId('memory-profile-delete-cancel').click();
        await page.getByTestId('memory-profile-delete-dialog').waitFor({ state: 'detached' });
        await manageOpen(page, false);
        await page.getByTestId('memory-profile-select').selectOption('work');
        await waitActive(page, 'work');
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1200, height: 800 });
    await setLanguage(page, 'en');
    await openBrowser(page);
    await page.getByTestId('memory-profile-select').selectOption('personal');
    await waitActive(page, 'personal');
  });

  it('deletes the profile once it is not the active one, after asking how many memories go, and shows the receipt', async () => {
    await openBrowser(page);
    await page.getByTestId('memory-profile-select').selectOption('work');
    await waitActive(page, 'work');
    await page.getByTestId('profile-chip').waitFor();
    await manageOpen(page, true);
    const workRow = page.locator('[data-testid="memory-profile-row"][data-name="work"]');
    assert.equal(await workRow.getByTestId('memory-profile-delete').count(), 0, 'the active profile offers no delete');
    assert.match(await workRow.textContent(), /switch to another profile to delete it/);
    await page.getByTestId('memory-profile-select').selectOption('personal');
    await waitActive(page, 'personal');
    await workRow.getByTestId('memory-profile-delete').click();
    await page.getByTestId('memory-profile-delete-dialog').waitFor();
    assert.match(await page.getByTestId('memory-profile-delete-body').textContent(), /Its 1 memory is erased for good/);
    // Cancel is the safe default: Escape closes the dialog and nothing is erased.
    await page.keyboard.press('Escape');
    await page.getByTestId('memory-profile-delete-dialog').waitFor({ state: 'detached' });
    assert.ok(await page.getByTestId('memory-panel').isVisible());
    await waitActive(page, 'personal');
    await workRow.getByTestId('memory-profile-delete').click();
    await page.getByTestId('memory-profile-delete-confirm').click();
    await page.getByTestId('memory-receipt').waitFor();
    assert.match(await page.getByTestId('memory-receipt').textContent(), /Forgot 1 memory\. A new search finds 0 lexical and 0 vector matches\./);
    await waitActive(page, 'personal');
    await waitRows(page, ['I am allergic to peanuts']);
    await page.getByTestId('profile-chip').waitFor({ state: 'detached' });
    const options = await page.$$eval('[data-testid="memory-profile-select"] option', (els) => els.map((o) => o.value));
    assert.deepEqual(options, ['personal']);
    await shot(page, 'profiles-e2e-receipt.png');
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
