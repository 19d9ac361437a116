// Browser end-to-end test of incognito chats against `hermes serve` and the fake Ollama: turning
// incognito on in a chat starts a new chat, that chat is marked in the list and found by no
// search, and it is gone once Hermes has stopped and started again.
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  artifacts,
  closeApp,
  openApp,
  sendAndWait,
  setLanguage,
  startHermes,
  stop,
  themedShots,
  useFakeModel,
} from './harness.mjs';

const logs = {};

/** The rows of the chat list: id, title and whether each is marked incognito. */
async function rows(page) {
  return page.$$eval('[data-testid="session-item"]', (els) =>
    els.map((el) => ({
      id: el.dataset.sessionId,
      text: el.textContent ?? '',
      incognito: el.dataset.incognito === 'true',
      mark: el.querySelector('[data-testid="session-incognito"]')?.getAttribute('title') ?? '',
    })),
  );
}

describe('incognito chats', () => {
  let app = {};
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, { prefix: 'incognito' });
  });

  after(async () => {
    await closeApp(logs, app, 'incognito-final.png', 'incognito-');
  });

  it('starts a chat of its own, marked and found by no search', async () => {
    const { page } = app;
    await sendAndWait(page, 'a normal chat about zebras');
    await page.getByTestId('incognito-toggle').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length === 0);
    await page.getByTestId('incognito-note').waitFor();
    await sendAndWait(page, 'a secret about quokkas');
    await page.waitForFunction(() => document.querySelector('[data-testid="session-item"][data-incognito="true"]'));
    const list = await rows(page);
    assert.equal(list.length, 2, JSON.stringify(list));
    assert.deepEqual(
      list.map((r) => r.incognito),
      list.map((r) => r.text.includes('quokkas')),
    );
    assert.match(list.find((r) => r.incognito).mark, /erased when Hermes closes/);

    // The sidebar's search finds the normal chat's words and not the incognito chat's.
    const search = page.getByTestId('session-search');
    await search.fill('zebras');
    await page.getByTestId('search-hit').first().waitFor({ timeout: 10_000 });
    await search.fill('quokkas');
    await page.waitForSelector('[data-testid="search-results"][aria-busy="false"]', { timeout: 10_000 });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="search-hit"]').length === 0, null, { timeout: 10_000 });
    assert.equal(await page.getByTestId('search-hit').count(), 0);
    await search.press('Escape');

    for (const lang of ['en', 'zh']) {
      await setLanguage(page, lang);
      await themedShots(page, join(artifacts, 'incognito'), 'incognito-chat', lang, {
        each: async (p) => {
          const header = await p.getByTestId('header').boundingBox().catch(() => null);
          if (header) assert.ok(header.height < 80, `the header wraps at ${p.viewportSize().width} px: ${header.height}`);
        },
      });
    }
    await setLanguage(page, 'en');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('is gone once Hermes has stopped', async () => {
    await stop(app.hermes);
    const h = await startHermes(logs, app.dataDir, logs['fake-ollama'].match(/FAKE_OLLAMA_URL=(\S+)/)[1], 'hermes-again');
    app.hermes = h.child;
    await app.page.goto(h.url);
    await app.page.getByTestId('status-bar').waitFor();
    await useFakeModel(app.page);
    await app.page.waitForFunction(() => document.querySelectorAll('[data-testid="session-item"]').length === 1);
    const list = await rows(app.page);
    assert.equal(list.length, 1, JSON.stringify(list));
    assert.ok(list[0].text.includes('zebras') && !list[0].incognito, JSON.stringify(list));
    assert.deepEqual(problems, []);
  });
});
