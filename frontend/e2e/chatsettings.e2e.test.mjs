// Browser end-to-end test of a chat's own settings: a system prompt set in the chat settings
// dialog (and a temperature and context size under Advanced) reaches the fake model, the
// context inspector shows them, presets are offered; screenshots of the dialog in English and
// Chinese, light and dark, at 800, 1100 and 1440 px.
//
//   go tool task build && (cd frontend && node --test e2e/chatsettings.e2e.test.mjs)
//
// The fake Ollama runs with --echo-system: "what is your system prompt" is answered with
// "System: <the first 80 characters of the system prompt> [model M, temperature T, num_ctx N]".
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { artifacts, closeApp, menuItem, openApp, sendAndWait, setLanguage, SHOT_SIZES, sleep } from './harness.mjs';

const logs = {};
const PREFIX = 'chatsettings';
const shotsDir = join(artifacts, 'chatsettings');
const PIRATE = 'You are a pirate captain. Answer every question in pirate speech and say arr.';

async function openDialog(page) {
  await menuItem(page, 'chat-settings-button');
  await page.getByTestId('chat-settings').waitFor();
  // Loaded: the model select lists the installed chat model.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid="chat-settings-model"] option')].some((o) => o.value === 'llama3.2'),
  );
}


describe('chat settings', { timeout: 240_000 }, () => {
  let app;
  const problems = [];

  before(async () => {
    mkdirSync(shotsDir, { recursive: true });
    app = await openApp(logs, problems, { prefix: PREFIX, fakeArgs: ['--echo-system', '--extra-words', '3'] });
  });

  after(async () => {
    if (app) await closeApp(logs, app, `${PREFIX}-final.png`, `${PREFIX}-`);
  });

  it('sends the chat’s own system prompt, temperature and context size to the model', async () => {
    const { page } = app;
    // A chat's first reply uses the defaults.
    let reply = await sendAndWait(page, 'what is your system prompt?');
    assert.match(reply.text, /System: You are Hermes/);
    assert.match(reply.text, /temperature -/);

    await openDialog(page);
    const system = page.getByTestId('chat-settings-system');
    await assert.doesNotReject(() => page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'chat-settings-system'));
    await system.fill(PIRATE);
    // Advanced, by keyboard: Tab to the disclosure and open it with Enter.
    await page.getByTestId('chat-settings-advanced').locator('summary').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('chat-settings-temperature').fill('0.3');
    await page.getByTestId('chat-settings-context').fill('4096');
    await page.getByTestId('chat-settings-apply').click();
    await page.getByTestId('chat-settings').waitFor({ state: 'detached' });

    reply = await sendAndWait(page, 'what is your system prompt?');
    assert.equal(reply.status, 'ok');
    assert.match(reply.text, /System: You are a pirate captain\. Answer every question in pirate speech/);
    assert.match(reply.text, /model llama3\.2, temperature 0\.3, num_ctx 4096/);

    // The context inspector shows the settings in force.
    await page.getByTestId('context-toggle').click();
    await page.getByTestId('context-settings').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="context-settings-context"]')?.textContent?.trim() === '4096');
    assert.equal((await page.getByTestId('context-settings-temperature').textContent()).trim(), '0.3');
    assert.match(await page.getByTestId('context-settings-system').textContent(), /pirate captain/);
    assert.match(await page.getByTestId('context-settings-source').textContent(), /this chat/);
    await page.getByTestId('context-toggle').click();
  });

  it('offers presets, saves the prompt as one, and a new chat keeps the default', async () => {
    const { page } = app;
    await openDialog(page);
    const presets = await page.getByTestId('chat-settings-preset').locator('option').allTextContents();
    assert.ok(presets.includes('Concise') && presets.includes('Explain like a teacher') && presets.includes('Translator EN↔ZH'), presets.join('|'));
    await page.getByTestId('chat-settings-save-preset').click();
    await page.getByTestId('chat-settings-preset-name').fill('Pirate');
    await page.getByTestId('chat-settings-preset-name').press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid="chat-settings-preset"]')?.value === 'Pirate');
    // A bad temperature is refused in the dialog, which stays open.
    await page.getByTestId('chat-settings-temperature').fill('5');
    await page.getByTestId('chat-settings-apply').click();
    await page.getByTestId('chat-settings-invalid').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('chat-settings').waitFor({ state: 'detached' });

    await page.getByTestId('new-session').click();
    const reply = await sendAndWait(page, 'what is your system prompt?');
    assert.match(reply.text, /System: You are Hermes/);
    assert.match(reply.text, /temperature -/);

    // The preset saved is offered in another chat, and picking it fills the prompt.
    await openDialog(page);
    await page.getByTestId('chat-settings-preset').selectOption('Pirate');
    assert.equal(await page.getByTestId('chat-settings-system').inputValue(), PIRATE);
    await page.getByTestId('chat-settings-cancel').click();
  });

  it('takes screenshots of the dialog in English and Chinese, light and dark', async () => {
    const { page } = app;
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const l of ['en', 'zh']) {
        await page.setViewportSize({ width: 1100, height: 700 });
        await setLanguage(page, l);
        for (const [w, h] of SHOT_SIZES) {
          await page.setViewportSize({ width: w, height: h });
          await openDialog(page);
          await page.getByTestId('chat-settings-preset').selectOption('Translator EN↔ZH');
          const adv = page.getByTestId('chat-settings-advanced');
          if (!(await adv.evaluate((d) => d.open))) await adv.locator('summary').click();
          await sleep(200);
          await page.screenshot({ path: join(shotsDir, `dialog-${l}-${scheme}-${w}x${h}.png`) });
          await page.getByTestId('chat-settings-cancel').click();
          await page.getByTestId('chat-settings').waitFor({ state: 'detached' });
        }
      }
    }
    await setLanguage(page, 'en');
    assert.deepEqual(problems, []);
  });
});
