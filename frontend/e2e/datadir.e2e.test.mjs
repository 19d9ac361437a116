// Browser end-to-end test of a data folder deleted under a running `hermes serve`: the next send
// is refused in words that name the folder and say what to do (it used to be answered into the
// deleted file), in English and Chinese.
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, closeApp, openApp, send, sendAndWait, setLanguage, themedShots } from './harness.mjs';

const logs = {};

describe('the data folder deleted while Hermes runs', () => {
  let app = {};
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, { prefix: 'datadir' });
  });

  after(async () => {
    await closeApp(logs, app, 'datadir-final.png', 'datadir-');
  });

  it('refuses the next send in words, in both languages', async () => {
    const { page } = app;
    await sendAndWait(page, 'hello before the folder goes');
    rmSync(app.dataDir, { recursive: true, force: true });
    for (const [lang, words] of [
      ['en', /deleted or moved while it ran/],
      ['zh', /数据文件夹被删除或移走了/],
    ]) {
      await setLanguage(page, lang);
      await send(page, `are you there (${lang})?`);
      const err = page.getByTestId('send-error');
      await err.waitFor({ timeout: 30_000 });
      await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="send-error"]')?.textContent ?? ''), words.source, { timeout: 30_000 });
      assert.match(await err.textContent(), new RegExp(app.dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      await themedShots(page, join(artifacts, 'datadir'), 'datadir-gone', lang);
      await page.emulateMedia({ colorScheme: 'light' });
    }
    await setLanguage(page, 'en');
  });
});
