// Accessibility of the web UI in the browser: axe-core finds no serious or critical violation in
// the main views (light and dark theme, English and Chinese), dialogs keep the focus inside and
// give it back on Escape, and the finished reply reaches the polite live region.
//
//   npm run build && (cd .. && build the Go binaries into build/bin) && node --test e2e/a11y.e2e.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeApp, menuItem, openApp, sendAndWait, shot } from './harness.mjs';
import { axeViolations, formatViolations } from './axe.mjs';

const logs = {};

/** The testid of the focused element (or its tag when it has none). */
function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el?.getAttribute('data-testid') ?? el?.tagName.toLowerCase() ?? '';
  });
}

async function togglePanel(page, toggle, panel, open) {
  await page.getByTestId(toggle).click();
  if (open) await page.locator(panel).waitFor();
  else await page.locator(panel).waitFor({ state: 'detached' });
}

describe('accessibility', { timeout: 300_000 }, () => {
  let app;
  const problems = [];

  before(async () => {
    app = await openApp(logs, problems, { prefix: 'a11y', tokenDelay: '5ms' });
  });

  after(async () => {
    if (app) await closeApp(logs, app, 'hermes-e2e-a11y-final.png', 'a11y-');
  });

  it('announces the finished reply in a polite live region', async () => {
    const last = await sendAndWait(app.page, 'hello there');
    assert.equal(last.status, 'ok');
    const region = app.page.getByTestId('reply-announcer');
    assert.equal(await region.getAttribute('aria-live'), 'polite');
    await app.page.waitForFunction(
      () => /Echo: hello there/.test(document.querySelector('[data-testid="reply-announcer"]')?.textContent ?? ''),
      null,
      { timeout: 5_000 },
    );
  });

  for (const theme of ['light', 'dark']) {
    for (const lang of ['en', 'zh']) {
      it(`has no serious or critical axe violations (${theme}, ${lang})`, async () => {
        const { page } = app;
        await page.evaluate(
          ([th, lg]) => {
            localStorage.setItem('hermes.theme', th);
            localStorage.setItem('hermes.lang', lg);
          },
          [theme, lang],
        );
        await page.reload();
        await page.waitForFunction(() => document.querySelectorAll('[data-testid="message"]').length >= 2, null, {
          timeout: 15_000,
        });
        await page.waitForSelector('[data-testid="status-bar"][data-state="ok"]', { timeout: 15_000 });
        assert.ok((await page.evaluate(() => document.documentElement.lang)).startsWith(lang));
        const found = [];
        const check = async (view) => {
          // Not over a message (its hover-only buttons fade in) and no fade under way: axe
          // measures colours as drawn, so a button caught mid-fade reads as unreadable.
          await page.mouse.move(0, 0);
          await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity), null, { timeout: 5_000 });
          const v = await axeViolations(page);
          if (v.length) found.push(`[${view}]\n${formatViolations(v)}`);
          await shot(page, `hermes-e2e-a11y-${theme}-${lang}-${view}.png`);
        };

        await check('chat');

        await page.getByTestId('header-menu').click();
        await page.getByTestId('header-menu-list').waitFor();
        await check('menu');
        await page.keyboard.press('Escape');
        await page.getByTestId('header-menu-list').waitFor({ state: 'detached' });

        await menuItem(page, 'settings-button');
        await page.getByTestId('settings').waitFor();
        // Checked once the backend's settings are in (their fields and buttons are checked too).
        await page.locator('[data-testid="settings"] [data-testid="form-setting"]').first().waitFor();
        await check('settings');
        await page.keyboard.press('Escape');
        await page.getByTestId('settings').waitFor({ state: 'detached' });

        await togglePanel(page, 'activity-toggle', '#activity-panel', true);
        await check('activity');
        await togglePanel(page, 'activity-toggle', '#activity-panel', false);

        await togglePanel(page, 'models-toggle', '#models-panel', true);
        await check('models');
        await togglePanel(page, 'models-toggle', '#models-panel', false);

        await togglePanel(page, 'mcp-toggle', '#mcp-panel', true);
        await check('mcp');
        await togglePanel(page, 'mcp-toggle', '#mcp-panel', false);

        await togglePanel(page, 'knowledge-toggle', '#knowledge-panel', true);
        await page.getByTestId('kb-empty').waitFor();
        await check('knowledge');
        await togglePanel(page, 'knowledge-toggle', '#knowledge-panel', false);

        assert.deepEqual(found, [], `axe found:\n${found.join('\n')}`);
      });
    }
  }

  for (const [name, item, testid] of [
    ['Settings', 'settings-button', 'settings'],
    ['keyboard shortcuts', 'shortcuts-button', 'shortcut-sheet'],
  ]) {
    it(`keeps the focus in the ${name} dialog and gives it back on Escape`, async () => {
      const { page } = app;
      await menuItem(page, item);
      const dialog = page.getByTestId(testid);
      await dialog.waitFor();
      assert.equal(await dialog.getAttribute('aria-modal'), 'true');
      assert.match((await dialog.getAttribute('role')) ?? '', /^(alert)?dialog$/);
      // The opener: the ⋯ button, which has the focus again once the menu closed.
      const opener = 'header-menu';
      const inside = () => page.evaluate((id) => document.querySelector(`[data-testid="${id}"]`)?.contains(document.activeElement) ?? false, testid);
      assert.ok(await inside(), 'the focus moved into the dialog');
      // The first and last focusable controls, as the browser's Tab order has them.
      const ends = await page.evaluate((id) => {
        const box = document.querySelector(`[data-testid="${id}"]`);
        const all = [
          ...box.querySelectorAll('button, [href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])'),
        ].filter((el) => !el.disabled && el.getClientRects().length > 0);
        all.forEach((el, i) => el.setAttribute('data-a11y-order', String(i)));
        return all.length;
      }, testid);
      assert.ok(ends >= 1);
      await page.locator(`[data-a11y-order="${ends - 1}"]`).focus();
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-a11y-order')), '0', 'Tab from the last control goes to the first');
      // The focus is visible: a keyboard-focused control draws an outline or a ring.
      const ring = await page.evaluate(() => {
        const cs = getComputedStyle(document.activeElement);
        return { outline: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0, shadow: cs.boxShadow !== 'none' };
      });
      assert.ok(ring.outline || ring.shadow, `the focused control shows no focus ring: ${JSON.stringify(ring)}`);
      await page.keyboard.press('Shift+Tab');
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute('data-a11y-order')),
        String(ends - 1),
        'Shift+Tab from the first control goes to the last',
      );
      // Tab through everything once: the focus never leaves the dialog.
      for (let i = 0; i < ends + 1; i++) {
        await page.keyboard.press('Tab');
        assert.ok(await inside(), `Tab ${i + 1} stayed in the dialog`);
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.waitForFunction((id) => document.activeElement?.getAttribute('data-testid') === id, opener, { timeout: 2_000 }).catch(() => {});
      assert.equal(await focused(page), opener, 'Escape gives the focus back to the opener');
    });
  }

  it('ran without CSP violations or page errors', () => {
    assert.deepEqual(problems, []);
  });
});
