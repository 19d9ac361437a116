// Browser end-to-end test: the per-run token of `hermes serve` stays with Hermes.
//
// The URL that `hermes serve` prints carries the token once. The page moves it into this tab's
// session storage, takes it out of the address bar and the history, and sends it in a header on
// every call; no cookie holds it. A cookie is bound to the host, not the port, so a token cookie
// would reach every other server on 127.0.0.1 the browser talks to. Here a second local server on
// another port records every request the browser makes to it while the Hermes page is open, when
// the page is made to load an image from it, and when the tab navigates there; none may carry the
// token. Runs `hermes serve` against the fake Ollama (see harness.mjs for the environment).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { closeApp, openApp, shot } from './harness.mjs';

const logs = {};

/** A plain local HTTP server that remembers every request: method, URL and headers. */
function startSpy() {
  const seen = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, headers: { ...req.headers } });
    if (req.url.startsWith('/page')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      // The other server's own page loads an image and calls an API path on itself.
      res.end(
        '<!doctype html><title>other local server</title><p>another server</p><img src="/pixel.png" alt="">' +
          '<script>fetch("/api/call/ListSessions", { method: "POST", credentials: "include" }).catch(() => {});</script>',
      );
      return;
    }
    res.writeHead(200, { 'Content-Type': 'image/gif', 'Access-Control-Allow-Origin': '*' });
    res.end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, seen, base: `http://127.0.0.1:${server.address().port}` }));
  });
}

describe('the web token stays with Hermes', { timeout: 120_000 }, () => {
  let app = {};
  let spy;
  let token = '';
  const problems = [];
  /** Every request the Hermes tab sent to Hermes' own API, with its headers. */
  const apiRequests = [];

  before(async () => {
    spy = await startSpy();
    app = await openApp(logs, problems, { prefix: 'token' });
    token = new URL(app.url).searchParams.get('token') ?? '';
    assert.ok(token.length >= 32, `hermes serve printed a URL without a token: ${app.url}`);
    app.page.on('request', (r) => {
      if (r.url().includes('/api/')) apiRequests.push({ url: r.url(), headers: r.headers() });
    });
  });

  after(async () => {
    await closeApp(logs, app, 'token-final.png', 'token-');
    await new Promise((r) => spy?.server.close(r));
  });

  it('takes the token out of the address bar and the history, into this tab’s session storage', async () => {
    const { page, context } = app;
    assert.ok(!page.url().includes('token'), `address bar: ${page.url()}`);
    assert.equal(new URL(page.url()).pathname, '/');
    const cdp = await context.newCDPSession(page);
    const { entries } = await cdp.send('Page.getNavigationHistory');
    await cdp.detach();
    for (const e of entries) assert.ok(!e.url.includes(token) && !e.url.includes('token='), `history entry: ${e.url}`);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('hermes.token')), token);
    const cookies = await context.cookies();
    assert.deepEqual(
      cookies.filter((c) => c.value.includes(token) || /hermes/i.test(c.name)),
      [],
      `cookies: ${JSON.stringify(cookies)}`,
    );
  });

  it('sends the token in a header on its calls and its event stream, never in a URL or a cookie', async () => {
    const { page } = app;
    // A reload starts over from the bare address: the token comes from session storage.
    await page.reload();
    await page.waitForSelector('[data-testid="status-bar"][data-state="ok"]', { timeout: 15_000 });
    assert.ok(!page.url().includes('token'));
    const calls = apiRequests.filter((r) => r.url.includes('/api/call/'));
    const stream = apiRequests.filter((r) => r.url.includes('/api/events'));
    assert.ok(calls.length > 0, 'the page made no calls');
    assert.ok(stream.length > 0, 'the page did not open the event stream');
    for (const r of apiRequests) {
      assert.equal(r.headers['x-hermes-token'], token, `no token header on ${r.url}`);
      assert.ok(!r.url.includes(token), `token in the URL ${r.url}`);
      assert.ok(!('cookie' in r.headers), `a cookie went to ${r.url}: ${r.headers.cookie}`);
    }
  });

  it('sends nothing of the token to another local server on another port', async () => {
    const { page, context } = app;
    // 1. The Hermes page is made to load an image from the other server (its CSP may refuse it).
    await page.evaluate((src) => {
      const img = document.createElement('img');
      img.src = src;
      img.alt = '';
      document.body.appendChild(img);
    }, `${spy.base}/from-hermes.png`);
    // 2. Another tab of the same browser opens the other server's page (an image and a fetch
    //    with credentials on that server).
    const other = await context.newPage();
    await other.goto(`${spy.base}/page-in-another-tab`);
    await other.waitForLoadState('networkidle');
    await other.close();
    // 3. The Hermes tab itself navigates there, as a link would.
    await page.evaluate((href) => (location.href = href), `${spy.base}/page-from-hermes`);
    await page.waitForURL(`${spy.base}/page-from-hermes`);
    await page.waitForLoadState('networkidle');

    assert.ok(spy.seen.some((r) => r.url === '/page-in-another-tab'), 'the other server saw no request: the test did not run');
    assert.ok(spy.seen.some((r) => r.url === '/page-from-hermes'));
    assert.ok(spy.seen.some((r) => r.url === '/pixel.png'));
    for (const r of spy.seen) {
      const all = JSON.stringify(r);
      assert.ok(!all.includes(token), `the token reached the other server: ${all}`);
      assert.ok(!('cookie' in r.headers), `a cookie reached the other server: ${all}`);
      assert.ok(!('x-hermes-token' in r.headers), `the token header reached the other server: ${all}`);
      assert.ok(!(r.headers.referer ?? '').includes('token'), `the referrer named the token: ${all}`);
    }
  });

  it('works again after coming back (the tab keeps its token), and a new tab without it is refused', async () => {
    const { page, context } = app;
    await page.goBack();
    await page.waitForURL((u) => u.port === new URL(app.url).port);
    assert.ok(!page.url().includes('token'));
    await page.waitForSelector('[data-testid="status-bar"][data-state="ok"]', { timeout: 15_000 });

    // A tab opened on the bare address has no token: the calls are refused and the bar says so.
    const bare = await context.newPage();
    await bare.goto(new URL('/', app.url).toString());
    await bare.waitForSelector('[data-testid="status-bar"][data-state="backend-error"]', { timeout: 15_000 });
    assert.match(await bare.getByTestId('status-bar').textContent(), /open the URL that hermes serve printed/);
    await shot(bare, 'token-bare-tab.png');
    await bare.close();
  });

  it('ran without page errors', () => {
    // The Hermes page's CSP may refuse the image from the other server; that is the point.
    assert.deepEqual(
      problems.filter((p) => !(p.startsWith('CSP:') && p.includes(spy.base))),
      [],
    );
  });
});
