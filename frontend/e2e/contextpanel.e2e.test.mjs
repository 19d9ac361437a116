// Browser end-to-end test of the Context panel in words (issue #35) against `hermes serve` and the
// fake Ollama counting every prompt six times as many tokens as Hermes estimates (--token-ratio),
// with a 2,048-token context: the prompt overflows, the fake (as Ollama) counts the whole context,
// the reply says its start was cut, and the panel groups what the model saw (instructions, tools
// folded to a count, the conversation), with each item's reason in words and Ollama's count beside
// the estimate. Screenshots in English and Chinese, light and dark, at 800, 1100 and 1440 px.
//
// Environment: see harness.mjs (HERMES_BIN_DIR, E2E_ARTIFACTS, CHROMIUM).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { artifacts, binDir, closeApp, openApp, sendAndWait, setLanguage, themedShots } from './harness.mjs';

const logs = {};
const shotsDir = join(artifacts, 'contextpanel');

describe('the Context panel in words', { timeout: 240_000 }, () => {
  let app = {};
  const problems = [];
  before(async () => {
    app = await openApp(logs, problems, {
      prefix: 'ctxpanel',
      fakeArgs: ['--token-ratio', '6'],
      prepare: (dataDir) => {
        for (const [k, v] of [['context_window', '2048'], ['reply_reserve', '512']]) {
          execFileSync(join(binDir, 'hermes'), ['--data-dir', dataDir, 'settings', 'set', k, v], { env: { ...process.env, OLLAMA_HOST: 'http://127.0.0.1:9' }, stdio: 'pipe' });
        }
      },
    });
  });
  after(() => closeApp(logs, app, 'contextpanel-e2e-final.png', 'ctxpanel-'));

  it('says when Ollama cut the prompt, and lists what the model saw by group, in words', async () => {
    const { page } = app;
    const long = 'Please convert 12 miles to kilometres and tell me the current time. '.repeat(24);
    const last = await sendAndWait(page, long);
    assert.equal(last.status, 'ok');
    const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
    await reply.getByTestId('message-context-full').waitFor({ timeout: 10_000 });
    assert.match(await reply.getByTestId('message-context-full').textContent(), /2048 tokens\) was full: it cut the start/);
    await reply.getByTestId('message-context').click();
    const counted = page.getByTestId('context-counted');
    await counted.waitFor({ timeout: 10_000 });
    assert.equal(await counted.getAttribute('role'), 'alert');
    assert.match(await counted.textContent(), /Ollama counted 2048 tokens: the whole context/);
    const groups = await page.$$eval('[data-testid="context-group"]', (els) => els.map((e) => e.dataset.group));
    assert.deepEqual(groups.filter((g) => g !== 'memories' && g !== 'documents'), ['instructions', 'tools', 'conversation']);
    const fold = page.getByTestId('context-tools');
    assert.equal(await fold.evaluate((d) => d.open), false, 'the tool schemas are folded');
    assert.match(await fold.locator('summary').textContent(), /^\d+ tools? the model may call$/);
    assert.match(await page.locator('[data-testid="context-item"][data-reason="query"] [data-testid="context-why"]').textContent(), /The message being answered/);
    const chips = await page.$$eval('[data-testid="context-reason"]', (els) => els.map((e) => e.textContent.trim()));
    for (const c of chips) assert.ok(!['tool_schema', 'system', 'user', 'assistant'].includes(c), `a raw reason or role: ${chips}`);
    assert.doesNotMatch(await page.getByTestId('context-items').innerText(), /tool_schema/);
    assert.equal(await page.locator('[data-testid="context-item"][data-reason="system"] [data-testid="context-reason"]').textContent(), 'system prompt');
    for (const l of ['zh', 'en']) {
      await setLanguage(page, l);
      await themedShots(page, shotsDir, 'context-full', l, { settle: 300 });
    }
  });

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
