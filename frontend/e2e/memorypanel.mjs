// Helpers for the Memory panel, shared by the memory browser tests.

/** Opens the Memory panel on tab (browse: 'all'), from wherever it is. */
export async function openBrowser(page, tab = 'all') {
  if ((await page.getByTestId('memory-toggle').getAttribute('aria-pressed')) !== 'true') {
    await page.getByTestId('memory-toggle').click();
  }
  await page.getByTestId('memory-panel').waitFor();
  await page.getByTestId('memory-profile-select').waitFor();
  if (await page.getByTestId('memory-back').isVisible().catch(() => false)) await page.getByTestId('memory-back').click();
  if ((await page.getByTestId(`memory-tab-${tab}`).getAttribute('aria-selected')) !== 'true') await page.getByTestId(`memory-tab-${tab}`).click();
}

/** Waits until name is the active profile, in the row and in the switcher. */
export async function waitActive(page, name) {
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="memory-profiles"]')?.dataset.active === n && document.querySelector('[data-testid="memory-profile-select"]')?.value === n,
    name,
    { timeout: 10_000 },
  );
}

/** Opens or closes the profile manager. */
export async function manageOpen(page, open) {
  const b = page.getByTestId('memory-profile-manage');
  if ((await b.getAttribute('aria-expanded')) !== String(open)) await b.click();
}
